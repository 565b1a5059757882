"""Abstrac (David Parlett), two rule sets: "row" (Death Match 12, default) and "deal" (the original).

Modules: `cards` (card codes, combinations, exact scores), `clocks` (reserve and period clocks),
`models` (settings, state, submissions), `row` and `deal` (each rule set's phases, checks,
resolution, views and result), `game` (the protocol object).
"""

from game_core.games.abstrac.game import GAME

__all__ = ["GAME"]
