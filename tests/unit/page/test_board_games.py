"""Each game drawn on the player's page (issue 30 item 1): Pushing Crates, Palindrome Construction
and Abstrac, each from a real match (the game's own setup and resolutions, or its bot match), the
drawing read back and compared with what the rules say should be drawn, worked from the rule text
in each test's comments; every board is one well-formed SVG (`board_support.parsed`); and nothing
of another participant's secret reaches a board or its words."""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from board_support import drawn, fills, marks, parsed, texts
from page_support import played

from game_core.games import registry
from game_core.games.abstrac.board import COLOURS
from game_core.games.crates.models import MultipliersSubmission, Push, RoundSubmission
from game_core.games.protocol import Resolution

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
from bot_matches import players_for  # noqa: E402

GAMES = ("crates", "palindrome", "abstrac")
CRATES = ("ada", "bo", "cy")
NAMES = {"ada": "Ada Lovelace", "bo": "Bo Baggins", "cy": "Cy Twombly"}


def _names(players: list[str]) -> dict[str, str]:
    return {p: f"Player {p.upper()}" for p in players}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_position_of_a_bot_match_is_drawn_as_one_svg_with_its_words(game_id: str) -> None:
    game = registry.load(game_id)
    for state in played(game_id).states:
        for player in players_for(game):
            board = drawn(game_id, state, player, _names(list(players_for(game))))
            parsed(board.svg)
            assert len(board.alt) > 40 and "<" not in board.alt


def _crates_round_1() -> Any:
    """Ada, Bo and Cy through the pregame and round 1, as the rules resolve them."""
    game = registry.load("crates")
    state = game.setup(game.Settings(), CRATES, random.Random(7))
    pregame = {"ada": {"multipliers": MultipliersSubmission(multipliers=[2, 1, 1, 0, -1, -1])}}
    state = game.resolve(state, Resolution(pregame, random.Random(7)))
    right, left = Push(crate="ada", direction="right"), Push(crate="cy", direction="left")
    round_1 = {
        "ada": {"round": RoundSubmission(pushes=[right, right], ground="ice")},
        "bo": {"round": RoundSubmission(pushes=[Push(crate="cy", direction="right")])},
        "cy": {"round": RoundSubmission(pushes=[left])},
    }
    return game, game.resolve(state, Resolution(round_1, random.Random(7)))


def test_crates_are_drawn_where_the_rules_put_them_and_each_sees_only_their_own_rounds() -> None:
    # Worked from the rules: every crate starts at 0. Ada's crate gets 2 right pushes and no left
    # on ice (x3): it moves (2 - 0) x 3 = 6, to 6; Cy's gets 1 right and 1 left: R is not more
    # than L, it stays at 0; Bo's gets none. Revealed to everyone: the location mod 5, so Ada 1,
    # Bo 0, Cy 0. Ada's crate passed 5: 1 point, times her round-1 multiplier 2: her total is 2.
    game, state = _crates_round_1()
    ada = parsed(drawn("crates", state, "ada", NAMES).svg)
    found = marks(ada)
    crates = {p: texts(found[f"crate-{p}"]) for p in CRATES}
    assert crates == {"ada": ["1"], "bo": ["0"], "cy": ["0"]}
    titles = {p: found[f"crate-{p}"].findtext("{*}title") for p in CRATES}  # spoken to Ada, of the others
    assert titles == {"ada": "Your crate", "bo": "Bo Baggins's crate", "cy": "Cy Twombly's crate"}
    assert "\u21922</text>" in drawn("crates", state, "ada", NAMES).svg  # her pushes beside her crate
    x = {p: float(found[f"crate-{p}"].find("{*}rect").get("x")) for p in CRATES}  # type: ignore[union-attr]
    assert x["bo"] == x["cy"] < x["ada"]  # a cell to the right per unit of remainder
    assert texts(found["round-1"]) == ["1", "x2", "ice", "2", "pushes: Ada Lovelace \u21922"]
    assert [texts(found[f"round-{n}"]) for n in (2, 6)] == [["2", "x1"], ["6", "x-1"]]
    # Bo sees every crate where Ada does, and nothing of hers: his own multipliers (none sent:
    # the listed order, round 1 gets -1) and his own push on Cy's crate.
    bo_board = drawn("crates", state, "bo", NAMES)
    bo = marks(parsed(bo_board.svg))
    assert {p: texts(bo[f"crate-{p}"])[0] for p in CRATES} == {"ada": "1", "bo": "0", "cy": "0"}
    assert texts(bo["round-1"]) == ["1", "x-1", "stone", "0", "pushes: Cy Twombly \u2192"]
    for secret in (">ice<", "ground ice", "\u21922", "Ada Lovelace \u2192"):  # Ada's ground, her pushes
        assert secret not in bo_board.svg and secret not in bo_board.alt


def _palindrome_positions() -> list[tuple[Any, str]]:
    game = registry.load("palindrome")
    return [(state, p) for state in played("palindrome").states for p in players_for(game)[:2]]


def test_palindrome_draws_your_strings_as_tiles_your_items_and_the_rounds_bidding_table() -> None:
    # The rules: your strings, digits and items are yours alone until the end; at the end of a
    # bidding, who received each pack and item is revealed (never the cards); at the end every
    # player's strings. So the board shows each of the viewer's three strings digit by digit,
    # the digits they still place, one entry per item they hold, the latest round's packs digit
    # by digit with their receiver once resolved; and every player's strings once it is over.
    game = registry.load("palindrome")
    names = _names(list(players_for(game)))
    for state, p in _palindrome_positions():
        found = marks(parsed(drawn("palindrome", state, p, names).svg))
        seat = state.seats[p]
        for number, string in enumerate(seat.strings, start=1):
            written = texts(found[f"string-{number}"])[1:]
            assert "".join(written) == (string or "(empty)")
        assert "".join(texts(found["digits"])[1:]) == (seat.digits or "none")
        assert sorted(key for key in found if key.startswith("item-") and key.count("-") == 1) == [
            f"item-{i}" for i in range(len(seat.items))
        ]
        if not state.rounds:  # the pregame: no round on offer yet
            assert not any(key.startswith("pack-") for key in found)
            continue
        latest = state.rounds[-1]
        for index, digits in enumerate(latest.packs):
            row = texts(found[f"pack-{latest.round}-{index + 1}"])
            assert "".join(row[1 : 1 + len(digits)]) == digits
            if latest.pack_winners is not None:
                winner = latest.pack_winners[index]
                assert row[-1] == (names[winner] if winner else "nobody")
        finals = {key for key in found if key.startswith("final-")}
        assert finals == (set() if state.final is None else {f"final-{q}" for q in state.players})


def test_abstrac_draws_the_row_as_cards_in_their_colours_and_each_players_combinations() -> None:
    # The rules: the cards are numbers 1-6 in four colours; a card taken from the front of the
    # row leaves it. So each place of the row still holding a card shows its number and colour
    # letter on a face of its colour, a taken place is empty, and each player's taken cards show
    # in the order taken.
    for state in played("abstrac").states:
        part = state.row
        found = marks(parsed(drawn("abstrac", state, "p01", {}).svg))
        gone = part.picked
        for index, card in enumerate(part.row):
            slot = found[f"slot-{index}"]
            if index < gone:
                assert texts(slot) == []
            else:
                assert texts(slot) == [card[0], card[1]] and fills(slot)[0] == COLOURS[card[1]][0]
        for p in state.players:
            cards = texts(found[f"player-{p}"])[3:][: 2 * len(part.taken[p])]  # after name, score, clock
            assert [a + b for a, b in zip(cards[::2], cards[1::2], strict=True)] == part.taken[p]
    # Worked from the rules: 3, 4 and 5 of red are a run of three (3 points); 5 red, yellow and
    # green a set of three (2 points): 5 points over 5 cards, a score of 1.
    state = played("abstrac").states[-1].model_copy(deep=True)
    state.row.taken["p01"] = ["3R", "4R", "5R", "5Y", "5G"]
    said = texts(marks(parsed(drawn("abstrac", state, "p02", {}).svg))["player-p01"])
    assert said[0].startswith("p01") and said[1] == "score 5/5 = 1.0000"
    assert said[-2:] == ["Three-of-a-kind of 5: 2 points", "Three-in-a-row of red: 3 points"]


@pytest.mark.parametrize("game_id", ["crates", "palindrome"])
def test_no_board_shows_anything_of_another_participants_seat(game_id: str) -> None:
    # Each other participant's private seat changed (the games' own non-interference change):
    # the viewer's board and its words stay the same; their own changed, they differ somewhere.
    game = registry.load(game_id)
    change = game.demo.private_seat
    assert change is not None
    everyone = list(players_for(game))
    names = _names(everyone)
    own_shows = set()
    for state in played(game_id).states:
        data = state.model_dump(mode="json")
        for p in everyone[:3]:
            before = drawn(game_id, state, p, names)
            others = copy.deepcopy(data)
            for q in everyone:
                if q != p:
                    change(others, q)
            assert drawn(game_id, game.State.model_validate(others), p, names) == before
            own = copy.deepcopy(data)
            change(own, p)
            if drawn(game_id, game.State.model_validate(own), p, names) != before:
                own_shows.add(p)
    assert own_shows == set(everyone[:3])


@pytest.mark.parametrize("game_id", GAMES)
def test_a_name_with_a_character_xml_cannot_hold_still_draws_a_board_the_page_reads(game_id: str) -> None:
    # A host may name a player "Bell\x07" (the model bounds only the length); XML 1.0 cannot hold
    # the BEL character, so the board drops it and stays one well-formed SVG.
    game = registry.load(game_id)
    players = list(players_for(game))
    names = {p: f"Bell\x07 {p} <&>" for p in players}
    for state in played(game_id).states[-2:]:
        board = drawn(game_id, state, players[0], names)
        root = parsed(board.svg)
        assert "\x07" not in board.svg and f"Bell {players[0]} <&>" in "".join(texts(root))
