"""What a paused match costs in Step Functions, a day at a time (issue 29): a paused machine wakes
only to look at the clock again, every `recheck_seconds`; each look is a loop of three billed
transitions, and every 300 loops the execution hands the match on to a fresh one
(service/matches/handover.py). Counted on the local stack (the real ASL on moto, a virtual clock): the
states entered in a paused day by every execution of the match."""

from __future__ import annotations

from typing import Any

from benchmarks.costs import PRICES
from game_core.match.clock import MIN_RECHECK_SECONDS
from game_core.service.matches.handover import LOOPS_PER_EXECUTION
from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack

DAY = 86_400
RECHECKS = (DAY, 3_600, MIN_RECHECK_SECONDS)
"""The default recheck, an hour, and the shortest a match may have."""


def entered(stack: LocalStack, match_id: str) -> int:
    """The states entered by every execution of the match so far (billed transitions)."""
    sfn = stack.client("stepfunctions")
    count = 0
    for page in sfn.get_paginator("list_executions").paginate(stateMachineArn=stack.state_machines["crates"]):
        for execution in page["executions"]:
            if execution["name"].startswith(match_id):
                history = sfn.get_paginator("get_execution_history").paginate(executionArn=execution["executionArn"])
                count += sum("stateEnteredEventDetails" in event for part in history for event in part["events"])
    return count


def paused_day(recheck_seconds: int) -> int:
    """The transitions of one whole day of a paused Crates match looking every `recheck_seconds`."""
    with LocalStack(games=("crates",), clock=VirtualClock()) as stack:
        request: dict[str, Any] = {
            "game": "crates",
            "players": [{"id": "p1"}, {"id": "p2"}],
            "phase_seconds": DAY,
            "recheck_seconds": recheck_seconds,
            "seed": 2026,
        }
        match_id = stack.host({"command": "create", "match": request})["match_id"]
        stack.host({"command": "pause", "match_id": match_id})
        stack.settle()
        before = entered(stack, match_id)
        stack.advance(DAY)
        transitions = entered(stack, match_id) - before
        stack.host({"command": "cancel", "match_id": match_id})
        stack.settle()
    return transitions


def report() -> None:
    print(f"a paused match, a day at a time (an execution hands the match on every {LOOPS_PER_EXECUTION} loops)")
    for recheck in RECHECKS:
        transitions = paused_day(recheck)
        month = 30 * transitions * PRICES["transition"]
        handovers = 30 * (DAY // recheck) // LOOPS_PER_EXECUTION
        print(
            f"  recheck_seconds {recheck:>6}: {transitions:4} transitions a paused day, "
            f"${month:.4f} a paused month, {handovers} hand-overs a paused month (300 loops each)"
        )
