"""The rules of Domino Auction as pure functions: the timeline, drawing the tiles, what a bid and a
placement may hold, resolving a phase, and the result.

Phases: auction 1; auction 2 with placing the tiles of auction 1; auction 3 with placing those of
auction 2; placing those of auction 3. Where a piece may go is `board.py`'s; the shapes are
`polyominoes.py`'s.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from game_core.errors import Reason
from game_core.games.domino.board import cell_of, inside, largest_square, names_of, square_cells, touches
from game_core.games.domino.models import (
    BID,
    CHIPS,
    PLACE,
    ROUNDS,
    SQUARE,
    SQUARE_GARNETS,
    SQUARES,
    TILES_PER_ROUND,
    AuctionRecord,
    BidSubmission,
    DominoSettings,
    DominoState,
    PlacedPiece,
    PlaceSubmission,
)
from game_core.games.domino.polyominoes import NAMES, Cell, shape_name
from game_core.games.protocol import PhaseKind, Result, TiedLine
from game_core.games.standings import best_and_worst, sole_highest, standings


@dataclass(frozen=True)
class PhaseSpec:
    kind: PhaseKind
    auction: int | None
    """The auction round this phase holds (None: none, the last placing)."""
    placing: int | None
    """The auction round whose tiles are placed in this phase (None: none yet)."""


SCHEDULE = (
    PhaseSpec(PhaseKind("Auction 1", (BID,)), auction=1, placing=None),
    PhaseSpec(PhaseKind("Auction 2 and placing 1", (BID, PLACE)), auction=2, placing=1),
    PhaseSpec(PhaseKind("Auction 3 and placing 2", (BID, PLACE)), auction=3, placing=2),
    PhaseSpec(PhaseKind("Placing 3", (PLACE,)), auction=None, placing=3),
)
TIMELINE = tuple(spec.kind for spec in SCHEDULE)
TOL_AWARD = 2
"""Tokens of Life for the first."""


def current(state: DominoState) -> PhaseSpec | None:
    return SCHEDULE[state.phase] if state.phase < len(SCHEDULE) else None


def draw_tiles(settings: DominoSettings, rng: random.Random) -> list[str]:
    """The 60 tiles: each round's 20 as the host set them, else each drawn from the 19 shapes
    with equal chances (repeats allowed)."""
    tiles: list[str] = []
    for number in range(1, ROUNDS + 1):
        tiles += settings.tiles.get(number) or [rng.choice(NAMES) for _ in range(TILES_PER_ROUND)]
    return tiles


def round_of(tile: int) -> int:
    return (tile - 1) // TILES_PER_ROUND + 1


def offered(round_number: int) -> range:
    return range(TILES_PER_ROUND * (round_number - 1) + 1, TILES_PER_ROUND * round_number + 1)


def chips_left(state: DominoState, player: str) -> int:
    return CHIPS - sum(auction.spent[player] for auction in state.auctions)


def squares_used(state: DominoState, player: str) -> int:
    return sum(1 for piece in state.boards[player] if piece.tile == SQUARE)


def covered(state: DominoState, player: str) -> set[Cell]:
    return {cell_of(cell) for piece in state.boards[player] for cell in piece.cells}


def to_place(state: DominoState, player: str) -> list[int]:
    """The tiles `player` won in the auction whose tiles the open phase places."""
    spec = current(state)
    if spec is None or spec.placing is None:
        return []
    winners = state.auctions[spec.placing - 1].winners
    return [tile for tile, winner in zip(offered(spec.placing), winners, strict=True) if winner == player]


def owed(state: DominoState, spec: PhaseSpec, player: str) -> tuple[str, ...]:
    """What the phase waits for from the player: bids in an auction while they have chips left to
    bid (with none, every bid is zero, which is no bid), a placement only for tiles they won (who
    won each tile and what each spent are public). Squares alone are never owed."""
    bids = (BID,) if spec.auction is not None and chips_left(state, player) > 0 else ()
    return bids + ((PLACE,) if to_place(state, player) else ())


def shape_of(state: DominoState, tile: int | Literal["square"]) -> str:
    return state.tiles[tile - 1] if isinstance(tile, int) else SQUARE


def garnets_for(submission: PlaceSubmission) -> int:
    return SQUARE_GARNETS * sum(1 for placement in submission.placements if placement.tile == SQUARE)


# -- checks -----------------------------------------------------------------------------------------


def bid_reasons(state: DominoState, player: str, submission: BidSubmission) -> list[Reason]:
    spec = current(state)
    assert spec is not None and spec.auction is not None
    tiles = offered(spec.auction)
    reasons = []
    seen: set[int] = set()
    for bid in submission.bids:
        if bid.tile not in tiles:
            text = f"tile {bid.tile} is not offered in auction {spec.auction} (tiles {tiles[0]} to {tiles[-1]})"
            reasons.append(Reason("tile_not_offered", text))
        elif bid.tile in seen:
            reasons.append(Reason("tile_repeated", f"tile {bid.tile} is bid on more than once; once at most"))
        seen.add(bid.tile)
    total, left = sum(bid.chips for bid in submission.bids), chips_left(state, player)
    if total > left:
        chips = "chip" if total == 1 else "chips"
        reasons.append(Reason("chips_short", f"you bid {total} {chips} in all, but you have {left} left"))
    return reasons


def place_reasons(state: DominoState, player: str, submission: PlaceSubmission) -> list[Reason]:
    """Every reason the placements are illegal, each judged in order on the board as the earlier
    ones leave it (an illegal one is still laid down, so that the later ones are judged too)."""
    held = to_place(state, player)
    spec = current(state)
    assert spec is not None and spec.placing is not None
    board = covered(state, player)
    reasons = []
    placed: set[int] = set()
    squares = squares_used(state, player)
    for number, placement in enumerate(submission.placements, start=1):
        what = f"placement {number} (tile {placement.tile})"
        if placement.tile == SQUARE:
            what = f"placement {number} (a square)"
            squares += 1
            if squares > SQUARES:
                text = f"{what}: at most {SQUARES} squares a match, and this is square {squares}"
                reasons.append(Reason("squares_used_up", text))
        elif placement.tile not in held:
            won = ", ".join(map(str, held)) or "none"
            text = f"{what}: not a tile you place now (you won these in auction {spec.placing}: {won})"
            reasons.append(Reason("tile_not_held", text))
            continue
        elif placement.tile in placed:
            reasons.append(Reason("tile_repeated", f"{what}: the tile is already placed above"))
            continue
        else:
            placed.add(placement.tile)
        cells = [cell_of(cell) for cell in placement.cells]
        expected = shape_of(state, placement.tile)
        formed = SQUARE if len(cells) == 1 else shape_name(cells) if len(set(cells)) == len(cells) else None
        if formed != expected:
            text = f"{what}: {' '.join(placement.cells)} do not form a {expected}"
            reasons.append(Reason("wrong_shape", text))
            continue
        reasons += _place_reasons(what, cells, board)
        board |= set(cells)
    return reasons


def _place_reasons(what: str, cells: list[Cell], board: set[Cell]) -> list[Reason]:
    reasons = []
    outside = [cell for cell in cells if not inside(cell)]
    if outside:
        reasons.append(Reason("outside_grid", f"{what}: {' '.join(names_of(outside))} off the 12x12 grid"))
    overlap = [cell for cell in cells if cell in board]
    if overlap:
        reasons.append(Reason("cell_covered", f"{what}: {' '.join(names_of(overlap))} already covered"))
    elif board and not touches(cells, board):
        text = f"{what}: touches none of your cells (after the first, all your cells are one group)"
        reasons.append(Reason("not_connected", text))
    return reasons


# -- resolution -------------------------------------------------------------------------------------


def resolve(
    state: DominoState, bids: Mapping[str, BidSubmission | None], placements: Mapping[str, PlaceSubmission | None]
) -> DominoState:
    """The open phase: first the placing (a player who sent nothing places nothing and forfeits
    every tile to place), then the auction. The new state shares what the phase leaves alone."""
    spec = current(state)
    if spec is None:
        raise ValueError("the match is over; there is no phase to resolve")
    update: dict[str, object] = {"phase": state.phase + 1}
    if spec.placing is not None:
        update["boards"], update["forfeited"] = _place(state, spec.placing, placements)
    if spec.auction is not None:
        update["auctions"] = [*state.auctions, auction(state, spec.auction, bids)]
        update["bids"] = {player: [*state.bids[player], bids[player]] for player in state.players}
    return state.model_copy(update=update)


def _place(
    state: DominoState, round_number: int, placements: Mapping[str, PlaceSubmission | None]
) -> tuple[dict[str, list[PlacedPiece]], dict[str, list[int]]]:
    boards, forfeited = dict(state.boards), dict(state.forfeited)
    for player in state.players:
        sent = placements[player]
        pieces = [
            PlacedPiece(
                tile=placement.tile,
                shape=shape_of(state, placement.tile),
                cells=list(placement.cells),
                round=round_number,
            )
            for placement in (sent.placements if sent else [])
        ]
        placed = {piece.tile for piece in pieces}
        boards[player] = [*state.boards[player], *pieces]
        forfeited[player] = [*state.forfeited[player], *(t for t in to_place(state, player) if t not in placed)]
    return boards, forfeited


def auction(state: DominoState, round_number: int, bids: Mapping[str, BidSubmission | None]) -> AuctionRecord:
    """Each tile to the highest amount bid on it by exactly one player (zero is no bid); every
    chip bid is spent."""
    amounts: dict[int, dict[str, int]] = {tile: {} for tile in offered(round_number)}
    spent = dict.fromkeys(state.players, 0)
    for player in state.players:
        sent = bids[player]
        for bid in sent.bids if sent else []:
            spent[player] += bid.chips
            if bid.chips > 0:
                amounts[bid.tile][player] = bid.chips
    return AuctionRecord(round=round_number, winners=[sole_highest(amounts[tile]) for tile in amounts], spent=spent)


# -- the result -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """A player's end: the largest square's side and its top-left cell, chips left, and covered
    cells outside that square."""

    side: int
    corner: Cell | None
    chips: int
    outside: int

    @property
    def merit(self) -> tuple[int, int, int]:
        return self.side, self.chips, -self.outside


def outcome(state: DominoState, player: str) -> Outcome:
    board = covered(state, player)
    side, corner = largest_square(board)
    return Outcome(side, corner, chips_left(state, player), len(board) - side * side)


def result(state: DominoState) -> Result:
    """Ranked by the largest square's side, then chips left (more is better), then covered cells
    outside the square (fewer is better). The first wins 2 ToL and the last is EC; a tie left
    standing on either line is named for the host to decide (everyone tied: no EC)."""
    if current(state) is not None:
        raise ValueError("the match is not over")
    outcomes = {player: outcome(state, player) for player in state.players}
    merit = {player: outcomes[player].merit for player in state.players}
    order = sorted(state.players, key=lambda p: tuple(-value for value in merit[p]))
    first, last = best_and_worst(order, merit)
    tol = first if len(first) == 1 else ()
    ec = last if len(last) == 1 else ()
    tied: tuple[TiedLine, ...] = (TiedLine("tol", first, award=TOL_AWARD),) if not tol else ()
    tied += (TiedLine("ec", last),) if last and not ec else ()
    return Result(
        standings=standings(order, merit, {p: str(outcomes[p].side) for p in order}),
        tol=tol,
        ec=ec,
        tol_awarded={p: TOL_AWARD for p in tol},
        garnets={p: 2 * outcomes[p].side for p in state.players},
        tied_lines=tied,
        details={
            p: {
                "side": outcomes[p].side,
                "square": names_of(square_cells(outcomes[p].side, outcomes[p].corner)),
                "chips_left": outcomes[p].chips,
                "outside": outcomes[p].outside,
            }
            for p in state.players
        },
    )
