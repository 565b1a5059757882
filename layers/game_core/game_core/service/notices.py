"""Messages to participants, each rendered from that participant's view alone."""

from __future__ import annotations

from typing import Any

from game_core.games.protocol import AnyGame
from game_core.match.clock import iso
from game_core.match.engine import game_state
from game_core.match.model import Match
from game_core.service.ports import Notice


def open_phase_summary(match: Match) -> dict[str, Any] | None:
    phase = match.phase
    if phase is None:
        return None
    return {
        "phase": phase.name,
        "number": phase.number,
        "deadline": iso(phase.deadline),
        "paused": phase.paused,
        "accepts": list(phase.accepts),
        "actors": list(phase.actors),
    }


def progress_notices(match: Match, game: AnyGame, headline: str) -> list[Notice]:
    """The public announcement and one private notice per player after the state changed."""
    state = game_state(game, match)
    subject = f"[{match.match_id}] {headline}"
    common = {"match_id": match.match_id, "status": match.status, "open": open_phase_summary(match)}
    public = common | {"view": game.view(state, None)}
    if match.result is not None:
        public["result"] = match.result
    notices = [Notice(None, subject, public)]
    for player in match.player_ids:
        notices.append(Notice(player, subject, common | {"you": player, "view": game.view(state, player)}))
    return notices


def clock_notice(match: Match, headline: str) -> Notice:
    """A public notice of a host act on the clock: only times, no game content."""
    return Notice(
        None,
        f"[{match.match_id}] {headline}",
        {"match_id": match.match_id, "status": match.status, "open": open_phase_summary(match)},
    )
