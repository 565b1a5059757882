"""A host act whose notice fails on the real adapters (moto's SNS and SES, one call refused once)
is stored, says so, and is told when the host sends the same command again: each subscriber's
queue and each address get the notice once, the act is not applied twice, and a third send tells
nothing."""

from __future__ import annotations

from collections import Counter
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


@pytest.mark.parametrize(("command", "fields"), [("extend", {"seconds": 600}), ("pause", {})], ids=["extend", "pause"])
@pytest.mark.parametrize("operation", ["PublishBatch", "SendEmail"])
def test_a_host_act_whose_notice_failed_is_told_once_when_sent_again(
    stack: Any, command: str, fields: dict[str, Any], operation: str
) -> None:
    inbox = stack.subscribe(["p1", "p2"])
    request = crates_request(2)
    for player in request["players"]:
        player["email"] = ADDRESSES[player["id"]]
    created = stack.host({"command": "create", "match": request})
    assert created["ok"], created
    match_id = created["match_id"]
    stack.settle()
    inbox.receive(None)  # the opening notices, read
    deadline = stack.host({"command": "status", "match_id": match_id})["open"]["deadline"]
    sent = len(stack.outbox.sent)
    fault = RefusedOnce(stack, operation)

    # When the act is stored (version 2: the match was stored at 1) but its notice fails
    act = {"command": command, "match_id": match_id, **fields}
    first = stack.host(act)
    assert first["ok"] and first["notice_sent"] is False and fault.struck == 1
    assert "send the same command again" in first["warning"]

    # Then the same command again tells the rest: the public notice once, each address once
    again = stack.host(act)
    assert again["ok"] and again["changed"] is False and "notice_sent" not in again
    assert [notice["notice_id"] for notice in inbox.receive(None)] == [f"{match_id}/v2/@all"]
    assert mailed(stack, sent) == dict.fromkeys(ADDRESSES.values(), 1)

    # And a third tells nothing, and the act stands once
    third = stack.host(act)
    assert third["ok"] and third["changed"] is False
    assert inbox.receive(None) == [] and mailed(stack, sent) == dict.fromkeys(ADDRESSES.values(), 1)
    status = stack.host({"command": "status", "match_id": match_id})
    logged = [event.type for event in stack.ports().store.events(match_id)]
    assert logged.count({"extend": "extended", "pause": "paused"}[command]) == 1
    held = timedelta(seconds=fields.get("seconds", 0))  # an extend's 600 s once, not twice; a pause moves none
    assert datetime.fromisoformat(status["open"]["deadline"]) == datetime.fromisoformat(deadline) + held
