"""Domino Auction (Gold's Genius Game, Main Match 5): bid chips for polyominoes, place them on a
12x12 board, build the largest fully covered square.

Modules: `models` (settings, state, submissions), `rules` (the phases, checks, resolution,
result), `game` (the protocol object), `views` (what each participant may know), and the rules'
own parts: `polyominoes` (the 19 tiles and their orientations), `board` (cell names, where a tile
may go, connectedness, the largest square), `text` (the plain-text grammar of bids and placements
and the text of a view with every board as a grid, for play by e-mail) `pictures` (every board
as SVG, one by one and side by side) and `page_board` (the tiles and boards drawn for the
player's page).
"""

from __future__ import annotations

from game_core.games.domino.game import DominoGame
from game_core.games.domino.models import DominoSettings, DominoState
from game_core.games.protocol import Game

GAME: Game[DominoSettings, DominoState] = DominoGame()

__all__ = ["GAME"]
