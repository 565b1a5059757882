"""Puzzler's Clubs (The Genius Puzzler, Main Match 12): players and their guests solve puzzles the
service times, draft cards with priorities (clubs weighed by the puzzles' tokens), build poker
hands and guess each other's hands, over 7 rounds in 8 phases.

Modules: `models` (settings, state, submissions, immediate actions), `rules` (timeline, setup,
checks, resolution, result), `actions` (the open phase and its immediate actions), `game` (the
protocol object), `views` (what each participant may know), `text` (the plain-text grammar of the
submissions and the text of a view), `cards` (poker hands of 1 to 5 cards and the clubs tie-breaks),
`draft` (the draft's priorities and who receives each card), `showdown` (the hands' ranking, points
and the guesses), `puzzles` (the three puzzle types: generated from a seed, checked exactly),
`board` (the view drawn for the player's page).
"""

from __future__ import annotations

from game_core.games.clubs.game import ClubsGame
from game_core.games.clubs.models import ClubsSettings, ClubsState
from game_core.games.protocol import Game

GAME: Game[ClubsSettings, ClubsState] = ClubsGame()

__all__ = ["GAME"]
