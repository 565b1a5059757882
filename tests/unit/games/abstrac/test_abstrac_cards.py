"""Cards and combinations, with every expected value worked out by hand from the rule texts."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pydantic import ValidationError

from game_core.games.abstrac.cards import (
    DECK,
    combinations,
    decimal_text,
    fraction_text,
    points,
    ratio,
)
from game_core.games.abstrac.deal import deal_scores
from game_core.games.abstrac.models import AbstracSettings as Settings
from game_core.games.abstrac.models import Lay

# Death Match 12's example: red 23456 yellow 1345 green 13 blue 123.
ROW_EXAMPLE = "2R 3R 4R 5R 6R 1Y 3Y 4Y 5Y 1G 3G 1B 2B 3B".split()

# The original's example, A1 A2 A3 A4 A6 B2 B3 B5 B6 C1 C2 C3 D2, with A-D read as R, Y, G, B.
DEAL_EXAMPLE = "1R 2R 3R 4R 6R 2Y 3Y 5Y 6Y 1G 2G 3G 2B".split()


def breakdown(cards: list[str]) -> list[tuple[str, str, int]]:
    return [(combo.name, " ".join(combo.cards), combo.points) for combo in combinations(cards)]


def test_row_worked_example_is_22_points_on_14_cards():
    assert breakdown(ROW_EXAMPLE) == [
        ("Three-of-a-kind of 1", "1Y 1G 1B", 2),
        ("Four-of-a-kind of 3", "3R 3Y 3G 3B", 8),
        ("Five-in-a-row of red", "2R 3R 4R 5R 6R", 6),
        ("Three-in-a-row of yellow", "3Y 4Y 5Y", 3),
        ("Three-in-a-row of blue", "1B 2B 3B", 3),
    ]
    assert points(ROW_EXAMPLE) == 22
    assert len(ROW_EXAMPLE) == 14
    assert ratio(ROW_EXAMPLE) == Fraction(22, 14)
    assert fraction_text(ratio(ROW_EXAMPLE)) == "11/7"
    assert decimal_text(ratio(ROW_EXAMPLE)) == "1.5714"


def test_deal_worked_example_is_base_17_times_11_is_187():
    assert breakdown(DEAL_EXAMPLE) == [
        ("Four-of-a-kind of 2", "2R 2Y 2G 2B", 8),
        ("Three-of-a-kind of 3", "3R 3Y 3G", 2),
        ("Four-in-a-row of red", "1R 2R 3R 4R", 4),
        ("Three-in-a-row of green", "1G 2G 3G", 3),
    ]
    assert points(DEAL_EXAMPLE) == 17
    assert len(DEAL_EXAMPLE) == 13
    # The opponent took the other 11 (their base, 5 here, does not matter to this score).
    scores, swapped = deal_scores({"A": 17, "B": 5}, {"A": 13, "B": 11})
    assert scores["A"] == 187
    assert not swapped


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("", 0),
        ("1R", 0),
        ("1R 2R", 0),
        ("1R 2R 3R", 3),
        ("1R 2R 3R 4R", 4),
        ("1R 2R 3R 4R 5R", 6),
        ("2R 3R 4R 5R 6R", 6),
        # a six-in-a-row is 12, not two threes (6) nor any smaller runs
        ("1R 2R 3R 4R 5R 6R", 12),
        # 1 and 6 are not consecutive: no wrap-around
        ("5R 6R 1R", 0),
        ("5R 6R 1R 2R", 0),
        ("4R 5R 6R 1R 2R", 3),
        ("5B 6B 1B 2B 3B", 3),
        # a gap breaks a run; mixed colours are no run
        ("1R 2R 4R 5R", 0),
        ("1R 2R 3R 5R 6R", 3),
        ("1R 2Y 3G", 0),
        ("1R 2R 3Y 4Y", 0),
        # two runs of one colour
        ("1G 2G 3G 5G 6G", 3),
        # sets: 3 -> 2, 4 -> 8 (a four is not four threes)
        ("4R 4Y", 0),
        ("4R 4Y 4G", 2),
        ("4R 4Y 4G 4B", 8),
        # one card in a set and a run: both count
        ("1R 2R 3R 1Y 1G", 2 + 3),
        ("3R 3Y 3G 3B 1R 2R 4R 5R", 8 + 6),
        # a 3x3 block: three sets and three runs
        ("1R 2R 3R 1Y 2Y 3Y 1G 2G 3G", 3 * 2 + 3 * 3),
        # the whole deck: six fours (48) and four six-runs (48)
        (" ".join(DECK), 6 * 8 + 4 * 12),
        # the row example's other ten cards: a three of 6s, green 456, blue 456
        ("1R 2Y 6Y 2G 4G 5G 6G 4B 5B 6B", 2 + 3 + 3),
    ],
)
def test_points_of_hands(hand, expected):
    assert points(hand.split()) == expected


def test_a_six_run_is_one_combination_of_six_cards():
    [combo] = combinations("1Y 2Y 3Y 4Y 5Y 6Y".split())
    assert (combo.kind, combo.cards, combo.points) == ("run", ("1Y", "2Y", "3Y", "4Y", "5Y", "6Y"), 12)


def test_a_card_belongs_to_one_set_and_one_run():
    found = combinations("1R 2R 3R 1Y 1G".split())
    assert [(c.kind, c.cards) for c in found] == [("set", ("1R", "1Y", "1G")), ("run", ("1R", "2R", "3R"))]


@pytest.mark.parametrize(
    ("base", "cards", "expected", "swapped"),
    [
        # the worked example, and its opponent's side: 5 x 13
        ((17, 5), (13, 11), (187, 65), False),
        # one zero: the zero player scores the opponent's base x the zero player's cards
        ((0, 10), (8, 16), (80, 0), True),
        ((10, 0), (8, 16), (0, 160), True),
        # both zero: both score nothing
        ((0, 0), (12, 12), (0, 0), False),
        ((2, 3), (12, 12), (24, 36), False),
    ],
)
def test_deal_scores(base, cards, expected, swapped):
    scores, did_swap = deal_scores({"A": base[0], "B": base[1]}, {"A": cards[0], "B": cards[1]})
    assert (scores["A"], scores["B"]) == expected
    assert did_swap is swapped


@pytest.mark.parametrize(
    ("value", "text", "decimal"),
    [
        (Fraction(22, 14), "11/7", "1.5714"),
        (Fraction(8, 10), "4/5", "0.8000"),
        (Fraction(6, 3), "2", "2.0000"),
    ],
)
def test_score_texts(value, text, decimal):
    assert fraction_text(value) == text
    assert decimal_text(value) == decimal


def test_card_codes_ignore_case_and_refuse_non_cards():
    assert Lay.model_validate({"cards": ["2g", " 6b "]}).cards == ["2G", "6B"]
    for bad in ("7R", "0G", "2X", "G2", "22", ""):
        with pytest.raises(ValidationError):
            Lay.model_validate({"cards": [bad]})


def test_deal_lines_accept_the_texts_suit_form_and_must_be_whole_decks():
    suit_form = [f"{suit}{n}" for suit in "ABCD" for n in range(1, 7)]
    [line] = Settings(rule_set="deal", deal_lines=[suit_form]).deal_lines
    assert line[:7] == ["1R", "2R", "3R", "4R", "5R", "6R", "1Y"]
    assert line[-1] == "6B"
    with pytest.raises(ValidationError, match="missing 6B"):
        Settings(rule_set="deal", deal_lines=[list(DECK[:-1])])
    with pytest.raises(ValidationError, match="more than once: 1R"):
        Settings(rule_set="deal", deal_lines=[[*DECK[:-1], "1R"]])


@pytest.mark.parametrize("target", [400, 500, 600])
def test_targets_allowed(target):
    assert Settings(rule_set="deal", target=target).target == target


@pytest.mark.parametrize("target", [300, 450, 700])
def test_other_targets_refused(target):
    with pytest.raises(ValidationError):
        Settings(rule_set="deal", target=target)
