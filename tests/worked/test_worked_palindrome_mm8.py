"""Worked match: Palindrome Construction, Main Match 8 (mm8), three players, checked by hand
against the rule text (seeds/000_cb3eb2335a3fc92b.txt) and RULINGS.md "Palindrome Construction".

Covers: a garnet bid on an item (+5 a garnet) spent although the item is lost, the highest *unique*
card and sum deciding packs and the item, Mirror, a construction phase with no submission (the
round's digits are lost), Identical, Maximal, Repetition, a tie at the bottom left to the host
(both named EC, `undecided`), and the garnet bands as whole-number comparisons.

The host fixes every round's packs (the same ten packs each round) and items.
"""

from __future__ import annotations

import pytest
from worked_support import DAY, garnets_spent_in_a_legal_match, phase, record, replay_as_the_cli_does

# Each digit at least twice (mm8): 0 x4, 1 x3, 2 x2, 3 x3, 4 x2, 5 x3, 6 x3, 7 x3, 8 x3, 9 x4 = 30.
PACKS = ["555", "121", "343", "000", "678", "999", "246", "813", "779", "086"]
#          1      2      3      4      5      6      7      8      9      10
ITEMS = ["Mirror", "Duplicate", "Shift", "Insert", "Eraser", "Swap", "Keep"]


def card(value: int, pack: int | None = None, item: int | None = None) -> dict[str, int]:
    return {"card": value, "pack": pack} if pack is not None else {"card": value, "item": item}


RECORD = record(
    "worked-palindrome-mm8",
    "palindrome",
    {
        "rule_set": "mm8",
        "packs": {str(r): PACKS for r in range(1, 8)},
        "items": {str(r): [item] for r, item in enumerate(ITEMS, start=1)},
    },
    ["ann", "bob", "cat"],
    {"ann": 1, "bob": 0, "cat": 0},
    [
        phase(1, "Pregame"),
        # Round 1 bidding (packs as above, item: Mirror).
        #   pack 1 "555": ann 9, bob 9, cat 2 -> 9 is not unique, the highest unique card is 2: cat
        #   pack 6 "999": ann 8, bob 7 -> 8: ann
        #   Mirror: sums ann 0 + 5 x 1 garnet = 5, bob 5, cat 3 -> 5 is not unique, 3 is: cat.
        #   ann's garnet is spent although she does not get the item.
        phase(
            2,
            "Round 1 bidding",
            {
                "ann": {"bid": {"cards": [card(9, pack=1), card(8, pack=6), card(0, item=1)], "garnets": 1}},
                "bob": {"bid": {"cards": [card(9, pack=1), card(7, pack=6), card(5, item=1)]}},
                "cat": {"bid": {"cards": [card(2, pack=1), card(3, item=1)]}},
            },
        ),
        # Round 2 bidding (item: Duplicate) and round 1 construction.
        #   pack 4 "000": ann 5 -> ann; pack 6 "999": bob 9 -> bob; nobody bids on Duplicate.
        #   cat sends no bid: he bids on nothing.
        #   Construction: ann (digits 999) appends 99 to string 1, the third 9 is discarded;
        #   cat (digits 555, Mirror) appends 555 to string 1, then Mirror: 555555.
        phase(
            3,
            "Round 2 bidding and round 1 construction",
            {
                "ann": {
                    "bid": {"cards": [card(5, pack=4)]},
                    "construction": {"steps": [{"action": "append", "string": 1, "digits": "99"}]},
                },
                "bob": {"bid": {"cards": [card(9, pack=6)]}},
                "cat": {
                    "construction": {
                        "steps": [
                            {"action": "append", "string": 1, "digits": "555"},
                            {"action": "mirror", "string": 1},
                        ]
                    }
                },
            },
        ),
        # Round 3 bidding and round 2 construction: no bids. bob (digits 999) appends 99 to
        # string 1. ann sends no construction: her round-2 digits 000 are lost. Extended 1 hour.
        phase(
            4,
            "Round 3 bidding and round 2 construction",
            {"bob": {"construction": {"steps": [{"action": "append", "string": 1, "digits": "99"}]}}},
            elapsed=DAY + 3_600,
            extension=3_600,
        ),
        # Rounds 4-7: nobody submits (no bids, nobody received digits).
        phase(5, "Round 4 bidding and round 3 construction"),
        phase(6, "Round 5 bidding and round 4 construction"),
        phase(7, "Round 6 bidding and round 5 construction"),
        phase(8, "Round 7 bidding and round 6 construction"),
        phase(9, "Round 7 construction"),
    ],
)

# Final strings: ann ["99", "", ""], bob ["99", "", ""], cat ["555555", "", ""].
# Empty strings score 0. Largest value among all non-empty strings: 555555 (cat).
#
#   "99" (ann; bob's the same): palindrome. Primality 99 = 9 x 11: 0. Accumulation 9 + 9 = 18,
#   floor(log2 18) = 4. Length floor(2 / 2) = 1. Identical: bob (a different player) built 99: 2.
#   Normality: lengths 2, 0, 0: 0. Differences D = 1: 0. Repetition needs 4 or more: 0. O's 0.
#   Maximal 99 < 555555: 0. Exodia 0.                                           Total 4+1+2 = 7.
#
#   "555555" (cat): palindrome. Primality: ends in 5: 0. Accumulation 30, floor(log2 30) = 4.
#   Length 3. Identical 0. Normality 0. Differences 0. Repetition one digit, length 6 >= 4: 2.
#   O's 0. Maximal: the largest: 3.                                        Total 4+3+2+3 = 12.
#
# Scores: cat 12, ann 7, bob 7. cat alone at the top: 2 ToL. Lowest 7: ann and bob tied, both
# named EC, and the host decides (undecided: ann, bob).
# Garnets: cat (winner) 5. ann, bob: 5 x 7 = 35 against 12: 35 >= 4 x 12 = 48? no; >= 3 x 12 = 36?
# no (58%, just under 60%); >= 2 x 12 = 24? yes: 2.
SCORES = {
    "99": {"primality": 0, "accumulation": 4, "length": 1, "identical": 2, "normality": 0, "differences": 0},
    "555555": {"accumulation": 4, "length": 3, "identical": 0, "repetition": 2, "zeros": 0, "maximal": 3},
}


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    return replay_as_the_cli_does(RECORD, tmp_path_factory.mktemp("mm8"))


def test_every_submission_is_legal_and_ann_spends_her_garnet():
    assert garnets_spent_in_a_legal_match(RECORD) == {"ann": 1, "bob": 0, "cat": 0}


def test_who_received_what_in_round_1_and_2(outcome):
    log = outcome["public_view"]["public"]["round_log"]
    r1, r2 = log[0], log[1]
    assert [p.get("received_by") for p in r1["packs"]] == ["cat", None, None, None, None, "ann", None, None, None, None]
    assert r1["items"] == [{"item": 1, "name": "Mirror", "received_by": "cat"}]
    assert [p.get("received_by") for p in r2["packs"]] == [None, None, None, "ann", None, "bob", None, None, None, None]
    assert r2["items"] == [{"item": 1, "name": "Duplicate", "received_by": None}]


def test_final_strings(outcome):
    assert outcome["result"]["details"]["strings"] == {
        "ann": ["99", "", ""],
        "bob": ["99", "", ""],
        "cat": ["555555", "", ""],
    }


@pytest.mark.parametrize(("player", "string"), [("ann", "99"), ("bob", "99"), ("cat", "555555")])
def test_string_criteria(outcome, player, string):
    scored = outcome["result"]["details"]["scores"][player][0]
    assert scored["string"] == string
    assert {criterion: scored[criterion] for criterion in SCORES[string]} == SCORES[string]


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ("standings", [
            {"place": 1, "player": "cat", "score": "12", "tied_with": []},
            {"place": 2, "player": "ann", "score": "7", "tied_with": ["bob"]},
            {"place": 2, "player": "bob", "score": "7", "tied_with": ["ann"]},
        ]),
        ("tol", ["cat"]),
        ("tol_awarded", {"cat": 2}),
        ("ec", ["ann", "bob"]),
        ("undecided", ["ann", "bob"]),
        ("garnets", {"ann": 2, "bob": 2, "cat": 5}),
    ],
)  # fmt: skip
def test_result(outcome, field, expected):
    assert outcome["result"][field] == expected
