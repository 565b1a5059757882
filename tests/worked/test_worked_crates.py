"""Worked match: Pushing Crates (one rule set), four players, checked by hand against the rule text
(seeds/001_69628b9268bd3f9b.txt) and RULINGS.md "Pushing Crates".

Covers: a multipliers change in round 1 overriding the pregame one, a player who never submits
(listed multipliers, stone, no pushes), garnets spent on extra pushes (ann 2, dan 1), a round
submission naming no ground (stone, by the ruling), an extended phase (extensions change nothing in
Crates: phases resolve on their deadline), a points tie broken by the location at the end of round
5 after round 6 is equal, a tie on points and every location decided by the host's fixed lot, and
the garnet awards.

The host fixes the lot (the game's only chance): dan, ann, cat, bob, best first.
"""

from __future__ import annotations

import pytest
from worked_support import DAY, garnets_spent_in_a_legal_match, phase, record, replay_as_the_cli_does


def push(crate: str, direction: str = "right", times: int = 1) -> list[dict[str, str]]:
    return [{"crate": crate, "direction": direction}] * times


# Standing multipliers, rounds 1-6:
#   ann  pregame [2, 1, 1, 0, -1, -1]                              -> stands
#   bob  pregame [2, 1, 1, 0, -1, -1], round 1 [0, 2, 1, 1, -1, -1] -> the round-1 one stands
#   cat  nothing                                                  -> listed order [-1, -1, 0, 1, 1, 2]
#   dan  pregame [0, -1, -1, 1, 2, 1]                              -> stands
# Movement: R right and L left pushes: R <= L stays, else moves (R - L) x ground (rubber 0, stone 1,
# ice 3). Points: multiples of 5 in (start, end], times the round's multiplier.
RECORD = record(
    "worked-crates",
    "crates",
    {"rule_set": "default", "lot": ["dan", "ann", "cat", "bob"]},
    ["ann", "bob", "cat", "dan"],
    {"ann": 2, "bob": 0, "cat": 0, "dan": 1},
    [
        phase(
            1,
            "Pregame",
            {
                "ann": {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}},
                "bob": {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}},
                "dan": {"multipliers": {"multipliers": [0, -1, -1, 1, 2, 1]}},
            },
        ),
        # Round 1. ann: 5 pushes = 3 free + 2 garnets (her whole balance of 2).
        #   ann's crate: R 5 (ann), L 1 (bob); ice: (5 - 1) x 3 = 12; 0 -> 12 meets 5, 10: 2 x m1(ann)=2 -> 4
        #   bob's crate: R 2 (bob) + 1 (dan) = 3, stone: 0 -> 3, no multiple: 0 (x m1(bob) = 0)
        #   cat: no pushes; dan: no pushes on his crate (rubber anyway): 0
        #   mod 5 revealed: ann 2, bob 3, cat 0, dan 0
        # The host resolved it early ("resolve now"): not timed out.
        phase(
            2,
            "Round 1",
            {
                "ann": {"round": {"pushes": push("ann", times=5), "ground": "ice"}},
                "bob": {
                    "multipliers": {"multipliers": [0, 2, 1, 1, -1, -1]},
                    "round": {"pushes": push("ann", "left") + push("bob", times=2), "ground": "stone"},
                },
                "dan": {"round": {"pushes": push("bob"), "ground": "rubber"}},
            },
            elapsed=50_000,
            timed_out=False,
        ),
        # Round 2. bob: R 3, ice (his first): 9; 3 -> 12 meets 5, 10: 2 x m2(bob)=2 -> 4.
        #   ann, cat, dan send nothing: no pushes, stone. Locations ann 12, bob 12, cat 0, dan 0.
        phase(3, "Round 2", {"bob": {"round": {"pushes": push("bob", times=3), "ground": "ice"}}}),
        # Round 3: nobody submits; the host extended it by 2 hours. Nothing moves.
        phase(4, "Round 3", elapsed=DAY + 7_200, extension=7_200),
        # Round 4. dan: 4 pushes = 3 free + 1 garnet (his balance of 1); he names no ground: stone.
        #   cat's crate: R 2 (bob) + 3 (dan) = 5, stone (cat sent nothing): 0 -> 5 meets 5:
        #     1 x m4(cat, listed order) = 1 -> 1
        #   dan's crate: R 3 (ann) + 1 (bob) + 1 (dan) = 5, stone: 0 -> 5: 1 x m4(dan) = 1 -> 1
        #   ann (m4 = 0) and bob are not pushed: 12, 12.
        phase(
            5,
            "Round 4",
            {
                "ann": {"round": {"pushes": push("dan", times=3), "ground": "stone"}},
                "bob": {"round": {"pushes": push("cat", times=2) + push("dan"), "ground": "stone"}},
                "dan": {"round": {"pushes": push("cat", times=3) + push("dan")}},
            },
        ),
        # Round 5. bob: R 3, stone: 12 -> 15 meets 15: 1 x m5(bob) = -1 -> -1.
        phase(6, "Round 5", {"bob": {"round": {"pushes": push("bob", times=3), "ground": "stone"}}}),
        # Round 6. ann: R 3, stone: 12 -> 15 meets 15: 1 x m6(ann) = -1 -> -1.
        phase(7, "Round 6", {"ann": {"round": {"pushes": push("ann", times=3), "ground": "stone"}}}),
    ],
)

# Totals: ann 4 + 0 + 0 + 0 + 0 - 1 = 3; bob 0 + 4 + 0 + 0 - 1 + 0 = 3; cat 1; dan 1.
# Locations at the end of rounds 1..6:
#   ann 12 12 12 12 12 15 | bob 3 12 12 12 15 15 | cat 0 0 0 5 5 5 | dan 0 0 0 5 5 5
# Standings: points first. ann = bob = 3: round 6 ann 15 = bob 15, round 5 ann 12 < bob 15: bob
# first. cat = dan = 1 with the same location every round: the lot (dan before cat): dan.
#   1 bob 3, 2 ann 3, 3 dan 1, 4 cat 1.
# With 4 players (fewer than 5): EC is the bottom min(2, 4 - 1) = 2: dan, cat; ToL the top
# min(3, 4 - 2) = 2: bob, ann. The second-to-last (dan) picks a Death Match opponent first.
# Garnets: floor(points / 3), at least 0: ann 1, bob 1, cat 0, dan 0.
EXPECTED_STANDINGS = [(1, "bob", "3"), (2, "ann", "3"), (3, "dan", "1"), (4, "cat", "1")]
EXPECTED_MOD5 = [
    {"ann": 2, "bob": 3, "cat": 0, "dan": 0},
    {"ann": 2, "bob": 2, "cat": 0, "dan": 0},
    {"ann": 2, "bob": 2, "cat": 0, "dan": 0},
    {"ann": 2, "bob": 2, "cat": 0, "dan": 0},
    {"ann": 2, "bob": 0, "cat": 0, "dan": 0},
    {"ann": 0, "bob": 0, "cat": 0, "dan": 0},
]


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    return replay_as_the_cli_does(RECORD, tmp_path_factory.mktemp("crates"))


def test_every_submission_is_legal_and_the_garnets_spent_are_the_extra_pushes():
    # ann 5 pushes in round 1: 5 - 3 = 2; dan 4 pushes in round 4: 4 - 3 = 1.
    assert garnets_spent_in_a_legal_match(RECORD) == {"ann": 2, "bob": 0, "cat": 0, "dan": 1}


def test_the_match_is_over(outcome):
    assert (outcome["finished"], outcome["phases"]) == (True, 7)


def test_standings(outcome):
    assert [(s["place"], s["player"], s["score"]) for s in outcome["result"]["standings"]] == EXPECTED_STANDINGS


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ("tol", ["bob", "ann"]),
        ("ec", ["dan", "cat"]),
        ("undecided", []),
        ("garnets", {"ann": 1, "bob": 1, "cat": 0, "dan": 0}),
    ],
)
def test_result(outcome, field, expected):
    assert outcome["result"][field] == expected


@pytest.mark.parametrize(
    ("detail", "expected"),
    [
        ("points", {"ann": 3, "bob": 3, "cat": 1, "dan": 1}),
        ("lot_decided", True),
        ("first_to_pick_opponent", "dan"),
    ],
)
def test_result_details(outcome, detail, expected):
    assert outcome["result"]["details"][detail] == expected


@pytest.mark.parametrize("round_number", range(1, 7))
def test_each_rounds_public_reveal_is_every_location_mod_5(outcome, round_number):
    reveal = outcome["public_view"]["public"]["reveals"][round_number - 1]
    assert reveal == {"round": round_number, "mod5": EXPECTED_MOD5[round_number - 1]}
