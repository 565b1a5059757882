"""Every registered game honours the protocol: bots play it to the end through views alone,
states survive JSON, the same seed gives the same bytes, and views are JSON."""

from __future__ import annotations

import json
import random

import pytest

from game_core.games import registry
from game_core.games.protocol import Resolution
from local_stack.bots import bot_for


def players_for(game) -> tuple[str, ...]:
    count = max(game.min_players, min(6, game.max_players))
    return tuple(f"p{i:02d}" for i in range(1, count + 1))


def play_through(game_id: str, seed: int) -> tuple[list[str], dict]:
    game = registry.load(game_id)
    settings = game.Settings()
    players = players_for(game)
    state = game.setup(settings, players, random.Random(seed))
    bot = bot_for(game_id)
    kinds = {kind.name: set(kind.accepts) for kind in game.timeline(settings)}
    trail = []
    for step in range(10_000):
        phase = game.open_phase(state)
        if phase is None:
            break
        assert set(phase.accepts) <= kinds[phase.name], f"{phase.name} accepts kinds the timeline lacks"
        assert set(phase.actors) <= set(players)
        submissions = {}
        for player in phase.actors:
            view = game.view(state, player)
            json.dumps(view)
            chosen = bot(view, phase, player, random.Random(f"{seed}:{step}:{player}"))
            parsed = {}
            for kind, payload in chosen.items():
                assert kind in phase.accepts
                submission = game.submissions[kind].model_validate(payload)
                assert game.check(state, player, kind, submission, 0) == []
                parsed[kind] = submission
            submissions[player] = parsed
        state = game.resolve(state, Resolution(submissions=submissions, rng=random.Random(f"{seed}:{step}")))
        dumped = state.model_dump(mode="json")
        assert game.State.model_validate(dumped).model_dump(mode="json") == dumped
        trail.append(json.dumps(game.view(state, None), sort_keys=True))
    else:
        pytest.fail("the match never ended")
    return trail, game.result(state).to_json()


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_a_bot_match_reaches_a_result_with_every_player_standing(game_id):
    game = registry.load(game_id)
    trail, result = play_through(game_id, seed=7)
    assert trail, "at least one phase resolves"
    assert sorted(s["player"] for s in result["standings"]) == sorted(players_for(game))
    assert not set(result["tol"]) & set(result["ec"]), "a player is never both ToL and EC"
    assert all(amount >= 0 for amount in result["garnets"].values())


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_the_same_seed_plays_the_same_match(game_id):
    assert play_through(game_id, seed=11) == play_through(game_id, seed=11)


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_every_phase_kind_has_a_submission_model(game_id):
    game = registry.load(game_id)
    for kind in game.timeline(game.Settings()):
        assert set(kind.accepts) <= set(game.submissions), kind.name
