"""The board on the player's page (issue 30 item 1): first on the page, before the forms, with
its words beside it, the view's text after the forms, folded; what changed since the
participant's last visit marked (the `seen_<match>` cookie: `service/page/board.py`), and not
again on a visit with nothing changed; every page of each drawn game's bot match under 100 KB."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from types import SimpleNamespace
from typing import Any

import pytest
from board_support import marks
from page_support import played
from test_page_quality import check_markup
from test_page_routes import Served
from test_page_secrecy import seated, stage

from benchmarks.page import page_call, sign_in
from game_core.games import registry
from game_core.service.page import board, play, render, session

GAMES = ("crates", "palindrome", "abstrac")
SVG = re.compile(r"<svg .*?</svg>", re.S)
MAX_PAGE = 100 * 1024


def _marked(page: str) -> tuple[set[str], list[str]]:
    """The keys of the board's elements marked new, and the "new" written beside each."""
    root = ET.fromstring(SVG.search(page).group(0))  # type: ignore[union-attr]
    changed = {key for key, element in marks(root).items() if "changed" in (element.get("class") or "").split()}
    labels = [one.text or "" for one in root.iter() if one.get("class") == "new-label"]
    return changed, labels


def _visit(fakes: Any, match_id: str, cookie: str, last: str | None) -> tuple[str, str]:
    page, seen_cookie = render.marked_page(play.show(fakes.ports, match_id, cookie), "", last)
    assert seen_cookie is not None
    return page, seen_cookie


def _expected(game_id: str, before: Any, after: Any) -> set[str] | None:
    """What the rules say changed between two positions, where it is read off the state (worked
    from the rule text, not from the drawing): Crates, each crate whose location mod 5 (what is
    revealed of it) is not what it was; Abstrac, each place of the row whose card was laid or
    taken since. Palindrome: None (its drawing's own elements are compared instead)."""
    if game_id == "crates":
        remainder = lambda state, p: state.locations[p][-1] % 5 if state.locations[p] else 0  # noqa: E731
        return {f"crate-{p}" for p in after.players if remainder(before, p) != remainder(after, p)}
    if game_id == "abstrac":
        slot = lambda part, i: None if i < part.picked or i >= len(part.row) else part.row[i]  # noqa: E731
        return {f"slot-{i}" for i in range(24) if slot(before.row, i) != slot(after.row, i)}
    return None


@pytest.mark.parametrize("game_id", GAMES)
def test_what_changed_since_the_last_visit_is_marked_once(game_id: str) -> None:
    game = registry.load(game_id)
    fakes, match_id, cookies = seated(game_id)
    viewer = next(iter(cookies))
    states = played(game_id).states
    marked_somewhere = False
    for number, (before, after) in enumerate(itertools.pairwise(states), start=1):
        stage(fakes, match_id, game, before.model_dump(mode="json"), number)
        first, last = _visit(fakes, match_id, cookies[viewer], None)
        assert _marked(first) == (set(), []) and 'id="board-new"' not in first  # a first visit: nothing to compare
        stage(fakes, match_id, game, after.model_dump(mode="json"), number + 1)
        second, last = _visit(fakes, match_id, cookies[viewer], last)
        changed, labels = _marked(second)
        expected = _expected(game_id, before, after)
        if expected is not None:
            assert {key for key in changed if key.split("-")[0] + "-" in ("crate-", "slot-")} == expected, number
        assert labels == ["new"] * len(changed)
        if changed:
            marked_somewhere = True
            # The visit before was in the phase before (`stage` opens the next number).
            assert f'<p id="board-new">New since your last visit (in phase {number}), marked on the board: ' in second
        check_markup(second)
        third, _ = _visit(fakes, match_id, cookies[viewer], last)  # again, nothing changed
        assert _marked(third) == (set(), [])
        assert '<p id="board-new">Nothing has changed since your last visit (earlier in this phase).</p>' in third
    assert marked_somewhere


def test_another_sessions_or_a_forged_seen_cookie_marks_nothing() -> None:
    game = registry.load("crates")
    fakes, match_id, cookies = seated("crates")
    ada, bo = list(cookies)[:2]
    states = played("crates").states
    stage(fakes, match_id, game, states[1].model_dump(mode="json"), 1)
    _, bos = _visit(fakes, match_id, cookies[bo], None)
    stage(fakes, match_id, game, states[3].model_dump(mode="json"), 2)
    for last in (bos, "v1.1.AAAAAAAA.AAAAAAAABBBBBBBB", "garbage", bos.replace("v1", "v9")):
        page, _ = _visit(fakes, match_id, cookies[ada], last)
        assert _marked(page) == (set(), []) and 'id="board-new"' not in page


@pytest.mark.parametrize("game_id", GAMES)
def test_the_board_comes_first_its_words_beside_it_the_text_folded_after_the_forms(game_id: str) -> None:
    game = registry.load(game_id)
    fakes, match_id, cookies = seated(game_id)
    for number, state in enumerate(played(game_id).states, start=1):
        stage(fakes, match_id, game, state.model_dump(mode="json"), number)
        for cookie in cookies.values():
            page = render.page(play.show(fakes.ports, match_id, cookie))
            assert len(page.encode()) < MAX_PAGE
            at = {name: page.index(f'id="{name}"') for name in ("board", "phase", "moves", "view-text")}
            assert at["board"] < at["phase"] < at["moves"] < at["view-text"]
            assert '<svg aria-describedby="board-alt" ' in page and '<figcaption id="board-alt"' in page
            assert page.rindex("<details>", 0, at["view-text"]) > at["moves"]


def test_the_page_route_sets_the_seen_cookie_and_reads_it_back() -> None:
    from talk_table import Talk

    table = Talk.open()
    served, mid = Served(table), table.match_id
    session, _ = sign_in(served, mid, table.secrets["ada"])
    first = page_call(served, "GET", "/play/{match_id}", f"/play/{mid}", cookie=session)
    set_cookie = first["headers"]["Set-Cookie"]
    assert set_cookie.startswith(f"{board.cookie_name(mid)}=v1.1.") and f"; Path=/play/{mid};" in set_cookie
    assert "HttpOnly; SameSite=Strict; Secure" in set_cookie
    seen = set_cookie.split(";", 1)[0]
    again = page_call(served, "GET", "/play/{match_id}", f"/play/{mid}", cookie=f"{session}; {seen}")
    assert '<p id="board-new">Nothing has changed since your last visit (earlier in this phase).</p>' in again["body"]
    assert 'id="board-new"' not in first["body"]


def test_the_pages_own_reload_keeps_what_is_new_marked_until_the_participant_loads_it() -> None:
    """Issue 30 item 3: the marks vanished at the page's own minute reload, seen or not."""
    game = registry.load("crates")
    fakes, match_id, cookies = seated("crates")
    viewer = next(iter(cookies))
    served = Served(SimpleNamespace(ports=fakes.ports))  # type: ignore[arg-type]
    session_cookie = f"{session.cookie_name(match_id)}={cookies[viewer]}"

    def load(query: str, seen: str | None) -> tuple[str, str | None]:
        """The page through the handler: its body, and the seen cookie it sets (None: none)."""
        header = session_cookie + (f"; {board.cookie_name(match_id)}={seen}" if seen else "")
        reply = page_call(served, "GET", "/play/{match_id}", f"/play/{match_id}{query}", cookie=header)
        set_cookie = reply["headers"].get("Set-Cookie", "")
        return reply["body"], set_cookie.partition("=")[2].partition(";")[0] or None

    states = played("crates").states
    moved = next(n for n in range(1, len(states)) if states[n].locations != states[n - 1].locations)
    stage(fakes, match_id, game, states[moved - 1].model_dump(mode="json"), 1)
    _, seen = load("", None)  # the participant's own visit: remembered
    assert seen is not None
    stage(fakes, match_id, game, states[moved].model_dump(mode="json"), 2)  # a crate moved since
    for query in ("?auto", "?sent=round&auto"):  # the page's own reloads, twice: marked, not remembered
        page, kept = load(query, seen)
        assert _marked(page)[0] and kept is None, query
    page, seen_now = load("", seen)  # the participant reloads it: still marked, now remembered
    assert _marked(page)[0] and seen_now is not None and seen_now != seen
    page, _ = load("?auto", seen_now)
    assert _marked(page) == (set(), [])  # seen: no longer marked
