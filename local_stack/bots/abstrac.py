"""Abstrac bot, both rule sets: legal moves from the public view, preferring ones that score.

Taking (row picks, deal takes): every legal count is valued by the hand it would give, per card:
its combination points plus half a point for each near-combination (two cards of one number, two
consecutive cards of one colour), so counts that complete a combination win and dead weight loses;
ties are broken with the bot's random source. Laying: 1-3 random unused cards, no two of one
number in the same lay when it can (a mild spread, so sets are not handed out in one pick).
Starter choice: the protected player starts.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from game_core.games.abstrac.cards import COLOURS, NUMBERS, colour, number, points
from game_core.games.protocol import OpenPhase


def potential(cards: list[str]) -> Fraction:
    """Points plus a half for each pair that could still grow into a combination."""
    value = Fraction(points(cards))
    for n in NUMBERS:
        if sum(1 for card in cards if number(card) == n) == 2:
            value += Fraction(1, 2)
    for c in COLOURS:
        held = {number(card) for card in cards if colour(card) == c}
        for n in NUMBERS[:-1]:
            if n in held and n + 1 in held and n - 1 not in held and n + 2 not in held:
                value += Fraction(1, 2)
    return value


def best_count(hand: list[str], line: list[str], rng: random.Random) -> int:
    options = range(1, min(3, len(line)) + 1)
    valued = [(potential(hand + line[:count]) / (len(hand) + count), count) for count in options]
    top = max(value for value, _ in valued)
    return rng.choice([count for value, count in valued if value == top])


def choose(view: dict[str, Any], phase: OpenPhase, player: str, rng: random.Random) -> dict[str, dict[str, Any]]:
    public = view["public"]
    kind = phase.accepts[0]
    if kind == "starter":
        return {"starter": {"starter": public["protected"]}}
    if kind == "lay":
        unused = list(public["unused"])
        count = rng.randint(1, min(3, len(unused)))
        laid: list[str] = []
        for _ in range(count):
            spread = [card for card in unused if all(number(card) != number(x) for x in laid)]
            card = rng.choice(spread or unused)
            laid.append(card)
            unused.remove(card)
        return {"lay": {"cards": laid}}
    hand = list(public["taken"][player]["cards"])
    line = list(public["row"] if kind == "pick" else public["line"])
    return {kind: {"count": best_count(hand, line, rng)}}
