"""Messages to participants, each rendered from that participant's view alone."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from game_core.games.protocol import AnyGame
from game_core.match import engine
from game_core.match.clock import duration_text, iso
from game_core.match.model import Match
from game_core.service.ports import Notice


def open_phase_summary(match: Match) -> dict[str, Any] | None:
    """The open phase as everyone may know it: none once the match is over or cancelled. Who owes
    what follows from what the rules reveal (`OpenPhase.owes`); what anyone has sent does not."""
    phase = match.phase
    if phase is None or match.status != "running":
        return None
    return {
        "phase": phase.name,
        "number": phase.number,
        "deadline": iso(phase.deadline),
        "paused": phase.paused,
        "accepts": list(phase.accepts),
        "actors": list(phase.actors),
        "owes": {participant: list(kinds) for participant, kinds in phase.owes.items()},
        "waiting_for": list(engine.waiting_for(match)),
    }


def progress_notices(match: Match, game: AnyGame, headline: str, missing: tuple[str, ...] = ()) -> list[Notice]:
    """The public announcement and one private notice per player after the state changed;
    `missing` names who owed the resolved phase something and sent nothing (never what anyone sent)."""
    state = engine.game_state(game, match)
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


def reminder_notices(match: Match, owed: Mapping[str, tuple[str, ...]], now: datetime) -> list[Notice]:
    """A private reminder to each participant of `owed` of what they still owe the open phase and
    the time left (to the minute: a machine woken a few seconds late still says "12 hours")."""
    phase = match.phase
    assert phase is not None
    left = 60 * round((phase.deadline - now).total_seconds() / 60)
    subject = f"[{match.match_id}] Reminder: {phase.name} closes in {duration_text(left)}"
    body = {"match_id": match.match_id, "status": match.status, "open": open_phase_summary(match)}
    return [
        Notice(player, subject, body | {"you": player, "closes_in_seconds": left, "you_owe": list(kinds)})
        for player, kinds in owed.items()
    ]
