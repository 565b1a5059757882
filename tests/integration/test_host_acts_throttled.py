"""A host act that AWS throttles past botocore's retries answers the host with a clear `ok: false`
saying what to do, never an unhandled ClientError (issue 29: seen with `cancel`), and what it says
is true: the same command sent again is applied once.

Each act runs once cleanly on a fresh match, to learn which AWS calls it makes; then, for each of
those operations, on another fresh match, every call of it during the act fails as a throttle
does (before it reaches AWS: retries cannot mend it), and the act is sent again with AWS back.
The match then ends as the clean run left its own: the same log entries, status and clock."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from botocore.exceptions import ClientError
from conftest import load_event

pytestmark = pytest.mark.statemachine

THROTTLES = {
    "dynamodb": "ProvisionedThroughputExceededException",
    "sns": "Throttling",
    "sesv2": "TooManyRequestsException",
    "stepfunctions": "ThrottlingException",
}
"""Each service's code for "too many requests" (what botocore gives up on after its retries)."""


class ThrottledHostCommands:
    """While the host-commands function runs (not the state machine's steps, run by other
    threads), every call of `operation` fails as throttled; `made` lists every call it made."""

    def __init__(self, stack: Any, operation: str | None) -> None:
        self.operation = operation
        self.made: list[str] = []
        self._running = threading.local()
        self._handlers = stack.lambdas.handlers
        self._real = self._handlers["HostCommandsFunction"]
        self._handlers["HostCommandsFunction"] = self._invoke
        self._clients = stack.port_clients()
        for client in self._clients:
            client.meta.events.register("before-call", self._before)

    def __enter__(self) -> ThrottledHostCommands:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._handlers["HostCommandsFunction"] = self._real
        for client in self._clients:
            client.meta.events.unregister("before-call", self._before)

    def _invoke(self, event: dict[str, Any], context: Any) -> Any:
        self._running.on = True
        try:
            return self._real(event, context)
        finally:
            self._running.on = False

    def _before(self, model: Any, **_kwargs: Any) -> None:
        if not getattr(self._running, "on", False):
            return
        self.made.append(model.name)
        if model.name == self.operation:
            code = THROTTLES[model.service_model.service_name]
            error = {"Code": code, "Message": "Rate exceeded (injected)"}
            raise ClientError({"Error": error, "ResponseMetadata": {"HTTPStatusCode": 400}}, model.name)


def live(stack: Any) -> str:
    created = stack.host(load_event("host_create.json"))
    assert created["ok"], created
    stack.settle()
    return str(created["match_id"])


def paused(stack: Any) -> str:
    match_id = live(stack)
    assert stack.host(load_event("host_pause.json", match_id))["ok"]
    return match_id


def not_started(stack: Any) -> str:
    """A match whose state machine did not start (Step Functions throttled at its creation)."""
    with ThrottledHostCommands(stack, "StartExecution"):
        created = stack.host(load_event("host_create.json"))
    assert created["ok"] and created["execution"] is None, created
    return str(created["match_id"])


ACTS: dict[str, Callable[[Any], str]] = {
    "status": live,
    "export": live,
    "extend": live,
    "pause": live,
    "resume": paused,
    "resolve_now": live,
    "cancel": live,
    "press": live,
    "press_mode": live,
    "reissue_secret": live,
    "replace": live,
    "graces": live,
    "recover": not_started,
}
"""Each act (its sample event in events/) and how to make a match it takes."""


def outcome(stack: Any, match_id: str) -> tuple[Any, ...]:
    """What the act left, the same for every match the sample events make at one instant: the
    log's entries by type, the status, the open phase's clock, and whether its execution runs.
    A recovery whose execution did not start is logged all the same, and the next `recover` is
    another attempt (as after any stop): what counts for it is the one execution running."""
    ports = stack.ports()
    match = ports.store.get(match_id)
    logged = Counter(event.type for event in ports.store.events(match_id) if event.type != "recovered")
    clock = match.phase.model_dump(mode="json") if match.phase else None
    running = ports.workflow.is_running(match)
    return logged, match.status, clock, running


@pytest.mark.parametrize("act", ACTS)
def test_a_throttled_host_act_says_what_to_do_and_sent_again_is_applied_once(stack: Any, act: str) -> None:
    prepare = ACTS[act]
    # The act run cleanly: the AWS calls it makes, and what it leaves
    match_id = prepare(stack)
    with ThrottledHostCommands(stack, None) as watched:
        clean = stack.host(load_event(f"host_{act}.json", match_id))
    assert clean["ok"], clean
    stack.settle()
    expected = outcome(stack, match_id)
    operations = list(dict.fromkeys(watched.made))
    assert operations, "the act made no AWS call"

    for operation in operations:
        # Given a fresh match, when every call of one operation in the act is throttled
        match_id = prepare(stack)
        command = load_event(f"host_{act}.json", match_id)
        with ThrottledHostCommands(stack, operation):
            reply = stack.host(command)  # a function error would raise here (RuntimeError)

        # Then the act either absorbed it (ok, as a notice that failed is), or the host is told
        # AWS throttled which call, and to send the same command again
        if not reply["ok"]:
            assert reply["error"] == "Unavailable", (operation, reply)
            assert f"({operation}: " in reply["message"], reply
            assert "did not finish: send the same command again" in reply["message"], reply
            assert "nothing is applied twice" in reply["message"], reply
            assert reply["retry_after"] == 5
        # And sent again with AWS back, as the reply says (a refusal, or a warning asking for it),
        # it is applied once: the match ends as the clean run's did
        if not reply["ok"] or "again" in reply.get("warning", ""):
            again = stack.host(command)
            assert again["ok"], (operation, again)
        stack.settle()
        assert outcome(stack, match_id) == expected, (operation, reply)
