"""Settings, submissions and state of Domino Auction."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, StrictInt, field_validator, model_validator

from game_core.games.domino.board import CELL_NAME, cell_name, cell_of, inside
from game_core.games.domino.polyominoes import NAMES, ORIENTATIONS
from game_core.games.protocol import GameSettings, Model

BID, PLACE = "bid", "place"
ROUNDS = 3
TILES_PER_ROUND = 20
CHIPS = 300
"""Bidding chips for the whole match."""
SQUARES = 3
"""1x1 squares a player may buy in a match."""
SQUARE_GARNETS = 2
SQUARE = "square"


class DominoSettings(GameSettings):
    """`tiles` sets the shapes of some rounds (by round number, 20 names each, auction order);
    rounds not named are drawn with the match's randomness."""

    rule_set: Literal["default"] = Field(
        default="default", description="The rules as written (this game has one rule set)."
    )
    tiles: dict[int, list[str]] = Field(
        default={},
        description="Shapes fixed by the host for some rounds: round number to its 20 shape names (none: drawn).",
    )

    @model_validator(mode="after")
    def _tiles_fit_the_rounds(self) -> DominoSettings:
        problems = []
        for number, shapes in sorted(self.tiles.items()):
            if not 1 <= number <= ROUNDS:
                problems.append(f"tiles: there is no round {number} (1 to {ROUNDS})")
            elif len(shapes) != TILES_PER_ROUND:
                problems.append(f"tiles of round {number}: a round offers {TILES_PER_ROUND}, not {len(shapes)}")
            unknown = sorted({shape for shape in shapes if shape not in NAMES})
            if unknown:
                problems.append(f"tiles of round {number}: unknown shapes {unknown} (shapes: {', '.join(NAMES)})")
        if problems:
            raise ValueError("; ".join(problems))
        return self


class TileBid(Model):
    tile: StrictInt
    """The tile's number in the match (1 to 60; round r offers 20r-19 to 20r)."""
    chips: StrictInt = Field(ge=0)


class BidSubmission(Model):
    """Chips on tiles of the round's auction; a tile left out, or bid 0, is not bid on."""

    bids: list[TileBid] = Field(default_factory=list)


class Placement(Model):
    """A tile (by its number) or a bought 1x1 square, and the cells it covers.

    It may also be written as the shape's name, its orientation (numbered as `polyominoes`
    numbers them) and its anchor, the cell under the top-left corner of the orientation's box:
    `{"tile": 7, "shape": "L4", "orientation": 2, "anchor": "C5"}`. That form is read as the
    cells it covers, which is what is kept and echoed."""

    tile: StrictInt | Literal["square"]
    cells: list[str] = Field(min_length=1, max_length=5)

    @model_validator(mode="before")
    @classmethod
    def _shape_orientation_anchor_as_cells(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "shape" not in data:
            return data
        data = dict(data)
        shape, orientation, anchor = data.pop("shape"), data.pop("orientation", None), data.pop("anchor", None)
        if shape not in ORIENTATIONS:
            raise ValueError(f"unknown shape {shape!r} (shapes: {', '.join(NAMES)})")
        turns = ORIENTATIONS[shape]
        if not isinstance(orientation, int) or not 1 <= orientation <= len(turns):
            raise ValueError(f"{shape} has orientations 1 to {len(turns)}, not {orientation!r}")
        if not isinstance(anchor, str) or not CELL_NAME.match(anchor.upper()) or not inside(cell_of(anchor.upper())):
            raise ValueError(f"the anchor must be a cell of the grid (A1 to L12), not {anchor!r}")
        if "cells" in data:
            raise ValueError("write either the cells or the shape, orientation and anchor, not both")
        top, left = cell_of(anchor.upper())
        data["cells"] = [cell_name((top + row, left + column)) for row, column in turns[orientation - 1]]
        return data

    @field_validator("cells")
    @classmethod
    def _cells_are_named(cls, cells: list[str]) -> list[str]:
        named = [cell.upper() for cell in cells]
        bad = [cell for cell in named if not CELL_NAME.match(cell)]
        if bad:
            raise ValueError(f"cells are written as a column letter and a row number, such as C5: not {bad}")
        return named


class PlaceSubmission(Model):
    """The tiles won in the last auction (and squares bought) placed in this order; a tile won
    and left out is forfeited."""

    placements: list[Placement] = Field(default_factory=list)


class PlacedPiece(Model):
    tile: int | Literal["square"]
    shape: str
    cells: list[str]
    round: int
    """The placing round (the auction round the tile was won in; a square: the round placed with)."""


class AuctionRecord(Model):
    """One round's auction as revealed: each tile's winner and each player's chips spent."""

    round: int
    winners: list[str | None]
    spent: dict[str, int]


class DominoState(Model):
    players: list[str]
    phase: int = 0
    """Phases resolved: 0 waits on auction 1, 3 on placing 3, 4 the match is over."""
    tiles: list[str]
    """The 60 tiles' shapes, tile n at index n - 1, round r's auction offering 20r-19 to 20r."""
    auctions: list[AuctionRecord] = Field(default_factory=list)
    boards: dict[str, list[PlacedPiece]]
    forfeited: dict[str, list[int]]
    """Tiles won and not placed."""
    bids: dict[str, list[BidSubmission | None]]
    """Each player's own bids per auction round (secret to the player; None: none sent)."""


SUBMISSIONS: dict[str, type[Model]] = {BID: BidSubmission, PLACE: PlaceSubmission}
"""Each submission kind's model (the game's `submissions`, the grammar's `models`)."""
