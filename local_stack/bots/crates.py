"""Pushing Crates bot: plays from its own view alone.

It assigns its multipliers at random in the pregame (and confirms them in round 1), then each
round pushes its own crate right when the round pays, lays ice on its best round and rubber on a
losing one while the limits allow, and spends spare pushes holding other crates back or helping
them. It never uses more than the 3 free pushes (a bot has no garnets).
"""

from __future__ import annotations

import random
from typing import Any

from game_core.games.protocol import OpenPhase

MULTIPLIERS = [-1, -1, 0, 1, 1, 2]
FREE_PUSHES = 3


def _own_multipliers(private: dict[str, Any]) -> list[int] | None:
    mine = private.get("multipliers") or {}
    return mine.get("standing") or mine.get("round_1") or mine.get("pregame")


def _ground(multiplier: int, round_number: int, multipliers: list[int], left: dict[str, int]) -> str:
    ice_left = left.get("ice", 0)
    rubber_left = left.get("rubber", 0)
    best_rounds_ahead = sum(1 for m in multipliers[round_number:] if m == max(multipliers))
    if multiplier == max(multipliers) and ice_left > 0:
        return "ice"
    if multiplier > 0 and ice_left > best_rounds_ahead:
        return "ice"
    if multiplier < 0 and rubber_left > 0:
        return "rubber"
    return "stone"


def _pushes(multiplier: int, player: str, others: list[str], rng: random.Random) -> list[dict[str, str]]:
    pushes = []
    if multiplier > 0:
        own = FREE_PUSHES if not others or rng.random() < 0.6 else FREE_PUSHES - 1
        pushes += [{"crate": player, "direction": "right"}] * own
    elif multiplier < 0:
        # Cancel whatever others push onto my crate in a losing round.
        pushes += [{"crate": player, "direction": "left"}] * rng.randint(1, 2)
    else:
        pushes += [{"crate": player, "direction": "right"}] * rng.randint(0, 2)
    while others and len(pushes) < FREE_PUSHES:
        direction = "left" if rng.random() < 0.5 else "right"
        pushes.append({"crate": rng.choice(others), "direction": direction})
    return pushes


def choose(view: dict[str, Any], phase: OpenPhase, player: str, rng: random.Random) -> dict[str, dict[str, Any]]:
    public = view["public"]
    private = view.get("private", {})
    chosen: dict[str, dict[str, Any]] = {}
    multipliers = _own_multipliers(private)
    if "multipliers" in phase.accepts:
        if multipliers is None:
            multipliers = list(MULTIPLIERS)
            rng.shuffle(multipliers)
        chosen["multipliers"] = {"multipliers": list(multipliers)}
    if "round" in phase.accepts:
        multipliers = multipliers or list(MULTIPLIERS)
        round_number = int(public["round"])
        multiplier = multipliers[round_number - 1]
        others = [p for p in public["players"] if p != player]
        chosen["round"] = {
            "pushes": _pushes(multiplier, player, others, rng),
            "ground": _ground(multiplier, round_number, multipliers, private.get("grounds_left", {})),
        }
    return chosen
