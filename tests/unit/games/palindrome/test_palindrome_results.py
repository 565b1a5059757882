"""Results: ToL, EC, standings and the garnet bands, compared in whole numbers."""

from __future__ import annotations

import pytest

from game_core.games.palindrome.rules import garnet_award, standings_result


@pytest.mark.parametrize(
    ("score", "winning", "garnets"),
    [
        # winning score 10: bands at exactly 80, 60, 40, 20 % and just under each
        (8, 10, 4),  # 80 %
        (7, 10, 3),
        (6, 10, 3),  # 60 %
        (5, 10, 2),
        (4, 10, 2),  # 40 %
        (3, 10, 1),
        (2, 10, 1),  # 20 %
        (1, 10, 0),
        (0, 10, 0),
        # winning score 7, where the percentages are not whole: 80 % of 7 is 5.6
        (6, 7, 4),  # 30 >= 28
        (5, 7, 3),  # 25 < 28, 25 >= 21
        (4, 7, 2),  # 20 < 21, 20 >= 14
        (3, 7, 2),  # 15 >= 14
        (2, 7, 1),  # 10 < 14, 10 >= 7
        (1, 7, 0),  # 5 < 7
        # winning score 24 as in the played match: 17 -> 85 < 96, 85 >= 72
        (17, 24, 3),
        # floating point would say 0.3 * 100 / 100 < 0.3 in places; whole numbers do not:
        # 60 % of 35 is exactly 21
        (21, 35, 3),
        (20, 35, 2),
        # no band when the winning score is 0 or less
        (0, 0, 0),
        (-1, 0, 0),
    ],
)
def test_garnet_bands(score, winning, garnets):
    assert garnet_award(score, winning, is_winner=False) == garnets


def test_winners_get_five_even_at_zero():
    assert garnet_award(0, 0, is_winner=True) == 5
    assert garnet_award(12, 12, is_winner=True) == 5


def result_of(totals: dict[str, int]):
    return standings_result(list(totals), totals).to_json()


def test_a_sole_winner_and_a_sole_last():
    result = result_of({"A": 10, "B": 8, "C": 6, "D": 4, "E": 2, "F": 1})
    assert result["tol"] == ["A"] and result["ec"] == ["F"] and result["undecided"] == []
    assert result["tol_awarded"] == {"A": 2}
    assert result["garnets"] == {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1, "F": 0}
    assert [(s["place"], s["player"]) for s in result["standings"]] == [
        (1, "A"),
        (2, "B"),
        (3, "C"),
        (4, "D"),
        (5, "E"),
        (6, "F"),
    ]


def test_a_tie_at_the_top_gives_one_tol_each_and_five_garnets_each():
    result = result_of({"A": 9, "B": 9, "C": 3})
    assert result["tol"] == ["A", "B"]
    assert result["tol_awarded"] == {"A": 1, "B": 1}
    assert result["garnets"] == {"A": 5, "B": 5, "C": 1}  # 15 >= 9, 15 < 18
    assert result["ec"] == ["C"]
    assert result["standings"][:2] == [
        {"place": 1, "player": "A", "score": "9", "tied_with": ["B"]},
        {"place": 1, "player": "B", "score": "9", "tied_with": ["A"]},
    ]
    assert result["standings"][2]["place"] == 3


def test_a_tie_at_the_bottom_names_everyone_tied_for_the_host():
    result = result_of({"A": 9, "B": 2, "C": 5, "D": 2})
    assert result["ec"] == ["B", "D"]
    assert result["undecided"] == ["B", "D"]
    assert [(s["place"], s["player"]) for s in result["standings"]] == [
        (1, "A"),
        (2, "C"),
        (3, "B"),
        (3, "D"),
    ]


def test_everyone_tied_wins_and_no_ec_is_named():
    result = result_of({"A": 4, "B": 4, "C": 4})
    assert result["tol"] == ["A", "B", "C"] and result["ec"] == [] and result["undecided"] == []
    assert result["garnets"] == {"A": 5, "B": 5, "C": 5}


def test_everyone_at_zero():
    result = result_of({"A": 0, "B": 0})
    assert result["tol"] == ["A", "B"] and result["ec"] == []
    assert result["garnets"] == {"A": 5, "B": 5}


def test_two_players():
    result = result_of({"A": 3, "B": 5})
    assert (result["tol"], result["ec"]) == (["B"], ["A"])
    assert result["garnets"] == {"A": 3, "B": 5}  # 15 >= 15: exactly 60 %
