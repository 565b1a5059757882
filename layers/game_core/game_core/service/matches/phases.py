"""The state machine's steps. Each returns the progress dict the ASL's Choice states route on.

The machine per phase: wait on a task token for `wait_seconds` (until the deadline) -> advance:
resolve and announce when due, else wait again. Host acts and early close complete the token, so
a change made after the execution started is honoured at once. Every step is safe to retry: it acts on the phase
number it was given and does nothing if the match has moved on. A step that keeps failing ends in
`stalled`, and the host's `recover` starts a new execution that continues from the stored match.
"""

from __future__ import annotations

import json
from typing import Any

from game_core.errors import Conflict
from game_core.games import registry
from game_core.games.capabilities import ActsAtOnce
from game_core.match import engine
from game_core.match.model import Match
from game_core.service.matches import grace, receipts
from game_core.service.matches.lifecycle import with_log_head
from game_core.service.ports import Event, Ports
from game_core.service.retries import until_stored
from game_core.service.telling.channels import tell
from game_core.service.telling.notices import open_phase_summary, progress_notices, reminder_notices, resolution
from game_core.service.webhooks import sending as webhooks

MATCH_OVER = "Match over"
MATCH_CANCELLED = "Match cancelled"


def progress(ports: Ports, match: Match) -> dict[str, Any]:
    """Where the match stands, for the state machine's Choice states."""
    base = {
        "match_id": match.match_id,
        "due": False,
        "reminder_due": False,
        "wait_seconds": 1,
        "phase_number": 0,
        "clock_version": 0,
        # A resolution stored but not announced (the machine stalled in between): advance tells it.
        "resolved_number": match.phases_resolved,
        "announce_pending": match.announced < match.phases_resolved,
    }
    if match.status == "cancelled":
        return base | {"phase": MATCH_CANCELLED, "due": True}
    if match.phase is None:
        return base | {"phase": MATCH_OVER, "due": True}
    now = ports.clock.now()
    clock = match.phase
    return base | {
        "phase": clock.name,
        "phase_number": clock.number,
        "clock_version": clock.version,
        "due": clock.is_due(now),
        "reminder_due": clock.reminder_due(now, match.reminders_due) is not None,
        "wait_seconds": clock.seconds_to_wait(now, match.recheck_seconds, match.reminders_due),
    }


def current(ports: Ports, match_id: str) -> dict[str, Any]:
    """Where the match stands now."""
    return progress(ports, ports.store.get(match_id))


MOST_PHASES_PER_STEP = 10
"""A bound on the phases one `advance` resolves in a row (each next one already due)."""


def advance(ports: Ports, match_id: str) -> dict[str, Any]:
    """The machine's one step between waits: announce what was resolved but never told (a stalled
    execution's), resolve the open phase if it is due and announce it, and say how long to wait.
    Safe to retry at any point: a resolution is stored once, an announcement is marked once told."""
    where = current(ports, match_id)
    for _resolved in range(MOST_PHASES_PER_STEP):
        if where["announce_pending"]:
            where = announce(ports, match_id, where["resolved_number"])
        if not (where["due"] and where["phase_number"]):  # nothing due, or the match is over
            return remind(ports, match_id) if where["reminder_due"] else where
        where = resolve(ports, match_id, where["phase_number"])
    return where


def remind(ports: Ports, match_id: str) -> dict[str, Any]:
    """Send the reminder due now, if one is: privately, to each participant who still owes the
    phase something, naming what (`engine.still_owed`). Told first and marked after, as
    announcements are: a retry never loses a reminder, and tells only what a failed attempt did
    not (`tell`); a host act landing meanwhile is read again."""

    def attempt(match: Match) -> dict[str, Any]:
        now = ports.clock.now()
        phase = match.phase
        lead = phase.reminder_due(now, match.reminders_due) if phase and match.status == "running" else None
        if phase is None or lead is None:
            return progress(ports, match)
        late = engine.still_owed(phase, ports.store.submissions(match_id, phase.number))
        reminded = match.model_copy(update={"phase": phase.remind(now, match.reminders), "version": match.version + 1})
        event = Event("reminded", now, {"number": phase.number, "lead": lead, "players": sorted(late)})
        notices = reminder_notices(match, late, now, lead)
        tell(ports, match, notices, then=lambda: ports.store.save(match, reminded, event))
        return progress(ports, reminded)

    what = "the reminder was not marked"
    return until_stored(lambda: ports.store.get(match_id), attempt, match_id=match_id, what=what)


def wait(ports: Ports, match_id: str, phase_number: int, clock_version: int, token: str) -> None:
    """Keep the token so host acts can wake the machine; if the clock already changed since the
    machine computed its wait, wake it at once."""
    if not ports.store.set_task_token(match_id, phase_number, clock_version, token):
        ports.workflow.wake(token)


def resolve(ports: Ports, match_id: str, phase_number: int) -> dict[str, Any]:
    """Resolve the phase exactly once and open the next one (`advance` then announces it).

    The resolution is stored only if the match is still the one read (its version), so a host act
    that lands first wins: it is read again, and a phase no longer due (extended, paused) is not
    resolved."""

    def attempt(match: Match) -> dict[str, Any]:
        now = ports.clock.now()
        if match.phase is None or match.phase.number != phase_number or match.status != "running":
            # Already resolved (a retry): nothing happens twice.
            return progress(ports, match) | {"resolved_number": phase_number}
        if not match.phase.is_due(now):
            return progress(ports, match) | {"resolved_number": phase_number}  # a host act won the race
        if (held := grace.held(ports, match, now)) is not None:  # a late participant's grace: not yet
            return progress(ports, held)
        game = registry.load(match.game)
        # Close the door before reading: a submission landing after this read would be lost. Only
        # the match as read: one that moved meanwhile (a host act, whose save wrote the door as its
        # clock has it) is read again, and never shut by this resolution.
        if not ports.store.stop_accepting(match):
            raise Conflict(f"match {match_id} changed since it was read")
        sheets = ports.store.sheets(match_id, phase_number)
        submissions = {player: sheet.kinds for player, sheet in sheets.items()}
        # Only a game that takes immediate actions has any to read (one query fewer for the rest)
        actions = tuple(ports.store.actions(match_id, phase_number)) if isinstance(game, ActsAtOnce) else ()
        resolved = engine.resolve(match, game, submissions, now, actions)
        record = resolved.record.model_copy(update={"salts": receipts.salts(sheets)})
        after = resolved.match
        awards = {}
        events = [
            Event(
                "phase_resolved",
                now,
                {
                    "phase": resolved.record.name,
                    "number": phase_number,
                    "submitted": sorted(submissions),
                    "timed_out": resolved.record.timed_out,
                    "garnets_spent": resolved.spending,
                },
            )
        ]
        if after.status == "finished" and after.result is not None:
            awards = {player: amount for player, amount in after.result["garnets"].items() if amount}
            if after.guests:
                awards = _with_purses_returned(awards, ports.store.purses(match_id), resolved.spending, after.guests)
            events.append(Event("finished", now, {"result": after.result}))
        elif after.phase is not None:
            events.append(Event("phase_opened", now, {"phase": after.phase.name, "number": after.phase.number}))
        # What each player spent was held when their submission was accepted. A host act or another
        # attempt that wins the race makes this a conflict: read again.
        ports.store.commit_resolution(match, after, record, resolved.spending, awards, events)
        return progress(ports, after) | {"resolved_number": phase_number}

    what = f"phase {phase_number} was not resolved"
    return until_stored(lambda: ports.store.get(match_id), attempt, match_id=match_id, what=what)


def _with_purses_returned(
    awards: dict[str, int], purses: dict[str, int], spending: dict[str, int], guests: dict[str, str]
) -> dict[str, int]:
    """The match is over: what each guest still holds (after what the last phase spent) goes back
    to their player, written as a negative award to the guest and a positive one to the player."""
    awards = dict(awards)
    for guest, player in sorted(guests.items()):
        left = purses.get(guest, 0) - spending.get(guest, 0)
        if left:
            awards[guest] = awards.get(guest, 0) - left
            awards[player] = awards.get(player, 0) + left
    return awards


def announce(ports: Ports, match_id: str, resolved_number: int) -> dict[str, Any]:
    """Publish what the resolved phase revealed: the public announcement and each private notice.

    Run after the resolution is stored and marked told only once published, so a failure here is
    retried by the state machine and no announcement is lost; the retry tells only what the failed
    attempt did not (`tell`)."""
    match = ports.store.get(match_id)
    game = registry.load(match.game)
    records = ports.store.phase_records(match_id, resolved_number)
    if not records or match.announced >= resolved_number:
        return progress(ports, match)  # nothing resolved under that number, or told already
    resolved = records[0]
    headline = f"{resolved.name} resolved" + (f"; {match.phase.name} is open" if match.phase else "; the match is over")
    notices = progress_notices(match, game, headline, resolution(resolved_number), resolved.missing)
    notices = receipts.with_openings(notices, game, resolved)
    if match.status == "finished":
        notices = with_log_head(ports, match_id, notices)
    tell(ports, match, notices, then=lambda: ports.store.mark_announced(match_id, resolved_number))
    return progress(ports, match.model_copy(update={"announced": resolved_number}))


def stalled(ports: Ports, match_id: str, error: dict[str, Any]) -> None:
    """The machine gave up on a step: record why in the match's log and tell the host. The match
    stays as it was stored (running, its phase open), so `recover` can continue it."""
    reason = {
        "error": str(error.get("Error", "unknown"))[:200],
        "cause": _short_cause(error.get("Cause")),
    }

    def attempt(match: Match) -> Match:
        if match.stalled != reason:
            stalled = match.model_copy(update={"stalled": reason, "version": match.version + 1})
            ports.store.save(match, stalled, Event("stalled", ports.clock.now(), reason))
        return match

    # A host act landing meanwhile is read again: a stall left unrecorded would show the host a
    # running match in `status` that no machine runs
    try:
        match = until_stored(lambda: ports.store.get(match_id), attempt, match_id=match_id, what="no stall recorded")
    except Conflict:  # it kept changing: the alert below still goes out
        match = ports.store.get(match_id)
    webhooks.alert_host(
        ports,
        match,
        f"[{match_id}] the match has stopped: run `recover`",
        {"match_id": match_id, "stalled": reason, "status": match.status, "open": open_phase_summary(match)},
        f"{match_id}/stalled-{match.attempt}",
    )


def _short_cause(cause: Any) -> str:
    """A Lambda error's message without its stack trace, short (it may be any size)."""
    text = str(cause or "")
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        text = f"{parsed.get('errorType', '')}: {parsed.get('errorMessage', '')}"
    return text[:500]
