"""Highest Unique Bid: a throwaway sixth game, registered only inside tests/sixth_game's test, to
show that a game is its package plus one line (docs/GAME_AUTHORING.md).

Four rounds; each player bids some of their 10 chips in secret, and the highest amount that exactly
one player bid wins the round. Most rounds won wins the match, then most chips left.

Modules: `models` (settings, state, the bid), `rules` (the check, a round's resolution, the result),
`game` (the protocol object), `views` (what each player may know), `text` (the plain-text grammar).
"""

from __future__ import annotations

from game_core.games.protocol import Game
from highbid.game import HighbidGame
from highbid.models import HighbidSettings, HighbidState

GAME: Game[HighbidSettings, HighbidState] = HighbidGame()

__all__ = ["GAME"]
