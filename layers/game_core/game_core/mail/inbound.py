"""An inbound message as a `Letter`: who sent it, where it sits in a thread, and what the sender
actually wrote in it.

What was written is the message's text/plain body (or, for HTML-only mail, its HTML read as text)
with the quoted reply and the signature cut off, as the common clients write them: lines starting
with ">", the attribution line ("On ... wrote:", also wrapped over two lines by Gmail) and all
after it, Outlook's "-----Original Message-----" and its "From: / Sent: / To: / Subject:" header
block (also under a line of underscores), a forwarded message, a signature after "-- " (or "--"),
and the mobile footers ("Sent from my iPhone", "Get Outlook for iOS", ...). Interleaved answers
between quoted lines are kept. Lines are otherwise kept as written (no reflowing, no trimming of
spaces), except that format=flowed soft line breaks are joined (RFC 3676).

`json_body` is read from that written text, after the quote is cut, so a JSON object answered
above a quoted notice still counts.

`parse_message` never raises: whatever it cannot read is left empty. Its work is bounded: SES
delivers at most 150 KB through SNS, so bytes beyond that, and text beyond that, are ignored.
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
from html.parser import HTMLParser
from typing import Any

MAX_BYTES = 150 * 1024
"""Bytes of a raw message read at most (what SES's SNS action delivers at most)."""
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


def parse_message(raw: bytes) -> Letter:
    """The `Letter` in `raw` (a whole RFC 5322 message); an empty `Letter` for what is not one."""
    try:
        message = email.message_from_bytes(raw[:MAX_BYTES], policy=email.policy.default)
    except Exception:  # the parser's defects are recorded, but a pathological input may still raise
        return Letter()
    assert isinstance(message, EmailMessage)
    senders = _addresses(message, "From")
    text = _written(_body_text(message))
    return Letter(
        sender=senders[0][1] if senders else "",
        sender_name=senders[0][0] if senders else "",
        to=tuple(address for _, address in _addresses(message, "To")),
        cc=tuple(address for _, address in _addresses(message, "Cc")),
        subject=" ".join(_header(message, "Subject").split()),
        message_id=next(iter(_ids(_header(message, "Message-ID"))), ""),
        in_reply_to=next(iter(_ids(_header(message, "In-Reply-To"))), ""),
        references=_ids(_header(message, "References")),
        text=text,
        json_body=_json_object(text),
    )


# -- headers -------------------------------------------------------------------------------------

_ID = re.compile(r"<[^<>\s]+>")


def _header(message: Message, name: str) -> str:
    """The header decoded (RFC 2047), "" when absent or unreadable."""
    try:
        return str(message.get(name, ""))
    except Exception:  # the header parser can still trip over some malformed values
        return ""


def _addresses(message: Message, name: str) -> list[tuple[str, str]]:
    """(display name, lower-cased address) of every address in the header that has a domain."""
    try:
        header = message.get(name)
        found = [(a.display_name, a.addr_spec.lower()) for a in getattr(header, "addresses", ())]
    except Exception:  # a malformed address list reads as none
        return []
    return [(display, address) for display, address in found if "@" in address.strip("@")]


def _ids(value: str) -> tuple[str, ...]:
    return tuple(_ID.findall(value))


# -- the body ------------------------------------------------------------------------------------


def _body_text(message: EmailMessage) -> str:
    """The text/plain body, else the text/html one read as text; attachments are never a body."""
    try:
        part = message.get_body(preferencelist=("plain", "html"))
        if part is None:
            return ""
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            return ""
        text = _decode(payload[:MAX_TEXT], part.get_content_charset())[:MAX_TEXT]
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        if part.get_content_subtype() == "html":
            return _html_text(text)
        if _param(part, "format") == "flowed":
            return _unflow(text, delete_space=_param(part, "delsp") == "yes")
        return text
    except Exception:  # a body that cannot be read is no body
        return ""


def _param(part: Message, name: str) -> str:
    """A Content-Type parameter, lower-cased ("" when absent)."""
    return collapse_rfc2231_value(part.get_param(name, "")).lower()


def _decode(payload: bytes, charset: str | None) -> str:
    """The payload as text, never raising. Like browsers (WHATWG), read ISO-8859-1 as its superset
    Windows-1252 (mail clients label the latter as the former), and read US-ASCII, missing and
    unknown labels as UTF-8 when the bytes are UTF-8 (a common mislabel), else as Windows-1252."""
    try:
        codec = codecs.lookup(charset or "us-ascii").name
    except LookupError:
        codec = "ascii"
    if codec == "ascii":
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            codec = "cp1252"
    if codec == "iso8859-1":
        codec = "cp1252"
    try:
        return payload.decode(codec, errors="replace")
    except Exception:  # not a text codec ("base64"), or one that refuses errors="replace"
        return payload.decode("utf-8", errors="replace")


def _unflow(text: str, delete_space: bool) -> str:
    """format=flowed (RFC 3676) as written: a line ending in a space goes on in the next line
    (quoted lines and the signature delimiter stay as they are), and space-stuffing is undone."""
    lines: list[str] = []
    flowing = False
    for line in text.split("\n"):
        if line.startswith(" "):
            line = line[1:]
        if flowing and not line.startswith(">"):
            lines[-1] += line
        else:
            lines.append(line)
        flowing = line.endswith(" ") and line != "-- " and not line.startswith(">")
        if flowing and delete_space:
            lines[-1] = lines[-1][:-1]
    return "\n".join(lines)


class _HtmlText(HTMLParser):
    """HTML read as plain text: block elements and <br> break lines, entities are decoded, and
    what a reader does not see as the message (<head>, <style>, <script>) or is a quote
    (<blockquote>) is left out."""

    BLOCKS = frozenset(
        "address article aside blockquote dd div dl dt fieldset figure footer form h1 h2 h3 h4 h5 h6 "
        "header hr li main nav ol p pre section table tbody thead tfoot tr ul".split()
    )
    HIDDEN = frozenset({"head", "style", "script", "title", "blockquote"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self.hidden = 0
        self.preformatted = 0
        self.line_started = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, +1)

    def handle_endtag(self, tag: str) -> None:
        self._element(tag, -1)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, +1)
        self._element(tag, -1)

    def _element(self, tag: str, step: int) -> None:
        if tag == "body" and step > 0:
            self.hidden = 0  # a <head> left open ends here
        elif tag in self.HIDDEN:
            self.hidden = max(0, self.hidden + step)
        elif tag == "pre":
            self.preformatted = max(0, self.preformatted + step)
        if self.hidden:
            return
        if tag == "br" and step > 0:
            self._newline()
        elif tag in self.BLOCKS and self.line_started:
            self._newline()

    def _newline(self) -> None:
        self.pieces.append("\n")
        self.line_started = False

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if not self.preformatted:
            # Outside <pre> a run of whitespace is one space, and none at the start of a line.
            data = re.sub(r"\s+", " ", data.replace("\xa0", " "))
            if not self.line_started:
                data = data.lstrip(" ")
        if data:
            self.pieces.append(data)
            self.line_started = not data.endswith("\n")

    def text(self) -> str:
        return "\n".join(line.rstrip(" ") for line in "".join(self.pieces).split("\n"))


_UNPARSED_LIMIT = 2048


def _html_text(html: str) -> str:
    reader = _HtmlText()
    reader.feed(html)
    # What feed leaves unparsed is an unclosed comment, tag or declaration. close() reads it as
    # text by scanning it again from each "<" in it, quadratic time, so a long one is dropped.
    if len(reader.rawdata) <= _UNPARSED_LIMIT:
        reader.close()
    return re.sub(r"\n{3,}", "\n\n", reader.text())


# -- what was written ----------------------------------------------------------------------------

_ATTRIBUTION = re.compile(r"^On\s.*\swrote:\s*$")
_SEPARATOR = re.compile(
    r"^\s*(-{2,}\s*(Original Message|Forwarded message)\s*-{2,}|Begin forwarded message:)\s*$", re.IGNORECASE
)
_UNDERSCORES = re.compile(r"^\s*_{10,}\s*$")
_FOOTER = re.compile(
    r"^\s*(Sent from my \S.*|Sent from Mail for Windows.*|Get Outlook for (iOS|Android).*)$", re.IGNORECASE
)
_HEADER_FROM = re.compile(r"^\s*\**From:\**\s", re.IGNORECASE)
_HEADER_SENT = re.compile(r"^\s*\**(Sent|Date):\**\s", re.IGNORECASE)


def _written(text: str) -> str:
    """What the sender wrote: `text` above the first quote, signature or footer, without lines
    quoted with ">", and without blank lines around it."""
    lines = text.split("\n")
    lines = lines[: _end_of_writing(lines)]
    kept = [line for line in lines if not line.lstrip(" ").startswith(">")]
    while kept and not kept[0].strip():
        kept.pop(0)
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept)


def _end_of_writing(lines: list[str]) -> int:
    """The index of the first line that is no longer the sender's own writing."""
    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if line.rstrip() == "--" or _SEPARATOR.match(line) or _FOOTER.match(line):
            return index
        if _ATTRIBUTION.match(line) or (line.startswith("On ") and _ATTRIBUTION.match(f"{line} {following}")):
            return index
        if _UNDERSCORES.match(line) and _header_block_at(lines, index + 1):
            return index
        if _header_block_at(lines, index):
            return index
    return len(lines)


def _header_block_at(lines: list[str], index: int) -> bool:
    """Outlook's quoted header block starts here: a From: line with a Sent: (or Date:) line just
    below it."""
    return (
        index < len(lines)
        and bool(_HEADER_FROM.match(lines[index]))
        and any(_HEADER_SENT.match(line) for line in lines[index + 1 : index + 4])
    )


def _json_object(text: str) -> Any | None:
    """The JSON object `text` is, else None (an array or a number is not a submission body)."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None
