"""An inbound message as a `Letter`: who sent it, where it sits in a thread, and what the sender
actually wrote in it.

What was written is the message's text/plain body (or its HTML read as text, when there is no
plain part or when the HTML marks the sender's signature, as Outlook, Gmail and Thunderbird do)
with quotes, attributions, forwarded and old messages and the signature left out (`replies`):
the sender's own lines are read above, below or between the quoted parts. HTML is read with its
<blockquote> lines quoted with ">", and a "-- " line where a marked signature starts. Lines are
otherwise kept as written (no reflowing, no trimming of spaces), except that format=flowed soft
line breaks are joined (RFC 3676).

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
from html.parser import HTMLParser
from typing import Any

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


def parse_message(raw: bytes) -> Letter:
    """The `Letter` in `raw` (a whole RFC 5322 message); an empty `Letter` for what is not one."""
    try:
        message = email.message_from_bytes(raw[:MAX_BYTES], policy=email.policy.default)
    except Exception:  # the parser's defects are recorded, but a pathological input may still raise
        return Letter()
    assert isinstance(message, EmailMessage)
    senders = _addresses(message, "From")
    reply = written(_body_text(message))
    text = reply.text
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
        old_unmarked=reply.old_unmarked,
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
    """The text/plain body, else the text/html one read as text; the HTML one too when it marks
    a signature the plain one cannot show. Attachments are never a body."""
    try:
        plain, html = message.get_body(preferencelist=("plain",)), message.get_body(preferencelist=("html",))
        if html is not None:
            reader = _read_html(_part_text(html))
            if plain is None or reader.signed:
                return reader.text()
        if plain is None:
            return ""
        text = _part_text(plain)
        if _param(plain, "format") == "flowed":
            return _unflow(text, delete_space=_param(plain, "delsp") == "yes")
        return text
    except Exception:  # a body that cannot be read is no body
        return ""


def _part_text(part: Message) -> str:
    """A part's payload decoded and bounded, its line ends as newlines."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    text = _decode(payload[:MAX_TEXT], part.get_content_charset())[:MAX_TEXT]
    return text.replace("\r\n", "\n").replace("\r", "\n")


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
        # A stuffed line is the sender's own, even one starting ">" ("> 2 crates" after a soft break)
        stuffed = line.startswith(" ")
        if stuffed:
            line = line[1:]
        own = stuffed or not line.startswith(">")
        if flowing and own:
            lines[-1] += line
        else:
            lines.append(line)
        flowing = line.endswith(" ") and line != "-- " and own
        if flowing and delete_space:
            lines[-1] = lines[-1][:-1]
    return "\n".join(lines)


def _marks_signature(attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element is where an HTML client marks the sender's signature: Outlook on the
    web (id="Signature"), Outlook for Windows (the bookmark _MailAutoSig), Gmail and Thunderbird
    (their signature classes)."""
    values = {name.lower(): value or "" for name, value in attrs}
    classes = set(values.get("class", "").lower().split())
    return (
        values.get("id", "").lower() == "signature"
        or values.get("name", "") == "_MailAutoSig"
        or bool(classes & {"gmail_signature", "moz-signature"})
    )


class _HtmlText(HTMLParser):
    """HTML read as plain text: block elements and <br> break lines, entities are decoded, what
    a reader does not see as the message (<head>, <style>, <script>) is left out, each line of a
    <blockquote> is quoted with ">" (one per level), and a marked signature starts after a "-- "
    line."""

    BLOCKS = frozenset(
        "address article aside blockquote dd div dl dt fieldset figure footer form h1 h2 h3 h4 h5 h6 "
        "header hr li main nav ol p pre section table tbody thead tfoot tr ul".split()
    )
    HIDDEN = frozenset({"head", "style", "script", "title"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self.hidden = 0
        self.preformatted = 0
        self.quoted = 0
        self.line_started = False
        self.signed = False
        """Whether the sender's own signature is marked (and a "-- " line written before it)."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, +1)
        # A quoted message's signature is quoted: only the sender's own ends their writing
        if not self.hidden and not self.quoted and _marks_signature(attrs):
            self.signed = True
            self._newline()
            self.pieces.append("-- \n")

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
        if tag == "blockquote":
            self.quoted = max(0, self.quoted + step)

    def _newline(self) -> None:
        self.pieces.append("\n")
        self.line_started = False

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        # Outlook writes a blank line as a paragraph of a non-breaking space: a line, left empty
        blank_line = not self.line_started and not self.preformatted and "\xa0" in data
        if not self.preformatted:
            # Outside <pre> a run of whitespace is one space, and none at the start of a line.
            data = re.sub(r"\s+", " ", data.replace("\xa0", " "))
            if not self.line_started:
                data = data.lstrip(" ")
        if not data and blank_line:
            self.pieces.append(">" * self.quoted)
            self.line_started = True
        if not data:
            return
        if self.quoted:
            data = data.replace("\n", "\n" + ">" * self.quoted + " ")
            if not self.line_started:
                data = ">" * self.quoted + " " + data
        self.pieces.append(data)
        self.line_started = not data.endswith("\n")

    def text(self) -> str:
        text = "\n".join(line.rstrip(" ") for line in "".join(self.pieces).split("\n"))
        return re.sub(r"\n{3,}", "\n\n", text)


_UNPARSED_LIMIT = 2048


def _read_html(html: str) -> _HtmlText:
    reader = _HtmlText()
    reader.feed(html)
    # What feed leaves unparsed is an unclosed comment, tag or declaration. close() reads it as
    # text by scanning it again from each "<" in it, quadratic time, so a long one is dropped.
    if len(reader.rawdata) <= _UNPARSED_LIMIT:
        reader.close()
    return reader


def _json_object(text: str) -> Any | None:
    """The JSON object `text` is, else None (an array or a number is not a submission body)."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None
