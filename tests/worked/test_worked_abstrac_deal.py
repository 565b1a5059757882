"""Worked match: Abstrac, the `deal` rule set (the original), checked by hand against the rule
text (seeds/003_632569c66eaadc58.txt, "Abstrac") and RULINGS.md "Abstrac".

Covers: host-fixed lines for both deals, the three ways to say a take (count, last card, all
cards), deal score = base x the cards the opponent took, a deal ending at or past the target with
the totals equal (another deal is played), the zero swap deciding the match, the starter
alternating, and the period clock with its time control: a host's "resolve now" with no move
(the time used is carried into the mover's next move), a host extension that does not count
against the mover, periods used up by late moves, and +1 period at the start of the next deal.

Period: 60 s (the text's "5 periods of 1 minute"); a move within its first period uses none, each
further period it starts uses one up: used seconds u -> max(0, ceil(u / 60) - 1).
"""

from __future__ import annotations

import pytest
from worked_support import garnets_spent_in_a_legal_match, phase, record, replay_as_the_cli_does

# Deal 1 (ann starts): ann takes 3, bob takes 3, ... so ann gets positions 1-3, 7-9, 13-15, 19-21.
LINE_1 = [
    "1R", "2R", "3R", "4R", "5R", "6R",
    "1Y", "2Y", "3Y", "4Y", "5Y", "6Y",
    "1G", "2G", "3G", "4G", "5G", "6G",
    "1B", "2B", "3B", "4B", "5B", "6B",
]  # fmt: skip
# Deal 2 (bob starts): bob takes 3, ann takes 1, six times: ann gets positions 4, 8, 12, 16, 20, 24.
LINE_2 = [
    "1Y", "1G", "1B", "1R",
    "2R", "2G", "2B", "2Y",
    "3R", "3Y", "3B", "3G",
    "4R", "4Y", "4G", "4B",
    "5Y", "5G", "5B", "5R",
    "6R", "6G", "6B", "6Y",
]  # fmt: skip


def take(number: int, player: str, said: dict, *, elapsed: int = 10, extension: int = 0) -> dict:
    """A take made in time: the phase closes on the mover's submission (not timed out)."""
    return phase(number, "Move", {player: {"take": said}}, elapsed=elapsed, extension=extension, timed_out=False)


PHASES = [
    # Deal 1. Clocks: ann 5, bob 5 periods.
    take(1, "ann", {"count": 3}, elapsed=30),  # 1R 2R 3R; 30 s: ceil(30/60) - 1 = 0 used; ann 5
    # The host resolves bob's move early; he has not moved: nothing is played, his 50 s are kept.
    phase(2, "Move", {}, elapsed=50, timed_out=False),
    # bob names the last card: 4R 5R 6R. Used 50 + 40 = 90 s: ceil(90/60) - 1 = 1 period; bob 4.
    take(3, "bob", {"last": "6R"}, elapsed=40),
    # ann names all the cards (any order): 1Y 2Y 3Y. 150 s with 60 s of host extension: 90 s used,
    # 1 period; ann 4. (Without the extension: ceil(150/60) - 1 = 2.)
    take(4, "ann", {"cards": ["3Y", "1Y", "2Y"]}, elapsed=150, extension=60),
    take(5, "bob", {"count": 3}),  # 4Y 5Y 6Y
    take(6, "ann", {"count": 3}),  # 1G 2G 3G
    take(7, "bob", {"count": 3}),  # 4G 5G 6G
    take(8, "ann", {"count": 3}),  # 1B 2B 3B
    take(9, "bob", {"count": 3}),  # 4B 5B 6B: the line is empty, deal 1 ends
    # Deal 1: ann has every 1, 2 and 3 (12 cards): three four-of-a-kinds 3 x 8 = 24, four
    #   three-in-a-rows (1-3 of each colour) 4 x 3 = 12: base 36, x bob's 12 cards = 432.
    #   bob has every 4, 5 and 6: the same, 36 x 12 = 432.
    #   Totals 432 : 432: past the target 400 but equal, so another deal. Each clock +1 period:
    #   ann 4 + 1 = 5, bob 4 + 1 = 5. bob starts deal 2.
    # Deal 2: bob's first move takes 185 s: ceil(185/60) - 1 = 3 periods; bob 2.
    take(10, "bob", {"count": 3}, elapsed=185),  # 1Y 1G 1B
    take(11, "ann", {"count": 1}),  # 1R
    take(12, "bob", {"count": 3}),  # 2R 2G 2B
    take(13, "ann", {"last": "2Y"}),  # 2Y
    take(14, "bob", {"count": 3}),  # 3R 3Y 3B
    take(15, "ann", {"count": 1}),  # 3G
    take(16, "bob", {"count": 3}),  # 4R 4Y 4G
    take(17, "ann", {"cards": ["4B"]}),  # 4B
    take(18, "bob", {"count": 3}),  # 5Y 5G 5B
    take(19, "ann", {"count": 1}),  # 5R
    take(20, "bob", {"count": 3}),  # 6R 6G 6B
    take(21, "ann", {"count": 1}),  # 6Y: deal 2 ends
]
RECORD = record(
    "worked-abstrac-deal",
    "abstrac",
    {
        "rule_set": "deal",
        "first_starter": "ann",
        "target": 400,
        "period_seconds": 60,
        "start_periods": 5,
        "deal_lines": [LINE_1, LINE_2],
    },
    ["ann", "bob"],
    {"ann": 0, "bob": 0},
    PHASES,
)

# Deal 2: ann took 1R 2Y 3G 4B 5R 6Y (6 cards): one card of each number, no colour with three in a
#   row (red 1, 5; yellow 2, 6; green 3; blue 4): base 0.
#   bob took the other 18: every number three times: six three-of-a-kinds, 6 x 2 = 12; runs: red
#   2-3-4 (6R apart) 3, yellow 3-4-5 (1Y apart) 3, green 4-5-6 (1G 2G only two) 3, blue 1-2-3
#   (5B 6B only two) 3: 12. Base 24.
#   Zero swap: ann (base 0) scores what bob would have had, bob's base x ann's cards = 24 x 6 = 144;
#   bob scores 0. (Without the swap bob would score 144 and win.)
# Totals: ann 432 + 144 = 576, bob 432 + 0 = 432. 576 >= 400 and different: the match ends.
# ann wins 576 to 432; bob is the EC. No garnets in this Death Match.
ANN_DEAL_2 = ["1R", "2Y", "3G", "4B", "5R", "6Y"]
BOB_DEAL_2 = [
    "1Y",
    "1G",
    "1B",
    "2R",
    "2G",
    "2B",
    "3R",
    "3Y",
    "3B",
    "4R",
    "4Y",
    "4G",
    "5Y",
    "5G",
    "5B",
    "6R",
    "6G",
    "6B",
]


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    return replay_as_the_cli_does(RECORD, tmp_path_factory.mktemp("deal"))


def deal(outcome, number):
    return outcome["result"]["details"]["deals"][number - 1]


def test_every_take_is_legal_and_in_time():
    assert garnets_spent_in_a_legal_match(RECORD) == {"ann": 0, "bob": 0}


@pytest.mark.parametrize(
    ("number", "starter", "bases", "scores", "swap", "totals"),
    [
        (1, "ann", {"ann": 36, "bob": 36}, {"ann": 432, "bob": 432}, False, {"ann": 432, "bob": 432}),
        (2, "bob", {"ann": 0, "bob": 24}, {"ann": 144, "bob": 0}, True, {"ann": 576, "bob": 432}),
    ],
)
def test_each_deal(outcome, number, starter, bases, scores, swap, totals):
    played = deal(outcome, number)
    assert played["starter"] == starter
    assert {p: played["players"][p]["base"] for p in ("ann", "bob")} == bases
    assert {p: played["players"][p]["score"] for p in ("ann", "bob")} == scores
    assert (played["zero_swap"], played["totals_after"]) == (swap, totals)


def test_deal_2_hands(outcome):
    played = deal(outcome, 2)
    assert (played["players"]["ann"]["cards"], played["players"]["bob"]["cards"]) == (ANN_DEAL_2, BOB_DEAL_2)


@pytest.mark.parametrize(("player", "periods"), [("ann", 5), ("bob", 2)])
def test_periods_left(outcome, player, periods):
    assert outcome["public_view"]["public"]["clocks"][player]["periods_left"] == periods


def test_periods_used_per_move(outcome):
    moves = outcome["public_view"]["public"]["moves"]
    # 20 takes (the host's early resolution without a move is not a move)
    assert [(m["deal"], m["player"], m["count"], m["periods_used"]) for m in moves[:4]] == [
        (1, "ann", 3, 0),
        (1, "bob", 3, 1),
        (1, "ann", 3, 1),
        (1, "bob", 3, 0),
    ]
    assert (moves[8]["deal"], moves[8]["player"], moves[8]["periods_used"], moves[8]["periods_after"]) == (
        2,
        "bob",
        3,
        2,
    )
    assert len(moves) == 20


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ("standings", [
            {"place": 1, "player": "ann", "score": "576", "tied_with": []},
            {"place": 2, "player": "bob", "score": "432", "tied_with": []},
        ]),
        ("tol", []),
        ("ec", ["bob"]),
        ("undecided", []),
        ("garnets", {"ann": 0, "bob": 0}),
    ],
)  # fmt: skip
def test_result(outcome, field, expected):
    assert outcome["result"][field] == expected
