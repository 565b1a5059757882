"""Helpers for the Domino Auction tests: matches with the host's tiles, scripted phases, boards
drawn as text."""

from __future__ import annotations

import random
from typing import Any

from game_core.errors import Reason
from game_core.games import registry
from game_core.games.domino.models import AuctionRecord, DominoState, PlacedPiece
from game_core.games.protocol import Model, Resolution
from game_core.match import engine

GAME = registry.load("domino")
ROUND_1 = [
    "O4",
    "I3",
    "L4",
    "I5",
    "X5",
    "T4",
    "S4",
    "L3",
    "P5",
    "U5",
    "V5",
    "W5",
    "Y5",
    "Z5",
    "F5",
    "N5",
    "T5",
    "L5",
    "I4",
    "I3",
]
"""Round 1's tiles as the host sets them: tile 1 is an O4, tile 2 an I3, tile 3 an L4, tile 4 an I5."""


def start(players: list[str], **settings: Any) -> DominoState:
    settings.setdefault("tiles", {1: ROUND_1, 2: ROUND_1, 3: ROUND_1})
    state = GAME.setup(GAME.Settings(**settings), tuple(players), random.Random(0))
    assert isinstance(state, DominoState)
    return state


def parse(kind: str, payload: dict[str, Any]) -> Model:
    return GAME.submissions[kind].model_validate(payload)


def refusals(state: DominoState, player: str, kind: str, payload: dict[str, Any], garnets: int = 99) -> list[Reason]:
    return engine.refusals(GAME, state, player, kind, parse(kind, payload), garnets)


def resolve(state: DominoState, submissions: dict[str, dict[str, Any]]) -> DominoState:
    """The open phase with these submissions, each checked legal first."""
    parsed = {}
    for player, kinds in submissions.items():
        parsed[player] = {kind: parse(kind, payload) for kind, payload in kinds.items()}
        for kind, submission in parsed[player].items():
            assert GAME.check(state, player, kind, submission) == [], (player, kind)
    resolved = GAME.resolve(state, Resolution(submissions=parsed, rng=random.Random(0)))
    assert isinstance(resolved, DominoState)
    return resolved


def bids(**amounts: int) -> dict[str, Any]:
    """A bid submission from `t<tile>=<chips>` keywords."""
    return {"bids": [{"tile": int(tile[1:]), "chips": chips} for tile, chips in amounts.items()]}


def placing(*placements: tuple[int | str, str]) -> dict[str, Any]:
    """A place submission from (tile or "square", "C5 C6 ...") pairs."""
    return {"placements": [{"tile": tile, "cells": cells.split()} for tile, cells in placements]}


def won(players: list[str], tiles: dict[str, list[int]]) -> DominoState:
    """Auction 1 resolved with each player the only bidder (1 chip each) on their tiles: the state
    waits on "Auction 2 and placing 1"."""
    state = start(players)
    return resolve(state, {p: {"bid": bids(**{f"t{t}": 1 for t in tiles.get(p, [])})} for p in players})


def drawn(*rows: str) -> list[str]:
    """The cells marked # on a board drawn row by row from A1."""
    return [f"{'ABCDEFGHIJKL'[c]}{r + 1}" for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == "#"]


def finished(boards: dict[str, list[str]], spent: dict[str, int]) -> DominoState:
    """A finished match whose boards cover these cells and whose players spent these chips."""
    players = list(boards)
    return start(players).model_copy(
        update={
            "phase": 4,
            "boards": {p: [PlacedPiece(tile="square", shape="square", cells=boards[p], round=1)] for p in players},
            "auctions": [AuctionRecord(round=1, winners=[None] * 20, spent=spent)],
        }
    )
