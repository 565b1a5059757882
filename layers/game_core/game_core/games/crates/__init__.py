"""Pushing Crates (The Genius Puzzler, Main Match 4): push crates past multiples of 5."""

from __future__ import annotations

from game_core.games.crates.game import CratesGame

GAME = CratesGame()

__all__ = ["GAME", "CratesGame"]
