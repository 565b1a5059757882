"""Worked match: Abstrac, the `row` rule set (Death Match 12), checked by hand against the rule
text (seeds/003_632569c66eaadc58.txt, "Death Match 12") and RULINGS.md "Abstrac".

Covers: the protected player naming the starter, laying and picking 1-3 cards, the player who did
not lay the last card starting the picks, combinations (six- and five-in-a-row, a three-of-a-kind),
the exact fraction score, the clock (24 h a move, a 48 h reserve that overtime eats, a host
extension that does not count against the mover) and a timed-out move with the reserve gone, which
with `on_empty_reserve: smallest_move` (the configurable ruling) the service plays: the single
lowest unused card.

Cards: number then colour (R, Y, G, B). The order of cards: by number, then colour R, Y, G, B.
"""

from __future__ import annotations

import pytest
from worked_support import DAY, garnets_spent_in_a_legal_match, phase, record, replay_as_the_cli_does

RESERVE = 2 * DAY


def lay(*cards: str) -> dict[str, dict[str, list[str]]]:
    return {"lay": {"cards": list(cards)}}


def pick(count: int) -> dict[str, dict[str, int]]:
    return {"pick": {"count": count}}


def move(number: int, name: str, player: str, body: dict, *, elapsed: int = 600, extension: int = 0) -> dict:
    """A move made in time: the phase closes on the mover's submission (not timed out)."""
    return phase(number, name, {player: body}, elapsed=elapsed, extension=extension, timed_out=False)


L, P = "Laying move", "Picking move"
RECORD = record(
    "worked-abstrac-row",
    "abstrac",
    {"rule_set": "row", "protected": "ann", "on_empty_reserve": "smallest_move"},
    ["ann", "bob"],
    {"ann": 0, "bob": 0},
    [
        move(1, "Choose starter", "ann", {"starter": {"starter": "ann"}}, elapsed=3_600),
        # Laying. Row positions in brackets.
        move(2, L, "ann", lay("1G", "2G", "3G"), elapsed=7_200),  # [1-3]
        # bob takes 25 h: 1 h overtime comes off his reserve: 172800 - 3600 = 169200.
        move(3, L, "bob", lay("2R", "3R", "4R"), elapsed=DAY + 3_600),  # [4-6]
        # ann's move took 100000 s, of which the host's extension was 20000: she used 80000 s, under
        # 24 h, so no overtime (without the extension it would be 13600 s). Reserve stays 172800.
        move(4, L, "ann", lay("4G", "5G", "6G"), elapsed=100_000, extension=20_000),  # [7-9]
        # bob makes no move: the phase times out after his whole allowance, 24 h + 169200 s. His
        # reserve is gone (0); the service lays the lowest unused card. Laid so far: 1G 2G 3G 2R 3R
        # 4R 4G 5G 6G, so the lowest unused is 1R.                                     # [10] 1R
        phase(5, L, {}, elapsed=DAY + 169_200, timed_out=True),
        move(6, L, "ann", lay("5R", "6R", "1B")),  # [11-13]
        move(7, L, "bob", lay("2B", "3B", "1Y")),  # [14-16]
        move(8, L, "ann", lay("2Y", "3Y", "4B")),  # [17-19]
        move(9, L, "bob", lay("5B", "6B", "4Y")),  # [20-22]
        move(10, L, "ann", lay("5Y", "6Y")),  # [23-24] ann lays the last card, so bob picks first
        # Row, front first: 1G 2G 3G 2R 3R 4R 4G 5G 6G 1R 5R 6R 1B 2B 3B 1Y 2Y 3Y 4B 5B 6B 4Y 5Y 6Y
        move(11, P, "bob", pick(3)),  # 1G 2G 3G
        move(12, P, "ann", pick(3)),  # 2R 3R 4R
        move(13, P, "bob", pick(3)),  # 4G 5G 6G
        move(14, P, "ann", pick(3)),  # 1R 5R 6R
        move(15, P, "bob", pick(3)),  # 1B 2B 3B
        move(16, P, "ann", pick(3)),  # 1Y 2Y 3Y
        move(17, P, "bob", pick(3)),  # 4B 5B 6B
        move(18, P, "ann", pick(2)),  # 4Y 5Y
        move(19, P, "bob", pick(1)),  # 6Y
    ],
)

# ann took 1R-6R and 1Y-5Y: 11 cards. No number three times (R and Y of 1-5, R of 6): no set.
#   Six-in-a-row of red 12 + five-in-a-row of yellow 6 = 18 points. Score 18/11 (1.6364).
# bob took 1G-6G, 1B-6B, 6Y: 13 cards. Three 6s (G, B, Y): 2. Six-in-a-row of green 12, of blue 12.
#   26 points. Score 26/13 = 2.
# 2 > 18/11: bob wins on score; ann (the protected player wins only a full tie) is the loser, EC.
# Garnets: none in this Death Match. Clocks at the end: ann 172800 left, bob 0.
ANN = ["2R", "3R", "4R", "1R", "5R", "6R", "1Y", "2Y", "3Y", "4Y", "5Y"]
BOB = ["1G", "2G", "3G", "4G", "5G", "6G", "1B", "2B", "3B", "4B", "5B", "6B", "6Y"]


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    return replay_as_the_cli_does(RECORD, tmp_path_factory.mktemp("row"))


def test_every_move_is_legal_and_in_time():
    assert garnets_spent_in_a_legal_match(RECORD) == {"ann": 0, "bob": 0}


def test_the_service_laid_the_lowest_unused_card_for_bob(outcome):
    by_service = outcome["result"]["details"]["moves_by_service"]
    assert [(m["player"], m["kind"], m["cards"], m["overtime"], m["reserve_after"]) for m in by_service] == [
        ("bob", "lay", ["1R"], 169_200, 0)
    ]


@pytest.mark.parametrize(("player", "reserve"), [("ann", RESERVE), ("bob", 0)])
def test_reserves(outcome, player, reserve):
    assert outcome["public_view"]["public"]["clocks"][player]["reserve_left"] == reserve


@pytest.mark.parametrize(
    ("player", "cards", "points", "score"),
    [("ann", ANN, 18, "18/11"), ("bob", BOB, 26, "2")],
)
def test_hands_and_scores(outcome, player, cards, points, score):
    hand = outcome["result"]["details"]["players"][player]
    assert (hand["cards"], hand["points"], hand["score"], hand["points_over_cards"]) == (
        cards,
        points,
        score,
        f"{points}/{len(cards)}",
    )


@pytest.mark.parametrize(
    ("player", "combinations"),
    [
        ("ann", [("Six-in-a-row of red", 12), ("Five-in-a-row of yellow", 6)]),
        ("bob", [("Three-of-a-kind of 6", 2), ("Six-in-a-row of green", 12), ("Six-in-a-row of blue", 12)]),
    ],
)
def test_combinations(outcome, player, combinations):
    found = outcome["result"]["details"]["players"][player]["combinations"]
    assert [(c["name"], c["points"]) for c in found] == combinations


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ("standings", [
            {"place": 1, "player": "bob", "score": "2", "tied_with": []},
            {"place": 2, "player": "ann", "score": "18/11", "tied_with": []},
        ]),
        ("tol", []),
        ("ec", ["ann"]),
        ("undecided", []),
        ("garnets", {"ann": 0, "bob": 0}),
    ],
)  # fmt: skip
def test_result(outcome, field, expected):
    assert outcome["result"][field] == expected


def test_decided_by_score(outcome):
    details = outcome["result"]["details"]
    assert (details["winner"], details["loser"], details["decided_by"]) == ("bob", "ann", "score")
