"""The result: the largest fully covered square, then chips left (more is better), then covered
cells outside the square (fewer is better); the first 2 ToL, the last EC; 2k garnets. Every
expected value worked by hand from the drawn boards."""

from __future__ import annotations

from domino_support import GAME, drawn, finished

SQUARE_3 = drawn("###", "###", "###")  # 9 cells, k = 3
SQUARE_2 = drawn("##", "##")  # 4 cells, k = 2
SQUARE_2_AND_TAIL = drawn("###", "##")  # 5 cells, k = 2, 1 outside
TWO_SQUARES_2 = drawn("##.##", "#####")  # 9 cells, two 2x2 (A1 and D1), k = 2, 5 outside
LINE = drawn("####")  # k = 1, 3 outside


def outcome(boards, spent):
    return GAME.result(finished(boards, spent)).to_json()


def test_the_largest_square_when_several_of_that_size_exist():
    result = outcome({"ann": TWO_SQUARES_2, "bob": SQUARE_2}, {"ann": 0, "bob": 0})
    # ann's first 2x2 in reading order is A1 B1 A2 B2; the other 5 cells are outside it.
    assert result["details"]["ann"] == {"side": 2, "square": ["A1", "B1", "A2", "B2"], "chips_left": 300, "outside": 5}
    # Both k = 2 and 300 chips: bob has none outside, so bob is first.
    assert [s["player"] for s in result["standings"]] == ["bob", "ann"]


def test_ranking_by_side_first():
    # ann k = 3 with no chips beats bob k = 2 with every chip.
    result = outcome({"ann": SQUARE_3, "bob": SQUARE_2}, {"ann": 300, "bob": 0})
    assert [(s["player"], s["place"], s["score"]) for s in result["standings"]] == [("ann", 1, "3"), ("bob", 2, "2")]
    assert result["garnets"] == {"ann": 6, "bob": 4}


def test_then_remaining_chips_more_is_better():
    # Both k = 2 (bob with a cell outside); ann spent 100 (200 left), bob 50 (250 left): bob first.
    result = outcome({"ann": SQUARE_2, "bob": SQUARE_2_AND_TAIL}, {"ann": 100, "bob": 50})
    assert [s["player"] for s in result["standings"]] == ["bob", "ann"]


def test_then_cells_outside_the_square_fewer_is_better():
    # k = 2 and 250 chips each; ann 1 outside, bob 0: bob first.
    result = outcome({"ann": SQUARE_2_AND_TAIL, "bob": SQUARE_2}, {"ann": 50, "bob": 50})
    assert [s["player"] for s in result["standings"]] == ["bob", "ann"]
    assert (result["details"]["ann"]["outside"], result["details"]["bob"]["outside"]) == (1, 0)


def test_first_wins_two_tol_and_last_is_ec():
    boards = {"ann": SQUARE_2, "bob": SQUARE_3, "cy": LINE, "dee": SQUARE_2_AND_TAIL}
    result = outcome(boards, dict.fromkeys(boards, 0))
    # bob k3; ann k2 0 outside; dee k2 1 outside; cy k1.
    assert [s["player"] for s in result["standings"]] == ["bob", "ann", "dee", "cy"]
    assert (result["tol"], result["tol_awarded"], result["ec"], result["undecided"]) == (
        ["bob"],
        {"bob": 2},
        ["cy"],
        [],
    )
    assert result["garnets"] == {"ann": 4, "bob": 6, "cy": 2, "dee": 4}


def test_a_tie_every_tie_break_leaves_is_reported_with_all_names():
    boards = {"ann": SQUARE_3, "bob": SQUARE_3, "cy": SQUARE_2, "dee": SQUARE_2}
    result = outcome(boards, {"ann": 10, "bob": 10, "cy": 0, "dee": 0})
    standings = {s["player"]: (s["place"], s["tied_with"]) for s in result["standings"]}
    assert standings == {"ann": (1, ["bob"]), "bob": (1, ["ann"]), "cy": (3, ["dee"]), "dee": (3, ["cy"])}
    # Tied on both lines: the host decides; no ToL or EC is named by the game.
    assert (result["tol"], result["ec"], result["undecided"]) == ([], [], ["ann", "bob", "cy", "dee"])


def test_a_tie_in_the_middle_decides_nothing():
    boards = {"ann": SQUARE_3, "bob": SQUARE_2, "cy": SQUARE_2, "dee": LINE}
    result = outcome(boards, dict.fromkeys(boards, 0))
    assert (result["tol"], result["ec"], result["undecided"]) == (["ann"], ["dee"], [])
    assert [s["place"] for s in result["standings"]] == [1, 2, 2, 4]


def test_everyone_tied_names_no_ec():
    boards = {"ann": SQUARE_2, "bob": SQUARE_2, "cy": SQUARE_2}
    result = outcome(boards, dict.fromkeys(boards, 0))
    assert (result["tol"], result["ec"], result["undecided"]) == ([], [], ["ann", "bob", "cy"])


def test_an_empty_board_scores_zero():
    result = outcome({"ann": [], "bob": SQUARE_2}, {"ann": 0, "bob": 0})
    assert result["details"]["ann"] == {"side": 0, "square": [], "chips_left": 300, "outside": 0}
    assert result["garnets"]["ann"] == 0
    assert result["ec"] == ["ann"]
