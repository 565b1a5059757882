"""Every game's board reads on a 390-px phone (issue 30 item 4), in every position of its bot
match, for the first three participants: its smallest text drawn at 11 px or more, no two texts
over each other, none past the drawing's edges (the phone would cut it). The measures are
`phone_fit`'s: the column the page gives the board at 390 px (372 px), and a text's width
estimated as the layout's own metric, 0.6 x font-size a character."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from board_support import drawn, parsed
from page_support import played
from phone_fit import cut, overlapping, smallest_px

from game_core.games import registry

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
from bot_matches import players_for  # noqa: E402

SMALLEST_PX = 11
"""The smallest text a phone's reader is asked to read (the issue's 'readable' at 390 px)."""
GAMES = ("domino", "clubs", "crates", "palindrome", "abstrac")


@pytest.mark.parametrize("game_id", GAMES)
def test_every_board_reads_at_390_px_without_a_text_cut_or_over_another(game_id: str) -> None:
    players = list(players_for(registry.load(game_id)))
    names = {p: f"Player {p.upper()}" for p in players}
    for state in played(game_id).states:
        for viewer in players[:3]:
            root = parsed(drawn(game_id, state, viewer, names).svg)
            size, words = smallest_px(root)
            assert size >= SMALLEST_PX, f"{words!r} is drawn at {size:.1f} px on a 390-px phone"
            assert overlapping(root) == []
            assert cut(root) == []
