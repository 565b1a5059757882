"""Poker hands of 1 to 5 cards: every 5-card hand counted by category against the known totals,
and comparisons worked by hand from the rule text and the rulings."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from math import comb, prod

import pytest

from game_core.games.clubs.cards import CATEGORY_NAMES, DECK, RANKS, SUITS, best_hand, category, hand_key
from game_core.games.clubs.showdown import hand_points, ranking

TOTALS = {
    "straight flush": 40,
    "four of a kind": 624,
    "full house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three of a kind": 54_912,
    "two pair": 123_552,
    "pair": 1_098_240,
    "high card": 1_302_540,
}


def _suited(ranks: tuple[str, ...], cycle: str) -> list[str] | None:
    """The hand of these ranks whose suits run through `cycle` in turn (a rank's copies take the
    next suits), None when a rank has more copies than the cycle has suits."""
    if max(Counter(ranks).values()) > len(cycle):
        return None
    return [rank + suit for rank, suit in zip(ranks, (cycle * 2)[: len(ranks)], strict=True)]


def test_every_five_card_hand_falls_in_its_category_as_often_as_an_independent_count_says():
    # A category reads the ranks and whether the five cards share one suit, and nothing else of
    # the suits: so each rank multiset the deck deals is classified as a flush of each suit (five
    # different ranks) and as two hands not of one suit, one with clubs and one without (each
    # where the ranks allow), these agreeing, and counted as often as the deck deals it: C(n of
    # the rank in the deck, copies) for each rank, 4 of those flushes when the ranks differ. Every
    # hand is counted; some 17,500 are classified rather than all 2,598,960 (15 s of CPU).
    in_deck = Counter(card[0] for card in DECK)
    counts: Counter[int] = Counter()
    for ranks in combinations_with_replacement(RANKS, 5):
        copies = Counter(ranks)
        dealt = prod(comb(in_deck[rank], n) for rank, n in copies.items())
        if not dealt:
            continue
        if len(copies) == 5:
            flushes = {category([rank + suit for rank in ranks]) for suit in SUITS}
            assert len(flushes) == 1, ranks
            counts[flushes.pop()] += len(SUITS)
            dealt -= len(SUITS)
        others = {category(hand) for hand in (_suited(ranks, "CSHD"), _suited(ranks, "SHD")) if hand}
        assert len(others) == 1, ranks
        counts[others.pop()] += dealt
    assert sum(counts.values()) == 2_598_960
    assert {CATEGORY_NAMES[c]: n for c, n in counts.items()} == TOTALS


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("AS AH KD", "AC AD"),
        ("2S 2H", "AS KH QD JC 9S"),
        ("AS 2H 3D 4C 5S", "AS KH QD JC 9S"),
        ("2S 3H 4D 5C 6S", "AS 2H 3D 4C 5S"),
        ("AS", "KS QS"),
        ("KS QS", "KH"),
        ("9S 9H 9D", "AS AH KD KC"),
        ("2S 2H 2D 2C", "AS AH AD KS KH"),
        ("AS AH KD KC 2S", "AS AH KD KC"),
        ("TH JH QH KH AH", "5C 6C 7C 8C 9C"),
        ("2S 4S 6S 8S TS", "AS KH QD JC 9S"),
        ("KC 7D", "KH 7S"),  # equal ranks: the hand with a club beats the one without
        ("AC 5D 4S 3H 2S", "5C 4D 3D 2H AS"),  # the ace is the highest club, also in A-2-3-4-5
        ("QC JC", "QS JD"),
    ],
)
def test_the_stronger_hand_ranks_higher(stronger, weaker):
    assert hand_key(stronger.split()) > hand_key(weaker.split())


def test_equal_hands_without_clubs_tie():
    assert hand_key("KH 7S".split()) == hand_key("KD 7H".split())


def test_six_different_hands_score_15_10_6_3_1_0_plus_a_point_per_club():
    hands = {"a": "AS AH", "b": "KS KH", "c": "QS QH", "d": "JS JH", "e": "TS TH", "f": "9S 9C"}
    split = {p: h.split() for p, h in hands.items()}
    placings = ranking(split)
    assert [(p.place, p.participants) for p in placings] == [(n, [p]) for n, p in enumerate("abcdef", 1)]
    assert hand_points(split, placings) == {"a": 15, "b": 10, "c": 6, "d": 3, "e": 1, "f": 1}


def test_tied_hands_without_clubs_share_the_lowest_place_of_their_block():
    hands = {"a": ["AS", "AH"], "b": ["KS", "KH", "2D"], "c": ["KD", "KH", "2S"], "d": ["KC", "KS", "2H"], "e": ["3D"]}
    placings = ranking(hands)
    # d's king of clubs beats the tied b and c, who share places 3-4: both 4th, 3 points.
    assert [(p.place, p.participants) for p in placings] == [(1, ["a"]), (2, ["d"]), (4, ["b", "c"]), (5, ["e"])]
    assert hand_points(hands, placings) == {"a": 15, "d": 11, "b": 3, "c": 3, "e": 1}


@pytest.mark.parametrize(
    ("cards", "hand"),
    [
        # The best: a full house from eight cards.
        ("KH 2D KD KS 2S 7H 9C 4D", ["KS", "KH", "KD", "2S", "2D"]),
        # Two pair beats a pair with better kickers.
        ("7H 7D AS KS QD QC", ["AS", "QC", "QD", "7H", "7D"]),
        # Four kings and a nine: equal hands, equal highest club (KC); the one with more clubs.
        ("KS KH KD KC 9D 9C", ["KC", "KS", "KH", "KD", "9C"]),
        # A pair of eights: with the three highest others.
        ("AH 8D 8C 5S 3H 2D", ["AH", "8C", "8D", "5S", "3H"]),
        # Four kings and a nine, no club among the nines: spades before hearts.
        ("KS KH KD KC 9H 9S", ["KC", "KS", "KH", "KD", "9S"]),
        # Two cards: the pair.
        ("4H 4D", ["4H", "4D"]),
        # Equal ranks and clubs: the higher suit in the order clubs, spades, hearts, diamonds.
        ("AH AD 9S 9H 5H 5D 3D", ["AH", "AD", "9S", "9H", "5H"]),
    ],
)
def test_the_service_builds_the_highest_hand(cards, hand):
    assert best_hand(cards.split()) == hand
