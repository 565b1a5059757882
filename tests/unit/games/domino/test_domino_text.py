"""Domino Auction in plain text: bodies and what they read as, refusals by code, the echo."""

from __future__ import annotations

import pytest
from domino_support import GAME

from game_core.games.protocol import TextMove

TEXT = GAME.text
BOTH = ("bid", "place")


@pytest.mark.parametrize(
    ("lines", "moves"),
    [
        (
            ["BID 40 ON TILE 27", "bid 12 on 31"],
            [TextMove("bid", {"bids": [{"tile": 27, "chips": 40}, {"tile": 31, "chips": 12}]})],
        ),
        (["Auction 2"], [TextMove("bid", {"bids": []}, "Auction 2 and placing 1")]),
        (["AUCTION 1", "BID 5 ON TILE 3."], [TextMove("bid", {"bids": [{"tile": 3, "chips": 5}]}, "Auction 1")]),
        (
            ["PLACE 7 AT c5, c6, c7, d7", "square at D6"],
            [
                TextMove(
                    "place",
                    {
                        "placements": [
                            {"tile": 7, "cells": ["C5", "C6", "C7", "D7"]},
                            {"tile": "square", "cells": ["D6"]},
                        ]
                    },
                )
            ],
        ),
        # shape, orientation and the corner of its box: read as the cells it covers
        (["place 7 L4 2 at C5"], [TextMove("place", {"placements": [{"tile": 7, "cells": ["C5", "D5", "E5", "C6"]}]})]),
        (["PLACING 3"], [TextMove("place", {"placements": []}, "Placing 3")]),
        (["PLACING 2"], [TextMove("place", {"placements": []}, "Auction 3 and placing 2")]),
    ],
)
def test_bodies_and_what_they_read_as(lines, moves):
    reading = TEXT.read_text(lines, BOTH)
    assert reading.reasons == []
    assert reading.moves == moves


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("BID forty ON TILE 3", "not_a_number"),
        ("BID 40 ON TILE", "missing_tile"),
        ("PLACE 7 AT C5 5C", "bad_cell"),
        ("PLACE 7 AT", "missing_cell"),
        ("PLACE 7 Q4 1 AT C5", "unknown_shape"),
        ("SQUARE", "missing_cell"),
        ("BID 4 ON TILE 3 please", "extra_words"),
        ("TILE 3 40", "unknown_line"),
    ],
)
def test_lines_not_understood(line, code):
    reading = TEXT.read_text([line], BOTH)
    assert [reason.code for reason in reading.reasons] == [code]


def test_the_echo_writes_the_cells():
    submission = GAME.submissions["place"].model_validate(
        {
            "placements": [
                {"tile": 7, "shape": "T4", "orientation": 1, "anchor": "B2"},
                {"tile": "square", "cells": ["a1"]},
            ]
        }
    )
    assert TEXT.write_text("place", submission) == ["PLACE 7 AT B2 C2 D2 C3", "SQUARE AT A1"]
    assert TEXT.write_text("bid", GAME.submissions["bid"].model_validate({"bids": []})) == ["AUCTION"]
