"""Palindrome Construction (Main Match 8 and Main Match 5)."""

from game_core.games.palindrome.game import PalindromeGame

GAME = PalindromeGame()

__all__ = ["GAME"]
