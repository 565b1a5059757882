"""Host powers over the open phase's clock: extend, pause, resume, resolve now, cancel.

Each act changes the clock's version and wakes the waiting state machine, which re-reads the
clock and waits again, resolves, or stops.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from game_core.errors import Conflict, NotOpen
from game_core.match.clock import PhaseClock
from game_core.match.model import Match
from game_core.service.notices import clock_notice, open_phase_summary
from game_core.service.ports import Event, Ports


def _running(match: Match) -> PhaseClock:
    if match.status != "running" or match.phase is None:
        raise NotOpen(f"the match is {match.status}")
    return match.phase


def _change_clock(
    ports: Ports,
    match_id: str,
    event_type: str,
    change: Callable[[PhaseClock, datetime], PhaseClock],
    data: dict[str, Any],
    headline: str | None,
) -> dict[str, Any]:
    """Apply a host act to the open phase's clock; the act and its log entry share one instant."""
    match = ports.store.get(match_id)
    now = ports.clock.now()
    clock = change(_running(match), now)
    saved = ports.store.save_clock(match, clock, Event(event_type, now, data))
    _wake(ports, match_id)
    if headline:
        ports.notifier.publish(saved, clock_notice(saved, headline))
    return {"match_id": match_id, "status": saved.status, "open": open_phase_summary(saved)}


def _wake(ports: Ports, match_id: str) -> None:
    token = ports.store.task_token(match_id)
    if token:
        ports.workflow.wake(token)


def extend(ports: Ports, match_id: str, seconds: int) -> dict[str, Any]:
    return _change_clock(
        ports,
        match_id,
        "extended",
        lambda clock, _now: clock.extend(seconds),
        {"seconds": seconds},
        f"the deadline is extended by {seconds} seconds",
    )


def pause(ports: Ports, match_id: str) -> dict[str, Any]:
    return _change_clock(ports, match_id, "paused", PhaseClock.pause, {}, "the match is paused")


def resume(ports: Ports, match_id: str) -> dict[str, Any]:
    return _change_clock(ports, match_id, "resumed", PhaseClock.resume, {}, "the match resumes")


def request_resolution(ports: Ports, match_id: str, reason: str, phase_number: int | None = None) -> dict[str, Any]:
    """Resolve the open phase now (host) or at once because everyone has submitted (early close).

    `phase_number` (early close) asks only for that phase: if it has resolved meanwhile, the phase
    open now is not touched. A concurrent change (another submitter's request, a host act) is
    read again rather than reported: the request is made against the match as it is."""
    for _attempt in range(5):
        match = ports.store.get(match_id)
        unchanged = {"match_id": match_id, "status": match.status, "open": open_phase_summary(match)}
        phase = match.phase
        over = match.status != "running" or phase is None or phase.number != phase_number
        if phase_number is not None and over:
            return unchanged  # that phase is over (resolved, or the match ended or was cancelled)
        clock = _running(match)
        if clock.resolve_requested:  # asking twice changes nothing
            return unchanged
        now = ports.clock.now()
        event = Event("resolve_requested", now, {"reason": reason})
        try:
            saved = ports.store.save_clock(match, clock.request_resolution(now), event)
        except Conflict:
            continue
        _wake(ports, match_id)
        return {"match_id": match_id, "status": saved.status, "open": open_phase_summary(saved)}
    raise Conflict(f"match {match_id} kept changing; try again")


def resolve_now(ports: Ports, match_id: str) -> dict[str, Any]:
    return request_resolution(ports, match_id, reason="the host resolved the phase now")


def cancel(ports: Ports, match_id: str) -> dict[str, Any]:
    match = ports.store.get(match_id)
    if match.status != "running":
        raise NotOpen(f"the match is {match.status}")
    saved = ports.store.save_clock(match, match.phase, Event("cancelled", ports.clock.now()), cancel=True)
    _wake(ports, match_id)
    ports.notifier.publish(saved, clock_notice(saved, "the match is cancelled"))
    return {"match_id": match_id, "status": saved.status}
