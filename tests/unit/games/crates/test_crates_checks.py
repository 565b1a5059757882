"""Pushing Crates: every refusal reason of `check`, and what a round spends."""

from __future__ import annotations

import pytest
from conftest import texts
from crates_support import GAME, play, pushes, refusals, turn


def round_submission(ground: str, *groups):
    return GAME.submissions["round"].model_validate(turn(ground, *groups))


def after_grounds(grounds: list[str | None]):
    """ann has played these grounds in the first rounds (None: she submitted nothing)."""
    phases = {
        number: ({} if ground is None else {"ann": {"round": turn(ground)}})
        for number, ground in enumerate(grounds, start=1)
    }
    return play(["ann", "bob"], phases, until=len(grounds))


# -- ground limits -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("earlier", "ground", "reasons"),
    [
        ([], "rubber", []),
        ([], "ice", []),
        (
            ["rubber"],
            "rubber",
            ["rubber may be chosen at most once a match, and you already chose it in round 1"],
        ),
        (
            ["stone", "rubber", "stone"],
            "rubber",
            ["rubber may be chosen at most once a match, and you already chose it in round 2"],
        ),
        (["rubber"], "ice", []),
        (["ice"], "ice", []),  # a second ice is fine
        (
            ["ice", "ice"],
            "ice",
            ["ice may be chosen at most twice a match, and you already chose it in rounds 1 and 2"],
        ),
        (
            ["ice", "stone", "ice", "rubber"],
            "ice",
            ["ice may be chosen at most twice a match, and you already chose it in rounds 1 and 3"],
        ),
        (["ice", "ice", "rubber"], "stone", []),
        (["stone", "stone", "stone", "stone", "stone"], "stone", []),  # stone is unlimited
        ([None, None, None, None, None], "stone", []),  # missing rounds are stone, still unlimited
        ([None, None], "ice", []),  # missing rounds use up no ice
        ([None], "rubber", []),  # ... and no rubber
    ],
)
def test_ground_limits_count_the_players_earlier_rounds(earlier, ground, reasons):
    # Given ann's grounds in the rounds so far
    state = after_grounds(earlier)
    # When she submits this ground for the next round
    # Then it is refused exactly when it goes over the limit
    refused = refusals(state, "ann", "round", round_submission(ground))
    assert texts(refused) == reasons
    assert [reason.code for reason in refused] == ["ground_used_up"] * len(reasons)


def test_ground_limits_are_per_player():
    # Given ann used rubber in round 1 and bob did not
    state = after_grounds(["rubber"])
    # Then bob may still choose rubber
    assert texts(refusals(state, "bob", "round", round_submission("rubber"))) == []


# -- pushes and garnets --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "garnets", "reasons"),
    [
        (0, 0, []),
        (3, 0, []),
        (4, 0, ["4 pushes need 1 garnet (one per push beyond the free 3), but your balance is 0"]),
        (4, 1, []),
        (6, 2, ["6 pushes need 3 garnets (one per push beyond the free 3), but your balance is 2"]),
        (6, 3, []),
        (10, 7, []),
        (10, 20, []),
    ],
)
def test_pushes_beyond_three_need_a_garnet_each(count, garnets, reasons):
    state = play(["ann", "bob"], {}, until=0)
    submission = round_submission("stone", pushes("bob", "right", count))
    refused = refusals(state, "ann", "round", submission, garnets)
    assert texts(refused) == reasons
    assert [reason.code for reason in refused] == ["garnets_short"] * len(reasons)


@pytest.mark.parametrize(("count", "cost"), [(0, 0), (1, 0), (3, 0), (4, 1), (6, 3), (10, 7)])
def test_garnet_cost_of_a_round(count, cost):
    assert GAME.garnet_cost("round", round_submission("ice", pushes("ann", "left", count))) == cost


def test_multipliers_cost_nothing():
    submission = GAME.submissions["multipliers"].model_validate({"multipliers": [2, 1, 1, 0, -1, -1]})
    assert GAME.garnet_cost("multipliers", submission) == 0


def test_garnets_are_spent_for_extra_pushes_and_the_pushes_count():
    # Given ann spends 2 garnets on 5 right pushes on her own crate (stone) in round 1
    state = play(["ann", "bob"], {1: {"ann": {"round": turn("stone", pushes("ann", "right", 5))}}}, until=1)
    # Then her crate moved 5 (and the round had multiplier -1: she met 5, -1 point)
    assert state.locations["ann"] == [5]
    assert state.points["ann"] == [-1]


# -- crates and whole refusals -------------------------------------------------------------------


def test_a_push_must_name_a_crate_of_the_match():
    state = play(["ann", "bob"], {}, until=0)
    submission = round_submission("stone", pushes("bob"), pushes("zed", "left"))
    refused = refusals(state, "ann", "round", submission)
    assert texts(refused) == ["push 2 names crate 'zed', which is not a player of this match"]
    assert [reason.code for reason in refused] == ["crate_unknown"]


def test_pushing_any_crate_including_ones_own_and_repeats_is_legal():
    state = play(["ann", "bob", "cat"], {}, until=0)
    submission = round_submission("stone", pushes("ann"), pushes("cat", "left"), pushes("cat", "left"))
    assert texts(refusals(state, "ann", "round", submission)) == []


def test_every_reason_is_listed_at_once():
    # Given ann already used ice twice
    state = after_grounds(["ice", "ice"])
    # When she asks for ice again with 5 pushes, one on an unknown crate, and 1 garnet
    submission = round_submission("ice", pushes("ann", "right", 4), pushes("nobody"))
    # Then all three reasons are given
    refused = refusals(state, "ann", "round", submission, 1)
    assert texts(refused) == [
        "push 5 names crate 'nobody', which is not a player of this match",
        "ice may be chosen at most twice a match, and you already chose it in rounds 1 and 2",
        "5 pushes need 2 garnets (one per push beyond the free 3), but your balance is 1",
    ]
    assert [reason.code for reason in refused] == ["crate_unknown", "ground_used_up", "garnets_short"]
