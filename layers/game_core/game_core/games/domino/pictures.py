"""Every board as a picture, drawn from the public view alone, with the largest square outlined
once the match is over: SVG (one file per board and one of all boards side by side, what
`match-host pictures` writes) and PNG (all boards side by side, what a mail attaches beside the
SVG, for mail clients that show no SVG).

Each covered cell of an SVG is a `rect` of class `cell` naming its cell and piece
(`data-cell="C5"`, `data-tile="7"`), so a picture can be read back as well as looked at. The PNG is
the grid rasterized directly (zlib and struct, no imaging library): each cell `PIXELS` wide, its
grid line included, a board `GAP` pixels from the next.
"""

from __future__ import annotations

import colorsys
import json
import struct
import zlib
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from game_core.games.capabilities import Drawing, Picture
from game_core.games.domino.board import COLUMNS, SIZE, cell_of
from game_core.games.domino.models import SQUARE
from game_core.games.domino.polyominoes import NAMES

CELL = 24
MARGIN = 24
"""Room for the column letters and row numbers."""
TITLE = 24
TOP = TITLE + MARGIN
"""Where a board's grid starts, below its title and the column letters."""
BOARD = MARGIN + SIZE * CELL
GAP = 24
"""Between two boards side by side, in the SVG and in the PNG."""
HEIGHT = TITLE + BOARD + MARGIN
RGB = tuple[int, int, int]
SQUARE_RGB: RGB = (0x55, 0x55, 0x55)
WHITE: RGB = (0xFF, 0xFF, 0xFF)
LINE_RGB: RGB = (0xBB, 0xBB, 0xBB)
OUTLINE_RGB: RGB = (0xCC, 0x00, 0x00)
PIXELS = 16
"""A cell's pitch in the PNG: its top and left pixel are grid line, the other 15 x 15 its colour."""
BOARD_PIXELS = SIZE * PIXELS + 1
"""A board's side in the PNG: the grid's last line closes it."""


@cache
def rgb(shape: str) -> RGB:
    """A colour per shape, spread round the colour wheel (hue i/19 of a turn for the i-th shape of
    the catalogue, saturation 65%, lightness 62%), so equal shapes look alike."""
    if shape == SQUARE:
        return SQUARE_RGB
    hue = NAMES.index(shape) * 360 // len(NAMES)
    red, green, blue = colorsys.hls_to_rgb(hue / 360, 0.62, 0.65)
    return round(red * 255), round(green * 255), round(blue * 255)


def fill_of(shape: str) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb(shape))


def frame(title: str) -> list[str]:
    """A board's title, ground, column letters, row numbers and grid lines, its top-left corner at
    (0, 0): its cell (row, column) is at (MARGIN + column * CELL, TOP + row * CELL)."""
    parts = [
        f'<text x="0" y="16" font-size="14" font-family="sans-serif">{escape(title)}</text>',
        f'<rect x="{MARGIN}" y="{TOP}" width="{SIZE * CELL}" height="{SIZE * CELL}" fill="#ffffff" stroke="#999999"/>',
    ]
    for index, letter in enumerate(COLUMNS):
        x = MARGIN + index * CELL + CELL // 2
        parts.append(f'<text x="{x}" y="{TOP - 6}" font-size="11" text-anchor="middle">{letter}</text>')
        parts.append(
            f'<text x="{MARGIN - 4}" y="{TOP + index * CELL + 16}" font-size="11" text-anchor="end">{index + 1}</text>'
        )
    for line in range(1, SIZE):
        offset = line * CELL
        parts.append(
            f'<path d="M{MARGIN + offset} {TOP}v{SIZE * CELL}M{MARGIN} {TOP + offset}h{SIZE * CELL}" stroke="#dddddd"/>'
        )
    return parts


def square_outline(square: Sequence[str]) -> list[str]:
    """The largest square's outline on a board drawn by `frame` (none for no square)."""
    if not square:
        return []
    row, column = cell_of(square[0])
    side = round(len(square) ** 0.5)
    return [
        f'<rect class="largest-square" x="{MARGIN + column * CELL}" y="{TOP + row * CELL}" width="{side * CELL}"'
        f' height="{side * CELL}" fill="none" stroke="#cc0000" stroke-width="4"/>'
    ]


def _board(pieces: Sequence[Mapping[str, Any]], square: Sequence[str], title: str) -> list[str]:
    """The elements of one board, its top-left corner at (0, 0): each covered cell a `rect`."""
    parts = frame(title)
    for piece in pieces:
        for cell in piece["cells"]:
            row, column = cell_of(cell)
            parts.append(
                f'<rect class="cell" data-cell="{cell}" data-tile="{piece["tile"]}" x="{MARGIN + column * CELL}"'
                f' y="{TOP + row * CELL}" width="{CELL}" height="{CELL}" fill="{fill_of(piece["shape"])}"'
                ' stroke="#333333"/>'
            )
    return parts + square_outline(square)


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


def _heading(public: Mapping[str, Any]) -> str:
    return "Domino Auction, the end" if public["over"] else f"Domino Auction, before {public['phase']}"


def _each_board(public: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, list[str]]:
    final = public.get("final")
    return {
        p: _board(public["boards"][p], final["squares"][p]["square"] if final else [], names.get(p) or p)
        for p in public["players"]
    }


def _side_by_side(public: Mapping[str, Any], boards: Mapping[str, list[str]]) -> str:
    groups = [
        f'<g transform="translate({index * (BOARD + GAP)} 0)" data-player={quoteattr(p)}>\n'
        + "\n".join(boards[p])
        + "\n</g>"
        for index, p in enumerate(public["players"])
    ]
    return _svg(len(groups) * (BOARD + GAP), HEIGHT, _heading(public), groups)


def pictures(public: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, str]:
    """The SVG files of the boards in a public view, by the file names the view gives them."""
    boards = _each_board(public, names)
    heading = _heading(public)
    files = {
        public["pictures"]["boards"][p]: _svg(BOARD + GAP, HEIGHT, f"{heading}: {names.get(p) or p}", board)
        for p, board in boards.items()
    }
    files[public["pictures"]["all"]] = _side_by_side(public, boards)
    return files


def png(public: Mapping[str, Any]) -> bytes:
    """Every board of a public view side by side, left to right in the view's order of players, as
    an 8-bit RGB PNG. Pixel rows are composed a grid row at a time (a cell's 15 rows are alike),
    then the largest squares outlined."""
    players = public["players"]
    final = public.get("final")
    colours = [
        {cell_of(cell): rgb(piece["shape"]) for piece in public["boards"][player] for cell in piece["cells"]}
        for player in players
    ]
    gap = bytes(WHITE) * GAP
    line = gap.join([bytes(LINE_RGB) * BOARD_PIXELS] * len(players))
    rows: list[bytes] = []
    for row in range(SIZE):
        cells = gap.join(
            b"".join(bytes(LINE_RGB) + bytes(board.get((row, column), WHITE)) * (PIXELS - 1) for column in range(SIZE))
            + bytes(LINE_RGB)
            for board in colours
        )
        rows += [line, *[cells] * (PIXELS - 1)]
    canvas = _Canvas(len(line) // 3, [bytearray(pixels) for pixels in [*rows, line]])
    for index, player in enumerate(players):
        square = final["squares"][player]["square"] if final else []
        if square:
            row, column = cell_of(square[0])
            side = round(len(square) ** 0.5) * PIXELS + 1
            canvas.outline(index * (BOARD_PIXELS + GAP) + column * PIXELS, row * PIXELS, side, OUTLINE_RGB)
    return canvas.png()


class _Canvas:
    """Pixels, row by row."""

    def __init__(self, width: int, rows: list[bytearray]) -> None:
        self.width, self.rows = width, rows

    def fill(self, x: int, y: int, width: int, height: int, colour: RGB) -> None:
        run = bytes(colour) * width
        for row in self.rows[y : y + height]:
            row[3 * x : 3 * (x + width)] = run

    def outline(self, x: int, y: int, side: int, colour: RGB) -> None:
        """A square's border two pixels thick, its outer edge at (x, y) and `side` pixels wide."""
        for inset in (0, 1):
            start, length = inset, side - 2 * inset
            self.fill(x + start, y + start, length, 1, colour)
            self.fill(x + start, y + start + length - 1, length, 1, colour)
            self.fill(x + start, y + start, 1, length, colour)
            self.fill(x + start + length - 1, y + start, 1, length, colour)

    def png(self) -> bytes:
        def chunk(kind: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

        header = struct.pack(">IIBBBBB", self.width, len(self.rows), 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
        scanlines = b"".join(b"\x00" + bytes(row) for row in self.rows)  # filter 0: each row as it is
        return b"".join(
            [
                b"\x89PNG\r\n\x1a\n",
                chunk(b"IHDR", header),
                chunk(b"IDAT", zlib.compress(scanlines)),
                chunk(b"IEND", b""),
            ]
        )


def drawing(view: Mapping[str, Any], names: Mapping[str, str]) -> Drawing:
    """What a mail carrying a view attaches: every board side by side, as SVG and as PNG, drawn
    from the view's public part alone (so the mails of one event, each with its own view, draw
    it once)."""
    return _drawn(json.dumps(view["public"], sort_keys=True), json.dumps(dict(names), sort_keys=True))


@lru_cache(maxsize=4)
def _drawn(public_json: str, names_json: str) -> Drawing:
    public, names = json.loads(public_json), json.loads(names_json)
    svg_name = public["pictures"]["all"]
    png_name = svg_name.removesuffix(".svg") + ".png"
    order = ", ".join(names.get(player) or player for player in public["players"])
    return Drawing(
        caption=f"the boards, left to right: {order}",
        pictures=(
            Picture(svg_name, "image/svg+xml", _side_by_side(public, _each_board(public, names)).encode()),
            Picture(png_name, "image/png", png(public)),
        ),
    )
