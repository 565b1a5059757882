"""Abstrac (David Parlett), two rule sets: "row" (Death Match 12, default) and "deal" (the original).

Modules: `models` (settings, state, submissions), `game` (the protocol object), `views` (what
each participant may know: everything), and the rules in parts: `row` and `deal` (each rule set's
phases, checks, resolution and result), `cards` (card codes, combinations, exact scores),
`clocks` (reserve and period clocks), and `text` (the plain-text grammar of the moves and the text
of a view, for play by e-mail), `board` (the view drawn for the player's page).
"""

from __future__ import annotations

from game_core.games.abstrac.game import AbstracGame
from game_core.games.abstrac.models import AbstracSettings, AbstracState
from game_core.games.protocol import Game

GAME: Game[AbstracSettings, AbstracState] = AbstracGame()

__all__ = ["GAME"]
