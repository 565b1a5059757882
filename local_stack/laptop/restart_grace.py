"""What a restart of the host server does to a phase whose deadline passed while it was down
(bin/host-server --on-restart grace): which phases reopen, and what everyone is told."""

from __future__ import annotations

from datetime import datetime, timedelta

from game_core.match.clock import PhaseClock, day_text, duration_text


def overdue_while_down(phase: PhaseClock, accepting: bool, down_since: datetime | None, now: datetime) -> bool:
    """Whether a restart's grace applies to a running match's open phase: its deadline passed
    while the server was down (after it was last seen alive, when that is known), and no
    resolution had begun (none requested, the store still accepting), nor was it paused (a paused
    clock has no deadline)."""
    return (
        accepting
        and not phase.resolve_requested
        and not phase.paused
        and phase.deadline <= now
        and (down_since is None or phase.deadline > down_since)
    )


def reopening_text(phase: str, down_since: datetime | None, now: datetime, grace_seconds: int) -> str:
    """What every participant is told when a restart reopens their phase."""
    down = f"from {day_text(down_since)} " if down_since is not None else ""
    until = day_text(now + timedelta(seconds=grace_seconds))
    return (
        f"The host's server was down {down}to {day_text(now)}; {phase} reopens for "
        f"{duration_text(grace_seconds)}, until {until}."
    )
