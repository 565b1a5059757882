"""Replay an exported match record: the same record always gives the same result."""

from __future__ import annotations

import json
from typing import Any

from game_core.games import registry
from game_core.match.engine import decide, replay_phase, setup_rng
from game_core.match.model import MatchRecord


def replay(record: MatchRecord) -> dict[str, Any]:
    """The match's outcome from its record alone: the final public view and, if over, the result."""
    game = registry.load(record.game)
    settings = game.Settings.model_validate(record.settings)
    state = game.setup(settings, tuple(record.players), setup_rng(record.seed))
    for phase in sorted(record.phases, key=lambda p: p.number):
        opening = game.open_phase(state)
        if opening is None or opening.name != phase.name:
            expected = opening.name if opening else "the end of the match"
            raise ValueError(f"record phase {phase.number} is {phase.name!r} but the game expects {expected}")
        state = replay_phase(game, state, record.seed, phase)
    over = game.open_phase(state) is None
    result = game.result(state).to_json() if over else None
    if result is not None and record.decision is not None:
        result = decide(result, record.decision)
    return {
        "match_id": record.match_id,
        "game": record.game,
        "phases": len(record.phases),
        "finished": over,
        "result": result,
        "public_view": game.view(state, None),
    }


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
