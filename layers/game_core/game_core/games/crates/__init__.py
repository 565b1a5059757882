"""Pushing Crates (The Genius Puzzler, Main Match 4): push crates past multiples of 5.

Modules: `models` (settings, state, submissions), `rules` (movement, points, checks, resolution,
result), `game` (the protocol object), `views` (what each participant may know), `text` (the plain-text
grammar of the submissions and the text of a view, for play by e-mail), `board` (the view drawn for
the player's page).
"""

from __future__ import annotations

from game_core.games.crates.game import CratesGame
from game_core.games.crates.models import CratesSettings, CratesState
from game_core.games.protocol import Game

GAME: Game[CratesSettings, CratesState] = CratesGame()

__all__ = ["GAME"]
