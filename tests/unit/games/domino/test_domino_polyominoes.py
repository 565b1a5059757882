"""The catalogue: exactly the 19 free polyominoes of 3 to 5 cells, each with its orientations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game_core.games.domino.polyominoes import NAMES, ORIENTATIONS, SHAPES, canonical, normalised, shape_name

# Counted by hand from the drawings: a shape with no symmetry has 8 orientations (4 turns, each
# mirrored); one with a mirror line, or with half-turn symmetry only, 4; a line 2; the square and
# the cross 1.
ORIENTATION_COUNTS = {
    "I3": 2,  # ### lying or standing
    "L3": 4,  # the corner turned four ways; its mirror is one of the turns
    "I4": 2,
    "O4": 1,
    "T4": 4,  # mirror-symmetric
    "S4": 4,  # half-turn symmetric: 2 turns x 2 mirrors
    "L4": 8,
    "F5": 8,
    "I5": 2,
    "L5": 8,
    "N5": 8,
    "P5": 8,
    "T5": 4,
    "U5": 4,
    "V5": 4,  # symmetric about its diagonal
    "W5": 4,  # symmetric about its diagonal
    "X5": 1,
    "Y5": 8,
    "Z5": 4,  # half-turn symmetric
}


def test_the_catalogue_is_2_trominoes_5_tetrominoes_and_12_pentominoes():
    sizes = [len(SHAPES[name]) for name in NAMES]
    assert (sizes.count(3), sizes.count(4), sizes.count(5), len(NAMES)) == (2, 5, 12, 19)


@pytest.mark.parametrize(("name", "count"), ORIENTATION_COUNTS.items())
def test_each_shape_has_its_distinct_orientations(name, count):
    assert len(ORIENTATIONS[name]) == count
    assert len(set(ORIENTATIONS[name])) == count


def test_the_orientations_add_up_to_the_fixed_polyominoes():
    # 6 fixed trominoes, 19 fixed tetrominoes, 63 fixed pentominoes (the known counts).
    by_size = {size: sum(len(ORIENTATIONS[n]) for n in NAMES if len(SHAPES[n]) == size) for size in (3, 4, 5)}
    assert by_size == {3: 6, 4: 19, 5: 63}


def _grown(size: int) -> set[tuple[tuple[int, int], ...]]:
    """Every free polyomino of `size` cells, grown cell by cell from one (a brute force)."""
    shapes = {((0, 0),)}
    for _ in range(size - 1):
        shapes = {
            canonical((*shape, (r + dr, c + dc)))
            for shape in shapes
            for r, c in shape
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if (r + dr, c + dc) not in shape
        }
    return shapes


def test_every_free_polyomino_of_3_to_5_cells_is_in_the_catalogue_once():
    grown = _grown(3) | _grown(4) | _grown(5)
    assert grown == {canonical(SHAPES[name]) for name in NAMES}
    assert len(grown) == 19


def test_orientation_1_is_the_shape_as_drawn():
    assert ORIENTATIONS["L4"][0] == ((0, 0), (1, 0), (2, 0), (2, 1))  # #. / #. / ##
    assert ORIENTATIONS["L4"][1] == ((0, 0), (0, 1), (0, 2), (1, 0))  # turned clockwise: ### / #..


TRANSFORMS = st.sampled_from(
    [
        lambda r, c: (c, -r),
        lambda r, c: (-r, -c),
        lambda r, c: (r, -c),
        lambda r, c: (-r, c),
        lambda r, c: (c, r),
    ]
)


@given(st.sampled_from(NAMES), st.lists(TRANSFORMS, max_size=6), st.integers(-20, 20), st.integers(-20, 20))
def test_a_canonical_form_is_stable_under_every_rotation_reflection_and_move(name, transforms, down, right):
    cells = list(SHAPES[name])
    for transform in transforms:
        cells = [transform(r, c) for r, c in cells]
    moved = [(r + down, c + right) for r, c in cells]
    assert canonical(moved) == canonical(SHAPES[name])
    assert shape_name(moved) == name
    assert normalised(moved) in ORIENTATIONS[name]


def test_cells_that_form_no_tile_have_no_name():
    assert shape_name([(0, 0), (0, 2), (0, 3)]) is None  # not connected
    assert shape_name([(0, 0), (0, 1)]) is None  # a domino: too small
