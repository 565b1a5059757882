"""Abstrac's 24 cards and the combinations they score.

A card is a two-character code: its number 1-6, then its colour letter, e.g. "2G" (green 2).
Colours, in the row text's order: R red, Y yellow, G green, B blue. The deal text names four
suits A-D instead; they are the same four colours under other names, mapped in the text's order:
A = R, B = Y, C = G, D = B. Both rule sets use the colour codes internally and in every view;
a host may write deal lines in the suit form ("A1", "D6") and they are read as "1R", "6B".

Combinations (both texts): a *set* is every card of one number the hand holds, when there are at
least three (3 -> 2 points, 4 -> 8); a *run* is a maximal stretch of one colour with consecutive
numbers, at least three long (3 -> 3, 4 -> 4, 5 -> 6, 6 -> 12). Numbers do not wrap: 6 and 1 are
not consecutive. Only maximal combinations count, so a hand has at most one set per number and
runs of one colour never overlap; a card can be in one set and one run at the same time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator

NUMBERS = (1, 2, 3, 4, 5, 6)
COLOURS = ("R", "Y", "G", "B")
COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
SUIT_TO_COLOUR = {"A": "R", "B": "Y", "C": "G", "D": "B"}
"""The deal text's suits A-D as this module's colours."""

DECK: tuple[str, ...] = tuple(f"{n}{c}" for n in NUMBERS for c in COLOURS)
"""All 24 cards, smallest first: by number, then colour in the order R, Y, G, B."""

SET_POINTS = {3: 2, 4: 8}
RUN_POINTS = {3: 3, 4: 4, 5: 6, 6: 12}
_COUNT_WORDS = {3: "Three", 4: "Four", 5: "Five", 6: "Six"}

_CARD = re.compile(r"^[1-6][RYGB]$")
_SUIT_CARD = re.compile(r"^[A-D][1-6]$")


def number(card: str) -> int:
    return int(card[0])


def colour(card: str) -> str:
    return card[1]


def sort_key(card: str) -> tuple[int, int]:
    """Smallest first: by number, then colour (R, Y, G, B)."""
    return number(card), COLOURS.index(colour(card))


def sorted_cards(cards: list[str] | tuple[str, ...]) -> list[str]:
    return sorted(cards, key=sort_key)


def _upper(value: Any) -> Any:
    return value.strip().upper() if isinstance(value, str) else value


def _must_be_card(value: str) -> str:
    if not _CARD.match(value):
        raise ValueError(f"{value!r} is not a card: write its number 1-6, then its colour R, Y, G or B (2G)")
    return value


def _from_suit_form(value: Any) -> Any:
    value = _upper(value)
    if isinstance(value, str) and _SUIT_CARD.match(value):
        return f"{value[1]}{SUIT_TO_COLOUR[value[0]]}"
    return value


Card = Annotated[str, BeforeValidator(_upper), AfterValidator(_must_be_card)]
"""A card code in a submission: "2G" (case is ignored)."""

LineCard = Annotated[str, BeforeValidator(_from_suit_form), AfterValidator(_must_be_card)]
"""A card in a host's deal line: "2G", or the deal text's suit form "C2"."""


@dataclass(frozen=True)
class Combination:
    kind: str
    """"set" or "run"."""
    cards: tuple[str, ...]
    points: int
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "cards": list(self.cards), "points": self.points}


def combinations(cards: list[str] | tuple[str, ...]) -> list[Combination]:
    """Every maximal combination in a hand: sets by number, then runs by colour."""
    hand = sorted_cards(list(dict.fromkeys(cards)))
    found: list[Combination] = []
    for n in NUMBERS:
        members = tuple(card for card in hand if number(card) == n)
        if len(members) >= 3:
            name = f"{_COUNT_WORDS[len(members)]}-of-a-kind of {n}"
            found.append(Combination("set", members, SET_POINTS[len(members)], name))
    for c in COLOURS:
        present = [n for n in NUMBERS if f"{n}{c}" in hand]
        stretch: list[int] = []
        for following in [*present, None]:
            if following is not None and stretch and following == stretch[-1] + 1:
                stretch.append(following)
                continue
            if len(stretch) >= 3:
                members = tuple(f"{m}{c}" for m in stretch)
                name = f"{_COUNT_WORDS[len(stretch)]}-in-a-row of {COLOUR_NAMES[c]}"
                found.append(Combination("run", members, RUN_POINTS[len(stretch)], name))
            stretch = [following] if following is not None else []
    return found


def points(cards: list[str] | tuple[str, ...]) -> int:
    return sum(combo.points for combo in combinations(cards))


def ratio(cards: list[str] | tuple[str, ...]) -> Fraction:
    """The row game's score: points / cards taken (0 with no cards)."""
    return Fraction(points(cards), len(cards)) if cards else Fraction(0)


def fraction_text(value: Fraction) -> str:
    """Exact, reduced: "11/7", or "2" when whole."""
    return str(value)


def decimal_text(value: Fraction, places: int = 4) -> str:
    """For reading only (never compared): rounded half up, e.g. 22/14 -> "1.5714"."""
    scale = 10**places
    scaled = (value * scale * 2 + 1) // 2
    whole, part = divmod(scaled, scale)
    return f"{whole}.{part:0{places}d}"


def hand_json(cards: list[str]) -> dict[str, Any]:
    """A player's cards with their combinations and points, as views and results show them."""
    return {
        "cards": list(cards),
        "card_count": len(cards),
        "combinations": [combo.to_json() for combo in combinations(cards)],
        "points": points(cards),
    }


def remain(count: int, noun: str) -> str:
    """ "2 cards remain", "1 card remains" (a check's wording, in both rule sets)."""
    return f"{count} {noun} remains" if count == 1 else f"{count} {noun}s remain"
