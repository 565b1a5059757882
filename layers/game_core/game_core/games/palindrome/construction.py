"""A construction submission: an ordered list of steps (appends and item uses) applied in order."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from game_core.errors import Reason
from game_core.games.palindrome.items import (
    ItemStep,
    UseClone,
    UseDuplicate,
    UseEraser,
    UseInsert,
    UseKeep,
    UseMirror,
    UseShift,
    UseSwap,
)
from game_core.games.palindrome.workbench import Bench
from game_core.games.protocol import Model


class Append(Model):
    """Place some of this round's unplaced digits, in the order given, at the end of a string; with
    `position` (only on a string an Insert was used on earlier in the list) starting at that
    position instead (1 = before the first digit, length + 1 = the end)."""

    action: Literal["append"]
    string: int
    digits: Annotated[str, StringConstraints(pattern=r"^[0-9]+$")]
    position: int | None = None

    def reasons(self, bench: Bench) -> list[Reason]:
        reasons = bench.string_reasons(self.string)
        missing = bench.missing_digits(self.digits)
        if missing:
            left = "".join(sorted(bench.pool)) or "none"
            reasons.append(Reason("digits_missing", f"{missing} not among this round's unplaced digits (left: {left})"))
        if self.position is not None and not reasons:
            if self.string not in bench.insert_into:
                text = f"string {self.string} takes digits only at its end (no Insert was used on it before)"
                reasons.append(Reason("insert_needed", text))
            else:
                reasons += bench.position_reasons(self.string, self.position, gap=True)
        return reasons

    def apply(self, bench: Bench) -> None:
        bench.take(self.digits)
        s = bench.strings[self.string - 1]
        at = len(s) if self.position is None else self.position - 1
        bench.strings[self.string - 1] = s[:at] + self.digits + s[at:]


Step = Annotated[
    Append | UseDuplicate | UseShift | UseInsert | UseEraser | UseSwap | UseMirror | UseKeep | UseClone,
    Field(discriminator="action"),
]


class Construction(Model):
    """A construction submission. Digits not placed by it are lost (unless Keep is used)."""

    steps: list[Step] = []


def run(bench: Bench, steps: list[Step]) -> list[Reason]:
    """Apply the steps in order; every reason a step is illegal, naming the step. An illegal step is
    skipped so that the steps after it are judged too."""
    reasons = []
    for number, step in enumerate(steps, start=1):
        problems: list[Reason] = []
        if isinstance(step, ItemStep):
            problems += bench.item_reasons(step.item)
        problems += step.reasons(bench)
        if problems:
            reasons += [Reason(p.code, f"step {number} ({step.action}): {p.text}") for p in problems]
            continue
        if isinstance(step, ItemStep):
            bench.use(step.item)
        step.apply(bench)
    return reasons
