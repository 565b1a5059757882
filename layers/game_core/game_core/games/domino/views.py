"""What each participant of Domino Auction may know.

Public: the 60 tiles from the start and, once each auction resolved, each tile's winner and each
player's chips spent; every board, the tiles still to place and those forfeited; the names of the
pictures of the boards; at the end the standings and each player's square (from `result`).
Private to a player: their own bids. No bid amount of anyone else ever leaves.
"""

from __future__ import annotations

from typing import Any

from game_core.games.domino.board import SIZE
from game_core.games.domino.models import CHIPS, SQUARE_GARNETS, SQUARES, TILES_PER_ROUND, DominoState
from game_core.games.domino.rules import chips_left, current, result, round_of, squares_used, to_place
from game_core.games.protocol import Result


def picture_names(phase_number: int, players: list[str]) -> dict[str, Any]:
    """The SVG files of the boards after `phase_number` phases (what `match-host pictures` writes)."""
    stem = f"domino-after-phase-{phase_number}"
    return {"all": f"{stem}-all.svg", "boards": {player: f"{stem}-{player}.svg" for player in players}}


def final_view(outcome: Result) -> dict[str, Any]:
    """The public account of a finished match, read off its result."""
    return {
        "standings": [
            {"place": s.place, "player": s.player, "side": s.score, "tied_with": list(s.tied_with)}
            for s in outcome.standings
        ],
        "squares": {player: dict(detail) for player, detail in outcome.details.items()},
        "tol": list(outcome.tol),
        "ec": list(outcome.ec),
        "undecided": list(outcome.undecided),
    }


def _tiles(state: DominoState) -> list[dict[str, Any]]:
    tiles = []
    for number, shape in enumerate(state.tiles, start=1):
        entry: dict[str, Any] = {"tile": number, "shape": shape, "round": round_of(number)}
        if round_of(number) <= len(state.auctions):
            winners = state.auctions[round_of(number) - 1].winners
            entry["won_by"] = winners[(number - 1) % TILES_PER_ROUND]
        tiles.append(entry)
    return tiles


def view(state: DominoState, player: str | None) -> dict[str, Any]:
    spec = current(state)
    public: dict[str, Any] = {
        "game": "domino",
        "phase": spec.kind.name if spec else None,
        "phases_resolved": state.phase,
        "over": spec is None,
        "players": list(state.players),
        "grid_size": SIZE,
        "chips": CHIPS,
        "squares": SQUARES,
        "square_garnets": SQUARE_GARNETS,
        "tiles": _tiles(state),
        "auctions": [{"round": a.round, "spent": dict(a.spent)} for a in state.auctions],
        "chips_left": {p: chips_left(state, p) for p in state.players},
        "squares_left": {p: SQUARES - squares_used(state, p) for p in state.players},
        "boards": {p: [piece.model_dump(mode="json") for piece in state.boards[p]] for p in state.players},
        "placing_round": spec.placing if spec else None,
        "to_place": {p: to_place(state, p) for p in state.players},
        "forfeited": {p: list(state.forfeited[p]) for p in state.players},
        "pictures": picture_names(state.phase, state.players),
    }
    if spec is None:
        public["final"] = final_view(result(state))
    if player is None or player not in state.players:
        return {"public": public}
    bids = [
        {"round": number, "bids": None if sent is None else sent.model_dump(mode="json")["bids"]}
        for number, sent in enumerate(state.bids[player], start=1)
    ]
    return {"public": public, "private": {"bids": bids}}


def change_private_seat(state: dict[str, Any], q: str) -> None:
    """Change, in a state's JSON, everything only `q` may know (`Demo.private_seat`): the amounts
    bid, secret for good (only winners and each player's total spent are revealed)."""
    state["bids"][q] = [{"bids": [{"tile": 1, "chips": 7}, {"tile": 2, "chips": 0}]} for _ in state["bids"][q]]
