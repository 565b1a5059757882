"""Settings, state and submissions of Palindrome Construction.

A construction submission's steps (`Construction`) are defined with the rules they follow, in
`construction.py` and `items.py`; they are named here with the other submissions.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator
from pydantic.json_schema import JsonDict

from game_core.games.palindrome.construction import Construction
from game_core.games.palindrome.rule_sets import CATALOGUE, RULE_SETS, STRINGS, ItemName, RuleSet, pack_problems
from game_core.games.palindrome.scoring import StringScore
from game_core.games.protocol import GameSettings, Model

BID = "bid"
CONSTRUCTION = "construction"


class PalindromeSettings(GameSettings):
    """`rule_set` picks Main Match 8 or 5. `packs` and `items` fix some rounds (by round number);
    rounds not named are drawn with the match's randomness."""

    rule_set: Literal["mm8", "mm5"] = Field(
        default="mm8",
        description="mm8: Main Match 8 (7 rounds, packs of 3 digits, one item a round, a pregame); "
        "mm5: Main Match 5 (5 rounds, packs of 5 digits, two items a round).",
    )
    packs: dict[int, list[str]] = Field(
        default={}, description="Packs fixed by the host for some rounds: round number to its packs (none: drawn)."
    )
    items: dict[int, list[ItemName]] = Field(
        default={}, description="Items fixed by the host for some rounds: round number to its items (none: drawn)."
    )

    @property
    def rules(self) -> RuleSet:
        return RULE_SETS[self.rule_set]

    @model_validator(mode="after")
    def _overrides_fit_the_rule_set(self) -> PalindromeSettings:
        rules = self.rules
        problems = []
        for round_no in sorted(self.packs):
            if not 1 <= round_no <= rules.rounds:
                problems.append(f"packs: there is no round {round_no} (1 to {rules.rounds})")
                continue
            problems += [f"packs of round {round_no}: {p}" for p in pack_problems(rules, self.packs[round_no])]
        for round_no in sorted(self.items):
            items = self.items[round_no]
            if not 1 <= round_no <= rules.rounds:
                problems.append(f"items: there is no round {round_no} (1 to {rules.rounds})")
                continue
            if len(items) != rules.items_per_round:
                problems.append(f"items of round {round_no}: a round offers {rules.items_per_round}, not {len(items)}")
            if len(set(items)) != len(items):
                problems.append(f"items of round {round_no}: the items of one round must differ")
        if problems:
            raise ValueError("; ".join(problems))
        return self


NO_FORM: JsonDict = {"x-no-form": True}
"""A field the page's form leaves out: the rules never let it differ from its default."""


def _bounds(least: int, most: int) -> JsonDict:
    """The values a number takes, in the schema (the page's input says them before a first try);
    the rules' own check still refuses any other, in its words (`bidding.check_bid`)."""
    return {"minimum": least, "maximum": most}


class CardBid(Model):
    """One card placed on one pack or on one item (numbers count from 1)."""

    card: int = Field(description="A card of yours, 0 to 9, each used once a round.", json_schema_extra=_bounds(0, 9))
    pack: int | None = Field(
        default=None,
        description="The pack it goes on, 1 to 10, one card a pack (empty: it goes on an item).",
        json_schema_extra=_bounds(1, 10),
    )
    item: int | None = Field(
        default=None,
        description="The item it goes on: 1 (Main Match 8 offers one), 1 or 2 in Main Match 5 (empty: on a pack).",
        json_schema_extra=_bounds(1, 2),
    )

    @model_validator(mode="after")
    def _one_target(self) -> CardBid:
        if (self.pack is None) == (self.item is None):
            raise ValueError("a card goes on exactly one of a pack or an item")
        return self


class Bid(Model):
    """A bidding submission: where each card goes (unlisted cards stay unused) and, where the rule
    set allows it, garnets added to an item's sum."""

    cards: list[CardBid] = []
    garnets: int = Field(
        default=0,
        ge=0,
        description="Garnets added to the item's sum, each +5, at most your balance "
        "(Main Match 8 only: 0 in Main Match 5).",
    )
    garnet_item: int = Field(default=1, json_schema_extra=NO_FORM)
    """The item the garnets go on: always 1 today (Main Match 8 offers one item; Main Match 5 takes
    no garnets), so the page does not ask."""


class RoundState(Model):
    round: int
    packs: list[str]
    items: list[ItemName]
    pack_winners: list[str | None] | None = None
    """Who received each pack; None until the round's bidding resolves."""
    item_winners: list[str | None] | None = None


class OwnedItem(Model):
    name: ItemName
    round: int
    """The round it was won in."""
    used_in_round: int | None = None
    """The round whose construction used it."""


class RoundBid(Model):
    round: int
    bid: Bid | None
    """None: nothing was submitted (no cards on anything)."""


class RoundConstruction(Model):
    round: int
    construction: Construction | None
    """None: nothing was submitted (every digit lost)."""
    digits: str
    """The round's digits it worked with."""
    discarded: str
    kept: str


class Seat(Model):
    strings: list[str] = [""] * STRINGS
    digits: str = ""
    """The digits of the round awaiting construction (won in it, plus any kept)."""
    items: list[OwnedItem] = []
    bids: list[RoundBid] = []
    constructions: list[RoundConstruction] = []
    garnets_spent: int = 0


class PalindromeState(Model):
    settings: PalindromeSettings
    players: list[str]
    phase: int = 0
    """Index into the schedule; equal to its length when the match is over."""
    rounds: list[RoundState] = []
    item_pool: list[ItemName] = list(CATALOGUE)
    """Items not yet offered in the current pass over the catalogue."""
    seats: dict[str, Seat]
    final: dict[str, list[StringScore]] | None = None


SUBMISSIONS: dict[str, type[Model]] = {BID: Bid, CONSTRUCTION: Construction}
