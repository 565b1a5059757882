"""Pushing Crates: movement, points and multipliers, from the rule text and the rulings."""

from __future__ import annotations

import pytest
from crates_support import DEFAULT_ORDER, GAME, PREGAME, play, pushes, total, turn
from pydantic import ValidationError

from game_core.games.crates.rules import movement, multiples_of_five_crossed, round_points

# -- the rule text's worked examples -------------------------------------------------------------


def test_worked_example_five_right_two_left_over_ice_moves_nine():
    # Given five right pushes and two left pushes on a crate over ice (x3)
    # Then it moves (5 - 2) x 3 = 9 spaces to the right
    assert movement(5, 2, "ice") == 9


def test_worked_example_five_right_two_left_over_ice_in_a_played_round():
    # Given three players who between them push cat's crate right 5 times and left twice,
    # and cat chose ice for round 1
    round_1 = {
        "ann": {"round": turn("stone", pushes("cat", "right", 3))},
        "bob": {"round": turn("stone", pushes("cat", "right", 2), pushes("cat", "left", 1))},
        "cat": {"round": turn("ice", pushes("cat", "left", 1))},
    }
    # When round 1 resolves
    state = play(["ann", "bob", "cat"], {1: round_1}, until=1)
    # Then cat's crate is at 9 and 9 mod 5 = 4 is revealed; nobody else moved
    assert state.locations == {"ann": [0], "bob": [0], "cat": [9]}
    assert state.reveals == [{"ann": 0, "bob": 0, "cat": 4}]


def test_worked_example_from_one_to_ten_crosses_two_multiples_times_two_is_four():
    # Given a crate at 1 moving 9 spaces to 10 (crossing 5 and meeting 10) with multiplier 2
    assert multiples_of_five_crossed(1, 10) == 2
    assert round_points(1, 10, 2) == 4


def test_worked_example_from_one_to_ten_in_a_played_match():
    # Given ann assigned 0 to round 1 and 2 to round 2
    phases = {
        PREGAME: {"ann": {"multipliers": {"multipliers": [0, 2, -1, -1, 1, 1]}}},
        # When round 1 moves ann's crate from 0 to 1 (one push, stone)
        1: {"ann": {"round": turn("stone", pushes("ann"))}},
        # and round 2 moves it 3 x 3 = 9 over ice, from 1 to 10
        2: {"ann": {"round": turn("ice", pushes("ann", "right", 3))}},
    }
    state = play(["ann", "bob"], phases, until=2)
    # Then round 1 scores nothing and round 2 scores 2 multiples x 2 = 4
    assert state.locations["ann"] == [1, 10]
    assert state.points["ann"] == [0, 4]


# -- movement ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rights", "lefts", "ground", "moves"),
    [
        (0, 0, "stone", 0),  # no pushes
        (0, 2, "ice", 0),  # only left pushes: a crate never moves left
        (2, 2, "ice", 0),  # as many left as right: stays
        (2, 3, "stone", 0),  # more left than right: stays
        (1, 0, "stone", 1),
        (4, 1, "stone", 3),
        (1, 0, "ice", 3),
        (3, 1, "ice", 6),
        (5, 2, "ice", 9),  # the worked example
        (7, 0, "ice", 21),
        (3, 0, "rubber", 0),  # rubber x0
        (6, 1, "rubber", 0),
    ],
)
def test_movement(rights, lefts, ground, moves):
    assert movement(rights, lefts, ground) == moves


@pytest.mark.parametrize(
    ("rights", "lefts", "ground", "end"),
    [
        (3, 3, "ice", 0),
        (3, 4, "ice", 0),
        (4, 1, "stone", 3),
        (4, 1, "ice", 9),
        (6, 0, "rubber", 0),
        (6, 0, "stone", 6),
    ],
)
def test_movement_in_a_played_round_counts_every_players_pushes(rights, lefts, ground, end):
    # Given ann and bob split the pushes on cat's crate and cat picks the ground
    ann_rights = min(rights, 3)
    bob_rights = rights - ann_rights
    round_1 = {
        "ann": {"round": turn("stone", pushes("cat", "right", ann_rights))},
        "bob": {"round": turn("stone", pushes("cat", "right", bob_rights))},
        "cat": {"round": turn(ground, pushes("cat", "left", lefts))},
    }
    # When round 1 resolves
    state = play(["ann", "bob", "cat"], {1: round_1}, until=1)
    # Then cat's crate ends where the rules put it
    assert state.locations["cat"] == [end]


def test_a_missing_round_submission_means_no_pushes_and_stone():
    # Given bob pushes ann twice in round 1 and ann submits nothing
    state = play(["ann", "bob"], {1: {"bob": {"round": turn("ice", pushes("ann", "right", 2))}}}, until=1)
    # Then ann's crate moves 2 x 1 (stone), and ann's record is the default
    assert state.locations == {"ann": [2], "bob": [0]}
    record = state.records["ann"][0]
    assert (record.pushes, record.ground, record.submitted) == ([], "stone", False)


def test_locations_carry_over_between_rounds():
    # Given ann pushes herself right 3 times on stone in rounds 1, 2 and 3
    phases = {r: {"ann": {"round": turn("stone", pushes("ann", "right", 3))}} for r in (1, 2, 3)}
    state = play(["ann", "bob"], phases, until=3)
    # Then her crate is at 3, 6, 9 and the reveals are 3, 1, 4
    assert state.locations["ann"] == [3, 6, 9]
    assert [reveal["ann"] for reveal in state.reveals] == [3, 1, 4]


# -- points --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "end", "multiplier", "points"),
    [
        (0, 0, 2, 0),  # no move
        (0, 4, 1, 0),  # no multiple reached (0 itself is the excluded start)
        (0, 5, 1, 1),  # meets 5 exactly
        (4, 5, 1, 1),
        (5, 5, 1, 0),  # sitting on a multiple does not count again
        (5, 9, 1, 0),  # starting on a multiple does not count
        (5, 10, 1, 1),
        (1, 10, 2, 4),  # the worked example
        (3, 27, 1, 5),  # 5, 10, 15, 20, 25
        (0, 9, -1, -1),
        (9, 21, -1, -3),  # 10, 15, 20
        (2, 14, 0, 0),  # 5 and 10, times 0
        (0, 45, 2, 18),  # 9 multiples x 2
        (0, 100, 1, 20),
        (12, 81, 2, 28),  # 15, 20, ..., 80: 14 multiples x 2
    ],
)
def test_round_points(start, end, multiplier, points):
    assert round_points(start, end, multiplier) == points


def test_points_over_a_played_match_use_each_rounds_multiplier():
    # Given nobody submits multipliers (the listed order -1, -1, 0, 1, 1, 2 stands),
    # ann pushes herself right three times on ice in rounds 1 and 6 and on stone in round 3
    phases = {
        1: {"ann": {"round": turn("ice", pushes("ann", "right", 3))}},
        3: {"ann": {"round": turn("stone", pushes("ann", "right", 3))}},
        6: {"ann": {"round": turn("ice", pushes("ann", "right", 3))}},
    }
    state = play(["ann", "bob"], phases)
    # Then she is at 9, 9, 12, 12, 12, 21
    assert state.locations["ann"] == [9, 9, 12, 12, 12, 21]
    # and scores 1 x -1 (5), 0, 1 x 0 (10), 0, 0, 2 x 2 (15, 20): -1 + 4 = 3
    assert state.points["ann"] == [-1, 0, 0, 0, 0, 4]
    assert total(state, "ann") == 3


# -- multipliers ---------------------------------------------------------------------------------

PREGAME_CHOICE = [2, 1, 1, 0, -1, -1]
ROUND_1_CHOICE = [1, -1, -1, 0, 1, 2]


@pytest.mark.parametrize(
    ("pregame", "round_1", "standing"),
    [
        (None, None, DEFAULT_ORDER),  # none at all: the listed order
        (PREGAME_CHOICE, None, PREGAME_CHOICE),  # pregame only
        (None, ROUND_1_CHOICE, ROUND_1_CHOICE),  # sent late, during round 1
        (PREGAME_CHOICE, ROUND_1_CHOICE, ROUND_1_CHOICE),  # round 1 overrides the pregame
    ],
)
def test_which_multipliers_stand(pregame, round_1, standing):
    # Given ann's multiplier submissions in the pregame and in round 1,
    # and in round 1 she moves her crate from 0 to 6 over ice (one multiple of 5)
    phases = {PREGAME: {}, 1: {"ann": {"round": turn("ice", pushes("ann", "right", 2))}}}
    if pregame is not None:
        phases[PREGAME]["ann"] = {"multipliers": {"multipliers": pregame}}
    if round_1 is not None:
        phases[1]["ann"]["multipliers"] = {"multipliers": round_1}
    # When round 1 resolves
    state = play(["ann", "bob"], phases, until=1)
    # Then the standing multipliers are fixed, and round 1 scored 1 x its multiplier
    assert state.multipliers["ann"] == standing
    assert state.points["ann"] == [standing[0]]
    assert GAME.view(state, "ann")["private"]["multipliers"]["standing"] == standing


def test_multipliers_are_accepted_only_until_the_end_of_round_1():
    state = play(["ann", "bob"], {}, until=1)  # now round 2 is open
    phase = GAME.open_phase(state)
    assert phase.name == "Round 2" and phase.accepts == ("round",)
    # (the match layer refuses a kind the open phase does not accept: tests/unit/match)


@pytest.mark.parametrize(
    "multipliers",
    [
        [1, 1, 1, 1, 1, 1],  # not a permutation
        [-1, -1, 0, 1, 1],  # five
        [-1, -1, 0, 1, 1, 2, 2],  # seven
        [-1, -1, 0, 1, 2, 2],  # wrong counts
        ["-1", "-1", "0", "1", "1", "2"],  # text, not integers
        [-1, -1, 0, 1, 1, 2.5],
        [-1, -1, 0, 1, True, 2],
        "-1 -1 0 1 1 2",
    ],
)
def test_malformed_multipliers_are_refused_by_the_model(multipliers):
    with pytest.raises(ValidationError):
        GAME.submissions["multipliers"].model_validate({"multipliers": multipliers})


@pytest.mark.parametrize("multipliers", [[-1, -1, 0, 1, 1, 2], [2, 1, 1, 0, -1, -1], [1, -1, 2, -1, 0, 1]])
def test_any_permutation_is_a_well_formed_multipliers_submission(multipliers):
    assert GAME.submissions["multipliers"].model_validate({"multipliers": multipliers}).multipliers == multipliers


@pytest.mark.parametrize(
    "payload",
    [
        {"ground": "sand"},  # (no ground at all is stone: test_crates_no_ground.py)
        {"ground": "ice", "pushes": [{"crate": "ann", "direction": "up"}]},
        {"ground": "ice", "pushes": [{"crate": "ann"}]},
        {"ground": "ice", "pushes": [], "garnets": 2},  # unknown field
        {"ground": "ice", "pushes": "ann right"},
    ],
)
def test_malformed_round_submissions_are_refused_by_the_model(payload):
    with pytest.raises(ValidationError):
        GAME.submissions["round"].model_validate(payload)


def test_a_round_submission_without_pushes_is_no_pushes():
    assert GAME.submissions["round"].model_validate({"ground": "rubber"}).pushes == []


# -- timeline ------------------------------------------------------------------------------------


def test_timeline_is_a_pregame_and_six_rounds_with_every_player_acting():
    names = [(kind.name, kind.accepts) for kind in GAME.timeline(GAME.Settings())]
    assert names == [
        ("Pregame", ("multipliers",)),
        ("Round 1", ("round", "multipliers")),
        ("Round 2", ("round",)),
        ("Round 3", ("round",)),
        ("Round 4", ("round",)),
        ("Round 5", ("round",)),
        ("Round 6", ("round",)),
    ]
    state = play(["ann", "bob", "cat"], {}, until=2)
    assert GAME.open_phase(state).actors == ("ann", "bob", "cat")
    assert GAME.open_phase(play(["ann", "bob"], {})) is None
