"""Messages to participants, each rendered from that participant's view alone.

Each notice has an id made from what it announces (`notice_id`): the match, the occasion (the
resolution, reminder or stored act that caused it) and its recipient. A step retried after a
fault builds the same notices with the same ids, so what was told already is not told again
(`telling.tell`), and a receiver can drop a repeat.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from game_core.games.protocol import AnyGame
from game_core.match import engine
from game_core.match.absence import away_summary
from game_core.match.clock import duration_text, iso
from game_core.match.model import Match
from game_core.service.ports import Notice

EVERYONE = "@all"
"""The recipient part of a public notice's id (a participant id never holds "@")."""
BEGINS = "begins"
"""The occasion of the match's opening notices."""


def notice_id(match_id: str, occasion: str, recipient: str | None) -> str:
    """`<match>/<occasion>/<recipient>`: "m-1a2b3c4d5e6f/resolved-3/ada", ".../reminder-4-3600/bo",
    ".../v17/@all". An occasion has one notice per recipient, so no two notices share an id."""
    return f"{match_id}/{occasion}/{recipient or EVERYONE}"


def addressed(public_id: str, recipient: str) -> str:
    """A public notice's id as told to one participant in a delivery of their own (a webhook's,
    when the occasion made them no notice of their own): the id their own notice would have had.
    So no two subscriptions are sent one id, which a receiver drops as a repeat."""
    return f"{public_id.removesuffix(EVERYONE)}{recipient}"


def resolution(number: int) -> str:
    """The occasion of the announcement of phase `number`'s resolution."""
    return f"resolved-{number}"


def act_at(version: int) -> str:
    """The occasion of the act (a host's, an absence's) stored at match version `version`."""
    return f"v{version}"


UNTOLD = "untold "
"""How an `Untold` mark begins among the told keys (a told key is hex: none begins so)."""


@dataclass(frozen=True)
class Untold:
    """A stored act whose notices a failed tell left (partly) untold: the match version it stored,
    and its log entry's type and data (all a repeat needs to know itself and tell it again; never a
    submission's contents). Kept among the match's told keys until the phase changes."""

    version: int
    type: str
    data: dict[str, Any]
    repeat: bool = False
    """Found among the told keys (`untold`): the act is being sent again; not part of the mark."""

    @property
    def mark(self) -> str:
        return UNTOLD + json.dumps({"version": self.version, "type": self.type, "data": self.data}, sort_keys=True)

    def all_told(self, match_id: str) -> str:
        """The told key saying a repeat has told everything the act's first tell had not."""
        return told_key(notice_id(match_id, act_at(self.version), "@told"))


def untold(match: Match, event_type: str, same: Mapping[str, Any]) -> Untold | None:
    """The latest act of `event_type` whose data holds `same` and whose tell failed (`Untold`),
    told since or not; None when there is none."""
    found = [
        Untold(**json.loads(mark.removeprefix(UNTOLD)), repeat=True) for mark in match.told if mark.startswith(UNTOLD)
    ]
    return max(
        (act for act in found if act.type == event_type and same.items() <= act.data.items()),
        key=lambda act: act.version,
        default=None,
    )


def told_key(unit_id: str) -> str:
    """What the store keeps to remember that a notice or a mail (by its id) went out: short,
    since it is kept on the match header (64 bits: no two of a phase's few dozen collide)."""
    return hashlib.sha256(unit_id.encode()).hexdigest()[:16]


def open_phase_summary(match: Match) -> dict[str, Any] | None:
    """The open phase as everyone may know it: none once the match is over or cancelled. Who owes
    what follows from what the rules reveal (`OpenPhase.owes`); what anyone has sent does not."""
    phase = match.phase
    if phase is None or match.status != "running":
        return None
    summary = {
        "phase": phase.name,
        "number": phase.number,
        "deadline": iso(phase.deadline),
        "paused": phase.paused,
        "accepts": list(phase.accepts),
        "actors": list(phase.actors),
        "owes": {participant: list(kinds) for participant, kinds in phase.owes.items()},
        "waiting_for": list(engine.waiting_for(match)),
        "ready": list(phase.ready),
    } | away_summary(phase, match.absences)
    if phase.grace_held:  # held past its first deadline for these participants' graces
        summary["grace_held"] = list(phase.grace_held)
    return summary


def progress_notices(
    match: Match, game: AnyGame, headline: str, occasion: str, missing: tuple[str, ...] = ()
) -> list[Notice]:
    """The public announcement and one private notice per player after the state changed (on
    `occasion`); `missing` names who owed the resolved phase something and sent nothing (never
    what anyone sent)."""
    state = engine.game_state(game, match)
    subject = f"[{match.match_id}] {headline}"
    common = {"match_id": match.match_id, "status": match.status, "open": open_phase_summary(match)}
    public: dict[str, Any] = common | {"view": game.view(state, None)}
    if missing:
        public["did_not_submit"] = list(missing)
    if match.result is not None:
        public["result"] = match.result
    notices = [Notice(None, subject, public, notice_id(match.match_id, occasion, None))]
    for player in match.player_ids:
        private = common | {"you": player, "view": game.view(state, player)}
        notices.append(Notice(player, subject, private, notice_id(match.match_id, occasion, player)))
    return notices


def clock_notice(match: Match, headline: str, version: int) -> Notice:
    """A public notice of the act on the clock stored at `version` (`match` as the act stored it,
    or as it is now when the act is told again): only times, no game content."""
    return Notice(
        None,
        f"[{match.match_id}] {headline}",
        {"match_id": match.match_id, "status": match.status, "open": open_phase_summary(match)},
        notice_id(match.match_id, act_at(version), None),
    )


def reminder_notices(match: Match, owed: Mapping[str, tuple[str, ...]], now: datetime, lead: int) -> list[Notice]:
    """A private reminder to each participant of `owed` of what they still owe the open phase and
    the time left (to the minute: a machine woken a few seconds late still says "12 hours");
    `lead` is which of the phase's reminders it is (its seconds before the deadline)."""
    phase = match.phase
    assert phase is not None
    left = 60 * round((phase.deadline - now).total_seconds() / 60)
    subject = f"[{match.match_id}] Reminder: {phase.name} closes in {duration_text(left)}"
    body = {"match_id": match.match_id, "status": match.status, "open": open_phase_summary(match)}
    occasion = f"reminder-{phase.number}-{lead}"
    return [
        Notice(
            player,
            subject,
            body | {"you": player, "closes_in_seconds": left, "you_owe": list(kinds)},
            notice_id(match.match_id, occasion, player),
        )
        for player, kinds in owed.items()
    ]
