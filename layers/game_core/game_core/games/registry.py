"""Which games exist, each imported only when a match of it is first used."""

from __future__ import annotations

import importlib
from functools import cache

from game_core.errors import UnknownGame
from game_core.games.protocol import AnyGame

GAME_IDS = ("palindrome", "crates", "clubs", "abstrac", "domino")
AVAILABLE = ("crates", "palindrome", "abstrac", "domino", "clubs")
"""Games whose rules are implemented; the others are on the roadmap."""


@cache
def load(game_id: str) -> AnyGame:
    if game_id not in AVAILABLE:
        raise UnknownGame(f"unknown game {game_id!r}; available: {', '.join(AVAILABLE)}")
    module = importlib.import_module(f"game_core.games.{game_id}")
    game: AnyGame = module.GAME
    return game
