"""Phase B: the hands ranked and scored, and the guesses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from game_core.games.clubs.cards import category, hand_key, is_club
from game_core.games.clubs.models import GuessOutcome, Placing

PLACE_POINTS = (15, 10, 6, 3, 1, 0)
RIGHT_CARD, WRONG_CARD, RIGHT_TYPE, EVERY_TYPE_BONUS = 1, 1, 2, 10


def ranking(hands: Mapping[str, Sequence[str]]) -> list[Placing]:
    """The hands best first, in blocks of equal rank. Hands tie only without clubs (two hands
    never share a club): a block shares the lowest place it spans."""
    order = sorted(hands, key=lambda p: (hand_key(hands[p]), p), reverse=True)
    placings: list[Placing] = []
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and hand_key(hands[order[end + 1]]) == hand_key(hands[order[start]]):
            end += 1
        placings.append(Placing(place=end + 1, participants=sorted(order[start : end + 1])))
        start = end + 1
    return placings


def hand_points(hands: Mapping[str, Sequence[str]], placings: list[Placing]) -> dict[str, int]:
    """Each place's points (15, 10, 6, 3, 1, 0; 0 beyond), plus 1 per club in the hand."""
    points = {}
    for placing in placings:
        base = PLACE_POINTS[placing.place - 1] if placing.place <= len(PLACE_POINTS) else 0
        for participant in placing.participants:
            points[participant] = base + sum(map(is_club, hands[participant]))
    return points


def guess_points(guess: Sequence[str], hand: Sequence[str]) -> tuple[int, bool]:
    """What a guess takes from the hand's builder (negative: gives): +1 per card in the hand, -1
    per card not in it, +2 when the guessed cards' own hand type is the hand's type."""
    right = sum(card in hand for card in guess)
    same_type = category(guess) == category(hand)
    return RIGHT_CARD * right - WRONG_CARD * (len(guess) - right) + (RIGHT_TYPE if same_type else 0), same_type


def guessing(
    guesses: Mapping[str, Mapping[str, Sequence[str]]], hands: Mapping[str, Sequence[str]]
) -> tuple[dict[str, GuessOutcome], dict[str, int]]:
    """Each guesser's outcome, and each participant's net change from every guess (the +10 of a
    guesser who named every other hand's type is new, taken from nobody)."""
    outcomes = {}
    change = dict.fromkeys(hands, 0)
    for guesser, named in guesses.items():
        against, right_types = {}, 0
        for target, cards in named.items():
            taken, same_type = guess_points(cards, hands[target])
            against[target] = taken
            right_types += same_type
            change[target] -= taken
        bonus = right_types == len(hands) - 1
        total = sum(against.values()) + (EVERY_TYPE_BONUS if bonus else 0)
        change[guesser] += total
        outcomes[guesser] = GuessOutcome(total=total, bonus=bonus, against=against)
    return outcomes, change
