"""The Pushing Crates bot plays legal, non-trivial matches from its own view alone."""

from __future__ import annotations

import random

import pytest
from crates_support import GAME

from game_core.games.protocol import Resolution
from local_stack.bots.crates import choose


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (3, 2), (5, 3), (12, 4), (12, 5), (16, 6)])
def test_bot_matches_are_legal_with_no_garnets(n, seed):
    players = tuple(f"p{i:02d}" for i in range(1, n + 1))
    state = GAME.setup(GAME.Settings(), players, random.Random(seed))
    while (phase := GAME.open_phase(state)) is not None:
        submissions = {}
        for player in phase.actors:
            chosen = choose(GAME.view(state, player), phase, player, random.Random(f"{seed}:{phase.name}:{player}"))
            assert set(chosen) == set(phase.accepts)
            submissions[player] = {}
            for kind, payload in chosen.items():
                submission = GAME.submissions[kind].model_validate(payload)
                assert GAME.check(state, player, kind, submission) == []
                assert GAME.garnet_cost(kind, submission) == 0
                submissions[player][kind] = submission
        state = GAME.resolve(state, Resolution(submissions=submissions, rng=random.Random(seed)))
    # Non-trivial: crates moved, and the bots used ice and rubber
    assert any(locations[-1] > 0 for locations in state.locations.values())
    grounds = {record.ground for records in state.records.values() for record in records}
    assert {"ice", "rubber", "stone"} <= grounds
    for player in players:
        grounds_used = [record.ground for record in state.records[player]]
        assert grounds_used.count("ice") <= 2 and grounds_used.count("rubber") <= 1
    assert len(GAME.result(state).standings) == n


def test_bot_keeps_its_pregame_multipliers_in_round_1_and_ices_its_best_round():
    state = GAME.setup(GAME.Settings(), ("ann", "bob"), random.Random(0))
    pregame = choose(GAME.view(state, "ann"), GAME.open_phase(state), "ann", random.Random(1))
    multipliers = pregame["multipliers"]["multipliers"]
    assert sorted(multipliers) == [-1, -1, 0, 1, 1, 2]
    state = GAME.resolve(
        state,
        Resolution(
            submissions={
                "ann": {"multipliers": GAME.submissions["multipliers"].model_validate(pregame["multipliers"])}
            },
            rng=random.Random(0),
        ),
    )
    round_1 = choose(GAME.view(state, "ann"), GAME.open_phase(state), "ann", random.Random(2))
    assert round_1["multipliers"]["multipliers"] == multipliers
    if multipliers[0] == 2:
        assert round_1["round"]["ground"] == "ice"
    if multipliers[0] == -1:
        assert round_1["round"]["ground"] == "rubber"
