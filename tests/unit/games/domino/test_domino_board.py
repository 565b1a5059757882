"""The board: cell names, where a tile may go, connectedness and the largest covered square."""

from __future__ import annotations

import pytest
from domino_support import drawn
from hypothesis import given
from hypothesis import strategies as st

from game_core.games.domino.board import SIZE, cell_name, cell_of, connected, largest_square, places


@pytest.mark.parametrize(("name", "cell"), [("A1", (0, 0)), ("L12", (11, 11)), ("C5", (4, 2)), ("M3", (2, 12))])
def test_a_cell_is_its_column_letter_and_row_number(name, cell):
    assert cell_of(name) == cell
    assert cell_name(cell) == name


def covered(*rows: str) -> set[tuple[int, int]]:
    return {cell_of(cell) for cell in drawn(*rows)}


@pytest.mark.parametrize(
    ("rows", "side", "corner"),
    [
        ((), 0, None),
        (("#",), 1, "A1"),
        # two 2x2 squares (B1 and G3): the first in reading order is named
        ((".##....", ".##....", "......##", "......##"), 2, "B1"),
        # the 2x2 at F1 comes before the one at A3: reading order is by row, then column
        ((".....##", ".....##", "##", "##"), 2, "F1"),
        # a 3x3 ring holds no 2x2 block: the largest square is one cell, the first at A1
        (("###", "#.#", "###"), 1, "A1"),
        # a 3x3 beside a 2x2 strip
        (("###.##", "###.##", "###"), 3, "A1"),
        (("#" * 12,) * 12, 12, "A1"),
    ],
)
def test_the_largest_square(rows, side, corner):
    found_side, found_corner = largest_square(covered(*rows))
    assert found_side == side
    assert (None if found_corner is None else cell_name(found_corner)) == corner


def _brute_force(cells: set[tuple[int, int]]) -> int:
    best = 0
    for k in range(1, SIZE + 1):
        for top in range(SIZE - k + 1):
            for left in range(SIZE - k + 1):
                if all((top + r, left + c) in cells for r in range(k) for c in range(k)):
                    best = k
    return best


BOARDS = st.sets(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)), max_size=144)
DENSE = st.builds(
    lambda holes: {(r, c) for r in range(SIZE) for c in range(SIZE)} - holes,
    st.sets(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)), max_size=12),
)


@given(BOARDS | DENSE)
def test_the_largest_square_agrees_with_a_brute_force(cells):
    side, corner = largest_square(cells)
    assert side == _brute_force(cells)
    if side:
        assert corner is not None
        assert all((corner[0] + r, corner[1] + c) in cells for r in range(side) for c in range(side))


def test_places_on_an_empty_board():
    # By hand: a 2x2 has 11 x 11 top-left corners; a 1x5 line 8 x 12 lying plus 12 x 8 standing.
    assert len(places("O4", set())) == 121
    assert len(places("I5", set())) == 192


def test_a_tile_with_no_legal_place():
    # Everything covered but A1 and A2: no 3-cell tile fits; with A3 free too, only the I3 standing.
    full = {(r, c) for r in range(SIZE) for c in range(SIZE)}
    assert places("I3", full - {(0, 0), (1, 0)}) == []
    assert places("L3", full - {(0, 0), (1, 0), (2, 0)}) == []
    assert places("I3", full - {(0, 0), (1, 0), (2, 0)}) == [((0, 0), (1, 0), (2, 0))]


def test_after_the_first_a_place_touches_the_board():
    # A single covered cell F6: an I3 must touch it (share a side), never cover it.
    board = {(5, 5)}
    found = places("I3", board)
    assert found
    for cells in found:
        assert (5, 5) not in cells
        assert connected(set(cells) | board)
    # lying in row 5 ending at E6 (C6 D6 E6) touches; C5 D5 E5 only meets it at a corner
    assert ((5, 2), (5, 3), (5, 4)) in found
    assert ((4, 2), (4, 3), (4, 4)) not in found


@pytest.mark.parametrize(
    ("rows", "expected"),
    [((), True), (("#",), True), (("##", ".#"), True), (("#.", ".#"), False), (("#.#",), False)],
)
def test_connected(rows, expected):
    assert connected(covered(*rows)) is expected
