"""Where a participant stands, asked for at any time (a lost notice is never lost for good): their
view now, the open phase and its deadline, what they have submitted in it, their garnets. Every
channel answers from here: the webhook's GET routes, the e-mail STATUS."""

from __future__ import annotations

from typing import Any

from game_core.games import registry
from game_core.match.engine import game_state, still_owed
from game_core.service.matches import receipts
from game_core.service.matches.sheets import SubmissionView
from game_core.service.matches.submit import authenticate_webhook
from game_core.service.ports import Ports
from game_core.service.telling.notices import open_phase_summary


def participant_view(ports: Ports, match_id: str, player: str, secret: str) -> dict[str, Any]:
    """The participant's standing, for the holder of their webhook secret (one read)."""
    seen = ports.store.submission_view(match_id, player, None)
    authenticate_webhook(seen.match, player, secret)
    return standing(seen, player)


def standing(seen: SubmissionView, player: str) -> dict[str, Any]:
    """What `player` may know now, from what was read for them: nothing of anyone else's secrets."""
    match = seen.match
    game = registry.load(match.game)
    phase = match.phase
    sheet = seen.open_sheet
    submitted = sheet.kinds if sheet is not None else {}
    reply: dict[str, Any] = {
        "match_id": match.match_id,
        "status": match.status,
        "you": player,
        "open": open_phase_summary(match),
        "submitted": submitted,
        "receipts": {kind: receipts.standing(match, sheet, kind) for kind in submitted},
        "you_owe": list(still_owed(phase, {player: submitted}).get(player, ())) if match.status == "running" else [],
        "garnets": {"balance": seen.balance, "available": seen.available},
        "view": game.view(game_state(game, match), player),
    }
    if match.grace_seconds:  # their own count only (`match.grace`)
        reply["graces_left"] = match.graces_left.get(player, 0)
    if match.result is not None:
        reply["result"] = match.result
    return reply


def public_view(ports: Ports, match_id: str) -> dict[str, Any]:
    """What anyone may know of the match now: no secret needed."""
    match = ports.store.get(match_id)
    game = registry.load(match.game)
    reply: dict[str, Any] = {
        "match_id": match.match_id,
        "status": match.status,
        "open": open_phase_summary(match),
        "view": game.view(game_state(game, match), None),
    }
    if match.result is not None:
        reply["result"] = match.result
    return reply
