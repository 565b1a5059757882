"""Each game's page on a 390 x 844 phone (issue 30 item 4), in Debian's Chromium: the page itself
never scrolls sideways (only a board's own box may), and the board is shown before the first form.
Screenshots at 390 and 1280 px go to test-output/screenshots/ (`page-<game>-phone-<width>.png`;
docs/ holds a copy of each, which the manual shows on each game's page)."""

from __future__ import annotations

from typing import Any

from browsing import DESKTOP, chromium, host_server, problems, screenshot  # noqa: F401 - fixtures
from test_pages import CRATES, DOMINO, OTHER_GAMES, Player, create

PHONE_WIDTH, PHONE_HEIGHT = 390, 844
GAMES = {"crates": CRATES, "domino": DOMINO, **OTHER_GAMES}
PLACES = """
const top = (element) => element.getBoundingClientRect().top + window.scrollY;
const board = document.querySelector('#board svg, #board img');
const form = document.querySelector('#moves form') || document.getElementById('moves');
return {
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
  clientWidth: document.documentElement.clientWidth,
  board: board ? {top: top(board), width: board.getBoundingClientRect().width} : null,
  boxScrolls: [...document.querySelectorAll('.board-scroll')].some((box) => box.scrollWidth > box.clientWidth),
  smallestText: Math.min(...[...document.querySelectorAll('#board svg text')].map((text) => {
    const svg = text.ownerSVGElement;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return parseFloat(getComputedStyle(text).fontSize) * scale;
  })),
  form: form ? top(form) : null,
};
"""
"""Where the page's board and first form are (the moves section where this phase takes no form from
them), and how wide the page is, as the browser laid it out."""


def test_every_games_page_fits_a_390_px_phone_with_the_board_before_the_forms(browser, server) -> None:
    problems(browser)
    for game, players in GAMES.items():
        created = create(server, game, players)
        Player(browser, server, created["match_id"], "ada", created["secrets"]["ada"])
        browser.set_window_size(PHONE_WIDTH, PHONE_HEIGHT)
        try:
            placed: dict[str, Any] = browser.execute_script(PLACES)
        finally:
            browser.set_window_size(DESKTOP, 900)
        assert placed["innerWidth"] == PHONE_WIDTH, placed
        assert placed["scrollWidth"] <= PHONE_WIDTH, (game, placed)  # nothing but a board's box scrolls sideways
        assert placed["board"] is not None and placed["form"] is not None, (game, placed)
        # The board takes the column's whole width (the page's less main's padding and the box's
        # border) and reads whole without scrolling its box. Headless Chromium's scrollbar takes
        # 15 px of the page (a phone's overlays it): its smallest text is measured as in the phone's
        # 372-px column, at 11 px or more.
        column = placed["clientWidth"] - 2 * 8 - 2
        assert placed["board"]["width"] >= column - 1, (game, placed)
        phone_scale = (PHONE_WIDTH - 2 * 8 - 2) / placed["board"]["width"]
        assert not placed["boxScrolls"] and placed["smallestText"] * phone_scale >= 11, (game, placed)
        assert placed["board"]["top"] < placed["form"], (game, placed)
        for width in (PHONE_WIDTH, DESKTOP):
            screenshot(browser, f"page-{game}-phone", width)
    assert problems(browser) == []
