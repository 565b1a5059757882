"""A Domino Auction bot: it bids a share of its chips on the auction's most compact tiles and
places each tile it won where it grows the largest square on its board, packed tight towards
the top-left corner.

It sees only its own view; every place it picks is one the game's own board rules allow, so its
placements are legal, and its bids never total more than the chips it has left. It buys no 1x1
squares (a bot has no garnets).
"""

from __future__ import annotations

import random
from typing import Any

from game_core.games.domino.board import cell_of, largest_square, names_of, neighbours, places
from game_core.games.domino.polyominoes import Cell
from game_core.games.protocol import OpenPhase

COMPACT = {"O4": 5, "P5": 5, "L3": 3, "T4": 3, "L4": 3, "S4": 2, "U5": 2, "F5": 2, "T5": 2}
"""How readily a shape fills a square (others: 1)."""


def choose(view: dict[str, Any], phase: OpenPhase, player: str, rng: random.Random) -> dict[str, dict[str, Any]]:
    chosen: dict[str, dict[str, Any]] = {}
    if "place" in phase.accepts:
        placing = _place(view["public"], player, rng)
        if placing["placements"] or "place" in phase.owed.get(player, ()):  # nothing to place: nothing sent
            chosen["place"] = placing
    if "bid" in phase.accepts:
        chosen["bid"] = _bid(view["public"], player, rng)
    return chosen


def _bid(public: dict[str, Any], player: str, rng: random.Random) -> dict[str, Any]:
    auction = len(public["auctions"]) + 1
    left = public["chips_left"][player]
    budget = left // (4 - auction)  # an equal share of what is left for each auction to come
    tiles = [tile for tile in public["tiles"] if tile["round"] == auction]
    wanted = sorted(tiles, key=lambda tile: COMPACT.get(tile["shape"], 1) + rng.random() * 3, reverse=True)
    bids = []
    for tile in wanted[: rng.randint(4, 8)]:
        chips = min(budget, rng.randint(1, 30))
        if chips:
            bids.append({"tile": tile["tile"], "chips": chips})
            budget -= chips
    return {"bids": bids}


def _place(public: dict[str, Any], player: str, rng: random.Random) -> dict[str, Any]:
    shapes = {tile["tile"]: tile["shape"] for tile in public["tiles"]}
    board = {cell_of(cell) for piece in public["boards"][player] for cell in piece["cells"]}
    placements = []
    for tile in public["to_place"][player]:
        candidates = places(shapes[tile], board)
        if not candidates:
            continue  # no legal place: the tile is forfeited
        best = max(candidates, key=lambda cells: _worth(cells, board, rng))
        placements.append({"tile": tile, "cells": names_of(best)})
        board |= set(best)
    return {"placements": placements}


def _worth(cells: tuple[Cell, ...], board: set[Cell], rng: random.Random) -> tuple[int, int, int, float]:
    after = board | set(cells)
    contacts = sum(1 for cell in cells for neighbour in neighbours(cell) if neighbour in board)
    reach = max(max(row, column) for row, column in after)
    return largest_square(after)[0], contacts, -reach, rng.random()
