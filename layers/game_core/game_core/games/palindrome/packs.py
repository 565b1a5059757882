"""Drawing a round's digit packs and items with the match's randomness."""

from __future__ import annotations

import random
from collections.abc import Collection

from game_core.games.palindrome.settings import CATALOGUE, DIGITS, ItemName, RuleSet


def draw_packs(rules: RuleSet, rng: random.Random) -> list[str]:
    """The required copies of every digit plus uniformly random digits, shuffled, cut into packs."""
    total = rules.packs_per_round * rules.pack_size
    digits = [d for d in DIGITS for _ in range(rules.digit_minimum)]
    digits += [rng.choice(DIGITS) for _ in range(total - len(digits))]
    rng.shuffle(digits)
    return ["".join(digits[i : i + rules.pack_size]) for i in range(0, total, rules.pack_size)]


def draw_items(
    pool: list[ItemName], count: int, rng: random.Random, reserved: Collection[ItemName] = ()
) -> tuple[list[ItemName], list[ItemName]]:
    """`count` different items drawn from `pool` (the items not yet offered in this pass over the
    catalogue); once the pool is used up it starts again from the full catalogue.

    `reserved` are the items the host fixed for later rounds: while the pool holds other items they
    are not drawn, so that the host's round does not repeat a drawn item before the catalogue is
    used up.

    Returns the items and the pool left afterwards.
    """
    pool = list(pool)
    chosen: list[ItemName] = []
    for _ in range(count):
        candidates = _candidates(pool, chosen, reserved)
        if not candidates:
            pool = list(CATALOGUE)
            candidates = _candidates(pool, chosen, reserved)
        pick = rng.choice(candidates)
        pool.remove(pick)
        chosen.append(pick)
    return chosen, pool


def _candidates(pool: list[ItemName], chosen: list[ItemName], reserved: Collection[ItemName]) -> list[ItemName]:
    """The pool's items not yet chosen this round, those not reserved first."""
    free = [item for item in pool if item not in chosen]
    return [item for item in free if item not in reserved] or free


def take_fixed_items(pool: list[ItemName], items: list[ItemName]) -> list[ItemName]:
    """The pool after the host fixed a round's items: each one counts as offered."""
    pool = list(pool)
    for item in items:
        if item not in pool:
            if pool:
                continue
            pool = list(CATALOGUE)
        pool.remove(item)
    return pool
