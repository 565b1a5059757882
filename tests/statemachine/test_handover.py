"""No execution outgrows Step Functions' history (at most 25,000 events): after 300 loops an
execution hands the match on to a fresh execution of the same machine and ends (continue-as-new,
service/handover.py), and the match goes on as if nothing happened.

Counted on moto's interpreter running the committed ASL, over a month of pause on the stack's
virtual clock (no test waits on the wall clock).

By hand, from the ASL: a loop on which nothing fails is 13 history events (Advance: entered,
scheduled, started, succeeded, exited; Next phase: entered, exited; the phase's wait: entered,
scheduled, started, submitted, timed out or succeeded, exited). An execution that hands over makes
300 Advances and 299 waits (the 300th Advance goes to "Hand over" instead of a wait), starts
and ends: 1 (started) + 300 x 7 + 299 x 6 + 5 (Hand over, a Task) + 2 (Handed over, a Succeed)
+ 1 (succeeded) = 3,903 events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import push

from local_stack.faults import Fault, Plan, StepFaults

pytestmark = pytest.mark.statemachine

DAY = 86_400
HOUR = 3_600
MONTH = 30 * DAY
ORDER = [2, 1, 1, 0, -1, -1]
HANDED_OVER_EVENTS = 1 + 300 * 7 + 299 * 6 + 5 + 2 + 1
"""3,903: an execution that hands the match on, worked by hand from the ASL (module docstring)."""
WOKEN_LOOP_EVENTS = 2 + 5 + 2 + 4
"""13: a parked wait woken by a host act (succeeded, exited), Advance (5), Next phase (2), and the
next wait up to where it parks (entered, scheduled, started, submitted)."""


def executions(stack: Any, match_id: str) -> dict[str, dict[str, Any]]:
    """The match's executions by name, each with its status and its whole history's length."""
    sfn = stack.client("stepfunctions")
    found = {}
    for page in sfn.get_paginator("list_executions").paginate(stateMachineArn=stack.state_machines["crates"]):
        for execution in page["executions"]:
            if execution["name"].startswith(match_id):
                history = sfn.get_paginator("get_execution_history").paginate(executionArn=execution["executionArn"])
                events = [event for history_page in history for event in history_page["events"]]
                found[execution["name"]] = {"status": execution["status"], "events": len(events)}
    return found


def play(match: Any, paused: Callable[[], None] | None = None, current: Callable[[], int] | None = None) -> None:
    """The same moves and host acts in both matches; one is paused at the start of Round 1 while
    `paused` lets the clock run. `current` (the current execution's events, for the paused one)
    shows that each host act after the pause woke it: one loop each, no time passing."""
    for player in ("p1", "p2"):
        assert match.multipliers(player, ORDER)[0] == 200
    match.resolve_now()  # Round 1 opens, a day long
    acts: list[dict[str, Any]] = [{"command": "extend", "seconds": HOUR}]
    if paused is not None:
        assert match.host("pause")["open"]["paused"] is True
        paused()
        acts.insert(0, {"command": "resume"})
    for act in acts:
        before = current() if current else 0
        assert match.host(**act)["ok"]
        assert (current() - before if current else WOKEN_LOOP_EVENTS) == WOKEN_LOOP_EVENTS, act
    assert match.turn("p1", "Round 1", push("p1", times=2), "ice")[0] == 200
    match.advance(DAY + HOUR)  # Round 1's deadline, extended
    match.wait_resolved(2)
    assert match.turn("p2", "Round 2", push("p2", times=3), "stone")[0] == 200
    for _round in range(2, 7):
        match.advance(DAY)
    assert match.wait_for_execution() == "SUCCEEDED"


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """What a paused match's record shares with the same match never paused: every phase's record
    (bar the receipts' random salts), the status and the result."""
    phases = [{key: value for key, value in phase.items() if key != "salts"} for phase in record["phases"]]
    return {"phases": phases, "status": record["status"], "result": record["result"]}


def each_attempt_failing(*faults: Fault) -> Plan:
    """The hand-over's attempts, each failing with the next of `faults` until none is left."""
    left = list(faults)

    def plan(_index: int, event: dict[str, Any], _retry: bool) -> Fault | None:
        return left.pop(0) if event.get("step") == "hand_over" and left else None

    return plan


def test_a_month_of_pause_hands_the_match_on_once_and_it_finishes_as_if_never_paused(stack, crates_match) -> None:
    # Given a match never paused, played to its end (far fewer than 300 loops: one execution)
    never_paused = crates_match(2, phase_seconds=DAY, recheck_seconds=2 * HOUR, seed=29)
    play(never_paused)
    assert [run["status"] for run in executions(stack, never_paused.match_id).values()] == ["SUCCEEDED"]

    # When the same match is paused for a month at the start of Round 1, its machine looking every
    # two hours, and the hand-over's attempts fail the worst ways, once each: its start applied and
    # the reply lost, then its count's write refused, then that write applied and the reply lost
    match = crates_match(2, phase_seconds=DAY, recheck_seconds=2 * HOUR, seed=29)
    first, second = match.match_id, f"{match.match_id}-h1"
    worst = (Fault("StartExecution", after=True), Fault("UpdateItem"), Fault("UpdateItem", after=True))
    faults = StepFaults(stack, each_attempt_failing(*worst))

    def a_month() -> None:
        match.advance(MONTH)
        # Then the machine has looked 363 times (the start, resolve now, the pause, 360 looks two
        # hours apart), plus the second execution's first look: the first execution made 300 loops
        # and handed over with 3,903 events and 9 more for its three failed attempts (each failed,
        # scheduled again, started again); the second has made 64 so far: 1 + 64 x 7 + 63 x 6 and
        # its parked wait's 4 = 831. One execution was started, however often its start was tried.
        assert [(struck.step, struck.operation, struck.after) for struck in faults.injected] == [
            ("hand_over", fault.operation, fault.after) for fault in worst
        ]
        assert executions(stack, match.match_id) == {
            first: {"status": "SUCCEEDED", "events": HANDED_OVER_EVENTS + 3 * 3},
            second: {"status": "RUNNING", "events": 1 + 64 * 7 + 63 * 6 + 4},
        }
        # And the store knows the current execution: recover finds it running and starts none
        refused = match.host("recover")
        assert (refused["ok"], refused["error"]) == (False, "Conflict"), refused

    play(match, a_month, current=lambda: executions(stack, match.match_id)[second]["events"])

    # Then it finished in the second execution, whose history stayed short, and its record and
    # result are the never-paused match's
    found = executions(stack, match.match_id)
    assert sorted(found) == [first, second] and found[second]["status"] == "SUCCEEDED"
    assert found[second]["events"] < HANDED_OVER_EVENTS
    assert comparable(match.export()) == comparable(never_paused.export())
