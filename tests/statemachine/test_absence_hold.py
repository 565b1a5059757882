"""An announced absence on the local stack: the webhook's action stored on DynamoDB's header, and
the deadline it holds re-arming the real state machine's wait, which lets the old deadline pass
and resolves the phase at the held one (counted by the virtual clock, never timed)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from game_core.match.clock import iso
from local_stack.bots.runner import send_action

pytestmark = pytest.mark.statemachine

HOUR = 3600


def test_a_deadline_held_by_an_absence_is_the_one_the_machine_waits_for(crates_match) -> None:
    match = crates_match(2, reminders=[])  # the Pregame closes an hour from now
    now = match.now()
    # p1 is away from now for two hours: the deadline, an hour from now, falls in it and moves to
    # its end plus the default 24-hour margin, 26 hours from now: held 25 hours.
    action = {"from": iso(now), "to": iso(now + timedelta(hours=2))}
    reply = send_action(match.stack, match.match_id, "p1", match.secrets["p1"], "absence", action)
    assert (reply["accepted"], reply["deadline_held"]) == (True, True) and "wake_pending" not in reply
    match.stack.settle()
    status = match.status()
    assert status["open"]["deadline"] == iso(now + timedelta(hours=26))
    assert (status["open"]["held_for"], status["phases_resolved"]) == (["p1"], 0)

    match.advance(HOUR + 60)  # past the old deadline: the machine waits on
    assert match.status()["phases_resolved"] == 0 and match.events("phase_resolved") == []
    match.advance(25 * HOUR)
    status = match.wait_resolved(1)
    (resolved,) = match.events("phase_resolved")
    assert resolved.at == now + timedelta(hours=26) and resolved.data["timed_out"] is True
    [record] = match.export()["phases"]
    assert record["extension_seconds"] == 25 * HOUR
