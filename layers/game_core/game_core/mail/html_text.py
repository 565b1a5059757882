"""An HTML body read as the text its reader sees (`read_html`): block elements break lines, what is
not shown is left out, each line of a <blockquote> is quoted with ">", and a signature the mail
client marked starts after a "-- " line; and a body's text as `inbound` reads it (`Body`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser


@dataclass(frozen=True)
class Body:
    text: str
    own: frozenset[int] = frozenset()
    """Lines of `text` that are the sender's though they start with ">": format=flowed stuffs them;
    in HTML a typed ">" is text, a quote is a <blockquote>."""


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


class HtmlText(HTMLParser):
    """HTML read as plain text: block elements and <br> break lines, entities are decoded, what
    a reader does not see as the message (<head>, <style>, <script>) is left out, each line of a
    <blockquote> is quoted with ">" (one per level), and a marked signature starts after a "-- "
    line. A quote in HTML is its structure, never a typed "&gt;": a line outside any blockquote
    that starts with ">" is the sender's (`Body.own`). (Outlook's old message under its
    divRplyFwdMsg or bordered header block, and Gmail's gmail_quote attribution, are read as
    `replies` reads them in text: by the header block and the attribution.)"""

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
        self.line = 0
        self.quoted_lines: set[int] = set()
        """The lines written inside a blockquote (counted from 0 in `pieces` joined)."""
        self.signed = False
        """Whether the sender's own signature is marked (and a "-- " line written before it)."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, +1)
        # A quoted message's signature is quoted: only the sender's own ends their writing
        if not self.hidden and not self.quoted and _marks_signature(attrs):
            self.signed = True
            self._newline()
            self.pieces.append("-- ")
            self._newline()

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
        self.line += 1
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
        if self.quoted and (data or blank_line):
            self.quoted_lines.update(range(self.line, self.line + data.count("\n") + 1))
        if not data:
            return
        if self.quoted:
            data = data.replace("\n", "\n" + ">" * self.quoted + " ")
            if not self.line_started:
                data = ">" * self.quoted + " " + data
        self.pieces.append(data)
        self.line += data.count("\n")
        self.line_started = not data.endswith("\n")

    def body(self) -> Body:
        """The text, no more than one blank line in a row, and the lines starting ">" typed
        outside any blockquote (the sender's)."""
        lines: list[str] = []
        own: set[int] = set()
        for number, line in enumerate("".join(self.pieces).split("\n")):
            line = line.rstrip(" ")
            if not line and lines and not lines[-1]:
                continue
            if line.lstrip(" ").startswith(">") and number not in self.quoted_lines:
                own.add(len(lines))
            lines.append(line)
        return Body("\n".join(lines), frozenset(own))


UNPARSED_LIMIT = 2048


def read_html(html: str) -> HtmlText:
    reader = HtmlText()
    reader.feed(html)
    # What feed leaves unparsed is an unclosed comment, tag or declaration. close() reads it as
    # text by scanning it again from each "<" in it, quadratic time, so a long one is dropped.
    if len(reader.rawdata) <= UNPARSED_LIMIT:
        reader.close()
    return reader
