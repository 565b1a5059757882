"""Puzzler's Clubs' draft on the player's page (issue 30 items 1-3), on the fakes: the board carries
what the page's draft picker (pickers.js) offers (the cards out of the draft, the viewer's unused
tokens); the check of a draft answers each reason in words at the form's row of the card it is
about; the form's fields say the values they take. Expected reasons are worked by hand from
RULINGS.md's Clubs section: exactly six different cards with priorities 1-6, each once; the
community card and the hole cards are out of the draft; each club drafted names one of the
participant's unused tokens (none is earned before a puzzle of Round 1 is solved); 2 garnets lower
one priority by 1."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from board_support import marks, parsed

from game_core.match.model import MatchRequest
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import create_match
from game_core.service.page import check, play, render
from game_core.service.page.board import section

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from fakes import Fakes  # noqa: E402

SEATS = ("ada", "bo", "cy")


class Drafting:
    """A Clubs match in Round 1's Phase A (three players, each with a guest), Ada signed in."""

    def __init__(self) -> None:
        self.fakes = Fakes()
        players = [{"id": p, "name": p.capitalize(), "guests": [{"id": f"{p}-guest"}]} for p in SEATS]
        request = {"game": "clubs", "players": players, "phase_seconds": 3600, "seed": 7}
        created = create_match(self.fakes.ports, MatchRequest.model_validate(request))
        self.match_id = created["match_id"]
        self.ada = play.sign_in(self.fakes.ports, self.match_id, created["secrets"]["ada"])
        self.seen = play.show(self.fakes.ports, self.match_id, self.ada.cookie)
        dealt = play.view_of(self.seen)["public"]["rounds"][0]
        self.out = {dealt["community"], *dealt["holes"].values()}

    def free(self, suit: str, count: int) -> list[str]:
        """The first `count` cards of `suit`, from the deuce up, that are in the draft."""
        return [rank + suit for rank in "23456789TJQKA" if rank + suit not in self.out][:count]

    def form(self, picks: list[tuple[str, str, str]], lowered: str = "") -> dict[str, str]:
        phase = self.seen.match.phase
        assert phase is not None
        posted = {"csrf": self.ada.csrf, "kind": "draft", "phase": phase.name, "number": str(phase.number)}
        for row, (card, priority, token) in enumerate(picks):
            posted |= {f"f.picks.{row}.card": card, f"f.picks.{row}.priority": priority, f"f.picks.{row}.token": token}
        return posted | {"f.lowered": lowered}

    def reasons(self, picks: list[tuple[str, str, str]], lowered: str = "") -> list[tuple[str, str, str]]:
        said = check.check_move(self.fakes.ports, self.match_id, self.ada.cookie, self.form(picks, lowered))
        return [(one.code, one.text, one.at) for one in said.findings]


def _in_order(cards: list[str]) -> list[tuple[str, str, str]]:
    return [(card, str(priority), "") for priority, card in enumerate(cards, start=1)]


def test_six_cards_of_the_draft_in_order_are_legal() -> None:
    table = Drafting()
    assert table.reasons(_in_order(table.free("S", 3) + table.free("H", 3))) == []


def test_a_hole_or_community_card_is_said_at_its_rows_card() -> None:
    table = Drafting()
    public = sorted(table.out)[0]
    cards = table.free("S", 2) + [public] + table.free("H", 3)  # the public card as priority 3
    found = table.reasons(_in_order(cards))
    text = f"{public} is the community card or a hole card: not in the draft"
    assert found == [("card_not_in_draft", text, "move-draft-picks-2-card")]


def test_a_club_without_a_token_and_a_token_on_a_non_club_are_said_at_their_rows_token() -> None:
    table = Drafting()
    # Row 2 (priority 2) a club with no token; row 4 a spade naming token 1.1.
    picks = _in_order(table.free("S", 1) + ["AC"] + table.free("H", 4))
    spade = table.free("H", 4)[1]
    picks[3] = (spade, "4", "1.1")
    found = table.reasons(picks)
    assert found == [
        ("token_missing", "AC is a club: name one of your unused tokens for it", "move-draft-picks-1-token"),
        ("token_not_club", f"{spade} is not a club: it takes no token", "move-draft-picks-3-token"),
    ]


def test_lowering_a_priority_without_two_garnets_is_said_at_the_lowered_numbers() -> None:
    table = Drafting()
    # Lowering priority 1 costs 2 garnets; Ada holds none.
    [(code, text, at)] = table.reasons(_in_order(table.free("S", 3) + table.free("D", 3)), lowered="1")
    assert (code, at) == ("garnets_short", "move-draft-lowered") and text.endswith("but your balance is 0")


def test_two_cards_at_one_priority_are_refused_for_the_whole_draft() -> None:
    table = Drafting()
    picks = _in_order(table.free("S", 6))
    picks[5] = (picks[5][0], "5", "")  # priorities 1 2 3 4 5 5: 6 is missing, 5 twice
    [(code, text, at)] = table.reasons(picks)
    # About the draft as a whole (no one input holds it: the page shows it under the form).
    assert text == "draft: the priorities must be 1 to 6, each once" and at == "move-draft-draft"


def _board(table: Drafting) -> dict[str, Any]:
    html = section(table.seen, play.view_of(table.seen), play.names(table.seen.match), None).html
    return marks(parsed(html[html.index("<svg") : html.index("</svg>") + 6]))


def test_the_board_carries_the_cards_out_of_the_draft_and_the_unused_tokens() -> None:
    table = Drafting()
    found = _board(table)
    # The community card and the six hole cards, as the deal draws them (public: never clubs).
    assert set(found["deal-1"].get("data-out-of-draft", "").split()) == table.out and len(table.out) == 7
    assert found["tokens"].get("data-unused") == ""  # no puzzle solved yet: no token


def test_the_draft_form_says_the_values_each_field_takes_and_the_page_loads_the_picker() -> None:
    table = Drafting()
    page = render.page(table.seen)
    assert page.index('<script src="/static/pickers.js?v=') < page.index('<script src="/static/clubs.js?v=')
    start = page.index('<form id="move-draft"')
    legend = page[page.index("<legend>", start) : page.index("</legend>", start)]
    assert "1 (drafted first) to 6, each once" in legend and "TH for the 10 of hearts" in legend
    assert "unused Club Tokens, as round.puzzle" in legend
    lowered = page[page.index('id="move-draft-lowered-hint"') :][:300]
    assert "for 2 garnets each" in lowered


def test_in_phase_b_the_board_carries_the_cards_to_build_from() -> None:
    table = Drafting()
    dealt = play.view_of(table.seen)["public"]["rounds"][0]
    match = table.fakes.store.get(table.match_id)
    assert match.phase is not None
    table.fakes.clock.set(match.phase.deadline)  # Round 1's Phase A runs out with no draft sent
    phases.resolve(table.fakes.ports, table.match_id, match.phase.number)
    phases.announce(table.fakes.ports, table.match_id, match.phase.number)
    table.seen = play.show(table.fakes.ports, table.match_id, table.ada.cookie)
    # Nobody drafted, so Ada builds from the community card and her own hole card alone.
    usable = _board(table)["build-1"].get("data-usable", "").split()
    assert sorted(usable) == sorted([dealt["community"], dealt["holes"]["ada"]])
    # The build's and the guesses' fields say their values before a first try (RULINGS, Build and
    # Guess: 1 to 5 cards from the community card, the hole card and the cards won; up to five
    # different cards for each other participant, the teammate too).
    page = render.page(table.seen)
    assert "Cards as TH" in page[page.index('id="move-build-cards-hint"') :][:300]
    start = page.index('<form id="move-guess"')
    legend = page[page.index("<legend>", start) : page.index("</legend>", start)]
    assert "Up to five different cards as TH" in legend and "your teammate too" in legend
