"""The page's markup and style, checked: every control labelled, ids unique, nothing inline (so
the Content-Security-Policy holds without `unsafe-inline`), colours at WCAG AA contrast; the
deadline in the participant's own zone with UTC beside; Domino's boards drawn. `check_markup` is
applied to every page of every game's bot match by test_page_secrecy."""

from __future__ import annotations

import hashlib
import html
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

from game_core.match.model import MatchRequest
from game_core.service.matches.lifecycle import create_match
from game_core.service.page import assets, play, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from fakes import Fakes  # noqa: E402

CONTROLS = ("input", "select", "textarea")


class _Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.labelled: set[str] = set()
        self.controls: list[str] = []
        self.inline: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if "id" in found:
            self.ids.append(str(found["id"]))
        if tag == "label":
            self.labelled.add(str(found.get("for")))
        if tag in CONTROLS and found.get("type") != "hidden":
            self.controls.append(str(found.get("id")))
        if tag == "style" or "style" in found or any(name.startswith("on") for name in found):
            self.inline.append(tag)
        if tag == "script" and "src" not in found:
            self.inline.append("script")


def check_markup(page: str) -> None:
    markup = _Markup()
    markup.feed(page)
    assert len(markup.ids) == len(set(markup.ids)), "every id once"
    assert [c for c in markup.controls if c not in markup.labelled] == [], "every control has a label"
    assert markup.inline == [], "no inline script, style or handler"


def _luminance(colour: str) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(foreground: str, background: str) -> float:
    """WCAG 2's contrast ratio (the relative luminances' (L1 + 0.05) / (L2 + 0.05))."""
    high, low = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_of_a_black_on_white_is_21_and_of_a_grey_as_published() -> None:
    # WCAG's own endpoints: black on white 21:1; #777777 on white is the well-known 4.48:1 (fails AA).
    assert round(contrast("#000000", "#ffffff"), 2) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48


def test_every_colour_of_the_style_sheet_passes_wcag_aa_on_its_background() -> None:
    # Each rule that sets a colour or a background is read with the other as it sets it, else as
    # the page's (the sheet sets both where the pair differs from the page's: buttons, alerts).
    css = assets.asset("page.css")[0].decode()
    found = re.findall(r"([^{}]+)\{([^}]*)\}", re.sub(r"/\*.*?\*/", "", css, flags=re.S))
    rules = {selector.strip(): body for selector, body in found}
    page_background = re.search(r"background: (#[0-9a-f]{6})", rules["body"]).group(1)
    text = re.search(r"color: (#[0-9a-f]{6})", rules["body"]).group(1)
    checked = 0
    for selector, body in rules.items():
        colour = re.search(r"(?<![-\w])color: (#[0-9a-f]{6})", body)
        background = re.search(r"background: (#[0-9a-f]{6})", body)
        if colour or background:
            fg, bg = colour.group(1) if colour else text, background.group(1) if background else page_background
            assert contrast(fg, bg) >= 4.5, (selector, fg, bg, round(contrast(fg, bg), 2))
            checked += 1
    assert checked >= 10  # body, links, hints, errors, buttons, alerts, notices, inputs, ...


def test_the_deadline_is_given_in_the_participants_zone_with_utc_beside_and_counted_down() -> None:
    fakes = Fakes()
    request = {"game": "crates", "players": [{"id": "ada", "zone": "Asia/Tokyo"}, {"id": "bo"}], "seed": 7}
    created = create_match(fakes.ports, MatchRequest.model_validate(request | {"phase_seconds": 3600}))
    match_id = created["match_id"]
    ada = play.sign_in(fakes.ports, match_id, created["secrets"]["ada"])
    bo = play.sign_in(fakes.ports, match_id, created["secrets"]["bo"])
    fakes.clock.advance(600)
    # Opened 12:00 UTC on 1 December, an hour: 13:00 UTC is 22:00 in Tokyo (UTC+9), the same day;
    # ten minutes in, 50 minutes are left.
    page = render.page(play.show(fakes.ports, match_id, ada.cookie))
    assert (
        '<time id="countdown" datetime="2026-12-01T13:00:00Z" data-now="2026-12-01T12:10:00Z">'
        "Tuesday 1 December, 22:00 (Asia/Tokyo) - 13:00 UTC</time>"
    ) in page
    assert '<span id="countdown-left">50 minutes left</span>' in page
    assert ">Tuesday 1 December, 13:00 UTC</time>" in render.page(play.show(fakes.ports, match_id, bo.cookie))


def test_dominos_board_is_drawn_on_the_page_from_the_players_own_view() -> None:
    """The tiles and boards inline (the game's `draw_board` of ann's view), its words beside,
    and no longer the mail's pictures as images."""
    fakes = Fakes()
    request = {"game": "domino", "players": [{"id": p} for p in ("ann", "ben", "cyd")], "seed": 7}
    created = create_match(fakes.ports, MatchRequest.model_validate(request))
    ann = play.sign_in(fakes.ports, created["match_id"], created["secrets"]["ann"])
    seen = play.show(fakes.ports, created["match_id"], ann.cookie)
    page = render.page(seen)
    drawn = seen.game.text.draw_board(play.view_of(seen), {p: p for p in ("ann", "ben", "cyd")}, "ann")
    assert f'<figcaption id="board-alt" class="visually-hidden">{html.escape(drawn.alt)}</figcaption>' in page
    section = page[page.index('<section id="board"') : page.index("</section>", page.index('<section id="board"'))]
    assert all(f'data-mark="{key}"' in section for key in ("tile-1", "tile-60", "board-ann", "board-cyd"))
    assert "data:image/svg+xml" not in page
    check_markup(page)


def test_a_page_links_each_asset_by_its_contents_hash() -> None:
    page = render.sign_in_page("m-000000000001")
    for name in ("page.css", "page.js"):
        data = (Path(assets.__file__).parent / "static" / name).read_bytes()
        assert f"/static/{name}?v={hashlib.sha256(data).hexdigest()[:12]}" in page
