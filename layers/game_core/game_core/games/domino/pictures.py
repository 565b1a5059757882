"""Every board as a picture (SVG): one file per board and one of all boards side by side, drawn
from the public view alone, with the largest square outlined once the match is over.

Each covered cell is a `rect` of class `cell` naming its cell and piece (`data-cell="C5"`,
`data-tile="7"`), so a picture can be read back as well as looked at.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from game_core.games.domino.board import COLUMNS, SIZE, cell_of
from game_core.games.domino.models import SQUARE
from game_core.games.domino.polyominoes import NAMES

CELL = 24
MARGIN = 24
"""Room for the column letters and row numbers."""
TITLE = 24
BOARD = MARGIN + SIZE * CELL
GAP = 24
SQUARE_FILL = "#555555"


def _fill(shape: str) -> str:
    """A colour per shape, spread round the colour wheel, so equal shapes look alike."""
    return SQUARE_FILL if shape == SQUARE else f"hsl({NAMES.index(shape) * 360 // len(NAMES)}, 65%, 62%)"


def _board(pieces: Sequence[Mapping[str, Any]], square: Sequence[str], title: str) -> list[str]:
    """The elements of one board, its top-left corner at (0, 0)."""
    top = TITLE + MARGIN
    parts = [
        f'<text x="0" y="16" font-size="14" font-family="sans-serif">{escape(title)}</text>',
        f'<rect x="{MARGIN}" y="{top}" width="{SIZE * CELL}" height="{SIZE * CELL}" fill="#ffffff" stroke="#999999"/>',
    ]
    for index, letter in enumerate(COLUMNS):
        x = MARGIN + index * CELL + CELL // 2
        parts.append(f'<text x="{x}" y="{top - 6}" font-size="11" text-anchor="middle">{letter}</text>')
        parts.append(
            f'<text x="{MARGIN - 4}" y="{top + index * CELL + 16}" font-size="11" text-anchor="end">{index + 1}</text>'
        )
    for line in range(1, SIZE):
        offset = line * CELL
        parts.append(
            f'<path d="M{MARGIN + offset} {top}v{SIZE * CELL}M{MARGIN} {top + offset}h{SIZE * CELL}" stroke="#dddddd"/>'
        )
    for piece in pieces:
        for cell in piece["cells"]:
            row, column = cell_of(cell)
            parts.append(
                f'<rect class="cell" data-cell="{cell}" data-tile="{piece["tile"]}" x="{MARGIN + column * CELL}"'
                f' y="{top + row * CELL}" width="{CELL}" height="{CELL}" fill="{_fill(piece["shape"])}"'
                ' stroke="#333333"/>'
            )
    if square:
        row, column = cell_of(square[0])
        side = round(len(square) ** 0.5)
        parts.append(
            f'<rect class="largest-square" x="{MARGIN + column * CELL}" y="{top + row * CELL}" width="{side * CELL}"'
            f' height="{side * CELL}" fill="none" stroke="#cc0000" stroke-width="4"/>'
        )
    return parts


def _svg(width: int, height: int, title: str, body: list[str]) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
            f' viewBox="0 0 {width} {height}">',
            f"<title>{escape(title)}</title>",
            *body,
            "</svg>",
            "",
        ]
    )


def pictures(public: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, str]:
    """The SVG files of the boards in a public view, by the file names the view gives them."""
    players = public["players"]
    final = public.get("final")
    heading = "Domino Auction, the end" if public["over"] else f"Domino Auction, before {public['phase']}"
    boards = {
        p: _board(public["boards"][p], final["squares"][p]["square"] if final else [], names.get(p) or p)
        for p in players
    }
    height = TITLE + BOARD + MARGIN
    files = {
        public["pictures"]["boards"][p]: _svg(BOARD + GAP, height, f"{heading}: {names.get(p) or p}", boards[p])
        for p in players
    }
    side_by_side = [
        f'<g transform="translate({index * (BOARD + GAP)} 0)" data-player={quoteattr(p)}>\n'
        + "\n".join(boards[p])
        + "\n</g>"
        for index, p in enumerate(players)
    ]
    files[public["pictures"]["all"]] = _svg(len(players) * (BOARD + GAP), height, heading, side_by_side)
    return files
