"""The state machine's steps. Each returns the `Progress` the ASL routes on.

The machine per phase: wait on a task token for `wait_seconds` -> check the clock -> resolve when
due, else wait again. Host acts and early close complete the token, so a change made after the
execution started is honoured at once. Every step is safe to retry: it acts on the phase number it
was given and does nothing if the match has moved on.
"""

from __future__ import annotations

from typing import Any

from game_core.errors import Conflict
from game_core.games import registry
from game_core.match import engine
from game_core.match.model import Match
from game_core.service.notices import progress_notices
from game_core.service.ports import Event, Ports

MATCH_OVER = "Match over"
MATCH_CANCELLED = "Match cancelled"


def progress(ports: Ports, match: Match) -> dict[str, Any]:
    """Where the match stands, for the state machine's Choice states."""
    base = {
        "match_id": match.match_id,
        "due": False,
        "wait_seconds": 1,
        "phase_number": 0,
        "clock_version": 0,
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
        "wait_seconds": clock.seconds_to_wait(now, match.recheck_seconds),
    }


def current(ports: Ports, match_id: str) -> dict[str, Any]:
    return progress(ports, ports.store.get(match_id))


def wait(ports: Ports, match_id: str, phase_number: int, clock_version: int, token: str) -> None:
    """Keep the token so host acts can wake the machine; if the clock already changed since the
    machine computed its wait, wake it at once."""
    if not ports.store.set_task_token(match_id, phase_number, clock_version, token):
        ports.workflow.wake(token)


def resolve(ports: Ports, match_id: str, phase_number: int) -> dict[str, Any]:
    """Resolve the phase exactly once and open the next one; the announce step then tells."""
    for _attempt in range(5):
        match = ports.store.get(match_id)
        if match.phase is None or match.phase.number != phase_number or match.status != "running":
            # Already resolved (a retry): nothing happens twice.
            return progress(ports, match) | {"resolved_number": phase_number}
        game = registry.load(match.game)
        now = ports.clock.now()
        # Close the door before reading: a submission landing after this read would be lost.
        ports.store.stop_accepting(match_id, phase_number)
        submissions = ports.store.submissions(match_id, phase_number)
        resolved = engine.resolve(match, game, submissions, now)
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
            events.append(Event("finished", now, {"result": after.result}))
        elif after.phase is not None:
            events.append(Event("phase_opened", now, {"phase": after.phase.name, "number": after.phase.number}))
        balances = ports.store.balances(tuple(resolved.spending))
        spending = {player: min(cost, balances.get(player, 0)) for player, cost in resolved.spending.items()}
        try:
            ports.store.commit_resolution(match, after, resolved.record, spending, awards, events)
        except Conflict:
            continue  # a host act or another attempt won the race: read again
        return progress(ports, after) | {"resolved_number": phase_number}
    raise Conflict(f"could not resolve phase {phase_number} of {match_id}: the match kept changing")


def announce(ports: Ports, match_id: str, resolved_number: int) -> dict[str, Any]:
    """Publish what the resolved phase revealed: the public announcement and each private notice.

    A step of its own, after the resolution is stored, so a failure here is retried by the state
    machine and no announcement is lost (a retry may repeat one; SNS delivers at least once anyway)."""
    match = ports.store.get(match_id)
    game = registry.load(match.game)
    records = ports.store.phase_records(match_id, resolved_number)
    if not records:
        return progress(ports, match)  # nothing was resolved under that number: nothing to tell
    resolved = records[0]
    headline = f"{resolved.name} resolved" + (f"; {match.phase.name} is open" if match.phase else "; the match is over")
    for notice in progress_notices(match, game, headline):
        ports.notifier.publish(match, notice)
    return progress(ports, match)
