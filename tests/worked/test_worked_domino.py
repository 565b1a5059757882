"""Worked match: Domino Auction (one rule set), four players, checked by hand against the rule text
(seeds/004_b4daeb01e3f72c4b.txt) and RULINGS.md "Domino Auction".

Covers: a tied top bid falling to the next amount bid once ("the next highest winning on ties"),
every amount tied (nobody gets the tile), a bid of 0 (no bid), every chip bid spent whether won or
not, a player's chips all spent, tiles placed in the phase after their auction (as cells and as
shape, orientation and anchor; turned and flipped), a bought 1x1 square (2 garnets), a tile won
and not placed (forfeited), the largest fully covered square, a tie on the side broken by chips
left (for the winner, by the rule text's clarification) and a tie on side and chips broken by the
covered cells outside the square (for the EC), 2 ToL for the first, garnets 2k.

The host fixes all 60 tiles. Cells: column letter A-L, row number 1-12 from the top.
"""

from __future__ import annotations

import pytest
from worked_support import garnets_spent_in_a_legal_match, phase, record, replay_as_the_cli_does

FILLER = ["I5", "T4", "S4", "Z5", "W5", "F5", "N5", "U5", "Y5", "T5", "L5", "P5", "L3", "X5", "I4", "S4", "T4"]
TILES = {
    1: ["O4", "O4", "O4", "O4", "O4", "I3", "O4", *FILLER[:13]],  # tiles 1-20
    2: ["V5", "L4", "V5", "I3", *FILLER[:16]],  # tiles 21-40
    3: ["I5", "T4", "I3", *FILLER],  # tiles 41-60
}


def bids(**chips_on_tile: int) -> dict[str, dict[str, list[dict[str, int]]]]:
    """`bids(t1=50, t3=0)`: 50 chips on tile 1 and 0 on tile 3."""
    return {"bid": {"bids": [{"tile": int(tile[1:]), "chips": chips} for tile, chips in chips_on_tile.items()]}}


def place(*placements: dict[str, object]) -> dict[str, dict[str, list[dict[str, object]]]]:
    return {"place": {"placements": list(placements)}}


def tile(number: int | str, *cells: str) -> dict[str, object]:
    return {"tile": number, "cells": list(cells)}


RECORD = record(
    "worked-domino",
    "domino",
    {"rule_set": "default", "tiles": {str(r): shapes for r, shapes in TILES.items()}},
    ["ann", "bob", "cat", "dan"],
    {"ann": 2, "bob": 0, "cat": 0, "dan": 0},
    [
        # Auction 1 (300 chips each).
        #   tile 1 O4: bob 50, cat 50 tie at the top and cancel; the next amount, ann's 20, is bid
        #     once: ann.
        #   tile 2 O4: bob 60 > dan 40: bob.
        #   tile 3 O4: cat 45 = dan 45; ann's 0 is no bid: nobody.
        #   tile 4 O4: cat 30 alone: cat.
        #   tile 5 O4: dan 25 = cat 25, then bob 10 = ann 10: every amount tied: nobody.
        #   tile 6 I3: cat 5: cat.          tile 7 O4: dan 35: dan.
        # Spent (all bid, won or not): ann 20 + 0 + 10 = 30; bob 50 + 60 + 10 = 120;
        #   cat 50 + 45 + 30 + 25 + 5 = 155; dan 40 + 45 + 25 + 35 = 145.
        phase(
            1,
            "Auction 1",
            {
                "ann": bids(t1=20, t3=0, t5=10),
                "bob": bids(t1=50, t2=60, t5=10),
                "cat": bids(t1=50, t3=45, t4=30, t5=25, t6=5),
                "dan": bids(t2=40, t3=45, t5=25, t7=35),
            },
        ),
        # Placing 1: ann's O4 (tile 1) and bob's O4 (tile 2, written as O4 orientation 1 at A1)
        #   on A1 B1 A2 B2; cat's O4 (tile 4) there too and her I3 (tile 6) on C1 C2 C3, touching
        #   B1 and B2; dan's O4 (tile 7) in the far corner, K11 L11 K12 L12 (a first piece may go
        #   anywhere).
        # Auction 2 (left: ann 270, bob 180, cat 145, dan 155).
        #   tile 21 V5: bob 40 > ann 15 = cat 15: bob (the top is bid once).
        #   tile 22 L4: ann 30: ann.        tile 24 I3: dan 20 > cat 10: dan.
        # Spent: ann 15 + 30 = 45; bob 40; cat 15 + 10 = 25; dan 20.
        phase(
            2,
            "Auction 2 and placing 1",
            {
                "ann": {**bids(t21=15, t22=30), **place(tile(1, "A1", "B1", "A2", "B2"))},
                "bob": {**bids(t21=40), **place({"tile": 2, "shape": "O4", "orientation": 1, "anchor": "A1"})},
                "cat": {**bids(t21=15, t24=10), **place(tile(4, "A1", "B1", "A2", "B2"), tile(6, "C1", "C2", "C3"))},
                "dan": {**bids(t24=20), **place(tile(7, "K11", "L11", "K12", "L12"))},
            },
        ),
        # Placing 2: ann's L4 (tile 22), flipped, on C1 C2 C3 B3 (touching B1, B2), then a bought
        #   square on A3 (touching A2 and B3): A1-C3 is covered. 2 garnets, her whole balance.
        #   bob's V5 (tile 21) as V5 orientation 4 at A1. V5 as drawn is #.. / #.. / ###; the
        #   orientations are numbered as drawn, then turned a quarter, a half, three quarters
        #   clockwise (all four differ for V5). Three quarters clockwise is ..# / ..# / ###, so
        #   from A1 it covers C1 C2 C3 A3 B3: A1-C3 is covered.
        #   dan sends bids and no placement: his I3 (tile 24) is forfeited.
        # Auction 3 (left: ann 225, bob 140, cat 120, dan 135).
        #   tile 41 I5: cat 120 = dan 120: nobody.   tile 42 T4: bob 15 = dan 15: nobody.
        #   tile 43 I3: bob 10: bob.  ann sends no bids: she bids on nothing.
        # Spent: ann 0; bob 15 + 10 = 25; cat 120 (all she had); dan 120 + 15 = 135 (all he had).
        phase(
            3,
            "Auction 3 and placing 2",
            {
                "ann": place(tile(22, "C1", "C2", "C3", "B3"), tile("square", "A3")),
                "bob": {
                    **bids(t42=15, t43=10),
                    **place({"tile": 21, "shape": "V5", "orientation": 4, "anchor": "A1"}),
                },
                "cat": bids(t41=120),
                "dan": bids(t41=120, t42=15),
            },
        ),
        # Placing 3: bob's I3 (tile 43) on D1 E1 F1, touching C1. ann, cat and dan have
        #   nothing to place: the phase owes them nothing.
        phase(4, "Placing 3", {"bob": place(tile(43, "D1", "E1", "F1"))}),
    ],
)

# Final boards:
#   ann A1 B1 A2 B2 | C1 C2 C3 B3 | A3: the 3x3 A1-C3, nothing outside.
#   bob A1 B1 A2 B2 | C1 C2 C3 A3 B3 | D1 E1 F1: the 3x3 A1-C3; 3 cells outside (no 4x4: D2 bare).
#   cat A1 B1 A2 B2 | C1 C2 C3: A3 and B3 bare, so the 2x2 A1-B2; 3 cells outside.
#   dan K11 L11 K12 L12: the 2x2; nothing outside.
# Chips left: ann 300 - 30 - 45 - 0 = 225; bob 300 - 120 - 40 - 25 = 115; cat 300 - 155 - 25 - 120
#   = 0; dan 300 - 145 - 20 - 135 = 0.
# Ranking by side, then chips left (more first), then cells outside (fewer first):
#   ann (3, 225, 0) before bob (3, 115, 3) on chips; dan (2, 0, 0) before cat (2, 0, 3) on cells.
#   1 ann, 2 bob, 3 dan, 4 cat. ann wins 2 ToL; cat, last, is EC. Garnets 2k: 6, 6, 4, 4.
EXPECTED_WINNERS = {
    1: {1: "ann", 2: "bob", 4: "cat", 6: "cat", 7: "dan"},
    2: {21: "bob", 22: "ann", 24: "dan"},
    3: {43: "bob"},
}
EXPECTED_SPENT = [
    {"ann": 30, "bob": 120, "cat": 155, "dan": 145},
    {"ann": 45, "bob": 40, "cat": 25, "dan": 20},
    {"ann": 0, "bob": 25, "cat": 120, "dan": 135},
]
A1_C3 = ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"]


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    return replay_as_the_cli_does(RECORD, tmp_path_factory.mktemp("domino"))


def test_every_submission_is_legal_and_the_garnets_spent_are_anns_square():
    assert garnets_spent_in_a_legal_match(RECORD) == {"ann": 2, "bob": 0, "cat": 0, "dan": 0}


def test_the_match_is_over(outcome):
    assert (outcome["finished"], outcome["phases"]) == (True, 4)


@pytest.mark.parametrize("round_number", [1, 2, 3])
def test_each_auctions_winners(outcome, round_number):
    tiles = outcome["public_view"]["public"]["tiles"]
    won = {t["tile"]: t["won_by"] for t in tiles if t["round"] == round_number and t["won_by"]}
    assert won == EXPECTED_WINNERS[round_number]


def test_chips_spent_each_auction_and_left(outcome):
    public = outcome["public_view"]["public"]
    assert [a["spent"] for a in public["auctions"]] == EXPECTED_SPENT
    assert public["chips_left"] == {"ann": 225, "bob": 115, "cat": 0, "dan": 0}


def test_the_tile_not_placed_is_forfeited(outcome):
    assert outcome["public_view"]["public"]["forfeited"] == {"ann": [], "bob": [], "cat": [], "dan": [24]}


@pytest.mark.parametrize(
    ("player", "cells"),
    [
        ("ann", [["A1", "B1", "A2", "B2"], ["C1", "C2", "C3", "B3"], ["A3"]]),
        ("bob", [["A1", "B1", "A2", "B2"], ["C1", "C2", "C3", "A3", "B3"], ["D1", "E1", "F1"]]),
        ("cat", [["A1", "B1", "A2", "B2"], ["C1", "C2", "C3"]]),
        ("dan", [["K11", "L11", "K12", "L12"]]),
    ],
)
def test_boards(outcome, player, cells):
    board = outcome["public_view"]["public"]["boards"][player]
    assert [sorted(piece["cells"]) for piece in board] == [sorted(c) for c in cells]


@pytest.mark.parametrize(
    ("player", "expected"),
    [
        ("ann", {"side": 3, "square": A1_C3, "chips_left": 225, "outside": 0}),
        ("bob", {"side": 3, "square": A1_C3, "chips_left": 115, "outside": 3}),
        ("cat", {"side": 2, "square": ["A1", "B1", "A2", "B2"], "chips_left": 0, "outside": 3}),
        ("dan", {"side": 2, "square": ["K11", "L11", "K12", "L12"], "chips_left": 0, "outside": 0}),
    ],
)
def test_squares(outcome, player, expected):
    assert outcome["result"]["details"][player] == expected


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ("standings", [
            {"place": 1, "player": "ann", "score": "3", "tied_with": []},
            {"place": 2, "player": "bob", "score": "3", "tied_with": []},
            {"place": 3, "player": "dan", "score": "2", "tied_with": []},
            {"place": 4, "player": "cat", "score": "2", "tied_with": []},
        ]),
        ("tol", ["ann"]),
        ("tol_awarded", {"ann": 2}),
        ("ec", ["cat"]),
        ("undecided", []),
        ("garnets", {"ann": 6, "bob": 6, "cat": 4, "dan": 4}),
    ],
)  # fmt: skip
def test_result(outcome, field, expected):
    assert outcome["result"][field] == expected
