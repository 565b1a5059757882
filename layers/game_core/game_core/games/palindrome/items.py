"""The item catalogue as construction steps: what each use names, when it is legal, what it does.

"This round's digits" are the digits received in the round being constructed (plus any kept).
Using an item to no effect is legal and uses it.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import StringConstraints

from game_core.errors import Reason
from game_core.games.palindrome.rule_sets import ItemName
from game_core.games.palindrome.workbench import Bench
from game_core.games.protocol import Model

Digit = Annotated[str, StringConstraints(pattern=r"^[0-9]$")]


class ItemStep(Model):
    item: ClassVar[ItemName]

    def reasons(self, bench: Bench) -> list[Reason]:
        """Why this use is illegal now, apart from holding the item."""
        return []

    def apply(self, bench: Bench) -> None:
        raise NotImplementedError


class UseDuplicate(ItemStep):
    """Add a copy of one of this round's digits not yet placed."""

    item: ClassVar[ItemName] = "Duplicate"
    action: Literal["duplicate"]
    digit: Digit

    def reasons(self, bench: Bench) -> list[Reason]:
        if self.digit in bench.pool:
            return []
        text = f"there is no unplaced {self.digit} among this round's digits to duplicate"
        return [Reason("digit_not_unplaced", text)]

    def apply(self, bench: Bench) -> None:
        bench.pool.append(self.digit)


class UseShift(ItemStep):
    """Change one of this round's digits not yet placed into a different digit."""

    item: ClassVar[ItemName] = "Shift"
    action: Literal["shift"]
    digit: Digit
    to: Digit

    def reasons(self, bench: Bench) -> list[Reason]:
        reasons: list[Reason] = []
        if self.digit not in bench.pool:
            text = f"there is no unplaced {self.digit} among this round's digits to shift"
            reasons.append(Reason("digit_not_unplaced", text))
        if self.to == self.digit:
            text = f"Shift changes a digit into a different one, not {self.digit} into {self.to}"
            reasons.append(Reason("shift_to_same_digit", text))
        return reasons

    def apply(self, bench: Bench) -> None:
        bench.pool[bench.pool.index(self.digit)] = self.to


class UseInsert(ItemStep):
    """For the steps after it, the string may take this round's digits at any position."""

    item: ClassVar[ItemName] = "Insert"
    action: Literal["insert"]
    string: int

    def reasons(self, bench: Bench) -> list[Reason]:
        return bench.string_reasons(self.string)

    def apply(self, bench: Bench) -> None:
        if self.string not in bench.insert_into:
            bench.insert_into.append(self.string)


class UseEraser(ItemStep):
    """Remove the digit at one position of one of your strings."""

    item: ClassVar[ItemName] = "Eraser"
    action: Literal["eraser"]
    string: int
    position: int

    def reasons(self, bench: Bench) -> list[Reason]:
        return bench.string_reasons(self.string) + bench.position_reasons(self.string, self.position)

    def apply(self, bench: Bench) -> None:
        s = bench.strings[self.string - 1]
        bench.strings[self.string - 1] = s[: self.position - 1] + s[self.position :]


class UseSwap(ItemStep):
    """Exchange the digits at two different positions of one of your strings."""

    item: ClassVar[ItemName] = "Swap"
    action: Literal["swap"]
    string: int
    first: int
    second: int

    def reasons(self, bench: Bench) -> list[Reason]:
        reasons = bench.string_reasons(self.string)
        reasons += bench.position_reasons(self.string, self.first)
        if self.second != self.first:
            reasons += bench.position_reasons(self.string, self.second)
        else:
            reasons.append(Reason("swap_same_position", f"Swap needs two different positions, not {self.first} twice"))
        return reasons

    def apply(self, bench: Bench) -> None:
        chars = list(bench.strings[self.string - 1])
        a, b = self.first - 1, self.second - 1
        chars[a], chars[b] = chars[b], chars[a]
        bench.strings[self.string - 1] = "".join(chars)


class UseMirror(ItemStep):
    """Append to a string the reverse of that same string (123 -> 123321)."""

    item: ClassVar[ItemName] = "Mirror"
    action: Literal["mirror"]
    string: int

    def reasons(self, bench: Bench) -> list[Reason]:
        return bench.string_reasons(self.string)

    def apply(self, bench: Bench) -> None:
        s = bench.strings[self.string - 1]
        bench.strings[self.string - 1] = s + s[::-1]


class UseKeep(ItemStep):
    """The digits still unplaced at the end of the phase join the next round's digits."""

    item: ClassVar[ItemName] = "Keep"
    action: Literal["keep"]

    def apply(self, bench: Bench) -> None:
        bench.keep = True


class UseClone(ItemStep):
    """Append to one string a copy of another of your strings as it is at that step."""

    item: ClassVar[ItemName] = "Clone"
    action: Literal["clone"]
    string: int
    source: int

    def reasons(self, bench: Bench) -> list[Reason]:
        reasons = bench.string_reasons(self.string) + bench.string_reasons(self.source, "source string")
        if self.string == self.source:
            text = f"Clone copies another string onto string {self.string}, not the string itself"
            reasons.append(Reason("clone_onto_itself", text))
        return reasons

    def apply(self, bench: Bench) -> None:
        bench.strings[self.string - 1] += bench.strings[self.source - 1]
