"""The result's line on each seat the host gave to someone else: who played it, and from which
phase each successor took it (the standings name the seat's last player)."""

from __future__ import annotations

import pytest
from match_support import new_match

from game_core.match.model import Former, Match
from game_core.match.seats import seat_lines


def seated(formerly: dict[str, list[tuple[str, str]]]) -> Match:
    """Ada and Bo (named so now), each seat with its former players as (name, phase replaced in)."""
    match = new_match("crates", ("ada", "bo"))
    players = tuple(
        seat.model_copy(
            update={
                "name": seat.id.capitalize(),
                "formerly": tuple(Former(name=name, phase=phase) for name, phase in formerly.get(seat.id, [])),
            }
        )
        for seat in match.players
    )
    return match.model_copy(update={"players": players})


@pytest.mark.parametrize(
    ("formerly", "lines"),
    [
        ({}, []),
        ({"bo": [("Dana", "Round 3")]}, ["Seat bo was played by Dana, then from Round 3 by Bo."]),
        (
            # Cy played bo until Round 1, Dana took it then and left in Round 4, Bo plays it now
            {"bo": [("Cy", "Round 1"), ("Dana", "Round 4")]},
            ["Seat bo was played by Cy, then from Round 1 by Dana, then from Round 4 by Bo."],
        ),
        (
            {"ada": [("Eve", "Pregame")], "bo": [("Dana", "Round 6")]},
            [
                "Seat ada was played by Eve, then from Pregame by Ada.",
                "Seat bo was played by Dana, then from Round 6 by Bo.",
            ],
        ),
    ],
    ids=["none replaced", "one handover", "two handovers", "two seats"],
)
def test_each_replaced_seat_says_who_played_it_and_from_when(formerly, lines) -> None:
    assert seat_lines(seated(formerly)) == lines
