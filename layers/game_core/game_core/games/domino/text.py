"""Domino Auction in plain text (play by e-mail): the lines of a bid and of a placing, the text
of a view with every board drawn as a grid, and the view's boards as pictures a mail attaches.

    AUCTION 2                   (optional: names the auction; alone: a bid on nothing)
    BID 40 ON TILE 27           (one line per tile; TILE may be left out)
    PLACING 1                   (optional: names the placing; alone: place nothing)
    PLACE 7 AT C5 C6 C7 D7      (tile 7 on these cells; one line per tile, in placing order)
    PLACE 7 L4 2 AT C5          (or: its shape, orientation and the top-left cell of its box)
    SQUARE AT F6                (a 1x1 square, 2 garnets)

A cell is its column letter (A-L) and row number (1-12), as on the printed boards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game_core.games.capabilities import Board, Drawing
from game_core.games.domino.board import CELL_NAME, COLUMNS, SIZE, cell_of
from game_core.games.domino.models import (
    BID,
    PLACE,
    SQUARE,
    SQUARE_GARNETS,
    SUBMISSIONS,
    TILES_PER_ROUND,
    BidSubmission,
    Placement,
    PlaceSubmission,
    TileBid,
)
from game_core.games.domino.polyominoes import NAMES
from game_core.games.domino.rules import SCHEDULE
from game_core.games.plain_text import Header, LineForm, LineGrammar, Words
from game_core.games.protocol import Model
from game_core.games.text_layout import listing, name, name_list, table, wrapped

SHAPES = {shape: shape for shape in NAMES}
EMPTY, SQUARE_MARK = ".", "#"
PIECE_MARKS = "abcdefghijklmnopqrstuvwxyz"
"""Each piece of a board is drawn with its own letter, in placing order (upper case inside the
largest square at the end)."""
BOARD_GAP = "      "


def _phase_named(field: str) -> Any:
    def phase(number: int, accepts: Sequence[str]) -> str:
        named = [spec.kind.name for spec in SCHEDULE if getattr(spec, field) == number]
        return named[0] if named else f"{field.capitalize()} {number}"

    return phase


def _bid(words: Words) -> dict[str, Any]:
    chips = words.number("chips")
    words.skip("ON")
    words.skip("TILE")
    return {"bids": [{"tile": words.number("tile"), "chips": chips}]}


def _cells(words: Words) -> list[str]:
    words.skip("AT")
    cells = [words.shaped("cell", CELL_NAME, "a cell such as C5")]
    while words.more():
        cells.append(words.shaped("cell", CELL_NAME, "a cell such as C5"))
    return cells


def _place(words: Words) -> dict[str, Any]:
    tile = words.number("tile")
    if words.peek() == "AT":
        return {"placements": [{"tile": tile, "cells": _cells(words)}]}
    shape = words.choice("shape", SHAPES)
    orientation = words.number("orientation")
    words.skip("AT")
    anchor = words.shaped("cell", CELL_NAME, "a cell such as C5")
    return {"placements": [{"tile": tile, "shape": shape, "orientation": orientation, "anchor": anchor}]}


def _square(words: Words) -> dict[str, Any]:
    return {"placements": [{"tile": SQUARE, "cells": _cells(words)}]}


class DominoText(LineGrammar):
    models = SUBMISSIONS
    forms = (
        LineForm(("BID",), BID, _bid, "BID <chips> ON TILE <number>", "one line per tile", many=True),
        LineForm(
            ("PLACE",),
            PLACE,
            _place,
            "PLACE <tile> AT <cells>",
            "or PLACE <tile> <shape> <turn> AT <corner>",
            many=True,
        ),
        LineForm(("SQUARE",), PLACE, _square, "SQUARE AT <cell>", f"a 1x1 square, {SQUARE_GARNETS} garnets", many=True),
    )
    headers = (
        Header("AUCTION", BID, _phase_named("auction"), "AUCTION [number]", "optional; alone: no bids"),
        Header("PLACING", PLACE, _phase_named("placing"), "PLACING [number]", "optional; alone: place nothing"),
    )
    examples = {
        BID: BidSubmission(bids=[TileBid(tile=27, chips=40), TileBid(tile=31, chips=12)]),
        PLACE: PlaceSubmission(
            placements=[
                Placement(tile=7, cells=["C5", "C6", "C7", "D7"]),
                Placement(tile=SQUARE, cells=["D6"]),
            ]
        ),
    }

    def example(self, kind: str, phase: str) -> Model:
        """The examples' tiles moved into the phase's own auction (auction n offers tiles 20n-19 to
        20n): the bid's are auction 2's (27, 31), the placement's auction 1's (7); a square is no tile."""
        spec = next((spec for spec in SCHEDULE if spec.kind.name == phase), None)
        example = self.examples[kind]
        if spec is not None and spec.auction is not None and isinstance(example, BidSubmission):
            shift = TILES_PER_ROUND * (spec.auction - 2)
            return BidSubmission(bids=[bid.model_copy(update={"tile": bid.tile + shift}) for bid in example.bids])
        if spec is not None and spec.placing is not None and isinstance(example, PlaceSubmission):
            shift = TILES_PER_ROUND * (spec.placing - 1)
            moved = [
                p if p.tile == SQUARE else p.model_copy(update={"tile": int(p.tile) + shift})
                for p in example.placements
            ]
            return PlaceSubmission(placements=moved)
        return example

    def write_text(self, kind: str, submission: Model) -> list[str]:
        if isinstance(submission, BidSubmission):
            return [f"BID {bid.chips} ON TILE {bid.tile}" for bid in submission.bids] or ["AUCTION"]
        assert isinstance(submission, PlaceSubmission)
        lines = [
            f"SQUARE AT {' '.join(p.cells)}" if p.tile == SQUARE else f"PLACE {p.tile} AT {' '.join(p.cells)}"
            for p in submission.placements
        ]
        return lines or ["PLACING"]

    def draw_view(self, view: Mapping[str, Any], names: Mapping[str, str]) -> Drawing:
        """Every board of the view side by side, as SVG and PNG (`pictures`)."""
        from game_core.games.domino.pictures import drawing  # only a mail carrying a view draws it

        return drawing(view, names)

    def draw_board(self, view: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> Board:
        """The tiles and every board on the player's page (`page_board`)."""
        from game_core.games.domino import page_board  # only a page draws it: not at import

        return page_board.draw(view, names, viewer)

    def render_view(self, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        public = view["public"]
        players = public["players"]
        lines = [_heading(public), *listing(f"Players: {name_list(names, players)}"), ""]
        rows = [
            [
                name(names, p),
                *(str(auction["spent"][p]) for auction in public["auctions"]),
                str(public["chips_left"][p]),
                str(public["squares_left"][p]),
            ]
            for p in players
        ]
        spent = [f"Spent {auction['round']}" for auction in public["auctions"]]
        lines += [*table(["Player", *spent, "Chips left", "Squares left"], rows), ""]
        lines += _tiles(public, names)
        lines += _boards(public, names)
        if public.get("final"):
            lines += ["", *_final(public["final"], names)]
        if view.get("private"):
            lines += ["", *_private(view["private"])]
        return "\n".join(lines)


def _heading(public: Mapping[str, Any]) -> str:
    if public["over"]:
        return "Domino Auction: the match is over."
    return f"Domino Auction: {public['phase']} (phase {public['phases_resolved'] + 1} of {len(SCHEDULE)})."


def _tiles(public: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    lines = []
    for round_number in sorted({tile["round"] for tile in public["tiles"]}):
        tiles = [tile for tile in public["tiles"] if tile["round"] == round_number]
        offered = " ".join(f"{tile['tile']}:{tile['shape']}" for tile in tiles)
        lines += wrapped(f"Auction {round_number} tiles: {offered}")
        if "won_by" in tiles[0]:
            won = []
            for winner in [*public["players"], None]:
                numbers = " ".join(str(t["tile"]) for t in tiles if t["won_by"] == winner)
                if numbers:
                    won.append(f"{name(names, winner) if winner else 'nobody'} {numbers}")
            lines += wrapped(f"  won: {'; '.join(won)}")
    for label, key in (("To place now", "to_place"), ("Forfeited", "forfeited")):
        held = [f"{name(names, p)} {' '.join(map(str, public[key][p]))}" for p in public["players"] if public[key][p]]
        if held:
            lines += wrapped(f"{label}: {'; '.join(held)}")
    return lines


def _grid(pieces: Sequence[Mapping[str, Any]], square: Sequence[str]) -> list[str]:
    marks = [[EMPTY] * SIZE for _ in range(SIZE)]
    for index, piece in enumerate(pieces):
        mark = SQUARE_MARK if piece["tile"] == SQUARE else PIECE_MARKS[index % len(PIECE_MARKS)]
        for cell in piece["cells"]:
            row, column = cell_of(cell)
            marks[row][column] = mark.upper() if cell in square else mark
    header = "   " + " ".join(COLUMNS)
    return [header, *(f"{row + 1:>2} " + " ".join(marks[row]) for row in range(SIZE))]


def _boards(public: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """Every board as a grid, two side by side (each 27 columns wide)."""
    final = public.get("final")
    width = len(_grid([], [])[0])
    lines = []
    players = public["players"]
    for pair in (players[i : i + 2] for i in range(0, len(players), 2)):
        titles = [name(names, p)[:width].ljust(width) for p in pair]
        grids = [_grid(public["boards"][p], final["squares"][p]["square"] if final else []) for p in pair]
        lines += ["", BOARD_GAP.join(titles).rstrip()]
        lines += [BOARD_GAP.join(row.ljust(width) for row in rows).rstrip() for rows in zip(*grids, strict=True)]
    return lines


def _final(final: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    rows = [
        [
            str(s["place"]),
            name(names, s["player"]),
            f"{s['side']}x{s['side']}",
            str(final["squares"][s["player"]]["chips_left"]),
            str(final["squares"][s["player"]]["outside"]),
        ]
        for s in final["standings"]
    ]
    lines = ["Final standings (the largest square in capitals on each board):"]
    lines += table(["Place", "Player", "Square", "Chips left", "Cells outside"], rows)
    lines += [f"Tokens of Life (2): {name_list(names, final['tol'])}"]
    lines += [f"Elimination candidate: {name_list(names, final['ec'])}"]
    if final["undecided"]:
        lines += wrapped(f"Tied on a line, for the host to decide: {name_list(names, final['undecided'])}")
    return lines


def _private(private: Mapping[str, Any]) -> list[str]:
    lines = ["Your bids:"]
    for entry in private["bids"]:
        bids = entry["bids"]
        said = ", ".join(f"{bid['chips']} on {bid['tile']}" for bid in bids) if bids else "none"
        lines += wrapped(f"  auction {entry['round']}: {said if bids is not None else 'none sent'}")
    return lines
