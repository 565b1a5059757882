"""Helpers for the Pushing Crates tests: build submissions and play scripted matches."""

from __future__ import annotations

import random
from typing import Any

from game_core.errors import Reason
from game_core.games import registry
from game_core.games.protocol import Model, Resolution
from game_core.match import engine

GAME = registry.load("crates")
DEFAULT_ORDER = [-1, -1, 0, 1, 1, 2]
PREGAME = 0
"""Phase 0 is the pregame; phase n (1-6) is round n."""
LAST_PHASE = 6


def pushes(crate: str, direction: str = "right", times: int = 1) -> list[dict[str, str]]:
    return [{"crate": crate, "direction": direction} for _ in range(times)]


def turn(ground: str = "stone", *groups: list[dict[str, str]]) -> dict[str, Any]:
    """A round submission: the ground and the pushes, concatenated in order."""
    return {"ground": ground, "pushes": [push for group in groups for push in group]}


def refusals(state, player: str, kind: str, submission: Model, garnets: int = 0) -> list[Reason]:
    """Every reason the match layer refuses the submission: the game's, then a short balance."""
    return engine.refusals(GAME, state, player, kind, submission, garnets)


def start(players: list[str], **settings: Any):
    return GAME.setup(GAME.Settings(**settings), tuple(players), random.Random(0))


def resolve(state, submissions: dict[str, dict[str, Any]], seed: int = 0, garnets: int = 99):
    """Resolve the open phase with these submissions (each must be legal with `garnets`)."""
    parsed = {}
    for player, kinds in submissions.items():
        parsed[player] = {}
        for kind, payload in kinds.items():
            submission = GAME.submissions[kind].model_validate(payload)
            assert refusals(state, player, kind, submission, garnets) == [], (player, kind, payload)
            parsed[player][kind] = submission
    return GAME.resolve(state, Resolution(submissions=parsed, rng=random.Random(seed)))


def play(players: list[str], phases: dict[int, dict[str, dict[str, Any]]], until: int = LAST_PHASE, **settings):
    """Play phases 0 (pregame) .. `until` (round number); phases without an entry get no submissions."""
    state = start(players, **settings)
    for index in range(until + 1):
        state = resolve(state, phases.get(index, {}), seed=index)
    return state


def total(state, player: str) -> int:
    return sum(state.points[player])
