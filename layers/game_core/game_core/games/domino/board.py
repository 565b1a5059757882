"""A player's 12x12 board: cell names, where a tile may go, connectedness and the largest fully
covered square.

Cells are named as on the printed grid: a column letter (A to L, left to right) and a row number
(1 to 12, top to bottom), `C5`. Inside the rules a cell is (row, column) counted from 0. Names
beyond the grid (`M3`, `A13`, up to `Z99`) are still names, so a placement that runs off the
board can be written and refused for it.
"""

from __future__ import annotations

import re
import string
from collections.abc import Collection, Iterable

from game_core.games.domino.polyominoes import ORIENTATIONS, Cell, Shape

SIZE = 12
LETTERS = string.ascii_uppercase
COLUMNS = LETTERS[:SIZE]
CELL_NAME = re.compile(r"^[A-Z][1-9][0-9]?$")
"""A written cell: a column letter and a row number from 1."""


def cell_name(cell: Cell) -> str:
    row, column = cell
    return f"{LETTERS[column]}{row + 1}"


def cell_of(name: str) -> Cell:
    """The (row, column) of a name matching `CELL_NAME`."""
    return int(name[1:]) - 1, LETTERS.index(name[0])


def names_of(cells: Iterable[Cell]) -> list[str]:
    return [cell_name(cell) for cell in sorted(cells)]


def inside(cell: Cell) -> bool:
    return 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    row, column = cell
    return (row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)


def connected(cells: Collection[Cell]) -> bool:
    """Whether the cells are one orthogonally connected group (no cells: trivially)."""
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    frontier = [start]
    while frontier:
        for neighbour in neighbours(frontier.pop()):
            if neighbour in cells and neighbour not in seen:
                seen.add(neighbour)
                frontier.append(neighbour)
    return len(seen) == len(cells)


def touches(cells: Iterable[Cell], covered: Collection[Cell]) -> bool:
    """Whether a cell of `cells` is orthogonally next to a covered one. A connected tile touching a
    connected board leaves the board connected, so this is the whole connection test."""
    return any(neighbour in covered for cell in cells for neighbour in neighbours(cell))


def fits(cells: Collection[Cell], covered: Collection[Cell]) -> bool:
    """A connected tile's cells may go here: inside the grid, on no covered cell, and touching the
    board unless it is still empty."""
    return (
        all(inside(cell) for cell in cells)
        and not any(cell in covered for cell in cells)
        and (not covered or touches(cells, covered))
    )


def places(shape: str, covered: Collection[Cell]) -> list[Shape]:
    """Every legal place for a tile of `shape` on a board whose covered cells are `covered`, by
    orientation then top-left corner in reading order."""
    found = []
    for orientation in ORIENTATIONS[shape]:
        height = 1 + max(row for row, _ in orientation)
        width = 1 + max(column for _, column in orientation)
        for top in range(SIZE - height + 1):
            for left in range(SIZE - width + 1):
                cells = tuple((top + row, left + column) for row, column in orientation)
                if fits(cells, covered):
                    found.append(cells)
    return found


def largest_square(covered: Collection[Cell]) -> tuple[int, Cell | None]:
    """The largest k with a fully covered k x k square, and the top-left cell of the first such
    square in reading order (None when nothing is covered).

    One pass: the side of the largest covered square ending at a cell (as its bottom-right corner)
    is one more than the smallest of those ending above, to the left and diagonally before it."""
    side = [[0] * (SIZE + 1) for _ in range(SIZE + 1)]
    best, corner = 0, None
    for row in range(SIZE):
        for column in range(SIZE):
            if (row, column) in covered:
                here = 1 + min(side[row][column + 1], side[row + 1][column], side[row][column])
                side[row + 1][column + 1] = here
                # Corners are met in reading order, so the first square of the best side stays.
                if here > best:
                    best, corner = here, (row - here + 1, column - here + 1)
    return best, corner


def square_cells(side: int, corner: Cell | None) -> set[Cell]:
    if corner is None:
        return set()
    return {(corner[0] + row, corner[1] + column) for row in range(side) for column in range(side)}
