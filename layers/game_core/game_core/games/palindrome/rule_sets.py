"""The two rule sets of Palindrome Construction as data: cards, digits, items and what a round holds."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

ItemName = Literal["Duplicate", "Shift", "Insert", "Eraser", "Swap", "Mirror", "Keep", "Clone"]
CATALOGUE: tuple[ItemName, ...] = (
    "Duplicate",
    "Shift",
    "Insert",
    "Eraser",
    "Swap",
    "Mirror",
    "Keep",
    "Clone",
)
"""Every item, in the order the rulings list them (the order the draw pool starts in)."""

DIGITS = "0123456789"
CARDS = tuple(range(10))
STRINGS = 3
"""Every player builds three digit strings."""


@dataclass(frozen=True)
class RuleSet:
    key: str
    title: str
    rounds: int
    packs_per_round: int
    pack_size: int
    digit_minimum: int
    """Every digit 0-9 appears at least this many times among a round's packs."""
    items_per_round: int
    garnet_value: int
    """What one garnet adds to an item bid; 0 means garnets cannot be bid."""
    pregame: bool


RULE_SETS: dict[str, RuleSet] = {
    "mm8": RuleSet(
        key="mm8",
        title="Main Match 8",
        rounds=7,
        packs_per_round=10,
        pack_size=3,
        digit_minimum=2,
        items_per_round=1,
        garnet_value=5,
        pregame=True,
    ),
    "mm5": RuleSet(
        key="mm5",
        title="Main Match 5",
        rounds=5,
        packs_per_round=10,
        pack_size=5,
        digit_minimum=3,
        items_per_round=2,
        garnet_value=0,
        pregame=False,
    ),
}


def pack_problems(rules: RuleSet, packs: list[str]) -> list[str]:
    """Every way a round's packs break the rule set (empty when they are a legal round)."""
    problems = []
    if len(packs) != rules.packs_per_round:
        problems.append(f"a round has {rules.packs_per_round} packs, not {len(packs)}")
    for number, pack in enumerate(packs, start=1):
        if len(pack) != rules.pack_size or not all(ch in DIGITS for ch in pack):
            problems.append(f"pack {number} ({pack!r}) is not {rules.pack_size} digits")
    counts = Counter("".join(packs))
    short = [d for d in DIGITS if counts[d] < rules.digit_minimum]
    if len(short) == 1:
        problems.append(f"digit {short[0]} appears fewer than {rules.digit_minimum} times among the packs")
    elif short:
        problems.append(f"digits {', '.join(short)} appear fewer than {rules.digit_minimum} times among the packs")
    return problems
