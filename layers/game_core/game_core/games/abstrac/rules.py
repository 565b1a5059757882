"""Rules both of Abstrac's rule sets share; each rule set's own phases, checks, resolution and
result are in `row.py` (Death Match 12) and `deal.py` (the original)."""

from __future__ import annotations

from game_core.errors import Reason
from game_core.games.abstrac.models import AbstracSettings


def other(players: list[str], player: str) -> str:
    """The opponent."""
    return players[1] if player == players[0] else players[0]


def remain(count: int, noun: str) -> str:
    """ "2 cards remain", "1 card remains"."""
    return f"{count} {noun} remains" if count == 1 else f"{count} {noun}s remain"


def settings_reasons(settings: AbstracSettings, players: tuple[str, ...]) -> list[Reason]:
    """Every way the settings do not fit the match's players: a named player who is not in it."""
    reasons = []
    for field in ("protected", "first_starter"):
        named = getattr(settings, field)
        if named is not None and named not in players:
            reasons.append(Reason("not_a_player", f"{field} names {named}, who is not a player in this match"))
    return reasons
