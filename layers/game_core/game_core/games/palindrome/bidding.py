"""Bids on a round's packs and items: the submission, its legality and its resolution."""

from __future__ import annotations

from collections import Counter

from pydantic import Field, model_validator

from game_core.games.palindrome.settings import CARDS, RuleSet
from game_core.games.protocol import Model


class CardBid(Model):
    """One card placed on one pack or on one item (numbers count from 1)."""

    card: int
    pack: int | None = None
    item: int | None = None

    @model_validator(mode="after")
    def _one_target(self) -> CardBid:
        if (self.pack is None) == (self.item is None):
            raise ValueError("a card goes on exactly one of a pack or an item")
        return self


class Bid(Model):
    """A bidding submission: where each card goes (unlisted cards stay unused) and, where the rule
    set allows it, garnets added to an item's sum."""

    cards: list[CardBid] = []
    garnets: int = Field(default=0, ge=0)
    garnet_item: int = 1
    """The item the garnets go on."""


def check_bid(rules: RuleSet, bid: Bid, garnets: int) -> list[str]:
    """Every reason the bid is illegal for a round of `rules`, given the bidder's garnet balance."""
    reasons = []
    seen = Counter(cb.card for cb in bid.cards)
    for card in sorted(seen):
        if card not in CARDS:
            reasons.append(f"there is no card {card} (cards are 0 to 9)")
        elif seen[card] > 1:
            reasons.append(f"card {card} is used {seen[card]} times; each card is used at most once")
    on_pack: dict[int, list[int]] = {}
    for cb in bid.cards:
        if cb.pack is not None:
            on_pack.setdefault(cb.pack, []).append(cb.card)
    for pack in sorted(on_pack):
        if not 1 <= pack <= rules.packs_per_round:
            reasons.append(f"there is no pack {pack} (packs are 1 to {rules.packs_per_round})")
        elif len(on_pack[pack]) > 1:
            cards = ", ".join(str(c) for c in on_pack[pack])
            reasons.append(f"pack {pack} has {len(on_pack[pack])} of your cards ({cards}); at most one")
    unknown_items = sorted(
        {cb.item for cb in bid.cards if cb.item is not None and not 1 <= cb.item <= rules.items_per_round}
    )
    for item in unknown_items:
        reasons.append(f"there is no item {item} this round (items are 1 to {rules.items_per_round})")
    if bid.garnets:
        if rules.garnet_value == 0:
            reasons.append(f"garnets cannot be bid on items in {rules.title}")
        else:
            if bid.garnets > garnets:
                reasons.append(f"you bid {bid.garnets} garnets but hold {garnets}")
            if not 1 <= bid.garnet_item <= rules.items_per_round:
                reasons.append(
                    f"the garnets go on item {bid.garnet_item}, which does not exist this round "
                    f"(items are 1 to {rules.items_per_round})"
                )
    return reasons


def highest_unique(values: dict[str, int]) -> str | None:
    """The player whose value is the highest one that no other player has; None when none is."""
    counts = Counter(values.values())
    unique = [v for v in counts if counts[v] == 1]
    if not unique:
        return None
    best = max(unique)
    return next(player for player, value in values.items() if value == best)


def resolve_packs(rules: RuleSet, bids: dict[str, Bid]) -> list[str | None]:
    """Who receives each pack: the highest card on it that no other player also played there."""
    winners: list[str | None] = []
    for pack in range(1, rules.packs_per_round + 1):
        cards = {player: cb.card for player, bid in bids.items() for cb in bid.cards if cb.pack == pack}
        winners.append(highest_unique(cards))
    return winners


def item_sums(rules: RuleSet, bids: dict[str, Bid], item: int) -> dict[str, int]:
    """Each bidder's sum on an item: its cards plus garnet value x garnets. A player with no card
    and no garnet on the item is not a bidder."""
    sums: dict[str, int] = {}
    for player, bid in bids.items():
        cards = [cb.card for cb in bid.cards if cb.item == item]
        garnets = bid.garnets if bid.garnet_item == item else 0
        if cards or garnets:
            sums[player] = sum(cards) + rules.garnet_value * garnets
    return sums


def resolve_items(rules: RuleSet, bids: dict[str, Bid]) -> list[str | None]:
    """Who receives each item: the highest sum that no other bidder has."""
    return [highest_unique(item_sums(rules, bids, item)) for item in range(1, rules.items_per_round + 1)]
