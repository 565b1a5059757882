"""Domino Auction drawn on the player's page (issue 30, item 1): every auction tile as its shape
with its winner, every board with each piece on the cells it covers, from the viewer's own view:
their own bids shown, nobody else's.

The match (worked by hand from the rules): ada, bo and cy; round 1's tiles are the host's
(`domino_support.ROUND_1`: tile 1 an O4, 2 an I3, 3 an L4, 4 an I5). Auction 1: ada bids 40 on
tile 1 and 5 on tile 4; bo 3 on tile 2 and 7 on tile 4; cy 5 on tile 4. Tile 1 goes to ada (the
only amount), tile 2 to bo, tile 4 to bo (7 is the highest amount bid by one player alone; the
two 5s do not matter), tile 3 to nobody (no bid). Placing 1: ada puts tile 1 on C3 D3 C4 D4; bo
tile 2 on A1 A2 A3 and tile 4 on B1 B2 B3 B4 B5. Auction 2 has no bids: nobody wins its tiles.
"""

from __future__ import annotations

import copy
import random
import re
import xml.etree.ElementTree as ET

import pytest
from domino_support import GAME, bids, drawn, finished, placing, resolve, start

from game_core.games.capabilities import Board, DrawsBoard
from game_core.games.domino.views import change_private_seat
from game_core.games.protocol import Resolution
from local_stack.bots import bot_for

NAMES = {"ada": "Ada Lovelace", "bo": "Bo Diddley", "cy": "Cy Twombly"}
CELL, LEFT, TOP = 24, 24, 48
"""The mail's board geometry the page reuses (pictures.py): 24-unit cells, the grid 24 units in
from the left and 48 down (the title's 24 and the column letters' 24)."""


@pytest.fixture(scope="module")
def placed():
    """The state after placing 1 (Auction 3 and placing 2 open)."""
    state = start(["ada", "bo", "cy"])
    state = resolve(
        state,
        {"ada": {"bid": bids(t1=40, t4=5)}, "bo": {"bid": bids(t2=3, t4=7)}, "cy": {"bid": bids(t4=5)}},
    )
    state = resolve(
        state,
        {
            "ada": {"bid": bids(), "place": placing((1, "C3 D3 C4 D4"))},
            "bo": {"bid": bids(), "place": placing((2, "A1 A2 A3"), (4, "B1 B2 B3 B4 B5"))},
            "cy": {"bid": bids()},
        },
    )
    return state


def _draw(state, player) -> Board:
    text = GAME.text
    assert isinstance(text, DrawsBoard)
    board = text.draw_board(GAME.view(state, player), NAMES, player)
    assert board is not None
    return board


def _marked(board: Board, key: str) -> ET.Element:
    """The element marked `key` in any of the board's drawings (each auction and board its own)."""
    roots = [ET.fromstring(svg) for svg in (board.svg, *board.more)]
    [element] = [e for root in roots for e in root.iter() if e.get("data-mark") == key]
    return element


def _squares(d: str) -> set[tuple[int, int]]:
    """The (x, y) corners of the unit squares a path draws as `M<x> <y>h<s>v<s>h-<s>z` each."""
    return {(int(x), int(y)) for x, y in re.findall(r"M(-?\d+) (-?\d+)h", d)}


def _local(element: ET.Element) -> str:
    """An element's name without its namespace (inline SVG in HTML needs none)."""
    return element.tag.rpartition("}")[2]


def _title(element: ET.Element) -> str:
    return next(child.text for child in element if _local(child) == "title") or ""


def test_the_drawing_is_one_svg_image_with_a_title_and_a_viewbox(placed):
    board = _draw(placed, "ada")
    root = ET.fromstring(board.svg)
    assert _local(root) == "svg" and root.get("role") == "img" and root.get("viewBox")
    assert _local(root[0]) == "title" and root[0].text == "Domino Auction: Auction 3 and placing 2"
    assert root.get("width") is None and root.get("height") is None  # it scales to the page
    assert not [e for e in root.iter() if _local(e) in ("script", "style") or e.get("style")]


@pytest.mark.parametrize(
    ("tile", "title"),
    [
        (1, "Tile 1, O4, won by you, you bid 40"),  # Ada's own page speaks to her
        (2, "Tile 2, I3, won by Bo Diddley"),
        (3, "Tile 3, L4, won by nobody"),
        (4, "Tile 4, I5, won by Bo Diddley, you bid 5"),
        (21, "Tile 21, O4, won by nobody"),  # auction 2: no bids at all
        (41, "Tile 41, O4"),  # auction 3 is open: no winner yet
    ],
)
def test_each_auction_tile_names_its_shape_its_winner_and_ada_s_own_bid(placed, tile, title):
    assert _title(_marked(_draw(placed, "ada"), f"tile-{tile}")) == title


@pytest.mark.parametrize(
    ("tile", "rows", "columns"),
    [(1, 2, 2), (2, 1, 3), (4, 1, 5)],  # O4: a 2x2 block; I3 and I5: straight lines as drawn
)
def test_each_auction_tile_is_drawn_as_its_shape(placed, tile, rows, columns):
    [path] = [e for e in _marked(_draw(placed, "ada"), f"tile-{tile}").iter() if _local(e) == "path"]
    corners = _squares(path.get("d", ""))
    xs, ys = sorted({x for x, _ in corners}), sorted({y for _, y in corners})
    assert len(corners) == rows * columns and (len(ys), len(xs)) == (rows, columns)
    assert all(b - a == 12 for a, b in zip(xs, xs[1:], strict=False))  # side by side, no gaps


@pytest.mark.parametrize(
    ("player", "pieces"),
    [
        ("ada", {"1": {"C3", "D3", "C4", "D4"}}),
        ("bo", {"2": {"A1", "A2", "A3"}, "4": {"B1", "B2", "B3", "B4", "B5"}}),
        ("cy", {}),
    ],
)
def test_every_board_shows_each_piece_on_the_cells_it_covers(placed, player, pieces):
    """Read back from the path's squares: column = (x - 24) / 24 as A.., row = (y - 48) / 24 + 1."""
    for viewer in ("ada", "bo", "cy"):  # boards are public: everyone sees every board alike
        board = _marked(_draw(placed, viewer), f"board-{player}")
        drawn_pieces = {}
        for path in (e for e in board.iter() if e.get("data-tile")):
            cells = {
                f"{'ABCDEFGHIJKL'[(x - LEFT) // CELL]}{(y - TOP) // CELL + 1}" for x, y in _squares(path.get("d", ""))
            }
            assert cells == set(path.get("data-cells", "").split())
            drawn_pieces[path.get("data-tile")] = cells
        assert drawn_pieces == pieces


def test_the_words_say_the_same(placed):
    alt = _draw(placed, "ada").alt
    assert "Auction 3, tiles 41 to 60: open now: bid on them" in alt
    assert "your board: tile 1 O4 on C3 D3 C4 D4." in alt  # Ada reads her own page
    assert "Bo Diddley's board: tile 2 I3 on A1 A2 A3; tile 4 I5 on B1 B2 B3 B4 B5." in alt
    assert "Cy Twombly's board: nothing placed yet." in alt
    assert "Won: 1 O4." in alt and "Won: 2 I3, 4 I5." in alt
    # Chips left: ada 300 - 45 = 255, bo 300 - 10 = 290, cy 300 - 5 = 295.
    assert "Ada Lovelace: 255 chips left, 3 squares left" in alt
    assert "Bo Diddley: 290 chips left" in alt and "Cy Twombly: 295 chips left" in alt
    assert "tile 1, O4, won by you, you bid 40" in alt


def test_no_one_sees_another_s_bids(placed):
    """bo's 3 and 7 and cy's 5 never show on ada's drawing; changing every bid of bo and cy
    (their private seat) changes nothing of it, while changing ada's own does."""
    data = placed.model_dump(mode="json")
    ada = _draw(placed, "ada")
    assert "you bid 7" not in ada.svg + ada.alt and "you bid 3" not in ada.svg + ada.alt
    others = copy.deepcopy(data)
    for q in ("bo", "cy"):
        change_private_seat(others, q)
    assert _draw(GAME.State.model_validate(others), "ada") == ada
    own = copy.deepcopy(data)
    change_private_seat(own, "ada")
    assert _draw(GAME.State.model_validate(own), "ada") != ada


def test_the_end_outlines_each_largest_square_and_names_its_place():
    """ada covers A1..C3 (a 3x3 square from A1) and bo only A1: ada is first with 3x3, bo second
    with 1x1; the outline is 3 cells of 24 wide from the grid's corner (24, 48)."""
    state = finished({"ada": drawn("###", "###", "###"), "bo": drawn("#")}, {"ada": 0, "bo": 0})
    board = _draw(state, "ada")
    ada = _marked(board, "board-ada")
    [outline] = [e for e in ada.iter() if e.get("class") == "largest-square"]
    assert (outline.get("x"), outline.get("y"), outline.get("width")) == ("24", "48", "72")
    assert "Largest square 3x3, place 1" in board.alt and "Largest square 1x1, place 2" in board.alt
    assert _title(ET.fromstring(board.svg)) == "Domino Auction: the match is over"


def test_a_bot_match_s_drawing_stays_small():
    """Six bots, every position and viewer: under 45 KB with its words (the page's goal is 100 KB
    with its forms, style sheet and script)."""
    players = ("p1", "p2", "p3", "p4", "p5", "p6")
    state = GAME.setup(GAME.Settings(), players, random.Random(5))
    bot = bot_for("domino")
    largest = 0
    while (phase := GAME.open_phase(state)) is not None:
        largest = max(largest, *(len(_draw(state, p).svg) + len(_draw(state, p).alt) for p in players))
        sent = {
            p: {
                k: GAME.submissions[k].model_validate(v)
                for k, v in bot(GAME.view(state, p), phase, p, random.Random(p)).items()
            }
            for p in players
        }
        state = GAME.resolve(state, Resolution(submissions=sent, rng=random.Random(0)))
    assert sum(len(pieces) for pieces in state.boards.values()) > 20  # the boards did fill
    assert max(largest, len(_draw(state, "p1").svg) + len(_draw(state, "p1").alt)) < 45_000
