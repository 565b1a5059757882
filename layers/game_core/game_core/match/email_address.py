"""A participant's e-mail address as the host gives it (`an_address`, the `Email` field), as SES
sends to it (`sendable_address`: an internationalised domain as its A-label), and what two
addresses of one mailbox share (`address_key`).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

LOCAL_PART_NOT_ASCII = "SES cannot deliver to a local part outside ASCII: give another address"
"""SES has no SMTPUTF8 (RFC 6531): "the local part of a destination email address (the part of the
email address that precedes the @ sign) may only contain 7-bit ASCII characters. If the domain part
of an address (the part after the @ sign) contains non-ASCII characters, they must be encoded using
Punycode" (SES v2 API, Destination: https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/sesv2/
aws.sdk.kotlin.services.sesv2.model/-bulk-email-entry/destination.html)."""


def a_label_address(address: str) -> str:
    """`address` as SES sends to it: a domain outside ASCII as its IDNA A-label ("ada@bücher.de" is
    "ada@xn--bcher-kva.de"), the rest as written; raises ValueError (idna.IDNAError) for a domain
    that is no internationalised domain name. IDNA 2008 with UTS 46's mapping (the `idna` package,
    as browsers and mail clients encode), not the stdlib's IDNA 2003 codec: that one reads
    "straße.de" as strasse.de, another domain than xn--strae-oqa.de."""
    local, _, domain = address.rpartition("@")
    if domain.isascii():
        return address
    import idna  # imported here, as the e-mail modules below: few requests hold such an address

    return f"{local}@{idna.encode(domain, uts46=True).decode('ascii')}"


def sendable_address(address: str) -> str:
    """`address` as mail goes to it, in its To and to SES: an IDN domain as its A-label (SES has no
    SMTPUTF8, and an encoded word is no part of an address). One no IDN (stored before addresses
    were checked) goes as it is, for SES to refuse for good in its own words."""
    try:
        return a_label_address(address)
    except ValueError:
        return address


def address_key(address: str) -> str:
    """What two addresses of one mailbox have in common: the address ignoring case, its domain in
    either form (a reply's From may give the Unicode form, as Gmail shows it, or the A-label, as
    the envelope). A header parsed from bytes keeps UTF-8 as surrogate escapes: read as UTF-8."""
    try:
        address = address.encode("utf-8", "surrogateescape").decode("utf-8")
        return a_label_address(address.strip()).lower()
    except ValueError:  # no IDN, or no UTF-8 (UnicodeError): matches no address `an_address` took
        return address.strip().lower()


def an_address(given: str) -> str:
    """`given` without the spaces around it, when it is one address written local@domain (its
    local part in ASCII, its domain with a dot, as SES sends to), in its own case and its domain in
    the form given (SES is given the A-label: `a_label_address`); raises ValueError naming it
    otherwise. Parsed by the stdlib's RFC 5322 grammar, which must take the whole text as it is
    written: no name beside it ("Ada <ada@example.com>"), no second address, no comment."""
    # Imported here: the stdlib's e-mail modules cost a cold start ~20 ms, and few requests hold an address
    from email.errors import HeaderParseError
    from email.headerregistry import Address

    address = given.strip()
    if not address.rpartition("@")[0].isascii():
        raise ValueError(f"{given!r}: {LOCAL_PART_NOT_ASCII}")
    try:
        sent_to = a_label_address(address)
    except ValueError as error:  # the domain is no IDN: idna says why
        raise ValueError(f"{given!r} is not an e-mail address (local@domain): {error}") from None
    try:
        parsed = Address(addr_spec=sent_to)
        domain = parsed.domain if parsed.addr_spec == sent_to else ""  # "" when it read another text
    except (ValueError, IndexError, HeaderParseError):  # IndexError: "ada@", the parser's own slip
        domain = ""
    # Not "ada@localhost" nor "ada@[10.0.0.1]": a domain SES can look up
    if " " in sent_to or "." not in domain or domain.startswith("["):
        raise ValueError(f"{given!r} is not an e-mail address (local@domain)")
    return address


Email = Annotated[str, Field(max_length=254), AfterValidator(an_address)]
"""One address, as `an_address` reads it, of at most RFC 5321's 254 characters."""
