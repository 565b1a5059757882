"""The arithmetic of Pushing Crates, as small pure functions."""

from __future__ import annotations

from collections.abc import Sequence

GROUND_MULTIPLIER = {"rubber": 0, "stone": 1, "ice": 3}
GROUND_LIMIT = {"rubber": 1, "ice": 2}
"""How many times a match a ground may be chosen; stone is unlimited."""
FREE_PUSHES = 3


def movement(rights: int, lefts: int, ground: str) -> int:
    """Steps a crate moves right: nothing unless right pushes outnumber left ones."""
    if rights <= lefts:
        return 0
    return (rights - lefts) * GROUND_MULTIPLIER[ground]


def multiples_of_five_crossed(start: int, end: int) -> int:
    """How many multiples of 5 lie in (start, end]: crossed or met, the start excluded."""
    return end // 5 - start // 5


def round_points(start: int, end: int, multiplier: int) -> int:
    return multiples_of_five_crossed(start, end) * multiplier


def extra_pushes(count: int) -> int:
    """Garnets a round of `count` pushes spends: one per push beyond the free three."""
    return max(0, count - FREE_PUSHES)


def line_counts(n: int) -> tuple[int, int]:
    """(ToL count, EC count): top 3 and bottom 2, fewer when there are fewer than 5 players."""
    ec = min(2, n - 1)
    tol = min(3, n - ec)
    return tol, ec


def garnets_for(points: int) -> int:
    return max(0, points // 3)


def rank(
    players: Sequence[str],
    totals: dict[str, int],
    locations: dict[str, list[int]],
    lot: Sequence[str],
) -> tuple[list[str], bool]:
    """Players best first, and whether the lot had to separate anyone.

    Points first, then the location at the end of round 6, 5, ..., 1 (further right is better),
    then the lot (earlier in it is better).
    """

    def merit(player: str) -> tuple[int, ...]:
        return (totals[player], *reversed(locations[player]))

    lot_index = {player: index for index, player in enumerate(lot)}
    order = sorted(players, key=lambda p: (tuple(-x for x in merit(p)), lot_index[p]))
    merits = [merit(p) for p in order]
    lot_decided = any(a == b for a, b in zip(merits, merits[1:], strict=False))
    return order, lot_decided
