"""Helpers for the match layer's tests: a started match of any game, on a fixed clock."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from game_core.games import registry
from game_core.match import engine
from game_core.match.model import Match, Participant

T0 = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)


def new_match(game_id: str, players: tuple[str, ...], early_close: bool = False, **settings: Any) -> Match:
    """A match of `game_id` started at T0: phases of 100 seconds, nobody holding garnets."""
    match = Match(
        match_id="m-test",
        game=game_id,
        settings=settings,
        seed=1,
        players=tuple(Participant(id=p, name=p, secret_hash="x") for p in players),
        phase_seconds=100,
        early_close=early_close,
        recheck_seconds=3600,
        created_at=T0,
        starting_garnets={},
    )
    return engine.start(match, registry.load(game_id), T0)
