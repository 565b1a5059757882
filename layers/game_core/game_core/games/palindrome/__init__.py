"""Palindrome Construction (Main Match 8 and Main Match 5)."""

from game_core.games.palindrome.game import PalindromeGame, PalindromeState
from game_core.games.palindrome.settings import Settings as PalindromeSettings
from game_core.games.protocol import Game

GAME: Game[PalindromeSettings, PalindromeState] = PalindromeGame()

__all__ = ["GAME"]
