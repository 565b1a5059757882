"""Palindrome Construction (Main Match 8 and Main Match 5): bid for digits, build palindromes.

Modules: `models` (settings, state, submissions), `rules` (the phases, resolution, result),
`game` (the protocol object), `views` (what each participant may know), and the rules' own
parts: `rule_sets` (the two rule sets as data), `bidding` (bids: legality and who receives what),
`construction` and `items` (a construction's steps and the item catalogue), `workbench` (the
position a construction is applied to), `packs` (drawing packs and items), `scoring` (the ten
criteria and primality), and `text` (the plain-text grammar of bids and constructions and the
text of a view, for play by e-mail), `board` (the view drawn for the player's page).
"""

from __future__ import annotations

from game_core.games.palindrome.game import PalindromeGame
from game_core.games.palindrome.models import PalindromeSettings, PalindromeState
from game_core.games.protocol import Game

GAME: Game[PalindromeSettings, PalindromeState] = PalindromeGame()

__all__ = ["GAME"]
