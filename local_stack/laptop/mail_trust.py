"""Whether a message in the host's own mailbox is from the address its From header names, as far
as the host's mail provider says (RFC 8601 `Authentication-Results`).

Anyone can write an Authentication-Results header into the mail they send, naming any server.
The provider adds its own on top when the message arrives (and names itself in it: its
authserv-id, such as `mx.google.com`). So only headers naming the authserv-id the host set are
read, and of those the topmost, which the provider wrote: one the sender wrote below it, even
naming the same id, is never read. The message is from its From address when that header says
`dmarc=pass` for From's domain, or `dkim=pass` for a signing domain aligned with From's, or
`spf=pass` for an envelope sender's domain aligned with From's (relaxed alignment, RFC 7489:
the same domain, or one a subdomain of the other).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import Message
from email.utils import getaddresses

HEADER = "Authentication-Results"
_PROPERTY = re.compile(r'([\w.\-/]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s";]+)')


@dataclass(frozen=True)
class Trust:
    """The verdict on one message: `sender` (its From address, lower-cased) when trusted, with
    the `check` that vouched for it; else `reason` says why not (for the log: no address)."""

    sender: str = ""
    check: str = ""
    reason: str = ""
    verdicts: tuple[tuple[str, str], ...] = ()
    """Each method's result in the header read (("dmarc", "PASS"), ...): the SES verdicts."""


def trust(message: Message, authserv_id: str) -> Trust:
    """How far `message` is from its From address, by the topmost Authentication-Results header
    naming `authserv_id` (compared ignoring case)."""
    senders = [address for header in message.get_all("From", []) for address in _addresses(str(header))]
    if len(senders) != 1:
        return Trust(reason=f"{len(senders)} From addresses, not one")
    sender = senders[0]
    domain = sender.rpartition("@")[2]
    ours = [value for value in (_read(str(header)) for header in message.get_all(HEADER, [])) if value is not None]
    found = next((results for server, results in ours if server == authserv_id.lower()), None)
    if found is None:
        return Trust(reason=f"no {HEADER} header by {authserv_id}")
    verdicts = tuple((method, result.upper()) for method, result, _ in found)
    for method, result, properties in found:
        if result != "pass":
            continue
        if method == "dmarc" and _aligned(properties.get("header.from", domain), domain, strict=True):
            return Trust(sender=sender, check="dmarc", verdicts=verdicts)
        if method == "dkim" and _aligned(_domain(properties.get("header.d") or properties.get("header.i", "")), domain):
            return Trust(sender=sender, check="dkim", verdicts=verdicts)
        if method == "spf" and _aligned(_domain(properties.get("smtp.mailfrom", "")), domain):
            return Trust(sender=sender, check="spf", verdicts=verdicts)
    said = ", ".join(f"{method}={result}" for method, result, _ in found) or "nothing"
    return Trust(reason=f"{authserv_id} says {said}: no pass for the From domain", verdicts=verdicts)


def _addresses(value: str) -> list[str]:
    return [address.strip().lower() for _name, address in getaddresses([value]) if "@" in address]


def _domain(value: str) -> str:
    """The domain of `user@domain`, `@domain` or `domain`, lower-cased, without a trailing dot."""
    return value.strip('"').rpartition("@")[2].lower().rstrip(".")


def _aligned(checked: str, from_domain: str, strict: bool = False) -> bool:
    """Whether a checked domain speaks for From's: the same (strict), or one within the other."""
    checked = _domain(checked)
    if not checked:
        return False
    if strict or checked == from_domain:
        return checked == from_domain
    return checked.endswith("." + from_domain) or from_domain.endswith("." + checked)


def _read(value: str) -> tuple[str, list[tuple[str, str, dict[str, str]]]] | None:
    """(authserv-id, [(method, result, {property: value})]) of one header's value, lower-cased;
    None when it has no authserv-id."""
    pieces = _split(_uncommented(value))
    server = pieces[0].split()[:1] if pieces else []
    if not server:
        return None
    results = []
    for piece in pieces[1:]:
        pairs = [(name.lower(), text.strip('"')) for name, text in _PROPERTY.findall(piece)]
        if not pairs:
            continue  # "none": no result
        (method, result), *properties = pairs
        results.append((method.partition("/")[0], result.lower(), dict(properties)))
    return server[0].lower(), results


def _uncommented(value: str) -> str:
    """`value` without its (comments), which may nest; quoted strings kept whole."""
    kept: list[str] = []
    depth, quoted, escaped = 0, False, False
    for character in value:
        if escaped:
            escaped = False
            if depth == 0:
                kept.append(character)
            continue
        if character == "\\":
            escaped = True
            if depth == 0:
                kept.append(character)
        elif quoted:
            quoted = character != '"'
            kept.append(character)
        elif character == "(":
            depth += 1
        elif character == ")" and depth:
            depth -= 1
        elif depth == 0:
            quoted = character == '"'
            kept.append(character)
    return "".join(kept)


def _split(value: str) -> list[str]:
    """The ";"-separated pieces of a header value outside quoted strings, stripped."""
    pieces, current, quoted = [], [], False
    for character in value:
        if character == '"':
            quoted = not quoted
        if character == ";" and not quoted:
            pieces.append("".join(current).strip())
            current = []
        else:
            current.append(character)
    pieces.append("".join(current).strip())
    return pieces
