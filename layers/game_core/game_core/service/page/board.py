"""The board on the player's page (issue 30): the game as it stands for this participant, drawn
by the game from their own view (`DrawsBoard`), first on the page; what changed since their last
visit marked; the view's text after the forms, folded.

What changed is told by a second cookie, `seen_<match_id>` (same path and flags as the session's):
`v1.<phase number>.<tag>.<digests>`, one 8-character digest per marked element of the board as
last shown (`Board`: an element with `data-mark`), each an HMAC of its key and its markup under
the session's form token; `tag` is the same HMAC of nothing, so a cookie of another session (or
another participant) marks nothing rather than everything; the phase says when that visit was
("in phase 3", "earlier in this phase"). A page view marks each element whose
digest the cookie lacks (class `changed`, "new" written beside it, and named in `board-new`),
then sets the cookie to what it showed: a reload with nothing changed marks nothing. The page's
own reload (every `html.REFRESH_SECONDS` while its tab is visible, `?auto`) is no visit: it
marks as the cookie says but leaves it, so what is new stays marked until the participant loads
the page themselves (opens or reloads it, sends a form), not gone a minute later unseen. The cookie
holds only digests of what this participant was shown: forged, it changes only the marks on the
forger's own page; read, it tells nothing of the view without the session's key. No cookie (a
first visit, or a page answering a refused form): nothing marked.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import xml.etree.ElementTree as ET
from base64 import b64encode
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game_core.games.capabilities import Board, DrawsBoard, DrawsViews
from game_core.games.svg import SENT
from game_core.service.page.html import esc
from game_core.service.page.play import Seen

COOKIE_PREFIX = "seen_"
VERSION = "v1"
DIGEST_BYTES = 6
"""48 bits an element: 8 cookie-safe characters."""
MAX_MARKS = 300
"""At most this many elements are remembered (2.4 KB of cookie, under the browsers' 4 KB)."""
SVG = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG)


def cookie_name(match_id: str) -> str:
    return COOKIE_PREFIX + match_id


def _digest(key: str, text: str) -> str:
    mac = hmac.new(key.encode(), text.encode(), hashlib.sha256).digest()[:DIGEST_BYTES]
    return base64.urlsafe_b64encode(mac).decode()


@dataclass(frozen=True)
class Shown:
    """The board's section of a page, and the cookie value that remembers it (None: none drawn)."""

    html: str
    seen_cookie: str | None


@dataclass(frozen=True)
class Marked:
    svg: str
    digests: tuple[str, ...]
    new: tuple[str, ...]
    """The `<title>` of each element marked new, in drawing order."""


@dataclass(frozen=True)
class Visit:
    """The last visit as its cookie remembers it: the phase open then, each element's digest."""

    phase: int
    digests: frozenset[str]

    def since(self, phase: int) -> str:
        return "earlier in this phase" if phase == self.phase else f"in phase {self.phase}"


def last_visit(cookie: str | None, tag: str) -> Visit | None:
    """The visit the cookie remembers, if it is this session's (else None: nothing to compare)."""
    parts = (cookie or "").split(".")
    if len(parts) != 4 or parts[0] != VERSION or parts[2] != tag or not parts[1].isdigit():
        return None
    digests = parts[3]
    return Visit(int(parts[1]), frozenset(digests[i : i + 8] for i in range(0, len(digests), 8)))


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def mark(svg: str, key: str, last: frozenset[str] | None) -> Marked:
    """The board's SVG with each element whose digest `last` lacks marked new (none when `last`
    is None), and the digests of all its marked elements."""
    root = ET.fromstring(svg)
    digests, new = [], []
    for element in root.iter():
        name = element.get("data-mark")
        if name is None:
            continue
        tail, element.tail = element.tail, None
        digest = _digest(key, f"{name}|{ET.tostring(element, encoding='unicode')}")
        element.tail = tail
        digests.append(digest)
        if last is None or digest in last:
            continue
        element.set("class", f"{element.get('class', '')} changed".strip())
        x, _, y = (element.get("data-new") or "0 12").partition(" ")
        badge = ET.SubElement(element, f"{{{SVG}}}text" if element.tag.startswith("{") else "text")
        badge.set("x", x)
        badge.set("y", y or "12")
        badge.set("class", "new-label")
        badge.text = "new"
        title = next((child for child in element if _local(child.tag) == "title"), None)
        new.append(title.text or name if title is not None else name)
    return Marked(ET.tostring(root, encoding="unicode"), tuple(digests), tuple(new))


def board_of(seen: Seen, view: Mapping[str, Any], names: Mapping[str, str]) -> Board | None:
    """The game's drawing of the participant's view, told under `SENT` what they have sent to the
    open phase as it stands (their own: a bid drawn on the table before the phase resolves)."""
    text = seen.game.text
    if not isinstance(text, DrawsBoard):
        return None
    sheet = seen.view.open_sheet
    shown = {**view, SENT: dict(sheet.kinds)} if sheet is not None and sheet.kinds else view
    return text.draw_board(shown, names, seen.session.participant)


def section(seen: Seen, view: Mapping[str, Any], names: Mapping[str, str], last: str | None) -> Shown:
    """The board section (the game's drawing, its words, what is new), or the game's pictures
    where it draws no board (Domino's boards as images), or nothing."""
    drawn = board_of(seen, view, names)
    if drawn is None:
        pictures = _pictures(seen, view, names)
        return Shown(f'<section id="board" aria-label="The board">\n{pictures}</section>' if pictures else "", None)
    key = seen.session.csrf
    tag = _digest(key, "")
    before = last_visit(last, tag)
    drawings = [mark(one, key, before.digests if before is not None else None) for one in (drawn.svg, *drawn.more)]
    marked = Marked(
        drawings[0].svg,
        tuple(digest for one in drawings for digest in one.digests),
        tuple(said for one in drawings for said in one.new),
    )
    phase = seen.match.phase.number if seen.match.phase is not None else 0
    cookie = f"{VERSION}.{phase}.{tag}.{''.join(marked.digests[:MAX_MARKS])}"
    if before is None:
        said = ""
    elif marked.new:
        said = f"New since your last visit ({before.since(phase)}), marked on the board: {'; '.join(marked.new)}."
    else:
        said = f"Nothing has changed since your last visit ({before.since(phase)})."
    new = f'<p id="board-new">{esc(said)}</p>\n' if said else ""
    svg = marked.svg.replace("<svg ", '<svg aria-describedby="board-alt" ', 1)
    if drawn.more:  # the drawings in wrapping columns (page.css): several a row at 1280 px, one at 390
        svg = f'<div class="board-columns">{svg}{"".join(one.svg for one in drawings[1:])}</div>'
    html = (
        '<section id="board" aria-labelledby="board-h">\n<h2 id="board-h">The game as you see it</h2>\n'
        f'<figure class="board">\n<div class="board-scroll" tabindex="0" role="group" aria-labelledby="board-h">'
        f"{svg}</div>\n"
        f'<figcaption id="board-alt" class="visually-hidden">{esc(drawn.alt)}</figcaption>\n</figure>\n'
        f"{new}</section>"
    )
    return Shown(html, cookie)


def _pictures(seen: Seen, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The game's pictures of the view (`DrawsViews`, what a mail attaches) as images."""
    text = seen.game.text
    drawing = text.draw_view(view, names) if isinstance(text, DrawsViews) else None
    if drawing is None:
        return ""
    shown = ""
    for picture in drawing.pictures:
        if picture.content_type == "image/svg+xml":
            source = esc("data:image/svg+xml;base64," + b64encode(picture.data).decode())
            shown += f'<img class="board" src="{source}" alt="{esc(f"{drawing.caption}: {picture.filename}")}">\n'
    return shown


def view_text(seen: Seen, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The game's text of the view, after the forms, folded: the board says it first."""
    return (
        '<section id="view" aria-labelledby="view-h">\n<h2 id="view-h">The table in words</h2>\n'
        "<details>\n<summary>Everything revealed so far, phase by phase, and what only you know, as text</summary>\n"
        f'<pre id="view-text" tabindex="0" aria-labelledby="view-h">'
        f"{esc(seen.game.text.render_view(view, names))}</pre>\n</details>\n</section>"
    )
