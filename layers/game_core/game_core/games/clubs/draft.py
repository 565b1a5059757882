"""The draft: six cards with priorities, clubs weighed by their tokens, the single lowest wins."""

from __future__ import annotations

from collections.abc import Mapping

from game_core.games.clubs.cards import is_club
from game_core.games.clubs.models import CardReveal, DraftSubmission


def effective_priority(priority: int, lowered: list[int]) -> int:
    """A priority number after the garnets spent on it: 1 lower when its number was lowered."""
    return priority - 1 if priority in lowered else priority


def priority_value(card: str, priority: int, lowered: list[int], token_value: int | None) -> int:
    """What competes for the card: the priority number, or for a club token x priority."""
    effective = effective_priority(priority, lowered)
    if is_club(card):
        assert token_value is not None, "a club is drafted with a token"
        return token_value * effective
    return effective


def resolve_draft(
    drafts: Mapping[str, DraftSubmission], token_values: Mapping[str, Mapping[str, int]]
) -> tuple[dict[str, list[str]], list[CardReveal]]:
    """Who receives which card, and the public reveal per card drafted (sorted by card). A card
    goes to the single lowest priority value on it; a shared lowest discards it."""
    bids: dict[str, list[tuple[int, str]]] = {}
    for participant, draft in drafts.items():
        for pick in draft.picks:
            token = token_values[participant].get(pick.token) if pick.token else None
            value = priority_value(pick.card, pick.priority, draft.lowered, token)
            bids.setdefault(pick.card, []).append((value, participant))
    won: dict[str, list[str]] = {participant: [] for participant in drafts}
    reveal = []
    for card in sorted(bids):
        values = sorted(bids[card])
        given = len(values) == 1 or values[0][0] < values[1][0]
        if given:
            won[values[0][1]].append(card)
        reveal.append(CardReveal(card=card, drafted=len(values), given=given))
    return won, reveal
