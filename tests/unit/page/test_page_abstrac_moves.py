"""Abstrac's moves on the drawing (issue 30 item 2), on the fakes with Ann and Ben: what the page's
script needs is written on the drawing (each card not yet laid while cards are laid, the three
cards at the front while cards are taken), the form stays whole for a page without script, and
the check route answers a move as the submit path would, every reason in words.

Expected reasons are worked from RULINGS.md's Abstrac section: the row game lays 1-3 unused cards
at the back of the row, then takes 1-3 from its front; the deal game takes 1-3 from the top of
the line (said by count, by the last card taken, or by all the cards taken)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from board_support import drawn, parsed
from page_support import played
from test_page_quality import check_markup

from game_core.games.abstrac.cards import DECK
from game_core.match.model import MatchRequest
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import create_match
from game_core.service.page import check, play, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from crates_driver import Table  # noqa: E402
from fakes import Fakes  # noqa: E402

LINE = list(DECK)
"""The first deal's line as the host fixes it, top first: 1R 1Y 1G 1B 2R 2Y ... 6B."""


def table(rule_set: str) -> tuple[Table, dict[str, str]]:
    fakes = Fakes()
    settings: dict[str, Any] = {"rule_set": rule_set} | ({"deal_lines": [LINE]} if rule_set == "deal" else {})
    request = {
        "game": "abstrac",
        "players": [{"id": "ann", "name": "Ann"}, {"id": "ben", "name": "Ben"}],
        "settings": settings,
        "phase_seconds": 3600,
        "seed": 7,
    }
    created = create_match(fakes.ports, MatchRequest.model_validate(request))
    return Table(fakes, created["match_id"], created), created["secrets"]


def moved(table: Table, player: str, kind: str, body: dict[str, Any]) -> None:
    """A move sent and its phase resolved (an Abstrac move closes its phase)."""
    assert table.submit(player, table.match().phase.name, kind, body)["accepted"]  # type: ignore[union-attr]
    phases.resolve(table.ports, table.match_id, table.number)


def laying() -> tuple[Table, dict[str, str]]:
    """The row game, Ann (protected: the first player) named herself to lay first."""
    found = table("row")
    moved(found[0], "ann", "starter", {"starter": "ann"})
    return found


def page_of(table: Table, secret: str) -> str:
    player = play.sign_in(table.ports, table.match_id, secret)
    return render.page(play.show(table.ports, table.match_id, player.cookie))


def test_while_cards_are_laid_each_card_not_yet_laid_is_marked_and_the_lay_form_is_whole() -> None:
    found, secrets = laying()
    page = page_of(found, secrets["ann"])
    check_markup(page)
    assert re.findall(r'<g data-lay="(\w\w)">', page) == list(DECK)  # nothing laid yet: all 24
    assert "data-take" not in page  # nothing is taken while cards are laid
    form = page[page.index('<form id="move-lay"') : page.index("</form>", page.index('<form id="move-lay"'))]
    assert '<label for="move-lay-cards">' in form and 'name="f.cards"' in form and '<button type="submit">' in form
    scripts = re.findall(r'<script src="/static/([a-z]+\.js)\?v=[0-9a-f]{12}" defer></script>', page)
    assert scripts == ["page.js", "abstrac.js"]
    assert 'id="move-lay"' not in page_of(found, secrets["ben"])  # not his move: no form, nothing to click


def test_while_cards_are_taken_the_three_at_the_front_are_marked_with_their_take() -> None:
    # Through a whole bot match: in the picking stage the first three cards left in the row have a
    # frame carrying data-take 1, 2, 3 (fewer when fewer are left); while laying, and once over, none.
    # The frames are no marked slot's: a card coming to the front is not marked new for it.
    seen_picking = False
    for state in played("abstrac").states:
        part = state.row
        root = parsed(drawn("abstrac", state, "p01", {}).svg)
        takes = [(g.get("data-card"), g.get("data-take")) for g in root.iter() if g.get("data-take")]
        assert not any(g.get("data-mark") for g in root.iter() if g.get("data-take"))
        left = part.row[part.picked :]
        if part.stage == "pick":
            seen_picking = True
            assert takes == [(card, str(n)) for n, card in enumerate(left[:3], start=1)]
        else:
            assert takes == []
        laid = [g.get("data-lay") for g in root.iter() if g.get("data-lay")]
        assert laid == ([card for card in DECK if card not in part.row] if part.stage == "lay" else [])
    assert seen_picking


def test_a_deals_top_three_cards_are_marked_with_their_take() -> None:
    found, secrets = table("deal")
    page = page_of(found, secrets["ann"])
    assert re.findall(r'data-take="(\d)" data-card="(\w\w)"', page) == [("1", "1R"), ("2", "1Y"), ("3", "1G")]
    assert 'id="move-take-count"' in page and "abstrac.js" in page


def verdict(found: Table, secret: str, kind: str, fields: dict[str, str]) -> list[tuple[str, str, str]]:
    player = play.sign_in(found.ports, found.match_id, secret)
    phase = found.match().phase
    assert phase is not None
    hidden = {"csrf": player.csrf, "kind": kind, "phase": phase.name, "number": str(phase.number)}
    said = check.check_move(
        found.ports, found.match_id, player.cookie, hidden | {f"f.{k}": v for k, v in fields.items()}
    )
    assert found.fakes.store.submissions(found.match_id, phase.number) == {}  # nothing stored
    reasons = [(one.code, one.text, one.at) for one in said.findings]
    assert not any(re.search(r"\bcards\.\d", text) for _, text, _ in reasons)  # words, never a field's path
    return reasons


def test_laying_one_to_three_unused_cards_is_legal_and_more_or_twice_the_same_is_not() -> None:
    found, secrets = laying()
    assert verdict(found, secrets["ann"], "lay", {"cards": "2G 4B 3R"}) == []  # the seed text's example
    assert verdict(found, secrets["ann"], "lay", {"cards": "2G 4B 3R 5G"}) == [
        ("card_count", "a laying move lays 1, 2 or 3 cards, not 4", "move-lay")
    ]
    assert verdict(found, secrets["ann"], "lay", {"cards": "2G 2G"}) == [
        ("card_repeated", "2G is named 2 times", "move-lay")
    ]


def test_a_card_laid_before_cannot_be_laid_again() -> None:
    found, secrets = laying()
    moved(found, "ann", "lay", {"cards": ["2G", "4B", "3R"]})
    # Ben lays next; 2G lies in the row already.
    assert verdict(found, secrets["ben"], "lay", {"cards": "5G 2G"}) == [
        ("card_laid", "2G has already been laid", "move-lay")
    ]
    assert verdict(found, secrets["ben"], "lay", {"cards": "5G 1G"}) == []


def test_a_deals_take_is_checked_each_way_it_can_be_said() -> None:
    found, secrets = table("deal")
    ann = secrets["ann"]  # the first player starts the first deal
    assert verdict(found, ann, "take", {"count": "3"}) == []
    assert verdict(found, ann, "take", {"count": "4"}) == [
        ("card_count", "a move takes 1, 2 or 3 cards, not 4", "move-take")
    ]
    # The top three are 1R 1Y 1G: 1B is the fourth.
    assert verdict(found, ann, "take", {"last": "1B"}) == [
        ("card_not_on_top", "1B is not among the top cards of the line (1R, 1Y, 1G)", "move-take")
    ]
    assert verdict(found, ann, "take", {"cards": "1R 1G"}) == [
        ("cards_not_on_top", "the top 2 cards are 1R, 1Y, not 1R, 1G", "move-take")
    ]
