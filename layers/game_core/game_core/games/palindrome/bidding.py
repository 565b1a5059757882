"""Bids on a round's packs and items: their legality and their resolution."""

from __future__ import annotations

from collections import Counter

from game_core.errors import Reason
from game_core.games.palindrome.models import Bid
from game_core.games.palindrome.rule_sets import CARDS, RuleSet
from game_core.games.standings import sole_highest


def check_bid(rules: RuleSet, bid: Bid) -> list[Reason]:
    """Every reason the bid is illegal for a round of `rules` (the garnet balance is the match
    layer's to check, against `Bid.garnets`)."""
    reasons = []
    seen = Counter(cb.card for cb in bid.cards)
    for card in sorted(seen):
        if card not in CARDS:
            reasons.append(Reason("card_unknown", f"there is no card {card} (cards are 0 to 9)"))
        elif seen[card] > 1:
            text = f"card {card} is used {seen[card]} times; each card is used at most once"
            reasons.append(Reason("card_repeated", text))
    on_pack: dict[int, list[int]] = {}
    for cb in bid.cards:
        if cb.pack is not None:
            on_pack.setdefault(cb.pack, []).append(cb.card)
    for pack in sorted(on_pack):
        if not 1 <= pack <= rules.packs_per_round:
            reasons.append(Reason("pack_unknown", f"there is no pack {pack} (packs are 1 to {rules.packs_per_round})"))
        elif len(on_pack[pack]) > 1:
            cards = ", ".join(str(c) for c in on_pack[pack])
            text = f"pack {pack} has {len(on_pack[pack])} of your cards ({cards}); at most one"
            reasons.append(Reason("pack_repeated", text))
    unknown_items = sorted(
        {cb.item for cb in bid.cards if cb.item is not None and not 1 <= cb.item <= rules.items_per_round}
    )
    for item in unknown_items:
        text = f"there is no item {item} this round (items are 1 to {rules.items_per_round})"
        reasons.append(Reason("item_unknown", text))
    if bid.garnets:
        if rules.garnet_value == 0:
            reasons.append(Reason("garnets_not_bid", f"garnets cannot be bid on items in {rules.title}"))
        elif not 1 <= bid.garnet_item <= rules.items_per_round:
            text = (
                f"the garnets go on item {bid.garnet_item}, which does not exist this round "
                f"(items are 1 to {rules.items_per_round})"
            )
            reasons.append(Reason("garnet_item_unknown", text))
    return reasons


def resolve_packs(rules: RuleSet, bids: dict[str, Bid]) -> list[str | None]:
    """Who receives each pack: the highest card on it that no other player also played there."""
    winners: list[str | None] = []
    for pack in range(1, rules.packs_per_round + 1):
        cards = {player: cb.card for player, bid in bids.items() for cb in bid.cards if cb.pack == pack}
        winners.append(sole_highest(cards))
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
    return [sole_highest(item_sums(rules, bids, item)) for item in range(1, rules.items_per_round + 1)]
