"""The few SVG pieces every game's `board` module draws with (`capabilities.Board`): the picture, a
text, a box, and an element the page marks when it changed since the participant's last visit.
Every value written goes through `escape` (text and attributes alike); no id is written (the
page holds each id once), no style attribute (the page's Content-Security-Policy has no
`unsafe-inline`): colours are presentation attributes.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr as _quoteattr

SENT = "sent"
"""The key under which the page adds to the view a board is drawn from (`capabilities.DrawsBoard`) the
viewer's own submissions to the open phase as they stand, by kind (the JSON stored; absent when
none): a board may draw a move not yet resolved, as Palindrome's bid on its table."""
INK, PAPER, LINE, QUIET = "#1a1a1a", "#ffffff", "#8a8a80", "#4a4a4a"
"""Text, ground, rules and secondary text: the page's own colours (WCAG AA on white)."""
YOU = "#0b4f8a"
"""What is the viewer's own: the page's link colour."""
FONT = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Characters XML 1.0 cannot hold (a host may name a player with one): dropped, so that the page
can still read the board back (`service/page/board.py` parses it)."""


def escape(words: str) -> str:
    return _escape(NOT_XML.sub("", words))


def quoteattr(value: str) -> str:
    return _quoteattr(NOT_XML.sub("", value))


def _attrs(attributes: dict[str, object]) -> str:
    """` name="value"` each; a trailing underscore dropped (`class_`), other underscores dashes."""
    return "".join(
        f" {name.rstrip('_').replace('_', '-')}={quoteattr(str(value))}"
        for name, value in attributes.items()
        if value is not None
    )


def attributes(**named: object) -> str:
    """` name="value"` each, escaped, as `text` and `box` write theirs (for a group of one's own)."""
    return _attrs(named)


def picture(width: int, height: int, title: str, body: list[str]) -> str:
    """The one `svg` element: role img, its `title` first, scaling to its container's width (the
    page's column, 372 px on a 390-px phone: a board is drawn to read there, issue 30 item 4)."""
    attrs = _attrs(
        {
            "viewBox": f"-8 -4 {width + 16} {height + 8}",
            "role": "img",
            "font_family": FONT,
            "font_size": 14,
            "fill": INK,
        }
    )
    return f"<svg{attrs}><title>{escape(title)}</title>{''.join(body)}</svg>"


CHARACTER_WIDTH = 0.6
"""A character's width, generously, as a share of the font's size: what a line of text is
measured by (a board's text must fit a 390-px phone, issue 30 item 4)."""


def cut(words: str, most: int) -> str:
    """Words cut to `most` characters with an ellipsis, to fit their place on a board (the
    element's title or the board's words say them whole); characters XML cannot hold are not counted."""
    words = NOT_XML.sub("", words)
    return words if len(words) <= most else words[: most - 1] + "\u2026"


def wrap(words: str, width: float, size: float) -> list[str]:
    """The words in lines that fit `width` units at `size` units a character's height."""
    most = max(1, int(width / (CHARACTER_WIDTH * size)))
    lines = [""]
    for word in words.split(" "):
        if lines[-1] and len(lines[-1]) + 1 + len(word) > most:
            lines.append("")
        lines[-1] = f"{lines[-1]} {word}" if lines[-1] else word
    return lines


def text(x: float, y: float, words: object, **attributes: object) -> str:
    return f"<text{_attrs({'x': x, 'y': y, **attributes})}>{escape(str(words))}</text>"


def box(x: float, y: float, width: float, height: float, **attributes: object) -> str:
    return f"<rect{_attrs({'x': x, 'y': y, 'width': width, 'height': height, **attributes})}/>"


def line(x1: float, y1: float, x2: float, y2: float, **attributes: object) -> str:
    return f"<line{_attrs({'x1': x1, 'y1': y1, 'x2': x2, 'y2': y2, 'stroke': LINE, **attributes})}/>"


def marked(key: str, title: str, body: list[str], new_at: tuple[float, float], **attributes: object) -> str:
    """A group the page marks "new" (at `new_at`, in the group's coordinates) when its markup
    differs from the participant's last visit; `title` names it in words (a tooltip, and the
    page's list of what is new)."""
    attrs = _attrs({"data_mark": key, "data_new": f"{new_at[0]} {new_at[1]}", **attributes})
    return f"<g{attrs}><title>{escape(title)}</title>{''.join(body)}</g>"
