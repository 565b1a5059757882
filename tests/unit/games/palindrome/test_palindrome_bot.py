"""The bot plays legal, non-trivial moves from its own view in both rule sets."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from palindrome_support import GAME, start

from game_core.games.protocol import Resolution
from local_stack.bots.palindrome import choose


def bot_match(rule_set: str, players: int, seed: int):
    names = [f"p{i}" for i in range(1, players + 1)]
    state = start(names, seed=seed, rule_set=rule_set)
    used = Counter()
    step = 0
    while (phase := GAME.open_phase(state)) is not None:
        submissions = {}
        for player in phase.actors:
            chosen = choose(GAME.view(state, player), phase, player, random.Random(f"{seed}:{step}:{player}"))
            assert set(chosen) == set(phase.accepts)
            parsed = {kind: GAME.submissions[kind].model_validate(payload) for kind, payload in chosen.items()}
            for kind, submission in parsed.items():
                assert GAME.check(state, player, kind, submission) == []
                assert GAME.garnet_cost(kind, submission) == 0
            if "construction" in parsed:
                used.update(s.action for s in parsed["construction"].steps)
            submissions[player] = parsed
        state = GAME.resolve(state, Resolution(submissions=submissions, rng=random.Random(f"{seed}:{step}")))
        step += 1
    return state, used


@pytest.mark.parametrize("rule_set", ["mm8", "mm5"])
@pytest.mark.parametrize("players", [2, 7, 12])
@pytest.mark.parametrize("seed", [1, 2])
def test_bots_play_legal_matches_to_the_end(rule_set, players, seed):
    state, used = bot_match(rule_set, players, seed)
    result = GAME.result(state)
    assert len(result.standings) == players
    # non-trivial: strings were built, and they mostly score
    assert any(s for seat in state.seats.values() for s in seat.strings)
    assert used["append"] > 0
    assert sum(score.total for scores in state.final.values() for score in scores) > 0


def test_bots_use_items_over_many_matches():
    used = Counter()
    for seed in range(6):
        used += bot_match("mm5", 5, seed)[1]
    assert set(used) - {"append"}, "some item was used"
