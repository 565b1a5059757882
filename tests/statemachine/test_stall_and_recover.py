"""Nothing strands a match: a step that keeps failing ends the execution in Stalled, which records
why and tells the host; `recover` starts a new execution that continues from the stored match,
resolves nothing twice, and first announces what the stalled one resolved but never told."""

from __future__ import annotations

import pytest
from conftest import host_alerts, load_event

from local_stack.aws.faults import StepFaults, always

pytestmark = pytest.mark.statemachine
ORDER = [2, 1, 1, 0, -1, -1]


@pytest.mark.parametrize(("operation", "resolved"), [("TransactWriteItems", 0), ("PublishBatch", 1)])
def test_a_step_that_keeps_failing_stalls_the_match_and_recover_continues_it(
    stack, crates_match, operation, resolved
) -> None:
    # Given a match whose resolutions (TransactWriteItems) or announcements (PublishBatch) fail
    # at every attempt (a throttle or an SNS error that never ends)
    alerts = host_alerts(stack)
    match = crates_match(2)
    inbox = stack.subscribe(["p1", "p2"], match.match_id)
    assert match.multipliers("p1", ORDER)[0] == 200
    faults = StepFaults(stack, always(operation))

    # When the host resolves the pregame now
    assert match.host("resolve_now")["ok"]

    # Then after its retries (1 + 6 attempts) the execution stops in Stalled, and fails
    assert match.wait_for_execution() == "FAILED"
    assert [(struck.step, struck.operation) for struck in faults.injected] == [("advance", operation)] * 7
    (stalled,) = match.events("stalled")
    assert stalled.data["error"] == "ClientError"
    assert f"{operation} failed (injected)" in stalled.data["cause"]
    status = match.status()
    assert status["stalled"]["error"] == "ClientError"
    assert status["status"] == "running"
    # ...the host is told (the players are not), and nothing was announced
    (alert,) = alerts()
    assert (alert["match_id"], alert["stalled"]["error"]) == (match.match_id, "ClientError")
    assert "recover" in alert["subject"]
    assert [notice["subject"] for notice in inbox.receive("p1")] == []
    assert status["phases_resolved"] == resolved
    # ...and a host act meanwhile is stored, with a word that only `recover` will act on it
    assert "recover" in match.host("extend", seconds=60)["warning"]

    # When the fault is mended and the host recovers the match
    faults.stop()
    recovered = stack.host(load_event("host_recover.json", match.match_id))  # the console's sample event

    # Then a new execution continues it: the pregame is resolved once, announced once, Round 1 open
    assert recovered["ok"], recovered
    assert recovered["execution"].endswith(f":{match.match_id}-r1")
    status = match.wait_resolved(1)
    assert status["open"]["phase"] == "Round 1"
    assert "stalled" not in status
    assert len(match.export()["phases"]) == 1
    assert [event.data["number"] for event in match.events("phase_resolved")] == [1]
    subjects = [notice["subject"] for notice in inbox.receive("p1")]
    assert subjects == [f"[{match.match_id}] Pregame resolved; Round 1 is open"]
    assert match.wait_for_execution() == "RUNNING"

    # And recovering a running match is refused
    again = match.host("recover")
    assert (again["ok"], again["error"]) == (False, "Conflict")
