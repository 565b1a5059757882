"""Worked match: Palindrome Construction, Main Match 5 (mm5), three players, checked by hand
against the rule text (seeds/000_cb3eb2335a3fc92b.txt, "Main Match 5") and RULINGS.md.

Covers: two items a round, each won on its own highest unique sum; Clone; bidding phases with
missing bids (bids on nothing); Identical and Maximal shared by two strings of the same value; a
tie at the top (1 ToL each, no 2-ToL winner); the 80% garnet band.

The host fixes every round's packs (the same ten each round) and both items of every round.
"""

from __future__ import annotations

import pytest
from worked_support import garnets_spent_in_a_legal_match, phase, record, replay_as_the_cli_does

# Each digit at least three times (mm5): 0 x6, 1 x5, 2 x4, 3 x4, 4 x5, 5 x5, 6 x4, 7 x6, 8 x6,
# 9 x5 = 50.
PACKS = ["12321", "10001", "45654", "78987", "13579", "02468", "35753", "64246", "90909", "87878"]
#            1        2        3        4        5        6        7        8        9       10
ITEMS = {1: ["Clone", "Insert"], 2: ["Shift", "Swap"], 3: ["Keep", "Eraser"], 4: ["Duplicate", "Mirror"]}
ITEMS[5] = ["Clone", "Keep"]  # round 5 starts the second pass through the catalogue


def card(value: int, pack: int | None = None, item: int | None = None) -> dict[str, int]:
    return {"card": value, "pack": pack} if pack is not None else {"card": value, "item": item}


def append(string: int, digits: str) -> dict[str, object]:
    return {"action": "append", "string": string, "digits": digits}


RECORD = record(
    "worked-palindrome-mm5",
    "palindrome",
    {
        "rule_set": "mm5",
        "packs": {str(r): PACKS for r in range(1, 6)},
        "items": {str(r): items for r, items in ITEMS.items()},
    },
    ["ann", "bob", "cat"],
    {"ann": 0, "bob": 0, "cat": 0},
    [
        # Round 1 bidding (items: 1 Clone, 2 Insert).
        #   pack 4 "78987": ann 9, bob 8 -> ann.   pack 2 "10001": cat 3 -> cat.
        #   Clone: bob 4, cat 5 -> cat.           Insert: ann 2, bob 1 -> ann.
        phase(
            1,
            "Round 1 bidding",
            {
                "ann": {"bid": {"cards": [card(9, pack=4), card(2, item=2)]}},
                "bob": {"bid": {"cards": [card(8, pack=4), card(4, item=1), card(1, item=2)]}},
                "cat": {"bid": {"cards": [card(3, pack=2), card(5, item=1)]}},
            },
        ),
        # Round 2 bidding (Shift, Swap) and round 1 construction.
        #   Bids: bob 9 on pack 4 "78987" -> bob. ann and cat send no bid: they bid on nothing.
        #   ann (digits 78987) appends 78987 to string 1 (her Insert stays unused).
        #   cat (digits 10001, Clone) appends 10001 to string 1, then clones string 1 onto string 2.
        phase(
            2,
            "Round 2 bidding and round 1 construction",
            {
                "ann": {"construction": {"steps": [append(1, "78987")]}},
                "bob": {"bid": {"cards": [card(9, pack=4)]}},
                "cat": {"construction": {"steps": [append(1, "10001"), {"action": "clone", "string": 2, "source": 1}]}},
            },
        ),
        # Round 3 bidding and round 2 construction: bob (digits 78987) appends 78987 to string 1.
        phase(
            3, "Round 3 bidding and round 2 construction", {"bob": {"construction": {"steps": [append(1, "78987")]}}}
        ),
        phase(4, "Round 4 bidding and round 3 construction"),
        phase(5, "Round 5 bidding and round 4 construction"),
        phase(6, "Round 5 construction"),
    ],
)

# Final strings: ann ["78987", "", ""], bob ["78987", "", ""], cat ["10001", "10001", ""].
# Largest value among all non-empty strings: 78987 (ann's and bob's: both score Maximal).
#
#   "78987" (ann; bob's the same): palindrome. Primality: digit sum 39 is a multiple of 3: 0.
#   Accumulation floor(log2 39) = 5. Length floor(5 / 2) = 2. Identical (another player): 2.
#   Normality (5, 0, 0): 0. Differences {7, 8, 9}: 3 - 2 = 1. Repetition 0. O's 0. Maximal 3.
#                                                                 Total 5 + 2 + 2 + 1 + 3 = 13.
#   "10001" (cat, twice): palindrome. Primality 10001 = 73 x 137: 0. Accumulation floor(log2 2)
#   = 1. Length 2. Identical: only cat built it (his own other string does not count): 0.
#   Normality (5, 5, 0): 0. Differences D = 2: 0. Repetition 0. O's three zeros: 3. Maximal 0.
#                                                                       Total 1 + 2 + 3 = 6.
# Scores: ann 13, bob 13, cat 6 + 6 = 12.
# ann and bob tie at the top: 1 ToL each. cat alone at the bottom: EC, nothing for the host.
# Garnets: ann, bob 5 (winners); cat 5 x 12 = 60 >= 4 x 13 = 52: 4.
SCORES = {
    "78987": {"primality": 0, "accumulation": 5, "length": 2, "identical": 2, "differences": 1, "maximal": 3},
    "10001": {"primality": 0, "accumulation": 1, "length": 2, "identical": 0, "zeros": 3, "maximal": 0},
}


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    return replay_as_the_cli_does(RECORD, tmp_path_factory.mktemp("mm5"))


def test_every_submission_is_legal_and_no_garnet_is_spent():
    assert garnets_spent_in_a_legal_match(RECORD) == {"ann": 0, "bob": 0, "cat": 0}


def test_round_1_packs_and_both_items(outcome):
    r1 = outcome["public_view"]["public"]["round_log"][0]
    assert [p.get("received_by") for p in r1["packs"]] == [
        None, "cat", None, "ann", None, None, None, None, None, None
    ]  # fmt: skip
    assert [(i["name"], i["received_by"]) for i in r1["items"]] == [("Clone", "cat"), ("Insert", "ann")]


@pytest.mark.parametrize(
    ("player", "index", "string"),
    [("ann", 0, "78987"), ("bob", 0, "78987"), ("cat", 0, "10001"), ("cat", 1, "10001")],
)
def test_string_criteria(outcome, player, index, string):
    scored = outcome["result"]["details"]["scores"][player][index]
    assert scored["string"] == string
    assert {criterion: scored[criterion] for criterion in SCORES[string]} == SCORES[string]


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ("standings", [
            {"place": 1, "player": "ann", "score": "13", "tied_with": ["bob"]},
            {"place": 1, "player": "bob", "score": "13", "tied_with": ["ann"]},
            {"place": 3, "player": "cat", "score": "12", "tied_with": []},
        ]),
        ("tol", ["ann", "bob"]),
        ("tol_awarded", {"ann": 1, "bob": 1}),
        ("ec", ["cat"]),
        ("undecided", []),
        ("garnets", {"ann": 5, "bob": 5, "cat": 4}),
    ],
)  # fmt: skip
def test_result(outcome, field, expected):
    assert outcome["result"][field] == expected


def test_final_strings(outcome):
    assert outcome["result"]["details"]["strings"] == {
        "ann": ["78987", "", ""],
        "bob": ["78987", "", ""],
        "cat": ["10001", "10001", ""],
    }
