"""A Palindrome Construction bot: it grows each string as one repeated digit (always a
palindrome), bids for the packs richest in its digits, and uses its items where they help.

It sees only its own view. Every construction it plans is replayed on the game's own step rules
before it is returned, and falls back to plain appends if a plan would not be legal.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from game_core.games.palindrome.construction import Construction, run
from game_core.games.palindrome.workbench import Bench
from game_core.games.protocol import OpenPhase


def choose(view: dict[str, Any], phase: OpenPhase, player: str, rng: random.Random) -> dict[str, dict[str, Any]]:
    chosen: dict[str, dict[str, Any]] = {}
    if "bid" in phase.accepts:
        chosen["bid"] = _bid(view, rng)
    if "construction" in phase.accepts:
        chosen["construction"] = _construction(view, rng)
    return chosen


def _repdigit(s: str) -> str | None:
    return s[0] if s and len(set(s)) == 1 else None


def _targets(strings: list[str]) -> list[str | None]:
    return [_repdigit(s) for s in strings]


def _bid(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    public, private = view["public"], view["private"]
    number = public["bidding_round"]
    current = next(r for r in public["round_log"] if r["round"] == number)
    wanted = {t for t in _targets(private["strings"]) if t is not None}

    def value(digits: str) -> float:
        return sum(3 if d in wanted else 1 + (d == "0") for d in digits) + rng.random()

    packs = sorted(current["packs"], key=lambda p: -value(p["digits"]))
    count = rng.randint(3, min(6, len(packs)))
    cards = sorted(rng.sample(range(10), count), reverse=True)
    bids = [{"card": card, "pack": pack["pack"]} for card, pack in zip(cards, packs, strict=False)]
    rest = [c for c in range(10) if c not in cards]
    rng.shuffle(rest)
    items = current["items"]
    if items and rest:
        target = rng.choice(items)["item"]
        for card in rest[: rng.randint(1, min(3, len(rest)))]:
            bids.append({"card": card, "item": target})
    return {"cards": bids, "garnets": 0}


def _construction(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    public, private = view["public"], view["private"]
    last = public["construction_round"] == public["rounds"]
    strings = list(private["strings"])
    digits = private["digits"]
    held = Counter(i["name"] for i in private["items"] if i["used_in_round"] is None)
    plans = [_plan(strings, digits, held, last, rng), _plan(strings, digits, Counter(), last, rng)]
    for steps in plans:
        bench = Bench.start(strings, digits, list(held.elements()))
        if not run(bench, Construction.model_validate({"steps": steps}).steps):
            return {"steps": steps}
    return {"steps": []}


def _plan(strings: list[str], digits: str, held: Counter[str], last: bool, rng: random.Random) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    pool = Counter(digits)
    strings = list(strings)
    targets = _targets(strings)
    # Give each empty string the most plentiful digit not yet someone's target.
    for i, s in enumerate(strings):
        if not s:
            free = [d for d in sorted(pool, key=lambda d: (-pool[d], -int(d))) if d not in targets]
            targets[i] = free[0] if free else None
    aims = [t for t in targets if t is not None]
    if held["Shift"] and aims:
        spare = [d for d in sorted(pool) if d not in aims]
        if spare:
            to = rng.choice(aims)
            steps.append({"action": "shift", "digit": spare[0], "to": to})
            pool[spare[0]] -= 1
            pool[to] += 1
    if held["Duplicate"]:
        present = [d for d in aims if pool[d] > 0]
        if present:
            steps.append({"action": "duplicate", "digit": present[0]})
            pool[present[0]] += 1
    for i, t in enumerate(targets):
        if t is not None and pool[t] > 0:
            steps.append({"action": "append", "string": i + 1, "digits": t * pool[t]})
            strings[i] += t * pool[t]
            pool[t] = 0
    steps += _reshaped(strings, pool, held, last, rng)
    if held["Keep"] and not last and sum(pool.values()):
        steps.append({"action": "keep"})
    return steps


def _reshaped(
    strings: list[str], pool: Counter[str], held: Counter[str], last: bool, rng: random.Random
) -> list[dict[str, Any]]:
    """The tools that reshape the strings once the digits are placed: Insert, Eraser, Clone and
    Mirror, in that order (`strings`, `pool` and `held` are changed as the steps would)."""
    steps: list[dict[str, Any]] = []
    if held["Insert"]:
        pair = next((d for d in sorted(pool, reverse=True) if pool[d] >= 2), None)
        even = [i for i, s in enumerate(strings) if s and len(s) % 2 == 0 and s == s[::-1]]
        if pair and even:
            i = even[0]
            steps.append({"action": "insert", "string": i + 1})
            middle = len(strings[i]) // 2
            steps.append({"action": "append", "string": i + 1, "digits": pair * 2, "position": middle + 1})
            strings[i] = strings[i][:middle] + pair * 2 + strings[i][middle:]
            pool[pair] -= 2
    for i, s in enumerate(strings):
        if s and s != s[::-1] and held["Eraser"]:
            fix = next((p for p in range(len(s)) if (t := s[:p] + s[p + 1 :]) == t[::-1]), None)
            if fix is not None:
                steps.append({"action": "eraser", "string": i + 1, "position": fix + 1})
                strings[i] = s[:fix] + s[fix + 1 :]
                held["Eraser"] -= 1
    if held["Clone"] and (last or rng.random() < 0.3):
        pairs = [
            (a, b)
            for a in range(3)
            for b in range(3)
            if a != b and strings[a] and strings[b] and (strings[a] + strings[b])[::-1] == strings[a] + strings[b]
        ]
        if pairs:
            a, b = pairs[0]
            steps.append({"action": "clone", "string": a + 1, "source": b + 1})
            strings[a] += strings[b]
    if held["Mirror"] and (last or rng.random() < 0.3):
        longest = max(range(3), key=lambda i: (len(strings[i]) * (strings[i] != strings[i][::-1]), len(strings[i])))
        if strings[longest]:
            steps.append({"action": "mirror", "string": longest + 1})
            strings[longest] += strings[longest][::-1]
    return steps
