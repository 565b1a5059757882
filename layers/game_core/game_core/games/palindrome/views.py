"""What each participant of Palindrome Construction may know.

Public: the rule set, the phase, every round's packs and items and, once its bidding resolved, who
received each; at the end every player's strings, scores and total (from `result`). Private to a
player: their strings, digits, items, bids, constructions and garnets spent.
"""

from __future__ import annotations

from typing import Any

from game_core.games.palindrome.models import PalindromeState, RoundState
from game_core.games.palindrome.rules import current, result
from game_core.games.protocol import Result


def round_view(r: RoundState) -> dict[str, Any]:
    resolved = r.pack_winners is not None
    packs = []
    for i, digits in enumerate(r.packs):
        entry: dict[str, Any] = {"pack": i + 1, "digits": digits}
        if r.pack_winners is not None:
            entry["received_by"] = r.pack_winners[i]
        packs.append(entry)
    items = []
    for i, name in enumerate(r.items):
        entry = {"item": i + 1, "name": name}
        if r.item_winners is not None:
            entry["received_by"] = r.item_winners[i]
        items.append(entry)
    return {"round": r.round, "resolved": resolved, "packs": packs, "items": items}


def final_view(players: list[str], outcome: Result) -> dict[str, Any]:
    """The public account of a finished match, read off its result."""
    details = outcome.details
    return {
        p: {"strings": details["strings"][p], "scores": details["scores"][p], "total": details["totals"][p]}
        for p in players
    }


def view(state: PalindromeState, player: str | None) -> dict[str, Any]:
    rules = state.settings.rules
    spec = current(state)
    public: dict[str, Any] = {
        "game": "palindrome",
        "rule_set": rules.key,
        "rule_set_title": rules.title,
        "rounds": rules.rounds,
        "pack_size": rules.pack_size,
        "items_per_round": rules.items_per_round,
        "garnet_value": rules.garnet_value,
        "players": list(state.players),
        "phase": spec.kind.name if spec else None,
        "bidding_round": spec.bid_round if spec else None,
        "construction_round": spec.construction_round if spec else None,
        "over": spec is None,
        "round_log": [round_view(r) for r in state.rounds],
    }
    if state.final is not None:
        public["final"] = final_view(state.players, result(state))
    if player is None or player not in state.seats:
        return {"public": public}
    seat = state.seats[player]
    private = {
        "strings": list(seat.strings),
        "digits": seat.digits,
        "items": [item.model_dump(mode="json") for item in seat.items],
        "bids": [b.model_dump(mode="json") for b in seat.bids],
        "constructions": [c.model_dump(mode="json") for c in seat.constructions],
        "garnets_spent": seat.garnets_spent,
    }
    return {"public": public, "private": private}


def change_private_seat(state: dict[str, Any], q: str) -> None:
    """Change, in a state's JSON, everything only `q` may know (`Demo.private_seat`): bids (cards
    and garnets), digits, constructions, item use; strings until the end."""
    seat = state["seats"][q]
    seat["bids"] = [{"round": 1, "bid": {"cards": [{"card": 9, "pack": 1}], "garnets": 2, "garnet_item": 1}}]
    seat["constructions"] = []
    seat["digits"] += "7"
    seat["garnets_spent"] += 2
    for item in seat["items"]:
        item["used_in_round"] = None if item["used_in_round"] else 1
    if state["final"] is None:
        seat["strings"] = [string + "1" for string in seat["strings"]]
