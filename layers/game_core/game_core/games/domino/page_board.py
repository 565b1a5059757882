"""Domino Auction drawn on the player's page (`capabilities.Board`), from the participant's view alone:
the 60 auction tiles, each as its shape with its number, who won it (or that the auction is open
or to come) and the viewer's own bid on it; and every board with its chips and squares left and
the tiles its player won, still has to place and forfeited. Each auction and each board is its own
drawing (`Board.more`), which the page flows in columns: at 1280 px two a row, so the page is
about a third as tall as one drawing of them all one under another (8,400 px for four players). (`board.py` is
the grid's rules; the mail's pictures are `pictures.py`, whose board frame this reuses.)

A board's pieces are drawn one `path` each (`data-tile`, `data-cells`: a cell's square each), so a
late match's six boards stay a few kilobytes. What the page's script (`static/domino.js`) needs to
place tiles on the drawing is written on it: the viewer's own board (till the match is over)
carries `data-own`, `data-grid` (the grid's left, top, cell size and cells a side, in the board's
units) and `data-squares-left`; each tile the viewer places now carries `data-place-cells`, its
cells as drawn ("row.column", from 0). Each drawing is one board wide (328 units with its margins),
so a 390-px phone shows it whole at more than its own size: its smallest text, the 11-unit column
letters, is drawn at 12.5 px (issue 30 item 4), and nothing scrolls sideways.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from game_core.games import svg
from game_core.games.capabilities import Board
from game_core.games.domino.board import SIZE, cell_of
from game_core.games.domino.models import SQUARE, TILES_PER_ROUND
from game_core.games.domino.pictures import BOARD, CELL, HEIGHT, MARGIN, TOP, fill_of, frame, square_outline
from game_core.games.domino.polyominoes import SHAPES
from game_core.games.text_layout import name, whose

WIDTH = BOARD
COLUMNS = 3
TILE_WIDTH = WIDTH // COLUMNS
TILE_HEIGHT = 120
TILE_CELL = 12
"""A tile's cell in the auction's chart (5 cells: 60 units, inside the tile's 104 x 120 box: its
number on top, the shape from 22 to 82, the viewer's bid and the winner on their own lines under it)."""
LINE = 16
"""A line of 12-unit text under a board."""
LINE_CHARACTERS = 43
"""What fits in a board's width (312) at 12 units, a character 0.6 of its height wide."""
HEADING = 40
"""An auction's heading: its tiles, and under them its state."""
NAME_CHARACTERS = 13
"""A winner's name under a tile is cut to this many characters (the tile's title says it whole)."""


def draw(view: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> Board:
    """One drawing each, in this order: the open auction's tiles under the heading (what to bid on),
    the viewer's own board, every other board, then the other auctions (won, or to come). The page
    lays them in wrapping columns, so a wide screen shows several a row (issue 30)."""
    public = view["public"]
    own_bids = _own_bids(view.get("private"))
    placing = frozenset(public["to_place"].get(viewer, ())) if viewer else frozenset()
    winners = {**names, viewer: "you"} if viewer else names  # "won by you": the page speaks to its reader
    heading = _heading(public)
    drawings: list[tuple[str, list[str], int]] = []  # each: its title, its parts, its height
    alt = [heading + "."]
    open_now = _open_auction(public)
    chips = public["chips_left"].get(viewer) if viewer else None
    for number in [open_now] if open_now else []:
        drawn, said, bottom = _auction(public, number, (own_bids, placing), winners, 0, chips)
        drawings.append((said.partition(":")[0], drawn, bottom))
        alt.append(said)
    players = public["players"]
    for p in sorted(players, key=lambda p: p != viewer):  # the viewer's own board first
        notes = _notes(public, p)
        lines = 1 + sum(len(_wrapped(note)) for note in notes)
        drawings.append(
            (
                f"{whose(names, p, viewer)} board",
                [_board(public, p, names, viewer, notes, (0, 0))],
                HEIGHT + LINE * lines,
            )
        )
        alt.append(_board_words(public, p, names, viewer, notes))
    for number in range(1, len(public["tiles"]) // TILES_PER_ROUND + 1):
        if number != open_now:
            drawn, said, bottom = _auction(public, number, (own_bids, placing), winners, 0)
            drawings.append((said.partition(":")[0], drawn, bottom))
            alt.append(said)
    (_, first, height), *rest = drawings
    pictures = [
        svg.picture(
            WIDTH,
            height + 28,
            heading,
            [
                svg.text(0, 16, heading, font_size=13, font_weight=700),
                f'<g transform="translate(0 28)">{"".join(first)}</g>',
            ],
        )
    ]
    pictures += [svg.picture(WIDTH, bottom, title, parts) for title, parts, bottom in rest]
    return Board(pictures[0], " ".join(alt), tuple(pictures[1:]))


def _heading(public: Mapping[str, Any]) -> str:
    return "Domino Auction: the match is over" if public["over"] else f"Domino Auction: {public['phase']}"


def _own_bids(private: Mapping[str, Any] | None) -> dict[int, int]:
    """The viewer's own bid on each tile of the auctions resolved (chips above 0)."""
    sent = [bid for entry in (private or {}).get("bids", []) for bid in entry["bids"] or []]
    return {bid["tile"]: bid["chips"] for bid in sent if bid["chips"] > 0}


def _open_auction(public: Mapping[str, Any]) -> int | None:
    resolved = len(public["auctions"])
    return None if public["over"] or resolved * TILES_PER_ROUND >= len(public["tiles"]) else resolved + 1


def _auction(
    public: Mapping[str, Any],
    number: int,
    mine: tuple[Mapping[int, int], Collection[int]],
    names: Mapping[str, str],
    top: int,
    chips: int | None = None,
) -> tuple[list[str], str, int]:
    """Auction `number`'s tiles in rows of three below `top`: the drawing, its words, its bottom.
    `mine`: the viewer's own bid on each tile, and the tiles they place now. The open auction's
    tiles, for a viewer with `chips` left, carry what the page's script needs to bid on them there
    (an unmarked group: `data-bids`, `data-chips-left`, `data-tile-size`)."""
    own_bids, placing = mine
    tiles = [tile for tile in public["tiles"] if tile["round"] == number]
    if number <= len(public["auctions"]):
        state = "won as shown"
    else:
        state = "open now: bid on them" if _open_auction(public) == number else "to come"
    tiles_of = f"Auction {number}, tiles {tiles[0]['tile']} to {tiles[-1]['tile']}"
    title = f"{tiles_of}: {state}"
    rows = -(-len(tiles) // COLUMNS)
    # The tiles' boxes as one path: a line above and below each row, one left of each column.
    boxes = "".join(f"M0 {r * TILE_HEIGHT}h{COLUMNS * TILE_WIDTH}" for r in range(rows + 1))
    boxes += "".join(f"M{c * TILE_WIDTH} 0v{rows * TILE_HEIGHT}" for c in range(COLUMNS + 1))
    parts = [f'<path d="{boxes}" stroke="#dddddd" fill="none"/>']
    said = []
    for index, tile in enumerate(tiles):
        x, y = (index % COLUMNS) * TILE_WIDTH, (index // COLUMNS) * TILE_HEIGHT
        shown, words = _tile(tile, own_bids.get(tile["tile"]), names, (x, y), tile["tile"] in placing)
        parts.append(shown)
        said.append(words)
    drawn = [
        svg.text(0, top + 18, tiles_of, font_weight=700),
        svg.text(0, top + 34, state, font_size=12, fill=svg.QUIET),
        f'<g transform="translate(0 {top + HEADING})" font-size="12"{_bidding(state, chips)}>{"".join(parts)}</g>',
    ]
    return drawn, f"{title}: " + "; ".join(said) + ".", top + HEADING + rows * TILE_HEIGHT


def _bidding(state: str, chips: int | None) -> str:
    if chips is None or not state.startswith("open"):
        return ""
    return svg.attributes(data_bids="open", data_chips_left=chips, data_tile_size=f"{TILE_WIDTH} {TILE_HEIGHT}")


def _winner(tile: Mapping[str, Any], names: Mapping[str, str]) -> str | None:
    """Who won the tile ("nobody" too), or None while its auction has not closed."""
    if "won_by" not in tile:
        return None
    return name(names, tile["won_by"]) if tile["won_by"] else "nobody"


def _tile(
    tile: Mapping[str, Any], bid: int | None, names: Mapping[str, str], at: tuple[int, int], placing: bool
) -> tuple[str, str]:
    """One auction tile in its box at `at`: number and shape, the shape drawn, winner, own bid; a
    tile the viewer places now carries its cells for the page's script."""
    x, y = at
    shape = tile["shape"]
    cells = SHAPES[shape]
    height = 1 + max(row for row, _ in cells)
    width = 1 + max(column for _, column in cells)
    left = (TILE_WIDTH - width * TILE_CELL) // 2
    top = 22 + (5 - height) * TILE_CELL // 2
    path = "".join(
        f"M{left + c * TILE_CELL} {top + r * TILE_CELL}h{TILE_CELL}v{TILE_CELL}h-{TILE_CELL}z" for r, c in cells
    )
    winner = _winner(tile, names)
    body = [
        svg.text(6, 16, f"{tile['tile']} {shape}", font_weight=700),
        f'<path d="{path}" fill="{fill_of(shape)}" stroke="#333333"/>',
    ]
    if winner:
        shown = svg.cut(winner, NAME_CHARACTERS)
        body.append(svg.text(6, TILE_HEIGHT - 8, f"to {shown}", fill=svg.QUIET))
    if bid:
        body.append(svg.text(6, TILE_HEIGHT - 24, f"you bid {bid}", fill=svg.YOU))
    words = (
        f"tile {tile['tile']}, {shape}" + (f", won by {winner}" if winner else "") + (f", you bid {bid}" if bid else "")
    )
    title = words[0].upper() + words[1:]
    place_cells = " ".join(f"{r}.{c}" for r, c in cells) if placing else None
    attributes = {"transform": f"translate({x} {y})", "data_place_cells": place_cells}
    return svg.marked(f"tile-{tile['tile']}", title, body, (TILE_WIDTH - 30, 30), **attributes), words


def _tile_list(public: Mapping[str, Any], numbers: Sequence[int]) -> str:
    shapes = {tile["tile"]: tile["shape"] for tile in public["tiles"]}
    return ", ".join(f"{number} {shapes[number]}" for number in numbers)


def _notes(public: Mapping[str, Any], player: str) -> list[str]:
    """The lines under a player's board: what they won, must place now, forfeited; their square."""
    won = [tile["tile"] for tile in public["tiles"] if tile.get("won_by") == player]
    said = [
        f"Won: {_tile_list(public, won) or 'nothing yet'}",
        *([f"To place now: {_tile_list(public, public['to_place'][player])}"] if public["to_place"][player] else []),
        *([f"Forfeited: {_tile_list(public, public['forfeited'][player])}"] if public["forfeited"][player] else []),
    ]
    final = public.get("final")
    if final:
        detail = final["squares"][player]
        place = next(s["place"] for s in final["standings"] if s["player"] == player)
        said.append(f"Largest square {detail['side']}x{detail['side']}, place {place}")
    return said


def _wrapped(sentence: str) -> list[str]:
    lines = [""]
    for word in sentence.split(" "):
        if lines[-1] and len(lines[-1]) + 1 + len(word) > LINE_CHARACTERS:
            lines.append("  ")
        lines[-1] = f"{lines[-1]} {word}" if lines[-1].strip() else f"{lines[-1]}{word}"
    return lines


def _standing(public: Mapping[str, Any], player: str, names: Mapping[str, str]) -> str:
    return (
        f"{name(names, player)}: {public['chips_left'][player]} chips left,"
        f" {public['squares_left'][player]} squares left"
    )


def _board(
    public: Mapping[str, Any],
    player: str,
    names: Mapping[str, str],
    viewer: str | None,
    notes: Sequence[str],
    at: tuple[int, int],
) -> str:
    """A player's board at (x, y): the mail's frame, each piece one path, the final square."""
    parts = frame(svg.cut(name(names, player), NAME_CHARACTERS * 2))
    for piece in public["boards"][player]:
        cells = [cell_of(cell) for cell in piece["cells"]]
        path = "".join(f"M{MARGIN + c * CELL} {TOP + r * CELL}h{CELL}v{CELL}h-{CELL}z" for r, c in cells)
        parts.append(
            f'<path data-tile="{piece["tile"]}" data-cells="{" ".join(piece["cells"])}" d="{path}"'
            f' fill="{fill_of(piece["shape"])}" stroke="#333333"/>'
        )
    final = public.get("final")
    parts += square_outline(final["squares"][player]["square"] if final else [])
    left = f"{public['chips_left'][player]} chips left, {public['squares_left'][player]} squares left"
    lines = [left, *(line for note in notes for line in _wrapped(note))]
    written = "".join(svg.text(0, HEIGHT - 6 + index * LINE, line) for index, line in enumerate(lines))
    parts.append(f'<g font-size="12">{written}</g>')
    title = f"{whose(names, player, viewer)} board"
    attributes: dict[str, object] = {"transform": f"translate({at[0]} {at[1]})"}
    if player == viewer and not public["over"]:  # where the page's script lets its owner place tiles
        own = {"own": "true", "grid": f"{MARGIN} {TOP} {CELL} {SIZE}", "squares_left": public["squares_left"][player]}
        attributes |= {f"data_{name}": value for name, value in own.items()}
    return svg.marked(f"board-{player}", title, parts, (BOARD - 30, 16), **attributes)


def _board_words(
    public: Mapping[str, Any], player: str, names: Mapping[str, str], viewer: str | None, notes: Sequence[str]
) -> str:
    pieces = [
        f"{'a 1x1 square' if piece['tile'] == SQUARE else 'tile ' + str(piece['tile']) + ' ' + piece['shape']}"
        f" on {' '.join(piece['cells'])}"
        for piece in public["boards"][player]
    ]
    covered = "; ".join(pieces) if pieces else "nothing placed yet"
    told = "".join(f" {note}." for note in notes)
    return f"{_standing(public, player, names)}; {whose(names, player, viewer, first=False)} board: {covered}.{told}"
