"""Helpers for the Palindrome Construction tests: build positions and submissions, play phases."""

from __future__ import annotations

import random
from typing import Any

from game_core.games import registry
from game_core.games.palindrome.construction import Construction, run
from game_core.games.palindrome.workbench import Bench
from game_core.games.protocol import Resolution

GAME = registry.load("palindrome")

EVEN_PACKS = ["01234", "56789"] * 5
"""An mm5 round in which every digit appears five times: pack 1 (odd numbers) is 01234,
pack 2 (even numbers) is 56789."""
EVEN_PACKS_MM8 = ["012", "345", "678", "901", "234", "567", "890", "123", "456", "789"]
"""An mm8 round in which every digit appears three times."""


def start(players: list[str], seed: int = 0, **settings: Any):
    return GAME.setup(GAME.Settings(**settings), tuple(players), random.Random(seed))


def card(card_value: int, pack: int | None = None, item: int | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"card": card_value}
    if pack is not None:
        entry["pack"] = pack
    if item is not None:
        entry["item"] = item
    return entry


def bid(*cards: dict[str, Any], garnets: int = 0) -> dict[str, Any]:
    return {"cards": list(cards), "garnets": garnets}


def steps(*items: dict[str, Any]) -> dict[str, Any]:
    return {"steps": list(items)}


def append(string: int, digits: str, position: int | None = None) -> dict[str, Any]:
    step: dict[str, Any] = {"action": "append", "string": string, "digits": digits}
    if position is not None:
        step["position"] = position
    return step


def use(action: str, **fields: Any) -> dict[str, Any]:
    return {"action": action, **fields}


def parse(kind: str, payload: dict[str, Any]):
    return GAME.submissions[kind].model_validate(payload)


def play(state, submissions: dict[str, dict[str, dict[str, Any]]], seed: int = 0):
    """Check every submission (it must be legal), then resolve the open phase with them."""
    parsed = {}
    for player, kinds in submissions.items():
        parsed[player] = {}
        for kind, payload in kinds.items():
            submission = parse(kind, payload)
            assert GAME.check(state, player, kind, submission) == [], (player, kind)
            parsed[player][kind] = submission
    return GAME.resolve(state, Resolution(submissions=parsed, rng=random.Random(seed)))


def bench_after(strings: list[str], digits: str, items: list[str], payload: dict[str, Any]):
    """Run a construction on a bare position: the bench afterwards and every reason."""
    bench = Bench.start(strings, digits, items)
    reasons = run(bench, Construction.model_validate(payload).steps)
    return bench, reasons
