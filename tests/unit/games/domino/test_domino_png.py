"""Domino Auction's boards as the pictures a mail attaches: the SVG of every board side by side
and the same boards rasterized as PNG, decoded here by Pillow (not by our own code), pixel by
pixel where the geometry puts each cell."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from domino_support import GAME, drawn, finished, placing, resolve, won
from PIL import Image

from game_core.games.domino.pictures import rgb

SVG = "{http://www.w3.org/2000/svg}"
# The PNG's geometry, by hand: a cell is 16 pixels, its top and left pixel grid line; a board is
# 12 x 16 + 1 = 193 pixels square; the next board starts 24 pixels after (193 + 24 = 217).
# Cell (column c, row r) of board b has its centre at x = 217 b + 16 c + 8, y = 16 r + 8.
WHITE, LINE, RED, SQUARE_GREY = (255, 255, 255), (187, 187, 187), (204, 0, 0), (85, 85, 85)
# The shapes' colours, hsl(h, 65%, 62%) with h = i x 360 // 19 for the i-th shape of the catalogue
# (I3 L3 I4 O4 ...), by the usual formula: C = (1 - |2L - 1|) S = 0.76 x 0.65 = 0.494,
# m = L - C/2 = 0.373, and X = C (1 - |(h/60) mod 2 - 1|):
#   I3, h = 0:  (C + m, m, m) = (0.867, 0.373, 0.373) x 255 = (221, 95, 95)
#   O4, h = 1080 // 19 = 56:  X = 0.494 x (1 - |0.9333 - 1|) = 0.4611; (C + m, X + m, m)
#       = (0.867, 0.8341, 0.373) x 255 = (221, 213, 95)
I3_RGB, O4_RGB = (221, 95, 95), (221, 213, 95)


@pytest.fixture(scope="module")
def placed():
    """Ann won tile 1 (an O4) and Bob tile 2 (an I3) in auction 1; they placed them in placing 1:
    Ann's square block at A1 B1 A2 B2, Bob's bar down column C from row 5."""
    state = won(["ann", "bob"], {"ann": [1], "bob": [2]})
    state = resolve(state, {"ann": {"place": placing((1, "A1 B1 A2 B2"))}, "bob": {"place": placing((2, "C5 C6 C7"))}})
    return GAME.view(state, "ann")


def decoded(drawing, suffix: str):
    (picture,) = [p for p in drawing.pictures if p.filename.endswith(suffix)]
    return picture


def test_the_shape_colours_are_the_ones_worked_by_hand() -> None:
    assert rgb("I3") == I3_RGB and rgb("O4") == O4_RGB and rgb("square") == SQUARE_GREY


def test_a_view_is_drawn_as_one_svg_and_one_png_of_every_board_left_to_right(placed) -> None:
    drawing = GAME.text.draw_view(placed, {"ann": "Ann", "bob": "Bob"})
    assert [(p.filename, p.content_type) for p in drawing.pictures] == [
        ("domino-after-phase-2-all.svg", "image/svg+xml"),
        ("domino-after-phase-2-all.png", "image/png"),
    ]
    assert drawing.caption == "the boards, left to right: Ann, Bob"
    svg = ET.fromstring(decoded(drawing, ".svg").data)
    cells = [rect.get("data-cell") for rect in svg.iter(f"{SVG}rect") if rect.get("class") == "cell"]
    assert sorted(cells) == ["A1", "A2", "B1", "B2", "C5", "C6", "C7"]  # 4 cells of Ann's, 3 of Bob's


@pytest.mark.parametrize(
    ("where", "x", "y", "colour"),
    [
        ("Ann's A1", 8, 8, O4_RGB),
        ("Ann's B2", 16 + 8, 16 + 8, O4_RGB),
        ("the grid line between Ann's A1 and B1", 16, 8, LINE),
        ("Ann's C1, empty", 32 + 8, 8, WHITE),
        ("Ann's L12, empty", 11 * 16 + 8, 11 * 16 + 8, WHITE),
        ("the gap between the boards", 200, 100, WHITE),
        ("Bob's C5", 217 + 32 + 8, 4 * 16 + 8, I3_RGB),
        ("Bob's C7", 217 + 32 + 8, 6 * 16 + 8, I3_RGB),
        ("Bob's A1, empty", 217 + 8, 8, WHITE),
        ("Bob's board's right edge", 217 + 192, 100, LINE),
    ],
)
def test_the_png_decodes_with_each_cell_where_the_geometry_puts_it(placed, where, x, y, colour) -> None:
    image = Image.open(io.BytesIO(decoded(GAME.text.draw_view(placed, {}), ".png").data))
    image.load()  # decodes every row and checks every chunk's CRC
    assert (image.format, image.mode, image.size) == ("PNG", "RGB", (2 * 217 - 24, 193))
    assert image.getpixel((x, y)) == colour, where


def test_the_largest_square_is_outlined_in_red_at_the_end() -> None:
    # Ann's board is a 2 x 2 square at A1: its outline runs on the grid lines from (0, 0) to
    # (32, 32), two pixels thick inwards; Bob's single cell makes a 1 x 1 square at A1 of his board
    state = finished({"ann": drawn("##", "##"), "bob": drawn("#")}, {"ann": 10, "bob": 10})
    image = Image.open(io.BytesIO(decoded(GAME.text.draw_view(GAME.view(state, None), {}), ".png").data))
    assert image.getpixel((0, 0)) == RED and image.getpixel((32, 20)) == RED and image.getpixel((20, 31)) == RED
    assert image.getpixel((1, 20)) == RED  # the inner pixel of the outline
    assert image.getpixel((8, 8)) == SQUARE_GREY and image.getpixel((24, 24)) == SQUARE_GREY
    assert image.getpixel((40, 20)) == WHITE and image.getpixel((20, 40)) == WHITE  # C2 and B3: outside it
    assert image.getpixel((217, 0)) == RED and image.getpixel((217 + 16, 8)) == RED  # Bob's 1 x 1
