"""Grace periods at a deadline (`match.grace`): the resolve step holds the phase instead of
resolving it when a late participant has a grace left, tells everyone who is late and each late
participant how many graces they have left, and stores the hold.

Told first and stored after, as a reminder is (`phases.remind`): a retried step tells only what
a failed attempt did not (`telling.tell`, by each notice's id), and the hold is stored only on the
match as read, so a retry finds the phase held (not due) and uses no grace twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from game_core.errors import Illegal, NotOpen, Reason
from game_core.match import engine
from game_core.match.clock import iso
from game_core.match.grace import Hold, hold
from game_core.match.model import Match
from game_core.service.ports import Event, Notice, Ports
from game_core.service.retries import until_stored
from game_core.service.telling.channels import tell
from game_core.service.telling.letters import names
from game_core.service.telling.notices import Untold, notice_id, open_phase_summary, untold
from game_core.service.telling.stored import tell_stored

GRACES_SET = "graces_set"
"""The log entry of the host's setting of graces."""


def held(ports: Ports, match: Match, now: datetime) -> Match | None:
    """Hold the open phase for the late participants' graces if its deadline calls for it (the
    match as stored then), else None: the phase resolves as the rules say."""
    found = hold(match, now)
    if found is None:
        return None
    phase = found.match.phase
    assert phase is not None
    event = Event(
        "grace_held",
        now,
        {
            "number": phase.number,
            "phase": phase.name,
            "late": list(found.late),
            "graced": list(found.graced),
            "until": iso(phase.deadline),
            "graces_left": {who: found.match.graces_left.get(who, 0) for who in found.late},
        },
    )
    owed = engine.still_owed(phase, ports.store.submissions(match.match_id, phase.number))
    tell(ports, found.match, hold_notices(found, owed), then=lambda: ports.store.save(match, found.match, event))
    return found.match


def hold_notices(found: Hold, owed: Mapping[str, tuple[str, ...]]) -> list[Notice]:
    """The public notice naming who is late and who the phase is held for (never what anyone
    sent), and a private one to each late participant with what they owe (`owed`) and the graces
    they have left."""
    match = found.match
    phase = match.phase
    assert phase is not None
    shown = names(match)
    hold_body = {
        "phase": phase.name,
        "number": phase.number,
        "late": list(found.late),
        "graced": list(found.graced),
        "seconds": match.grace_seconds,
        "until": iso(phase.deadline),
    }
    common: dict[str, Any] = {"match_id": match.match_id, "status": match.status, "open": open_phase_summary(match)}
    common["grace_hold"] = hold_body
    waiting = ", ".join(shown.get(who, who) for who in found.graced)
    subject = f"[{match.match_id}] {phase.name} is held for a grace: {waiting}"
    occasion = f"grace-{phase.number}"
    notices = [Notice(None, subject, common, notice_id(match.match_id, occasion, None))]
    for who in found.late:
        private = common | {
            "you": who,
            "you_owe": list(owed.get(who, ())),
            "graces_left": match.graces_left.get(who, 0),
            "used_grace": who in found.graced,
        }
        notices.append(Notice(who, subject, private, notice_id(match.match_id, occasion, who)))
    return notices


def set_graces(
    ports: Ports, match_id: str, left: int, seconds: int | None = None, player: str | None = None
) -> dict[str, Any]:
    """The host sets the graces left of every participant (or of one, by id or by name) to `left`,
    and the hold's length to `seconds` when given; each participant whose count or hold changed is
    told privately. Sent again, it changes nothing, and tells whom a failed notice of it left
    untold (`telling.stored`). A hold already on the open phase stands."""

    def attempt(match: Match) -> tuple[Match, Untold | None]:
        if match.status != "running":
            raise NotOpen(f"the match is {match.status}: its graces no longer count")
        length = seconds or match.grace_seconds
        if left and not length:
            text = (
                "the match has no grace length yet: give the seconds a grace holds a deadline "
                "(--seconds 43200, the console's seconds: 12 hours)"
            )
            raise Illegal("no grace length", [Reason("grace_seconds_missing", text)])
        who = (match.named(player),) if player is not None else match.player_ids
        counts = match.graces_left | dict.fromkeys(who, left)
        data: dict[str, Any] = {"left": left, "seconds": length, "players": list(who)}
        if (length, counts) == (match.grace_seconds, match.graces_left):
            return match, untold(match, GRACES_SET, data)
        after = match.model_copy(update={"grace_seconds": length, "graces_left": counts, "version": match.version + 1})
        ports.store.save(match, after, Event(GRACES_SET, ports.clock.now(), data))
        # Whose count or hold changed: the act's notices' recipients, kept for a repeat to tell
        recipients = [
            who
            for who in after.player_ids
            if after.graces_left.get(who, 0) != match.graces_left.get(who, 0)
            or (after.grace_seconds != match.grace_seconds and after.graces_left.get(who, 0))
        ]
        return after, Untold(after.version, GRACES_SET, data | {"to": recipients}) if recipients else None

    what = "the graces were not set"
    after, act = until_stored(lambda: ports.store.get(match_id), attempt, match_id=match_id, what=what)
    reply = {"match_id": match_id, "grace_seconds": after.grace_seconds, "graces_left": after.graces_left}
    if act is None:
        return reply | {"changed": False}
    common = {"match_id": match_id, "status": after.status, "open": open_phase_summary(after)}
    occasion = f"graces-v{act.version}"
    notices = [
        Notice(
            who,
            f"[{match_id}] The host set your graces",
            common | {"you": who, "graces_left": after.graces_left.get(who, 0), "graces_set": after.grace_seconds},
            notice_id(match_id, occasion, who),
        )
        for who in act.data["to"]
    ]
    return reply | {"changed": not act.repeat} | tell_stored(ports, after, notices, act, "command")
