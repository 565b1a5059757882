"""The position a construction submission is applied to, step by step."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from game_core.errors import Reason
from game_core.games.palindrome.rule_sets import STRINGS


@dataclass
class Bench:
    """A player's strings, this round's digits not yet placed, and the items still usable.

    String numbers and positions count from 1, as players see them.
    """

    strings: list[str]
    pool: list[str]
    """This round's digits not yet placed (a multiset; order is kept only for display)."""
    items: Counter[str]
    """Unused copies of each item the player may use in this phase."""
    insert_into: list[int] = field(default_factory=list)
    """Strings that may take this round's digits at any position (Insert used on them)."""
    keep: bool = False
    used: list[str] = field(default_factory=list)
    """Items used, in order."""

    @classmethod
    def start(cls, strings: list[str], digits: str, items: Iterable[str]) -> Bench:
        return cls(strings=list(strings), pool=list(digits), items=Counter(items))

    def string_reasons(self, number: int, what: str = "string") -> list[Reason]:
        if 1 <= number <= STRINGS:
            return []
        return [Reason("string_unknown", f"there is no {what} {number} (strings are 1 to {STRINGS})")]

    def position_reasons(self, number: int, position: int, *, gap: bool = False) -> list[Reason]:
        """A digit position of string `number` (with `gap`, a place between digits: 1 to len+1)."""
        if not 1 <= number <= STRINGS:
            return []
        length = len(self.strings[number - 1])
        last = length + 1 if gap else length
        if 1 <= position <= last:
            return []
        if last == 0:
            return [Reason("position_unknown", f"string {number} is empty, it has no position {position}")]
        return [Reason("position_unknown", f"string {number} has no position {position} (1 to {last})")]

    def missing_digits(self, digits: str) -> str:
        """The digits of `digits` that the unplaced pool cannot supply (empty when all are there)."""
        short = Counter(digits) - Counter(self.pool)
        return "".join(sorted(short.elements()))

    def take(self, digits: str) -> None:
        for digit in digits:
            self.pool.remove(digit)

    def item_reasons(self, item: str) -> list[Reason]:
        if self.items[item] > 0:
            return []
        return [Reason("item_not_held", f"you hold no unused {item}")]

    def use(self, item: str) -> None:
        self.items[item] -= 1
        self.used.append(item)
