"""Replay an exported match record: the same record always gives the same result."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from game_core.games import registry
from game_core.games.protocol import AnyGame, Model
from game_core.match.engine import apply_record, setup_rng
from game_core.match.immediate import apply_action
from game_core.match.model import MatchRecord, PhaseRecord
from game_core.match.ties import decide


def states(record: MatchRecord) -> Iterator[tuple[PhaseRecord | None, Model]]:
    """The game's state at the start (phase None), then each phase of the record in order with
    the state after it."""
    game = registry.load(record.game)
    state = game.setup(game.Settings.model_validate(record.settings), tuple(record.players), setup_rng(record.seed))
    yield None, state
    for phase in sorted(record.phases, key=lambda p: p.number):
        opening = game.open_phase(state)
        if opening is None or opening.name != phase.name:
            expected = opening.name if opening else "the end of the match"
            raise ValueError(f"record phase {phase.number} is {phase.name!r} but the game expects {expected}")
        state = replay_phase(game, state, record.seed, phase)
        yield phase, state


def outcome(game: AnyGame, record: MatchRecord, state: Model) -> dict[str, Any]:
    """The match's outcome from the state its last phase left: the final public view and, if
    over, the result (with the host's decision of a tie)."""
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


def replay(record: MatchRecord) -> dict[str, Any]:
    """The match's outcome from its record alone."""
    _phase, final = list(states(record))[-1]
    return outcome(registry.load(record.game), record, final)


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def replay_phase(game: AnyGame, state: Model, seed: int, record: PhaseRecord) -> Model:
    """A phase from its record: its immediate actions in arrival order, then its resolution."""
    for action in record.actions:
        state = apply_action(game, state, action).state
    return apply_record(game, state, seed, record)
