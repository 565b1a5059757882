"""Cards and poker hands of 1 to 5 cards, with the clubs tie-breaks.

A hand's `strength` compares as poker hands do; a hand with fewer cards loses a high-card
comparison to one with more ("a missing card losing to any card"): the ranks that decide are a
tuple, and a shorter tuple that agrees so far is the smaller. Straights, flushes and full houses
need five cards; A-2-3-4-5 is the lowest straight.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

RANKS = "23456789TJQKA"
SUITS = "CSHD"
SUIT_STRENGTH = {"C": 4, "S": 3, "H": 2, "D": 1}
"""Suit order for the service-built hand: clubs, spades, hearts, diamonds."""
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)

HIGH_CARD, PAIR, TWO_PAIR, THREE, STRAIGHT, FLUSH, FULL_HOUSE, FOUR, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
WHEEL = (14, 5, 4, 3, 2)

Strength = tuple[int, tuple[int, ...]]
"""(category, the ranks that decide within it, most important first)."""


def rank(card: str) -> int:
    """2..14 (the ace high)."""
    return RANKS.index(card[0]) + 2


def suit(card: str) -> str:
    return card[1]


def is_club(card: str) -> bool:
    return card[1] == "C"


def strength(cards: Sequence[str]) -> Strength:
    """The poker strength of 1 to 5 different cards."""
    ranks = sorted((rank(card) for card in cards), reverse=True)
    counts = Counter(ranks)
    # Each distinct rank once: by how many of it, then by rank.
    grouped = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    if len(cards) == 5 and len(counts) == 5:
        straight_high = _straight_high(ranks)
        flush = len({suit(card) for card in cards}) == 1
        if straight_high and flush:
            return STRAIGHT_FLUSH, (straight_high,)
        if flush:
            return FLUSH, tuple(ranks)
        if straight_high:
            return STRAIGHT, (straight_high,)
        return HIGH_CARD, tuple(ranks)
    if shape[0] == 4:
        return FOUR, grouped
    if shape[:2] == [3, 2]:
        return FULL_HOUSE, grouped
    if shape[0] == 3:
        return THREE, grouped
    if shape[:2] == [2, 2]:
        return TWO_PAIR, grouped
    if shape[0] == 2:
        return PAIR, grouped
    return HIGH_CARD, grouped


def _straight_high(ranks: list[int]) -> int:
    """The straight's high card of five different ranks (descending), 0 for none."""
    if tuple(ranks) == WHEEL:
        return 5
    return ranks[0] if ranks[0] - ranks[4] == 4 else 0


def category(cards: Sequence[str]) -> int:
    return strength(cards)[0]


def highest_club(cards: Iterable[str]) -> int:
    """The rank of the hand's highest club (the ace highest), 0 without clubs."""
    return max((rank(card) for card in cards if is_club(card)), default=0)


def hand_key(cards: Sequence[str]) -> tuple[Strength, int]:
    """What ranks hands: poker strength, then (among hands still tied) the highest club."""
    return strength(cards), highest_club(cards)


def suit_order_key(cards: Iterable[str]) -> tuple[tuple[int, int], ...]:
    """Cards highest first by rank, then by suit order clubs, spades, hearts, diamonds."""
    return tuple(sorted(((rank(card), SUIT_STRENGTH[suit(card)]) for card in cards), reverse=True))


def best_hand(cards: Sequence[str]) -> list[str]:
    """The service-built hand from `cards`: the one that ranks highest; among equals the one with
    more clubs; then the one whose cards are highest in suit order. Listed highest card first."""
    candidates = (list(hand) for size in range(1, 6) for hand in combinations(cards, size))
    best = max(
        candidates,
        key=lambda hand: (hand_key(hand), sum(map(is_club, hand)), suit_order_key(hand)),
    )
    return sorted(best, key=lambda card: (rank(card), SUIT_STRENGTH[suit(card)]), reverse=True)
