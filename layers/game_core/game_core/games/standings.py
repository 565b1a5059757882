"""Rule helpers more than one game uses: placing players with ties, drawing the ToL and EC lines,
and the highest amount bid by exactly one bidder.

A helper belongs here once a second game needs the same rule; a rule of one game stays in that
game's `rules.py`. Every helper is pure and keeps the order it is given, so results are the same
bytes on every run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from game_core.games.protocol import Standing


def standings(order: Sequence[str], merit: Mapping[str, Any], score: Mapping[str, str]) -> tuple[Standing, ...]:
    """Each player of `order` (best first) placed by `merit` (higher is better; any comparable
    value, e.g. a tuple of tie-breaks): one place more than the players with a strictly better
    merit, so equal merits share a place, and `tied_with` names the others of the same merit.
    `score` is each player's exact score as text."""
    return tuple(
        Standing(
            player=player,
            place=1 + sum(1 for other in order if merit[other] > merit[player]),
            score=score[player],
            tied_with=tuple(other for other in order if other != player and merit[other] == merit[player]),
        )
        for player in order
    )


def lines(order: Sequence[str], tol: int, ec: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ToL line (the first `tol` of `order`, best first) and the EC line (the last `ec`), drawn
    by count for a fully ordered field. With few players EC takes at most all but one, and ToL at
    most those EC leaves, so no player is on both lines."""
    ec_count = min(ec, len(order) - 1)
    tol_count = min(tol, len(order) - ec_count)
    return tuple(order[:tol_count]), tuple(order[len(order) - ec_count :])


def best_and_worst(order: Sequence[str], merit: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ToL and EC lines drawn by merit: every player of the best merit, and every player of the
    worst merit (nobody when all are equal), each in `order`."""
    top, bottom = max(merit[p] for p in order), min(merit[p] for p in order)
    best = tuple(p for p in order if merit[p] == top)
    worst = () if bottom == top else tuple(p for p in order if merit[p] == bottom)
    return best, worst


def sole_highest(amounts: Mapping[str, int]) -> str | None:
    """Who wins a sealed bid: the bidder of the highest amount that exactly one bidder bid.

    Amounts bid by two or more bidders cancel out, and the win passes to the next highest amount
    bid once (Palindrome's cards on a pack or sums on an item; Domino Auction's "the next highest
    winning on ties"). None when every amount is bid more than once or nobody bid."""
    counts = Counter(amounts.values())
    single = [amount for amount, count in counts.items() if count == 1]
    if not single:
        return None
    best = max(single)
    return next(bidder for bidder, amount in amounts.items() if amount == best)
