"""A host act whose notice fails on the real adapters (moto's SNS and SES, one call refused once)
is stored, says so, and is told when the host sends the same command again: each subscriber's
queue gets each notice once and each address its mail once, the act is not applied twice, and a
third send tells nothing."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
from botocore.exceptions import ClientError
from conftest import crates_request

ADDRESSES = {"p1": "p1@example.com", "p2": "p2@example.com"}


class RefusedOnce:
    """The first call of `operation` by the stack's own clients fails before it reaches the service."""

    def __init__(self, stack: Any, operation: str) -> None:
        self.operation, self.struck = operation, 0
        for client in stack.port_clients():
            client.meta.events.register("before-call", self._before)

    def _before(self, model: Any, **_kwargs: Any) -> None:
        if model.name == self.operation and not self.struck:
            self.struck += 1
            raise ClientError({"Error": {"Code": "InternalError", "Message": "injected"}}, self.operation)


def mailed(stack: Any, since: int) -> Counter[str]:
    return Counter(mail.to for mail in stack.outbox.sent[since:])


def delivered(inbox: Any) -> dict[str | None, list[str]]:
    """The notice ids each queue (None: the public's) got since the last read."""
    return {queue: [notice["notice_id"] for notice in inbox.receive(queue)] for queue in (None, "p1", "p2")}


@dataclass(frozen=True)
class HostAct:
    fields: dict[str, Any]
    logged: str
    told: dict[str | None, list[str]]
    """The ids each queue gets (after the match id; the act is stored at version 2)."""
    held: int = 0
    """The seconds the act moves the deadline by."""


PUBLIC = {None: ["v2/@all"], "p1": [], "p2": []}
HOST_ACTS = {
    "extend": HostAct({"command": "extend", "seconds": 600}, "extended", PUBLIC, held=600),
    "pause": HostAct({"command": "pause"}, "paused", PUBLIC),
    "press_mode": HostAct({"command": "press_mode", "mode": "off"}, "press_mode", PUBLIC),
    # Graces are told to each participant privately
    "graces": HostAct(
        {"command": "graces", "left": 2, "seconds": 3600},
        "graces_set",
        {None: [], "p1": ["graces-v2/p1"], "p2": ["graces-v2/p2"]},
    ),
}


@pytest.mark.parametrize("act", HOST_ACTS.values(), ids=HOST_ACTS)
@pytest.mark.parametrize("operation", ["PublishBatch", "SendEmail"])
def test_a_host_act_whose_notice_failed_is_told_once_when_sent_again(stack: Any, act: HostAct, operation: str) -> None:
    inbox = stack.subscribe(["p1", "p2"])
    request = crates_request(2)
    for player in request["players"]:
        player["email"] = ADDRESSES[player["id"]]
    created = stack.host({"command": "create", "match": request})
    assert created["ok"], created
    match_id = created["match_id"]
    stack.settle()
    delivered(inbox)  # the opening notices, read
    deadline = stack.host({"command": "status", "match_id": match_id})["open"]["deadline"]
    sent = len(stack.outbox.sent)
    fault = RefusedOnce(stack, operation)

    # When the act is stored (version 2: the match was stored at 1) but its notice fails
    command = act.fields | {"match_id": match_id}
    first = stack.host(command)
    assert first["ok"] and first["notice_sent"] is False and fault.struck == 1
    assert "send the same command again" in first["warning"]

    # Then the same command again tells the rest: each notice once, each address once
    again = stack.host(command)
    assert again["ok"] and again["changed"] is False and "notice_sent" not in again
    told = {queue: [f"{match_id}/{notice}" for notice in notices] for queue, notices in act.told.items()}
    assert delivered(inbox) == told
    assert mailed(stack, sent) == dict.fromkeys(ADDRESSES.values(), 1)

    # And a third tells nothing, and the act stands once
    third = stack.host(command)
    assert third["ok"] and third["changed"] is False
    assert delivered(inbox) == {None: [], "p1": [], "p2": []}
    assert mailed(stack, sent) == dict.fromkeys(ADDRESSES.values(), 1)
    status = stack.host({"command": "status", "match_id": match_id})
    logged = [event.type for event in stack.ports().store.events(match_id)]
    assert logged.count(act.logged) == 1
    held = timedelta(seconds=act.held)  # an extend's 600 s once, not twice; the others move none
    assert datetime.fromisoformat(status["open"]["deadline"]) == datetime.fromisoformat(deadline) + held
