"""Rulings, Pushing Crates, Ground: "None submitted, or a round submission that names no ground:
stone (the answer to the player says so)."

Before this ruling a round submission without a ground was refused as malformed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from crates_support import GAME, play, pushes

from game_core.match import engine
from game_core.match.model import Match, Participant

T0 = datetime(2026, 12, 1, tzinfo=UTC)
NO_GROUND = [
    pytest.param({"pushes": pushes("ann", "right", 2)}, id="ground left out"),
    pytest.param({"pushes": pushes("ann", "right", 2), "ground": None}, id="ground null"),
]


@pytest.mark.parametrize("payload", NO_GROUND)
def test_a_round_submission_naming_no_ground_is_taken_as_stone(payload):
    assert GAME.submissions["round"].model_validate(payload).ground == "stone"


@pytest.mark.parametrize("payload", NO_GROUND)
def test_the_answer_to_the_player_says_stone(payload):
    # Given round 1 of a two-player match is open
    match = Match(
        match_id="m-no-ground",
        game="crates",
        settings={},
        seed=1,
        players=tuple(Participant(id=p, name=p, secret_hash="-") for p in ("ann", "bob")),
        phase_seconds=100,
        early_close=False,
        recheck_seconds=3600,
        created_at=T0,
        starting_garnets={},
    )
    match = engine.start(match, GAME, T0)
    match = engine.resolve(match, GAME, {}, T0 + timedelta(seconds=100)).match
    # When ann sends pushes and no ground
    accepted = engine.accept(match, GAME, "ann", "Round 1", "round", payload, 0, T0 + timedelta(seconds=110))
    # Then the accepted submission (what the reply echoes) names stone
    assert accepted.submission["ground"] == "stone"


@pytest.mark.parametrize("payload", NO_GROUND)
def test_a_round_with_no_ground_moves_the_crate_as_stone_does(payload):
    # ann pushes her own crate right twice in round 1 and names no ground: stone, x1, so the
    # crate moves (2 - 0) x 1 = 2 (rubber would give 0, ice 6); bob sends nothing (stone too).
    state = play(["ann", "bob"], {1: {"ann": {"round": payload}}}, until=1)
    assert state.locations == {"ann": [2], "bob": [0]}
    assert [r.ground for r in state.records["ann"]] == ["stone"]
    assert state.records["ann"][0].submitted is True
