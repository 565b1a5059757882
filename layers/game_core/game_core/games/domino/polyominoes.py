"""The tiles: the 19 free polyominoes of 3 to 5 cells, each with a stable name, and their
orientations (rotations and reflections).

A shape is a tuple of (row, column) cells, rows counted down and columns right, translated so that
its smallest row and column are 0 and sorted: two placements of the same orientation are then
equal tuples. Names are the usual letters with the cell count: `I3`, `L3`; `I4`, `O4`, `T4`, `S4`,
`L4`; `F5`, `I5`, `L5`, `N5`, `P5`, `T5`, `U5`, `V5`, `W5`, `X5`, `Y5`, `Z5`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Cell = tuple[int, int]
Shape = tuple[Cell, ...]


def normalised(cells: Iterable[Cell]) -> Shape:
    """The cells moved so that their smallest row and column are 0, in reading order."""
    cells = list(cells)
    top = min(row for row, _ in cells)
    left = min(column for _, column in cells)
    return tuple(sorted((row - top, column - left) for row, column in cells))


_TRANSFORMS: tuple[Callable[[int, int], Cell], ...] = (
    lambda r, c: (r, c),
    lambda r, c: (c, -r),  # a quarter turn clockwise
    lambda r, c: (-r, -c),
    lambda r, c: (-c, r),
    lambda r, c: (r, -c),  # mirrored left to right, then the same turns
    lambda r, c: (c, r),
    lambda r, c: (-r, c),
    lambda r, c: (-c, -r),
)


def orientations_of(shape: Iterable[Cell]) -> tuple[Shape, ...]:
    """Every distinct orientation, numbered from 1 in the order: as drawn, turned a quarter,
    a half, three quarters clockwise, then the same mirrored; repeats left out."""
    cells = list(shape)
    found: list[Shape] = []
    for transform in _TRANSFORMS:
        turned = normalised(transform(r, c) for r, c in cells)
        if turned not in found:
            found.append(turned)
    return tuple(found)


def canonical(cells: Iterable[Cell]) -> Shape:
    """One form for every orientation and position of a free polyomino: the least orientation."""
    return min(orientations_of(cells))


def _drawn(*rows: str) -> Shape:
    return normalised((r, c) for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == "#")


SHAPES: dict[str, Shape] = {
    "I3": _drawn("###"),
    "L3": _drawn("#.", "##"),
    "I4": _drawn("####"),
    "O4": _drawn("##", "##"),
    "T4": _drawn("###", ".#."),
    "S4": _drawn(".##", "##."),
    "L4": _drawn("#.", "#.", "##"),
    "F5": _drawn(".##", "##.", ".#."),
    "I5": _drawn("#####"),
    "L5": _drawn("#.", "#.", "#.", "##"),
    "N5": _drawn(".#", "##", "#.", "#."),
    "P5": _drawn("##", "##", "#."),
    "T5": _drawn("###", ".#.", ".#."),
    "U5": _drawn("#.#", "###"),
    "V5": _drawn("#..", "#..", "###"),
    "W5": _drawn("#..", "##.", ".##"),
    "X5": _drawn(".#.", "###", ".#."),
    "Y5": _drawn(".#", "##", ".#", ".#"),
    "Z5": _drawn("##.", ".#.", ".##"),
}
"""Each shape as drawn (orientation 1), in catalogue order."""

NAMES = tuple(SHAPES)
ORIENTATIONS: dict[str, tuple[Shape, ...]] = {name: orientations_of(shape) for name, shape in SHAPES.items()}
_BY_CANONICAL: dict[Shape, str] = {canonical(shape): name for name, shape in SHAPES.items()}


def shape_name(cells: Iterable[Cell]) -> str | None:
    """The catalogue name of the free polyomino these cells form; None when they form none."""
    return _BY_CANONICAL.get(canonical(cells))
