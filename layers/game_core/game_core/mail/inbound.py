"""An inbound message as a `Letter`: who sent it, where it sits in a thread, and what the sender
actually wrote in it.

What was written is the message's text/plain body (or its HTML read as text, when there is no
plain part or when the HTML marks the sender's signature, as Outlook, Gmail and Thunderbird do)
with quotes, attributions, forwarded and old messages and the signature left out (`replies`):
the sender's own lines are read above, below or between the quoted parts. HTML is read with its
<blockquote> lines quoted with ">" (a ">" typed outside them stays the sender's text), and a "-- "
line where a marked signature starts. Lines are otherwise kept as written (no reflowing, no
trimming of spaces), except that format=flowed soft line breaks are joined (RFC 3676), and a text
signed inline with PGP is read without its armor.

A signed message (S/MIME's or PGP/MIME's multipart/signed) is read as if it were not signed. What
cannot be read at all is said in `Letter.unreadable`: an encrypted message (S/MIME, PGP/MIME or
inline PGP), S/MIME's opaque signing, and Outlook's rich text (winmail.dat) with no text beside it.

`json_body` is read from that written text, after the quote is cut, so a JSON object answered
above a quoted notice still counts.

`parse_message` never raises: whatever it cannot read is left empty. Its work is bounded: a
message is read up to `MAX_BYTES` (the service refuses a larger one, saying why), and a body's
text up to `MAX_TEXT`; what lies beyond is ignored.
"""

from __future__ import annotations

import codecs
import email
import email.policy
import json
import re
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.utils import collapse_rfc2231_value
from typing import Any

from game_core.errors import Reason
from game_core.mail.html_text import Body, read_html
from game_core.mail.replies import written

MAX_BYTES = 10 * 1024 * 1024
"""Bytes of a raw message read at most: 10 MB, a move with a few pictures or an inline image in
its signature (SES stores up to 40 MB; the service answers a larger message that it is too large)."""
MAX_TEXT = 150 * 1024
"""Characters of a body read at most."""


@dataclass(frozen=True)
class Letter:
    """What an inbound message says. Addresses are lower-cased; ids keep their angle brackets
    (`<id@host>`), as In-Reply-To and References need them."""

    sender: str = ""
    sender_name: str = ""
    to: tuple[str, ...] = ()
    cc: tuple[str, ...] = ()
    subject: str = ""
    message_id: str = ""
    in_reply_to: str = ""
    references: tuple[str, ...] = ()
    text: str = ""
    json_body: Any | None = None
    old_unmarked: bool = False
    """An old message follows unquoted, none of its lines marked as the sender's (`replies`):
    what they wrote inside it, if anything, cannot be read."""
    unreadable: Reason | None = None
    """Why nothing of the message can be read (its text is then empty), and what to send instead."""


ENCRYPTED = Reason(
    "encrypted",
    "your mail is encrypted, and the match cannot open it: send your moves again unencrypted (signing it is fine)",
)
OPAQUE_SIGNED = Reason(
    "opaque_signed",
    "your mail is signed in S/MIME's opaque form, which hides its text from a program without S/MIME:"
    " send it again signed as clear text, or unsigned",
)
RICH_TEXT = Reason(
    "rich_text",
    "your mail is in Outlook's rich text (winmail.dat), which only Outlook reads: send it again as"
    " plain text or HTML (Outlook: Format Text, then Plain Text or HTML)",
)


def parse_message(raw: bytes) -> Letter:
    """The `Letter` in `raw` (a whole RFC 5322 message); an empty `Letter` for what is not one."""
    try:
        message = email.message_from_bytes(raw[:MAX_BYTES], policy=email.policy.default)
    except Exception:  # the parser's defects are recorded, but a pathological input may still raise
        return Letter()
    assert isinstance(message, EmailMessage)
    senders = _addresses(message, "From")
    body = _body_text(message)
    reply = written(body.text, body.own)
    unreadable = _unreadable(message, body.text, reply.text)
    text = "" if unreadable else reply.text
    return Letter(
        sender=senders[0][1] if senders else "",
        sender_name=senders[0][0] if senders else "",
        to=tuple(address for _, address in _addresses(message, "To")),
        cc=tuple(address for _, address in _addresses(message, "Cc")),
        subject=" ".join(header(message, "Subject").split()),
        message_id=next(iter(_ids(header(message, "Message-ID"))), ""),
        in_reply_to=next(iter(_ids(header(message, "In-Reply-To"))), ""),
        references=_ids(header(message, "References")),
        text=text,
        json_body=_json_object(text),
        old_unmarked=reply.old_unmarked,
        unreadable=unreadable,
    )


# -- headers -------------------------------------------------------------------------------------

_ID = re.compile(r"<[^<>\s]+>")


def header(message: Message, name: str) -> str:
    """The header decoded (RFC 2047), "" when absent or unreadable."""
    try:
        return str(message.get(name, ""))
    except Exception:  # the header parser can still trip over some malformed values
        return ""


def _addresses(message: Message, name: str) -> list[tuple[str, str]]:
    """(display name, lower-cased address) of every address in the header that has a domain."""
    try:
        field = message.get(name)
        found = [(a.display_name, a.addr_spec.lower()) for a in getattr(field, "addresses", ())]
    except Exception:  # a malformed address list reads as none
        return []
    return [(display, address) for display, address in found if "@" in address.strip("@")]


def _ids(value: str) -> tuple[str, ...]:
    return tuple(_ID.findall(value))


# -- the body ------------------------------------------------------------------------------------


def _body_text(message: EmailMessage) -> Body:
    """The text/plain body, else the text/html one read as text; the HTML one too when it marks
    a signature the plain one cannot show. Attachments are never a body; a signed message's
    signature is one."""
    try:
        plain, html = message.get_body(preferencelist=("plain",)), message.get_body(preferencelist=("html",))
        if html is not None:
            reader = read_html(_part_text(html))
            if plain is None or reader.signed:
                return _clear_signed(reader.body())
        if plain is None:
            return Body("")
        text = _clear_signed(Body(_part_text(plain))).text
        if _param(plain, "format") == "flowed":
            return _unflow(text, delete_space=_param(plain, "delsp") == "yes")
        return Body(text)
    except Exception:  # a body that cannot be read is no body
        return Body("")


_PGP_SIGNED = "-----BEGIN PGP SIGNED MESSAGE-----"
_PGP_SIGNATURE = ("-----BEGIN PGP SIGNATURE-----", "-----END PGP SIGNATURE-----")
_PGP_MESSAGE = "-----BEGIN PGP MESSAGE-----"
_TNEF = frozenset({"application/ms-tnef", "application/vnd.ms-tnef"})


def _clear_signed(body: Body) -> Body:
    """Text signed inline with PGP (RFC 4880 7) as written: its armor line and headers ("Hash:")
    up to a blank line, and its signature block, left out; its dash-escaping ("- " before each
    line that starts with "-") undone. Lines outside the signed text stay, quoted ones too; the
    sender's own lines stay theirs."""
    if _PGP_SIGNED not in body.text:
        return body
    lines: list[str] = []
    own: set[int] = set()
    state = "outside"
    for number, line in enumerate(body.text.split("\n")):
        bare = line.rstrip()
        if state == "outside" and bare == _PGP_SIGNED:
            state = "headers"
        elif state == "headers":
            state = "headers" if bare else "signed"
        elif state == "signed" and bare == _PGP_SIGNATURE[0]:
            state = "signature"
        elif state == "signature":
            state = "outside" if bare == _PGP_SIGNATURE[1] else "signature"
        else:
            if number in body.own:
                own.add(len(lines))
            lines.append(line.removeprefix("- ") if state == "signed" else line)
    return Body("\n".join(lines), frozenset(own))


def _unreadable(message: EmailMessage, body: str, written_text: str) -> Reason | None:
    """Why nothing of the message can be read: it is encrypted (S/MIME's enveloped data, PGP/MIME,
    or an inline PGP message where the sender writes), S/MIME signed in its opaque form, or Outlook
    sent its rich text (winmail.dat) with no text beside it."""
    try:
        kind = message.get_content_type()
        smime = _param(message, "smime-type")
        # Outlook sends winmail.dat as the whole message, or beside an empty text part
        parts = (message, *message.iter_parts()) if not body.strip() else ()
        rich_text = any(part.get_content_type() in _TNEF for part in parts)
    except Exception:  # a header that cannot be read says nothing
        return None
    if kind == "multipart/encrypted" or _PGP_MESSAGE in (line.strip() for line in written_text.split("\n")):
        return ENCRYPTED
    if kind in ("application/pkcs7-mime", "application/x-pkcs7-mime"):
        if smime == "signed-data":
            return OPAQUE_SIGNED
        if smime in ("enveloped-data", "authenveloped-data", ""):  # an old client's has none (RFC 8551 3.2.2)
            return ENCRYPTED
    return RICH_TEXT if rich_text else None


def _part_text(part: Message) -> str:
    """A part's payload decoded and bounded, its line ends as newlines, without a byte order mark."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    text = _decode(payload[:MAX_TEXT], part.get_content_charset())[:MAX_TEXT].removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _param(part: Message, name: str) -> str:
    """A Content-Type parameter, lower-cased ("" when absent)."""
    return collapse_rfc2231_value(part.get_param(name, "")).lower()


_SUPERSETS = {
    "iso8859-1": "cp1252",
    "iso8859-9": "cp1254",
    "iso8859-11": "cp874",
    "tis-620": "cp874",
    "shift_jis": "cp932",
    "euc_kr": "cp949",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "big5": "big5hkscs",
    "iso2022_jp": "iso2022_jp_ext",
}
"""Charsets read as the supersets senders' systems write under their labels, as browsers read
them (the WHATWG Encoding Standard): Windows' code pages (Japanese Windows' ① under Shift_JIS,
Korean's under EUC-KR), GB18030 for GB2312 and GBK (a Chinese name's rare character), Big5 with
HKSCS, and ISO-2022-JP with half-width katakana."""
_LABELS = {
    "x-sjis": "cp932",
    "windows-31j": "cp932",
    "x-gbk": "gb18030",
    "windows-874": "cp874",
    "x-mac-roman": "mac_roman",
}
"""Labels mail clients write that Python does not know (WHATWG's)."""


def _codec(charset: str | None) -> str:
    """The codec a charset label names: as written, else without its separators ("cp-1252"),
    else "ascii" (unknown)."""
    label = (charset or "us-ascii").strip().lower()
    for name in (label, re.sub(r"[-_ ]", "", label), _LABELS.get(label, "")):
        try:
            return codecs.lookup(name).name
        except LookupError:
            continue
    return "ascii"


def _decode(payload: bytes, charset: str | None) -> str:
    """The payload as text, never raising. Like browsers, read a label as the superset its
    senders write (`_SUPERSETS`), and read US-ASCII, missing and unknown labels as UTF-8 when
    the bytes are UTF-8 (a common mislabel), else as Windows-1252."""
    codec = _codec(charset)
    if codec == "ascii":
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            codec = "cp1252"
    try:
        return payload.decode(_SUPERSETS.get(codec, codec), errors="replace")
    except Exception:  # not a text codec ("base64"), or one that refuses errors="replace"
        return payload.decode("utf-8", errors="replace")


def _unflow(text: str, delete_space: bool) -> Body:
    """format=flowed (RFC 3676 4) as written. A line's quote depth is the number of ">" it starts
    with, and one space after them is stuffing, removed; a line ending in a space (but the
    signature delimiter "-- ") goes on in the next line of the same depth, the space deleted with
    DelSp=yes. So a line of depth 0 that starts ">" once unstuffed is the sender's own (their
    client stuffed it: " > 2 crates"), indented or not ("  > 2 crates", as our own mail echoes it)."""
    lines: list[str] = []
    depths: list[int] = []
    flowing = False
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:].removeprefix(" ")
        if flowing and depth == depths[-1] and content != "-- ":
            lines[-1] += content
        else:
            lines.append(f"{'>' * depth} {content}" if depth else content)
            depths.append(depth)
        flowing = content.endswith(" ") and content != "-- "
        if flowing and delete_space:
            lines[-1] = lines[-1][:-1]
    own = frozenset(i for i, line in enumerate(lines) if not depths[i] and line.lstrip(" ").startswith(">"))
    return Body("\n".join(lines), own)


def _json_object(text: str) -> Any | None:
    """The JSON object `text` is, else None (an array or a number is not a submission body)."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None
