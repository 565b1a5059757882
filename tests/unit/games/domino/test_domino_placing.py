"""Placing: where the tiles won may go, what is forfeited, the 1x1 squares. Round 1's tiles are
the host's (`domino_support.ROUND_1`): tile 1 an O4, tile 2 an I3, tile 3 an L4, tile 4 an I5.
Expected values worked by hand from the rules: inside the grid, on no own covered cell, after the
first touching the cells already placed, in the order listed; 2 garnets a square, three a match."""

from __future__ import annotations

import pytest
from conftest import texts
from domino_support import GAME, bids, parse, placing, refusals, resolve, won
from hypothesis import given, settings
from hypothesis import strategies as st

from game_core.games.domino.board import cell_of, connected, names_of, places
from game_core.games.domino.models import Placement
from game_core.games.domino.polyominoes import ORIENTATIONS
from game_core.games.domino.rules import covered

PLAYERS = ["ann", "bob"]


@pytest.fixture
def holding():
    """ann won tiles 1-4 in auction 1; bob won nothing."""
    return won(PLAYERS, {"ann": [1, 2, 3, 4]})


@pytest.mark.parametrize(
    ("placements", "codes", "said"),
    [
        # the first tile goes anywhere; the next touches it (B3 is below B2)
        ([(1, "A1 B1 A2 B2"), (2, "B3 B4 B5")], [], []),
        ([(2, "K12 L12 J12")], [], []),  # cells in any order
        ([(1, "L12 M12 L13 M13")], ["outside_grid"], ["placement 1 (tile 1): M12 L13 M13 off the 12x12 grid"]),
        (
            [(1, "A1 B1 A2 B2"), (2, "A1 B1 C1")],
            ["cell_covered"],
            ["placement 2 (tile 2): A1 B1 already covered"],
        ),
        (
            # a disconnected second tile: C3 meets B2 only at a corner
            [(1, "A1 B1 A2 B2"), (2, "C3 D3 E3")],
            ["not_connected"],
            ["placement 2 (tile 2): touches none of your cells (after the first, all your cells are one group)"],
        ),
        (
            # in the order listed: the I3 first, then the O4 far from it
            [(2, "A1 B1 C1"), (1, "F6 G6 F7 G7")],
            ["not_connected"],
            ["placement 2 (tile 1): touches none of your cells (after the first, all your cells are one group)"],
        ),
        ([(1, "A1 B1 C1 D1")], ["wrong_shape"], ["placement 1 (tile 1): A1 B1 C1 D1 do not form a O4"]),
        ([(1, "A1 A1 B1 B2")], ["wrong_shape"], ["placement 1 (tile 1): A1 A1 B1 B2 do not form a O4"]),
        (
            [(5, "A1 B1 C1")],
            ["tile_not_held"],
            ["placement 1 (tile 5): not a tile you place now (you won these in auction 1: 1, 2, 3, 4)"],
        ),
        (
            [(2, "A1 B1 C1"), (2, "A2 B2 C2")],
            ["tile_repeated"],
            ["placement 2 (tile 2): the tile is already placed above"],
        ),
        (
            # every reason of every placement: off the grid, then covered and off the grid at once
            [(2, "L1 M1 N1"), (4, "J1 K1 L1 M1 N1")],
            ["outside_grid", "outside_grid", "cell_covered"],
            [
                "placement 1 (tile 2): M1 N1 off the 12x12 grid",
                "placement 2 (tile 4): M1 N1 off the 12x12 grid",
                "placement 2 (tile 4): L1 M1 N1 already covered",
            ],
        ),
    ],
)
def test_placements(holding, placements, codes, said):
    reasons = refusals(holding, "ann", "place", placing(*placements))
    assert [r.code for r in reasons] == codes
    assert texts(reasons) == said


def test_a_player_who_won_nothing_places_nothing(holding):
    assert [r.code for r in refusals(holding, "bob", "place", placing((1, "A1 B1 A2 B2")))] == ["tile_not_held"]
    assert refusals(holding, "bob", "place", placing()) == []


def test_tiles_left_out_or_never_sent_are_forfeited(holding):
    state = resolve(holding, {"ann": {"place": placing((3, "A1 A2 A3 B3"), (2, "B2 C2 D2"))}})
    # Placed in the order listed, tiles 1 and 4 forfeited.
    assert [(piece.tile, piece.cells) for piece in state.boards["ann"]] == [
        (3, ["A1", "A2", "A3", "B3"]),
        (2, ["B2", "C2", "D2"]),
    ]
    assert state.forfeited == {"ann": [1, 4], "bob": []}
    nothing = resolve(holding, {})
    assert nothing.forfeited == {"ann": [1, 2, 3, 4], "bob": []}
    assert nothing.boards["ann"] == []


def test_the_tiles_of_auction_2_are_placed_next_to_those_of_auction_1(holding):
    state = resolve(holding, {"ann": {"place": placing((1, "A1 B1 A2 B2")), "bid": bids(t21=5)}})
    # Tile 21 is round 2's first tile, an O4 again; tile 1 is no longer to place.
    assert [r.code for r in refusals(state, "ann", "place", placing((1, "C1 D1 C2 D2")))] == ["tile_not_held"]
    assert refusals(state, "ann", "place", placing((21, "C1 D1 C2 D2"))) == []
    assert [r.code for r in refusals(state, "ann", "place", placing((21, "A1 B1 A2 B2")))] == ["cell_covered"]
    assert [r.code for r in refusals(state, "ann", "place", placing((21, "E1 F1 E2 F2")))] == ["not_connected"]


# -- the 1x1 squares --------------------------------------------------------------------------------


def test_squares_cost_two_garnets_each_and_are_placed_the_same_way(holding):
    three = placing(("square", "A1"), ("square", "A2"), ("square", "A3"))
    assert GAME.garnet_cost("place", parse("place", three)) == 6
    assert refusals(holding, "ann", "place", three, garnets=6) == []
    assert texts(refusals(holding, "ann", "place", three, garnets=5))[-1].startswith(
        "3 squares need 6 garnets (2 each), but your balance is 5"
    )
    assert [r.code for r in refusals(holding, "ann", "place", placing(("square", "A1"), ("square", "C1")))] == [
        "not_connected"
    ]
    assert [r.code for r in refusals(holding, "ann", "place", placing(("square", "A1 A2")))] == ["wrong_shape"]
    # a square may also be the first thing on a board, and a tile may then join it
    assert refusals(holding, "bob", "place", placing(("square", "F6"))) == []
    assert refusals(holding, "ann", "place", placing(("square", "F6"), (2, "F7 F8 F9"))) == []


def test_at_most_three_squares_a_match(holding):
    four = placing(("square", "A1"), ("square", "A2"), ("square", "A3"), ("square", "A4"))
    assert texts(refusals(holding, "ann", "place", four)) == [
        "placement 4 (a square): at most 3 squares a match, and this is square 4"
    ]
    state = resolve(holding, {"ann": {"place": placing(("square", "A1"), ("square", "A2"))}})
    assert [piece.tile for piece in state.boards["ann"]] == ["square", "square"]
    assert refusals(state, "ann", "place", placing(("square", "A3"))) == []
    assert [r.code for r in refusals(state, "ann", "place", placing(("square", "A3"), ("square", "A4")))] == [
        "squares_used_up"
    ]


# -- a placement written as shape, orientation and anchor ------------------------------------------


@pytest.mark.parametrize(
    ("shape", "orientation", "anchor", "cells"),
    [
        ("L4", 1, "C5", ["C5", "C6", "C7", "D7"]),  # #. / #. / ## from C5
        ("L4", 2, "C5", ["C5", "D5", "E5", "C6"]),  # a quarter turn clockwise: ### / #..
        ("T4", 1, "A1", ["A1", "B1", "C1", "B2"]),
        ("X5", 1, "J10", ["K10", "J11", "K11", "L11", "K12"]),  # the anchor is the box's corner, not a cell of it
        ("I5", 2, "L1", ["L1", "L2", "L3", "L4", "L5"]),
        ("I5", 1, "L1", ["L1", "M1", "N1", "O1", "P1"]),  # off the grid: refused by the check, not here
    ],
)
def test_shape_orientation_and_anchor_are_read_as_cells(shape, orientation, anchor, cells):
    placement = Placement.model_validate({"tile": 3, "shape": shape, "orientation": orientation, "anchor": anchor})
    assert placement.model_dump(mode="json") == {"tile": 3, "cells": cells}


@pytest.mark.parametrize(
    "payload",
    [
        {"tile": 3, "shape": "Q4", "orientation": 1, "anchor": "A1"},
        {"tile": 3, "shape": "O4", "orientation": 2, "anchor": "A1"},  # an O4 has one orientation
        {"tile": 3, "shape": "L4", "orientation": 1, "anchor": "M1"},
        {"tile": 3, "shape": "L4", "orientation": 1, "anchor": "A1", "cells": ["A1"]},
        {"tile": 3, "cells": ["A1", "B1", "C1", "D1", "E1", "F1"]},
        {"tile": 3, "cells": ["1A"]},
    ],
)
def test_malformed_placements(payload):
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        Placement.model_validate(payload)


# -- accepted placements keep a board connected ----------------------------------------------------

SHAPES_HELD = {1: "O4", 2: "I3", 3: "L4", 4: "I5", "square": None}


@st.composite
def attempts(draw: st.DrawFn) -> tuple[int | str, list[tuple[int, int]]]:
    """A tile ann holds (or a square) in one of its orientations at any offset, the grid's edge
    included, or on any cells at all."""
    tile = draw(st.sampled_from(list(SHAPES_HELD)))
    shape = SHAPES_HELD[tile]
    if shape is None or draw(st.booleans()) is False:
        size = 1 if shape is None else draw(st.integers(1, 5))
        cells = st.tuples(st.integers(0, 12), st.integers(0, 12))
        return tile, draw(st.lists(cells, min_size=size, max_size=size, unique=True))
    orientation = draw(st.sampled_from(ORIENTATIONS[shape]))
    top, left = draw(st.integers(0, 11)), draw(st.integers(0, 11))
    return tile, [(top + r, left + c) for r, c in orientation]


@settings(max_examples=300, deadline=None)
@given(st.lists(attempts(), max_size=6))
def test_a_placement_the_checker_accepts_leaves_the_board_connected(tries):
    state = won(PLAYERS, {"ann": [1, 2, 3, 4]})
    submission = placing(*((tile, " ".join(names_of(cells))) for tile, cells in tries))
    if refusals(state, "ann", "place", submission) == []:
        placed = resolve(state, {"ann": {"place": submission}})
        board = covered(placed, "ann")
        assert connected(board)
        assert all(0 <= r < 12 and 0 <= c < 12 for r, c in board)
        assert len(board) == sum(len(cells) for _, cells in tries)


def test_a_legal_place_chosen_from_every_place_is_accepted():
    # Every place the board offers an I5 next to an O4 at A1 is one the checker accepts.
    state = won(PLAYERS, {"ann": [1, 4]})
    board = {cell_of(cell) for cell in ["A1", "B1", "A2", "B2"]}
    for cells in places("I5", board):
        assert refusals(state, "ann", "place", placing((1, "A1 B1 A2 B2"), (4, " ".join(names_of(cells))))) == []
