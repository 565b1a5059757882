"""Drawing a round's digit packs and items with the match's randomness."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping

from game_core.games.palindrome.rule_sets import CATALOGUE, DIGITS, ItemName, RuleSet


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

    `reserved` are the items the host fixed for later rounds of this pass (`fixed_later_in_pass`):
    while the pool holds other items they are not drawn, so that the host's round does not repeat a
    drawn item before the catalogue is used up.

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


def catalogue_pass(rules: RuleSet, round_number: int) -> int:
    """Which pass through the catalogue a round's items belong to (0 the first): every round offers
    `items_per_round` items, set or drawn alike, so a pass is len(CATALOGUE) / items_per_round
    rounds (mm8: rounds 1-8, so one pass; mm5: rounds 1-4, then round 5 starts the second)."""
    return (round_number - 1) * rules.items_per_round // len(CATALOGUE)


def fixed_later_in_pass(rules: RuleSet, fixed: Mapping[int, list[ItemName]], round_number: int) -> set[ItemName]:
    """The items a drawn round avoids: those the host set for later rounds of its own pass.

    Rulings: "a drawn round avoids the items set for rounds of the same pass through the catalogue
    (the rounds before the catalogue is used up); a set round counts as drawn for that pass".
    Items set for a round of a later pass are not avoided: that pass draws from the full catalogue
    again. (Set items of earlier rounds of the pass have already left the pool.) The ruling's
    refusal, no drawn round able to avoid a repeat, cannot arise with whole rounds per pass: the
    set rounds of a pass hold at most items_per_round items each, which leaves the drawn rounds at
    least their own share of the catalogue."""
    this_pass = catalogue_pass(rules, round_number)
    return {
        item
        for later, items in fixed.items()
        if later > round_number and catalogue_pass(rules, later) == this_pass
        for item in items
    }


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
