"""Continue-as-new: a match's execution hands the match on to a fresh execution of the same state
machine before its history grows long (Step Functions keeps at most 25,000 events an execution).

The machine counts its loops (`Advance -> Next phase -> <the phase's wait>`) in its state: each
`advance` returns the count it was given plus one. Once an execution has made
`LOOPS_PER_EXECUTION` of them, "Next phase" routes to "Hand over" instead of the wait, which
starts `<execution>-h<n>` with the match id and ends. The new execution starts as every execution
does, with `Advance`, which reads the match from the store: the match and its record are untouched
(nothing is logged), and its first wait stores its own task token, so host acts and submissions
wake it from then on. The store keeps how many times this attempt handed over, so `recover` asks
Step Functions about the execution that is current.
"""

from __future__ import annotations

from typing import Any

from game_core.match.model import Match
from game_core.service.ports import Ports

EVENTS_PER_LOOP = 13
"""History events of one loop on which nothing fails: Advance (a lambda:invoke Task) enters,
is scheduled, starts, succeeds and exits (5); Next phase enters and exits (2); the wait (a
waitForTaskToken Task) enters, is scheduled, starts, is submitted, times out or succeeds, and
exits (6). tests/statemachine/test_handover.py counts them on moto."""
EVENTS_PER_RETRY = 3
"""A Task's failed attempt and its retry: failed, scheduled, started."""
RETRIES_PER_TASK = 6
"""`asl.RETRY`'s MaxAttempts: a loop's two Tasks add at most 2 x 6 x 3 = 36 events."""
LOOPS_PER_EXECUTION = 300
"""Loops after which an execution hands the match on: 300 x 13 = 3,900 events when nothing fails,
and 300 x (13 + 36) = 14,700 if every Task of every loop needed its six retries, plus a dozen for
the start and the hand-over itself: far below the 25,000 events Step Functions allows. With the
shortest recheck (`clock.MIN_RECHECK_SECONDS`, 5 minutes), 300 loops of a paused match last 25
hours: at most about one hand-over a day."""


def execution_name(match: Match, handovers: int) -> str:
    """`<match id>[-r<attempt>][-h<handovers>]`: fixed by the attempt and the hand-overs before it,
    so a retried start finds the execution it started (names the service makes stay far below
    Step Functions' 80 characters)."""
    return match.execution_name if handovers == 0 else f"{match.execution_name}-h{handovers}"


def hand_over(ports: Ports, match_id: str, handovers: int) -> dict[str, Any]:
    """Start the match's next execution (the `handovers + 1`th of this attempt), then remember it.
    Safe to retry: the next execution's name is fixed by the count the caller was started with,
    so a second start finds it running; the count written is the same number again."""
    match = ports.store.get(match_id)
    execution = ports.workflow.start(match, handovers + 1)
    ports.store.hand_over(match_id, match.attempt, handovers + 1)
    return {"match_id": match_id, "execution": execution}


def is_running(ports: Ports, match: Match) -> bool:
    """Whether the match's current execution runs: the one the store names, or the one it is
    handing over to (started, its count not yet written)."""
    handovers = ports.store.handovers(match.match_id, match.attempt)
    return ports.workflow.is_running(match, handovers) or ports.workflow.is_running(match, handovers + 1)
