"""Pushing Crates: standings, every tie-break level, ToL/EC lines and garnet awards."""

from __future__ import annotations

import random

import pytest
from crates_support import GAME, PREGAME, play, pushes, turn

from game_core.errors import Illegal
from game_core.games.crates.rules import EC_COUNT, TOL_COUNT, garnets_for
from game_core.games.protocol import Resolution
from game_core.games.standings import lines


def order(result) -> list[str]:
    return [standing.player for standing in result.standings]


def scores(result) -> list[str]:
    return [standing.score for standing in result.standings]


# -- tie-breaks ----------------------------------------------------------------------------------
# Nobody submits multipliers, so every player has -1, -1, 0, 1, 1, 2 for rounds 1-6.


def test_points_come_first_even_against_a_crate_further_right():
    phases = {
        # round 1 (x-1): bob moves 0 -> 9 over ice, meeting 5: -1
        1: {"bob": {"round": turn("ice", pushes("bob", "right", 3))}},
        # round 3 (x0): bob moves 9 -> 12, meeting 10: 0
        3: {"bob": {"round": turn("stone", pushes("bob", "right", 3))}},
        # round 6 (x2): ann moves 0 -> 9 over ice, meeting 5: 2
        6: {"ann": {"round": turn("ice", pushes("ann", "right", 3))}},
    }
    state = play(["ann", "bob"], phases, lot=["bob", "ann"])
    result = GAME.result(state)
    # Then ann (2 points, at 9) is ahead of bob (-1 point, at 12)
    assert order(result) == ["ann", "bob"]
    assert scores(result) == ["2", "-1"]
    assert [s.place for s in result.standings] == [1, 2]
    assert result.details["lot_decided"] is False


def test_equal_points_the_crate_further_right_after_round_6_wins():
    # Given both score 0 and ann moved 0 -> 1 in round 6 while bob never moved
    phases = {6: {"ann": {"round": turn("stone", pushes("ann"))}}}
    # and the lot would favour bob
    state = play(["ann", "bob"], phases, lot=["bob", "ann"])
    result = GAME.result(state)
    # Then ann wins on the round 6 location
    assert order(result) == ["ann", "bob"]
    assert scores(result) == ["0", "0"]
    assert result.details["lot_decided"] is False


def test_equal_after_round_6_the_later_round_5_decides_before_earlier_rounds():
    # Given ann is at 2, 2, 2, 2, 2, 3 (ahead in rounds 1-4) and bob at 0, 0, 0, 0, 3, 3
    phases = {
        1: {"ann": {"round": turn("stone", pushes("ann", "right", 2))}},
        5: {"bob": {"round": turn("stone", pushes("bob", "right", 3))}},
        6: {"ann": {"round": turn("stone", pushes("ann"))}},
    }
    state = play(["ann", "bob"], phases, lot=["ann", "bob"])
    assert state.locations == {"ann": [2, 2, 2, 2, 2, 3], "bob": [0, 0, 0, 0, 3, 3]}
    result = GAME.result(state)
    # Then both have 0 points and are level after round 6; bob is further right after round 5
    assert scores(result) == ["0", "0"]
    assert order(result) == ["bob", "ann"]
    assert result.details["lot_decided"] is False


def test_level_from_round_6_down_to_round_2_round_1_decides():
    # Given ann at 1 from round 1 on and bob at 1 only from round 2 on
    phases = {
        1: {"ann": {"round": turn("stone", pushes("ann"))}},
        2: {"bob": {"round": turn("stone", pushes("bob"))}},
    }
    state = play(["ann", "bob"], phases, lot=["bob", "ann"])
    result = GAME.result(state)
    # Then ann wins on the round 1 location, not the lot
    assert order(result) == ["ann", "bob"]
    assert result.details["lot_decided"] is False


def test_level_in_every_round_the_lot_decides():
    # Given nobody ever moves, and the host fixed the lot bob, ann
    state = play(["ann", "bob"], {}, lot=["bob", "ann"])
    result = GAME.result(state)
    # Then the lot orders them, and the result says so
    assert order(result) == ["bob", "ann"]
    assert [s.tied_with for s in result.standings] == [(), ()]
    assert result.undecided == ()
    assert result.details["lot_decided"] is True
    assert result.details["lot"] == ["bob", "ann"]


def test_the_lot_only_separates_those_still_tied():
    # Given cat scores 2 in round 6 while ann and bob never move
    phases = {6: {"cat": {"round": turn("ice", pushes("cat", "right", 3))}}}
    state = play(["ann", "bob", "cat"], phases, lot=["bob", "cat", "ann"])
    result = GAME.result(state)
    # Then cat leads on points and the lot puts bob before ann
    assert order(result) == ["cat", "bob", "ann"]
    assert scores(result) == ["2", "0", "0"]
    assert result.details["lot_decided"] is True


def test_without_a_host_lot_it_is_drawn_when_round_6_resolves_and_replays_identically():
    players = ["ann", "bob", "cat", "dan"]
    state = play(players, {})
    assert state.lot is not None and sorted(state.lot) == sorted(players)
    # Everyone is level everywhere, so the standings are the lot
    assert order(GAME.result(state)) == state.lot
    assert play(players, {}).lot == state.lot
    # No lot is drawn before the last round resolves
    assert play(players, {}, until=5).lot is None


def test_the_lot_is_drawn_with_the_resolution_rng():
    players = [f"p{i:02d}" for i in range(1, 13)]
    state = play(players, {}, until=5)
    drawn = {tuple(GAME.resolve(state, Resolution(submissions={}, rng=random.Random(seed))).lot) for seed in range(5)}
    assert len(drawn) > 1


def test_a_host_lot_must_name_every_player_once():
    with pytest.raises(Illegal):
        play(["ann", "bob", "cat"], {}, lot=["ann", "bob"])
    with pytest.raises(ValueError):
        GAME.Settings(lot=["ann", "ann"])


# -- ToL and EC ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "tol", "ec"),
    [
        (12, ["p12", "p11", "p10"], ["p02", "p01"]),
        (5, ["p05", "p04", "p03"], ["p02", "p01"]),
        (4, ["p04", "p03"], ["p02", "p01"]),  # EC min(2, 3) = 2, ToL min(3, 4 - 2) = 2
        (3, ["p03"], ["p02", "p01"]),  # EC min(2, 2) = 2, ToL min(3, 3 - 2) = 1
        (2, ["p02"], ["p01"]),  # EC min(2, 1) = 1, ToL min(3, 2 - 1) = 1
    ],
)
def test_tokens_of_life_and_elimination_candidates(n, tol, ec):
    # Given n players who never move, ranked by a host lot from the last id to the first
    players = [f"p{i:02d}" for i in range(1, n + 1)]
    state = play(players, {}, lot=list(reversed(players)))
    result = GAME.result(state)
    assert list(result.tol) == tol
    assert list(result.ec) == ec
    assert not set(result.tol) & set(result.ec)
    # The second-to-last picks a Death Match opponent first (when two are EC)
    assert result.details["first_to_pick_opponent"] == ("p02" if len(ec) == 2 else None)


@pytest.mark.parametrize(
    ("n", "tol", "ec"), [(16, 3, 2), (12, 3, 2), (6, 3, 2), (5, 3, 2), (4, 2, 2), (3, 1, 2), (2, 1, 1)]
)
def test_line_counts(n, tol, ec):
    # Top three and bottom two, fewer with fewer players, nobody on both lines.
    tol_line, ec_line = lines([f"p{i}" for i in range(n)], TOL_COUNT, EC_COUNT)
    assert (len(tol_line), len(ec_line)) == (tol, ec)
    assert not set(tol_line) & set(ec_line)


# -- garnets -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "garnets"), [(-5, 0), (-1, 0), (0, 0), (2, 0), (3, 1), (5, 1), (8, 2), (9, 3), (26, 8)]
)
def test_garnets_are_a_third_of_the_points_rounded_down_never_negative(points, garnets):
    assert garnets_for(points) == garnets


def test_garnets_awarded_at_the_end_of_a_played_match():
    # Given ann put multiplier 2 on round 1
    phases = {
        PREGAME: {"ann": {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}}},
        # and in round 1 ann's crate gets 7 right pushes over ice: 0 -> 21, meeting 5, 10, 15, 20
        # (4 x 2 = 8 points), while bob's gets 2 over ice: 0 -> 6, meeting 5 (1 x -1 = -1 point)
        1: {
            "ann": {"round": turn("ice", pushes("ann", "right", 3))},
            "bob": {"round": turn("ice", pushes("ann", "right", 3))},
            "cat": {"round": turn("stone", pushes("ann"), pushes("bob", "right", 2))},
        },
    }
    state = play(["ann", "bob", "cat"], phases)
    result = GAME.result(state)
    # Then ann has 8 points (2 garnets), cat 0 (0), bob -1 (0)
    assert order(result) == ["ann", "cat", "bob"]
    assert scores(result) == ["8", "0", "-1"]
    assert result.garnets == {"ann": 2, "bob": 0, "cat": 0}
    assert result.details["points"] == {"ann": 8, "bob": -1, "cat": 0}
    assert list(result.tol) == ["ann"] and list(result.ec) == ["cat", "bob"]
