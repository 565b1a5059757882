"""A stack leaves no step running behind it. moto's backends are the process's: a state machine's
thread still between waits when its stack exits would run its next step after the mock stopped,
against moto reset (no table: ResourceNotFoundException) or against the next stack of the same
pytest worker (its handlers, its table). That made tests pass alone and fail beside others
(tests/integration/test_host_season_page.py under -n 2), so exiting settles the stack first."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from functools import partial

import pytest
from conftest import crates_request

from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack

pytestmark = pytest.mark.statemachine


@pytest.fixture
def environment() -> Iterator[None]:
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def test_a_match_just_created_is_parked_when_its_stack_exits(environment) -> None:
    clock = VirtualClock()
    with LocalStack(games=("crates",), clock=clock) as stack:
        created = stack.host({"command": "create", "match": crates_request(3)})
        assert created["ok"], created
        # not settled: the execution's first steps are under way as the stack exits
        running = stack.running_executions()
        assert len(running) == 1
    assert clock.busy(running) == []  # its thread waits on the closed clock for good, no step under way


def stuck(monkeypatch: pytest.MonkeyPatch) -> LocalStack:
    """A started stack whose one execution never parks (its settle gives up at once, not in 60 s)."""
    stack = LocalStack(games=(), clock=VirtualClock()).__enter__()
    monkeypatch.setattr(stack.clock, "busy", lambda running: ["arn:stuck"])
    monkeypatch.setattr(stack, "settle", partial(LocalStack.settle, stack, 0.0))
    return stack


def test_a_stack_that_cannot_settle_says_so_at_exit(environment, monkeypatch) -> None:
    """A step that never parks is named at exit (a defect of the test or the stack), not left to
    run into the next test; but a test already failing keeps its own error."""
    stack = stuck(monkeypatch)
    with pytest.raises(TimeoutError, match="arn:stuck"):
        stack.__exit__(None, None, None)
    again = stuck(monkeypatch)
    failing = ValueError("the test's own error")
    again.__exit__(ValueError, failing, None)  # no TimeoutError over the test's error


def test_a_stop_lets_the_invocation_under_way_finish_its_telling_and_runs_no_new_one(environment) -> None:
    # Given a match of three players with an address, its machine parked
    request = crates_request(["ada", "bo", "cy"], phase_seconds=7 * 86400, reminders=[])
    request["players"] = [{"id": who, "email": f"{who}@example.com"} for who in ("ada", "bo", "cy")]
    stack = LocalStack(games=("crates",), clock=VirtualClock()).__enter__()
    held, go_on = threading.Event(), threading.Event()
    stopping: threading.Thread | None = None
    replies: list[dict[str, object]] = []
    try:
        match_id = stack.host({"command": "create", "match": request})["match_id"]
        stack.settle()
        opened = len(stack.outbox.sent)

        # When the host presses, held once its first letter is out (as a step telling a resolution
        # is, on the wall clock, when bin/host-server is stopped), and the stack stops meanwhile
        def first_held(_mail: object) -> None:
            if not held.is_set():
                held.set()
                assert go_on.wait(60)

        stack.outbox.relay = first_held
        press = {"command": "press", "match_id": match_id, "text": "Back at 8"}
        pressing = threading.Thread(target=lambda: replies.append(stack.host(press)))
        pressing.start()
        assert held.wait(60)
        stopping = threading.Thread(target=stack.__exit__, args=(None, None, None))
        stopping.start()
        assert stack.lambdas.closing.wait(60)  # the stop has begun: it waits for the press
        status = json.dumps({"command": "status", "match_id": match_id})
        asked_while_stopping = stack.lambdas.invoke("HostCommandsFunction", status)
        go_on.set()
        pressing.join(60)
        stopping.join(60)
    finally:
        go_on.set()
        if stopping is None:
            stack.__exit__(None, None, None)

    # Then the press told all three before moto stopped (cut, a machine's step would be told again
    # in full after the restart), and what was asked once the stop began was not run
    (reply,) = replies
    assert reply["ok"], reply
    assert [mail.to for mail in stack.outbox.sent[opened:]] == ["ada@example.com", "bo@example.com", "cy@example.com"]
    assert not stopping.is_alive()
    payload, errored, _ = asked_while_stopping
    assert errored and json.loads(payload)["errorType"] == "Stopping"
