"""The puzzles the service hands out: each generated from a seed, readable as plain text, with an
exact check of an answer.

- `gyul_hap`: nine tiles (shape, colour, background); a hap is three tiles that are, on each
  attribute, all the same or all different. Name every hap, then GYUL.
- `target`: six numbers and a target; any expression with + - * / and brackets that uses each
  number at most once and equals the target (one exists: the target is built from the numbers).
- `differences`: two grids of letters; name every cell where they differ (column letter, row).

`puzzle(kind, seed)` gives the puzzle as text and as data (for clients); `is_correct(kind, seed,
answer)` judges an answer.
"""

from __future__ import annotations

import ast
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from game_core.games.clubs.models import PuzzleType

SHAPES = ("circle", "square", "triangle")
COLOURS = ("red", "yellow", "blue")
BACKGROUNDS = ("white", "grey", "black")
TILES = 9
NUMBER_POOL = (*range(1, 11), *range(1, 11), 25, 50, 75, 100)
NUMBERS = 6
GRID_ROWS, GRID_COLUMNS = 6, 8
GRID_LETTERS = "ABCDEFGH"
COLUMN_NAMES = "ABCDEFGH"

RULES: dict[PuzzleType, list[str]] = {
    "gyul_hap": [
        "Gyul Hap: nine tiles, each a shape on a colour and a background.",
        "A hap is three tiles that are, for shape, colour and background each,",
        "all the same or all different. Name every hap by its tile numbers,",
        "then say GYUL: answer '125 347 GYUL' (or 'GYUL' alone when there is none).",
    ],
    "target": [
        "Reach the target: six numbers and a target. Write an expression with",
        "+ - * / and brackets that uses each number at most once and equals",
        "the target exactly (division may leave fractions on the way): '(75-5)*3+1'.",
    ],
    "differences": [
        "Spot the differences: two grids of letters, columns A-H, rows 1-6.",
        "Name every cell where the grids differ: 'B3 E5 H1'.",
    ],
}


@dataclass(frozen=True)
class Puzzle:
    text: list[str]
    data: dict[str, Any]


def puzzle(kind: PuzzleType, seed: int) -> Puzzle:
    rng = random.Random(f"puzzle:{kind}:{seed}")
    if kind == "gyul_hap":
        tiles = _gyul_tiles(rng)
        lines = [f"{n}. {shape} {colour} on {background}" for n, (shape, colour, background) in enumerate(tiles, 1)]
        return Puzzle(lines, {"tiles": [list(tile) for tile in tiles]})
    if kind == "target":
        numbers, target = _target(rng)
        lines = [f"Numbers: {' '.join(map(str, numbers))}", f"Target: {target}"]
        return Puzzle(lines, {"numbers": numbers, "target": target})
    left, right = _grids(rng)
    header = "   " + " ".join(COLUMN_NAMES[:GRID_COLUMNS])
    lines = ["Left grid:", header, *_grid_lines(left), "Right grid:", header, *_grid_lines(right)]
    return Puzzle(lines, {"left": left, "right": right})


def is_correct(kind: PuzzleType, seed: int, answer: str) -> bool:
    data = puzzle(kind, seed).data
    if kind == "gyul_hap":
        return _named_haps(answer) == haps([tuple(tile) for tile in data["tiles"]])
    if kind == "target":
        return _reaches(answer, data["numbers"], data["target"])
    return _named_cells(answer) == differing_cells(data["left"], data["right"])


# -- Gyul Hap -------------------------------------------------------------------------------


def is_hap(tiles: tuple[tuple[str, ...], ...]) -> bool:
    return all(len({tile[attribute] for tile in tiles}) in (1, 3) for attribute in range(3))


def haps(tiles: list[tuple[str, ...]]) -> set[frozenset[int]]:
    """Every hap, as tile numbers (1-9)."""
    return {
        frozenset(n + 1 for n in triple)
        for triple in combinations(range(len(tiles)), 3)
        if is_hap(tuple(tiles[n] for n in triple))
    }


def _gyul_tiles(rng: random.Random) -> list[tuple[str, str, str]]:
    every = [(s, c, b) for s in SHAPES for c in COLOURS for b in BACKGROUNDS]
    while True:  # between one and six haps: something to find, not a day's work
        tiles = rng.sample(every, TILES)
        if 1 <= len(haps(list(tiles))) <= 6:
            return tiles


def _named_haps(answer: str) -> set[frozenset[int]] | None:
    words = re.findall(r"[A-Za-z]+|\d+", answer)
    if not words or words[-1].upper() != "GYUL":
        return None
    digits = "".join(words[:-1])
    if not digits.isdigit() and digits:
        return None
    if len(digits) % 3 or "0" in digits:
        return None
    triples = [frozenset(int(d) for d in digits[i : i + 3]) for i in range(0, len(digits), 3)]
    if any(len(triple) != 3 for triple in triples):
        return None
    return set(triples)


# -- reach the target -------------------------------------------------------------------------


def _target(rng: random.Random) -> tuple[list[int], int]:
    while True:
        numbers = sorted(rng.sample(NUMBER_POOL, NUMBERS))
        used = rng.sample(numbers, rng.randint(3, 5))
        value = used[0]
        for number in used[1:]:
            operation = rng.choice("+-*")
            candidate = {"+": value + number, "-": value - number, "*": value * number}[operation]
            if candidate > 0:
                value = candidate
        if 100 <= value <= 999 and value not in numbers:
            return numbers, value


def _reaches(answer: str, numbers: list[int], target: int) -> bool:
    expression = answer.strip().replace("x", "*").replace("X", "*").replace("\u00d7", "*").replace("\u00f7", "/")
    if not re.fullmatch(r"[0-9+\-*/() ]+", expression):
        return False
    try:
        tree = ast.parse(expression, mode="eval")
        value, used = _evaluate(tree.body)
    except (SyntaxError, ValueError, ZeroDivisionError):
        return False
    pool = list(numbers)
    for number in used:
        if number not in pool:
            return False
        pool.remove(number)
    return value == target


def _evaluate(node: ast.expr) -> tuple[Fraction, list[int]]:
    """An expression of + - * / and whole numbers, exactly; raises ValueError for anything else."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return Fraction(node.value), [node.value]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div):
        left, used_left = _evaluate(node.left)
        right, used_right = _evaluate(node.right)
        used = used_left + used_right
        if isinstance(node.op, ast.Add):
            return left + right, used
        if isinstance(node.op, ast.Sub):
            return left - right, used
        if isinstance(node.op, ast.Mult):
            return left * right, used
        return left / right, used
    raise ValueError("only numbers, + - * / and brackets")


# -- spot the differences -------------------------------------------------------------------


def _grids(rng: random.Random) -> tuple[list[str], list[str]]:
    left = ["".join(rng.choice(GRID_LETTERS) for _ in range(GRID_COLUMNS)) for _ in range(GRID_ROWS)]
    right = [list(row) for row in left]
    cells = rng.sample([(r, c) for r in range(GRID_ROWS) for c in range(GRID_COLUMNS)], rng.randint(3, 6))
    for row, column in cells:
        right[row][column] = rng.choice([letter for letter in GRID_LETTERS if letter != left[row][column]])
    return left, ["".join(row) for row in right]


def _grid_lines(grid: list[str]) -> list[str]:
    return [f"{number:>2} " + " ".join(row) for number, row in enumerate(grid, start=1)]


def cell_name(row: int, column: int) -> str:
    return f"{COLUMN_NAMES[column]}{row + 1}"


def differing_cells(left: list[str], right: list[str]) -> set[str]:
    return {
        cell_name(row, column)
        for row in range(GRID_ROWS)
        for column in range(GRID_COLUMNS)
        if left[row][column] != right[row][column]
    }


def _named_cells(answer: str) -> set[str] | None:
    words = re.findall(r"[A-Za-z0-9]+", answer.upper())
    if not all(re.fullmatch(rf"[A-{COLUMN_NAMES[GRID_COLUMNS - 1]}][1-{GRID_ROWS}]", word) for word in words):
        return None
    return set(words)
