"""Pushing Crates (The Genius Puzzler, Main Match 4): push crates past multiples of 5."""

from __future__ import annotations

from game_core.games.crates.game import CratesGame
from game_core.games.crates.models import CratesSettings, CratesState
from game_core.games.protocol import Game

GAME: Game[CratesSettings, CratesState] = CratesGame()

__all__ = ["GAME", "CratesGame"]
