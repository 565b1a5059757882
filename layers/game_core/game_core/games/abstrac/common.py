"""Helpers both rule sets share."""

from __future__ import annotations

from typing import Any, TypeVar

from game_core.errors import Illegal, Reason
from game_core.games.abstrac.cards import combinations, points
from game_core.games.protocol import Model, Resolution

M = TypeVar("M", bound=Model)


def other(players: list[str], player: str) -> str:
    return players[1] if player == players[0] else players[0]


def submitted(resolution: Resolution, player: str, kind: str, model: type[M]) -> M | None:
    """The mover's submission of `kind`, as its model (the match layer may hand over JSON)."""
    raw = resolution.submissions.get(player, {}).get(kind)
    if raw is None:
        return None
    if isinstance(raw, model):
        return raw
    if isinstance(raw, Model):
        raw = raw.model_dump(mode="json")
    return model.model_validate(raw)


def remain(count: int, noun: str) -> str:
    """ "2 cards remain", "1 card remains"."""
    return f"{count} {noun} remains" if count == 1 else f"{count} {noun}s remain"


def refuse_if_illegal(reasons: list[str]) -> None:
    """The match layer hands over only checked submissions; one that is illegal now is a fault."""
    if reasons:
        raise Illegal(
            "the submission handed to resolve is illegal in this position", [Reason("illegal", r) for r in reasons]
        )


def hand_json(cards: list[str]) -> dict[str, Any]:
    return {
        "cards": list(cards),
        "card_count": len(cards),
        "combinations": [combo.to_json() for combo in combinations(cards)],
        "points": points(cards),
    }
