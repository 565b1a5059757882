"""Domino Auction's page at 1280 px with four players (issue 30 item 1/4): the open auction first,
the viewer's own board under it, the other boards beside them and the other auctions after, two a
row, so the page is a fraction of the 8,400 px it took drawn as one column of every drawing."""

from __future__ import annotations

from typing import Any

from browsing import DESKTOP, chromium, host_server, problems  # noqa: F401 - fixtures
from test_pages import Player, create

FOUR = [{"id": p, "name": p.title()} for p in ("ada", "bo", "cy", "di")]
MEASURE = """
const top = (element) => element.getBoundingClientRect().top + window.scrollY;
const drawings = [...document.querySelectorAll('#board svg')];
return {
  height: document.documentElement.scrollHeight,
  drawn: document.querySelector('#board .board-columns').getBoundingClientRect().height,
  tops: drawings.map((svg) => Math.round(top(svg))),
  lefts: drawings.map((svg) => Math.round(svg.getBoundingClientRect().left)),
  titles: drawings.map((svg) => svg.querySelector('title').textContent),
  own: top(document.querySelector('#board svg g[data-own]')),
  bids: top(document.querySelector('#board svg g[data-bids="open"]')),
};
"""

DRAWN_MAX = 2800
"""The drawings' grid at 1280 px, worked from their units (page_board.py, pictures.py): two columns of
(808 - 16) / 2 = 396 px, a drawing's viewBox 344 wide, so a unit is 1.15 px. The open auction (28 +
40 + 7 rows x 120 + 8 = 916 units, 1,052 px) takes two rows beside Bo's and Cy's boards (about
475 units, 545 px each: 1,102 px with the gap); the own board and Di's a row (545); the two other
auctions a row (888 units, 1,019 px): 1,102 + 545 + 1,019 + 2 gaps of 12 = 2,690 px, under 2,800.
One column at the old 36-rem width (576 / 344 = 1.67 px a unit) drew the same 4,590 units 7,700 px tall."""
PAGE_MAX = 5500
"""The whole page: the grid's 2,800 at most, the page's head above it (about 400 px) and the moves
below (the bid form's 20 tiles, about 2,100 px); the page took 8,400 px before (issue 30)."""


def test_four_players_domino_page_is_boards_in_columns_own_first(browser, server) -> None:
    problems(browser)
    created = create(server, "domino", FOUR)
    Player(browser, server, created["match_id"], "ada", created["secrets"]["ada"])
    browser.set_window_size(DESKTOP, 900)
    placed: dict[str, Any] = browser.execute_script(MEASURE)
    # 1 open auction, 4 boards, 2 auctions to come: 7 drawings, in that order, the viewer's first.
    assert len(placed["titles"]) == 7, placed
    assert placed["titles"][1] == "Your board" and placed["titles"][2:5] == ["Bo's board", "Cy's board", "Di's board"]
    # The open auction's tiles at the top left, Bo's and Cy's boards beside them; the viewer's own
    # board under the auction (placing there, the auction and its stuck bid tray are out of sight).
    auction, own, bo, cy, di, *others = zip(placed["tops"], placed["lefts"], strict=True)
    assert auction[0] == bo[0] < cy[0] < own[0] == di[0] < min(top for top, _ in others), placed
    assert auction[1] == own[1] < bo[1] == cy[1] == di[1], placed
    assert placed["bids"] < placed["own"], placed
    assert placed["drawn"] < DRAWN_MAX and placed["height"] < PAGE_MAX, placed
    assert problems(browser) == []
