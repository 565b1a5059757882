"""No execution outgrows Step Functions' history (at most 25,000 events): after 300 loops an
execution hands the match on to a fresh execution of the same machine and ends (continue-as-new,
service/matches/handover.py), and the match goes on as if nothing happened.

Counted on moto's interpreter running the committed ASL with its bound lowered to 50 loops (the
only difference, checked below), over a month of pause on the stack's virtual clock (no test
waits on the wall clock): 50 loops hand over as 300 do, at a sixth of the cost. That the
deployed machines hand over after 300 loops, and what that comes to, is read off their ASL.

By hand, from the ASL: a loop on which nothing fails is 13 history events (Advance: entered,
scheduled, started, succeeded, exited; Next phase: entered, exited; the phase's wait: entered,
scheduled, started, submitted, timed out or succeeded, exited). An execution that hands over after
L loops makes L Advances and L - 1 waits (the Lth Advance goes to "Hand over" instead of a wait),
starts and ends: 1 (started) + L x 7 + (L - 1) x 6 + 5 (Hand over, a Task) + 2 (Handed over, a
Succeed) + 1 (succeeded) events: 653 for L = 50, 3,903 for the deployed L = 300.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import push

from game_core.cli import asl
from game_core.games import registry
from local_stack.aws.faults import Fault, Plan, StepFaults

pytestmark = pytest.mark.statemachine

DAY = 86_400
HOUR = 3_600
MONTH = 30 * DAY
ORDER = [2, 1, 1, 0, -1, -1]
DEPLOYED_LOOPS = 300
"""The loops after which a deployed execution hands over (issue text and service/matches/handover.py)."""
TEST_LOOPS = 50
"""The bound of the machine this test runs: a month of pause at a look every 12 hours (60 looks)
passes it once, and the rest of the match (about 15 looks) does not pass it again."""
STEP_FUNCTIONS_MAX_EVENTS = 25_000


def handed_over_events(loops: int) -> int:
    """An execution that hands the match on after `loops` loops, by hand from the ASL (module docstring)."""
    return 1 + loops * 7 + (loops - 1) * 6 + 5 + 2 + 1


WOKEN_LOOP_EVENTS = 2 + 5 + 2 + 4
"""13: a parked wait woken by a host act (succeeded, exited), Advance (5), Next phase (2), and the
next wait up to where it parks (entered, scheduled, started, submitted)."""


def with_bound(stack: Any, loops: int) -> None:
    """The stack's crates machine rewritten from the generator with `loops` as its hand-over bound."""
    sfn = stack.client("stepfunctions")
    arn = stack.state_machines["crates"]
    deployed = json.loads(sfn.describe_state_machine(stateMachineArn=arn)["definition"])
    function = deployed["States"]["Advance"]["Parameters"]["FunctionName"]
    lowered = asl.render("crates", loops).replace("${PhaseStepFunctionArn}", function)
    sfn.update_state_machine(stateMachineArn=arn, definition=lowered)


def history_length(stack: Any, execution_arn: str) -> int:
    """How many events the execution's whole history holds (moto reads and serializes every one)."""
    history = stack.client("stepfunctions").get_paginator("get_execution_history").paginate(executionArn=execution_arn)
    return sum(len(page["events"]) for page in history)


def execution_arn(stack: Any, name: str) -> str:
    """The ARN of the crates machine's execution named `name`."""
    return f"{stack.state_machines['crates'].replace(':stateMachine:', ':execution:')}:{name}"


def executions(stack: Any, match_id: str) -> dict[str, dict[str, Any]]:
    """The match's executions by name, each with its status and its whole history's length."""
    sfn = stack.client("stepfunctions")
    found = {}
    for page in sfn.get_paginator("list_executions").paginate(stateMachineArn=stack.state_machines["crates"]):
        for execution in page["executions"]:
            if execution["name"].startswith(match_id):
                assert execution["executionArn"] == execution_arn(stack, execution["name"])
                events = history_length(stack, execution["executionArn"])
                found[execution["name"]] = {"status": execution["status"], "events": events}
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
    # Given the crates machine handing over after 50 loops, and a match never paused played to
    # its end (far fewer than 50 loops: one execution)
    with_bound(stack, TEST_LOOPS)
    never_paused = crates_match(2, phase_seconds=DAY, recheck_seconds=12 * HOUR, seed=29)
    play(never_paused)
    assert [run["status"] for run in executions(stack, never_paused.match_id).values()] == ["SUCCEEDED"]

    # When the same match is paused for a month at the start of Round 1, its machine looking
    # every 12 hours, and the hand-over's attempts fail the worst ways, once each: its start
    # applied and the reply lost, then its count's write refused, then that write applied and the
    # reply lost
    match = crates_match(2, phase_seconds=DAY, recheck_seconds=12 * HOUR, seed=29)
    first, second = match.match_id, f"{match.match_id}-h1"
    worst = (Fault("StartExecution", after=True), Fault("UpdateItem"), Fault("UpdateItem", after=True))
    faults = StepFaults(stack, each_attempt_failing(*worst))

    def a_month() -> None:
        match.advance(MONTH)
        # Then the machine has looked 63 times (the start, resolve now, the pause, 60 looks 12
        # hours apart), plus the second execution's first look: the first execution made 50 loops
        # and handed over with 653 events and 9 more for its three failed attempts (each failed,
        # scheduled again, started again); the second has made 14 so far: 1 + 14 x 7 + 13 x 6 and
        # its parked wait's 4 = 181. One execution was started, however often its start was tried.
        assert [(struck.step, struck.operation, struck.after) for struck in faults.injected] == [
            ("hand_over", fault.operation, fault.after) for fault in worst
        ]
        assert executions(stack, match.match_id) == {
            first: {"status": "SUCCEEDED", "events": handed_over_events(TEST_LOOPS) + 3 * 3},
            second: {"status": "RUNNING", "events": 1 + 14 * 7 + 13 * 6 + 4},
        }
        # And the store knows the current execution: recover finds it running and starts none
        refused = match.host("recover")
        assert (refused["ok"], refused["error"]) == (False, "Conflict"), refused

    play(match, a_month, current=lambda: history_length(stack, execution_arn(stack, second)))

    # Then it finished in the second execution, whose history stayed short, and its record and
    # result are the never-paused match's
    found = executions(stack, match.match_id)
    assert sorted(found) == [first, second] and found[second]["status"] == "SUCCEEDED"
    assert found[second]["events"] < handed_over_events(TEST_LOOPS)
    assert comparable(match.export()) == comparable(never_paused.export())


def hand_over_bound(definition: dict[str, Any]) -> int:
    """The loops after which a machine's "Next phase" routes to "Hand over"."""
    (bound,) = [
        choice["NumericGreaterThanEquals"]
        for choice in definition["States"]["Next phase"]["Choices"]
        if choice["Next"] == "Hand over" and choice["Variable"] == "$.loops"
    ]
    return int(bound)


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_every_deployed_machine_hands_over_after_300_loops_far_within_the_history_limit(game_id: str) -> None:
    # The committed ASL is what is deployed (match-asl --check keeps it the generator's output)
    committed = Path(__file__).parents[2] / "statemachines" / f"{game_id}.asl.json"
    deployed = json.loads(committed.read_text())
    assert hand_over_bound(deployed) == DEPLOYED_LOOPS
    # 1 + 300 x 7 + 299 x 6 + 5 + 2 + 1, by hand: 1 + 2,100 + 1,794 + 8 = 3,903 when nothing fails;
    # if both Tasks of every loop used their 6 retries (3 events each, service/matches/handover.py),
    # 300 x 36 = 10,800 more: 14,703, still far below Step Functions' 25,000
    assert handed_over_events(DEPLOYED_LOOPS) == 3_903
    assert handed_over_events(DEPLOYED_LOOPS) + DEPLOYED_LOOPS * 2 * 6 * 3 == 14_703 < STEP_FUNCTIONS_MAX_EVENTS
    # And the machine the hand-over test runs is this one but for its bound
    lowered = json.loads(asl.render(game_id, TEST_LOOPS))
    assert hand_over_bound(lowered) == TEST_LOOPS
    assert json.dumps(lowered).replace(f'": {TEST_LOOPS},', f'": {DEPLOYED_LOOPS},') == json.dumps(
        json.loads(asl.render(game_id))
    )
