"""Which games exist, each imported only when a match of it is first used.

Adding a game is its package under `games/` and its id in `AVAILABLE`: every list of games (the
state machines `match-asl` writes, `bin/play`, the tests' matrices, the benchmarks) is derived from
here and from what the game declares (`Game.demo`).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from game_core.errors import UnknownGame
from game_core.games.protocol import AnyGame

AVAILABLE: tuple[str, ...] = ("crates", "palindrome", "abstrac", "domino", "clubs")
"""Every game a match may be of; the game `<id>` is the package `game_core.games.<id>`."""
_ELSEWHERE: dict[str, str] = {}
"""Games `registered` from a package outside `games/` (a test's): id -> package."""


@cache
def load(game_id: str) -> AnyGame:
    if game_id not in AVAILABLE:
        raise UnknownGame(f"unknown game {game_id!r}; available: {', '.join(AVAILABLE)}")
    module = importlib.import_module(_ELSEWHERE.get(game_id, f"game_core.games.{game_id}"))
    game: AnyGame = module.GAME
    return game


@contextmanager
def registered(package: str) -> Iterator[AnyGame]:
    """The game of `package` (its `GAME`) available for the duration, listed last in `AVAILABLE`,
    as if its id had been added there: for a test's throwaway game."""
    global AVAILABLE
    game: AnyGame = importlib.import_module(package).GAME
    if game.id in AVAILABLE:
        raise ValueError(f"a game {game.id!r} is already available")
    _ELSEWHERE[game.id] = package
    AVAILABLE = (*AVAILABLE, game.id)
    try:
        yield game
    finally:
        AVAILABLE = tuple(game_id for game_id in AVAILABLE if game_id != game.id)
        del _ELSEWHERE[game.id]
        load.cache_clear()
