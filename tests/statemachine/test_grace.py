"""A grace on the local stack: the real state machine, at the deadline, holds the phase for the
late player's grace (stored on DynamoDB's header, shown by status), resolves it as soon as that
move arrives, and at the end of a hold whose move never comes resolves it timed out. What SNS
delivered of the holds names the late to everyone and tells each late one their own count alone."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from conftest import CratesMatch, crates_request

pytestmark = pytest.mark.statemachine

ORDER = [2, 1, 1, 0, -1, -1]
ROUND = {"pushes": [], "ground": "stone"}


def test_the_machine_holds_a_deadline_for_a_grace_then_resolves_early_or_at_the_hold_end(stack) -> None:
    # p1 and p2, phases of an hour, one grace of 10 minutes each
    request = crates_request(2, phase_seconds=3600) | {"graces": 1, "grace_seconds": 600}
    inbox = stack.subscribe(["p1", "p2"])
    created = stack.host({"command": "create", "match": request})
    stack.settle()
    match = CratesMatch(stack, created["match_id"], created["secrets"], ["p1", "p2"], created)
    deadline = match.status()["open"]["deadline"]
    assert match.multipliers("p2", ORDER)[0] == 200

    # The hour passes with p1's multipliers missing: held 10 minutes for p1's grace
    match.advance(3600)
    stack.settle()
    status = match.status()
    assert (status["phases_resolved"], status["open"]["grace_held"]) == (0, ["p1"])
    assert status["graces_left"] == {"p1": 0, "p2": 1}
    assert status["open"]["deadline"] > deadline  # 13:10 after 13:00 (ISO strings compare as times)

    # p1's move arrives in the hold: the machine is woken and resolves at once, not timed out
    assert match.multipliers("p1", ORDER)[0] == 200
    status = match.wait_resolved(1)
    (pregame,) = match.events("phase_resolved")
    assert pregame.data["timed_out"] is False and status["open"]["phase"] == "Round 1"

    # Round 1: both late; only p2 has a grace. Its 10 minutes end with no move: timed out
    match.advance(3600)
    stack.settle()
    assert match.status()["open"]["grace_held"] == ["p2"]
    match.advance(600)
    status = match.wait_resolved(2)
    round_1 = match.events("phase_resolved")[1]
    assert round_1.data["timed_out"] is True and status["graces_left"] == {"p1": 0, "p2": 0}
    held = match.events("grace_held")
    assert [(event.data["late"], event.data["graced"]) for event in held] == [(["p1"], ["p1"]), (["p1", "p2"], ["p2"])]
    assert held[1].at + timedelta(seconds=600) <= round_1.at

    # Told on SNS: publicly who is late and who the hold is for, and nothing anyone sent ...
    public = [message for message in inbox.receive(None) if "grace_hold" in message]
    assert [(m["grace_hold"]["late"], m["grace_hold"]["graced"]) for m in public] == [
        (["p1"], ["p1"]),
        (["p1", "p2"], ["p2"]),
    ]
    secrets = set(created["secrets"].values())
    for message in public:
        text = json.dumps(message)
        assert "you" not in message and "view" not in message and "graces_left" not in message
        assert json.dumps(ORDER) not in text and not any(secret in text for secret in secrets)
    # ... and privately to each late one, their own count (p2 was late only in Round 1)
    for player, counts in (("p1", [0, 0]), ("p2", [0])):
        own = [message for message in inbox.receive(player) if "grace_hold" in message]
        assert [(m["you"], m["graces_left"]) for m in own] == [(player, count) for count in counts]
        assert not any(secret in json.dumps(own) for secret in secrets)
