"""Messages to participants, each rendered from that participant's view alone."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from game_core.games.protocol import AnyGame
from game_core.match.clock import duration_text, iso
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


def progress_notices(match: Match, game: AnyGame, headline: str, missing: tuple[str, ...] = ()) -> list[Notice]:
    """The public announcement and one private notice per player after the state changed;
    `missing` names who sent nothing the resolved phase waited for (never what anyone sent)."""
    state = game_state(game, match)
    subject = f"[{match.match_id}] {headline}"
    common = {"match_id": match.match_id, "status": match.status, "open": open_phase_summary(match)}
    public: dict[str, Any] = common | {"view": game.view(state, None)}
    if missing:
        public["did_not_submit"] = list(missing)
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


def reminder_notices(match: Match, players: list[str], now: datetime) -> list[Notice]:
    """A private reminder to each of `players` of the time left in the open phase (to the minute:
    a machine woken a few seconds late still says "12 hours")."""
    phase = match.phase
    assert phase is not None
    left = 60 * round((phase.deadline - now).total_seconds() / 60)
    subject = f"[{match.match_id}] Reminder: {phase.name} closes in {duration_text(left)}"
    body = {"match_id": match.match_id, "status": match.status, "open": open_phase_summary(match)}
    return [Notice(player, subject, body | {"you": player, "closes_in_seconds": left}) for player in players]
