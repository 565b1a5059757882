"""The phase clock on the real state machine (the committed ASL, run by moto's interpreter).

A phase opens, gets a deadline, and resolves exactly once; the running execution honours every
change the host makes after it started: extend, pause/resume, resolve now, cancel. Early close
resolves as soon as every participant who can act has submitted. Times are whole UTC seconds
(the service's clock), so "not before the deadline" is an exact comparison.

The stack runs on a virtual clock: time passes only when a test advances it, the machine's waits
time out exactly then, and the handlers read the same clock, so a deadline is met to the second
however slow the machine is.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from conftest import push

pytestmark = pytest.mark.statemachine

ORDER = [2, 1, 1, 0, -1, -1]


def parse(moment: str) -> datetime:
    return datetime.fromisoformat(moment.replace("Z", "+00:00"))


def resolutions(match) -> list:
    return match.events("phase_resolved")


def record_of(match, name: str) -> dict:
    (record,) = [phase for phase in match.export()["phases"] if phase["name"] == name]
    return record


def test_a_phase_resolves_by_itself_at_its_deadline_and_the_next_one_opens(crates_match) -> None:
    # Given a match whose phases last 2 s, and nobody submitting
    match = crates_match(2, phase_seconds=2)
    deadline = parse(match.created["open"]["deadline"])
    assert deadline == match.now() + timedelta(seconds=2)

    # When a second passes, nothing is due yet
    match.advance(1)
    assert match.status()["phases_resolved"] == 0

    # When the deadline passes
    match.advance(1)
    status = match.wait_resolved(1)

    # Then the pregame resolved once, at its deadline, as timed out
    (resolved,) = resolutions(match)
    assert resolved.at == deadline
    assert resolved.data["phase"] == "Pregame" and resolved.data["timed_out"] is True
    assert record_of(match, "Pregame")["timed_out"] is True
    # And Round 1 opened then, for its own 2 s
    assert status["open"]["phase"] == "Round 1"
    assert parse(status["open"]["deadline"]) == resolved.at + timedelta(seconds=2)

    # And it too resolves at its own deadline
    match.advance(2)
    match.wait_resolved(2)
    second = resolutions(match)[1]
    assert second.data["phase"] == "Round 1"
    assert second.at == parse(status["open"]["deadline"])


def test_an_extension_made_mid_phase_is_honoured(crates_match) -> None:
    # Given a 2 s phase whose state machine is already waiting on the old deadline
    match = crates_match(2, phase_seconds=2)
    old = parse(match.created["open"]["deadline"])
    match.wait_for_token()

    # When the host extends it by 2 s
    extended = match.host("extend", seconds=2)
    new = parse(extended["open"]["deadline"])
    assert new == old + timedelta(seconds=2)

    # Then nothing resolves at the old deadline, nor a second after it ...
    match.advance(3)
    assert match.now() == old + timedelta(seconds=1)
    assert match.status()["phases_resolved"] == 0

    # ... it resolves at the new one, with the extension on record
    match.advance(1)
    match.wait_resolved(1)
    (resolved,) = resolutions(match)
    assert resolved.at == new
    record = record_of(match, "Pregame")
    assert (record["extension_seconds"], record["timed_out"]) == (2, True)
    assert record["elapsed_seconds"] == 4


def test_nothing_resolves_while_paused_and_resume_moves_the_deadline_by_the_pause(crates_match) -> None:
    # Given a 2 s phase that the host pauses at once (the paused machine looks again every 300 s,
    # the shortest recheck a match may have)
    match = crates_match(2, phase_seconds=2, recheck_seconds=300)
    deadline = parse(match.created["open"]["deadline"])
    assert match.host("pause")["open"]["paused"] is True

    # When the old deadline has long passed (the paused machine has looked three times)
    match.advance(900)

    # Then the phase is still open and paused, and a submission is still taken
    status = match.status()
    assert (status["phases_resolved"], status["open"]["paused"]) == (0, True)
    assert match.multipliers("p1", ORDER)[0] == 200

    # When the host resumes
    resumed = match.host("resume")

    # Then the deadline moved by exactly as long as the clock stood still
    (paused,) = match.events("paused")
    (resumed_event,) = match.events("resumed")
    stood_still = resumed_event.at - paused.at
    assert stood_still == timedelta(seconds=900)
    new = parse(resumed["open"]["deadline"])
    assert new == deadline + stood_still
    # And the phase resolves at the new deadline (not a second before), the pause not counted as
    # time elapsed
    match.advance(1)
    assert match.status()["phases_resolved"] == 0
    match.advance(1)
    match.wait_resolved(1)
    (resolved,) = resolutions(match)
    assert resolved.at == new
    record = record_of(match, "Pregame")
    assert record["elapsed_seconds"] == 2
    assert record["submissions"] == {"p1": {"multipliers": {"multipliers": ORDER}}}


def test_resolve_now_resolves_the_open_phase_at_once(crates_match) -> None:
    # Given a phase with an hour to go
    match = crates_match(2, phase_seconds=3600)
    deadline = parse(match.created["open"]["deadline"])
    assert match.multipliers("p2", ORDER)[0] == 200

    # When the host resolves it now
    asked = match.now()
    assert match.host("resolve_now")["ok"]

    # Then it resolves at once (no time passes), not as timed out, with what was submitted
    match.wait_resolved(1)
    (resolved,) = resolutions(match)
    assert resolved.at == asked < deadline and resolved.data["timed_out"] is False
    (requested,) = match.events("resolve_requested")
    assert requested.data == {"reason": "the host resolved the phase now"}
    assert record_of(match, "Pregame")["submissions"] == {"p2": {"multipliers": {"multipliers": ORDER}}}
    assert match.status()["open"]["phase"] == "Round 1"


@pytest.mark.parametrize(
    ("early_close", "submitters", "closes"),
    [
        (True, ["p1", "p2"], True),  # everyone who can act has submitted
        (True, ["p1"], False),  # p2 has not
        (False, ["p1", "p2"], False),  # early close is off by default
    ],
)
def test_early_close(crates_match, early_close, submitters, closes) -> None:
    match = crates_match(2, phase_seconds=3, early_close=early_close)
    deadline = parse(match.created["open"]["deadline"])

    for player in submitters:
        assert match.multipliers(player, ORDER)[0] == 200

    if closes:
        match.wait_resolved(1)  # no time passes
        (resolved,) = resolutions(match)
        assert resolved.at < deadline and resolved.data["timed_out"] is False
        (requested,) = match.events("resolve_requested")
        assert requested.data == {"reason": "every participant who can act has submitted"}
    else:
        match.advance(2)
        assert match.status()["phases_resolved"] == 0
        match.advance(1)
        match.wait_resolved(1)
        (resolved,) = resolutions(match)
        assert resolved.at == deadline and resolved.data["timed_out"] is True


def test_early_close_in_round_1_waits_for_every_round_not_for_a_late_multiplier_change(crates_match) -> None:
    # Given an early-close match in Round 1 (the pregame closed early on both multipliers)
    match = crates_match(2, phase_seconds=3, early_close=True)
    for player in ("p1", "p2"):
        assert match.multipliers(player, ORDER)[0] == 200
    status = match.wait_resolved(1)
    deadline = parse(status["open"]["deadline"])

    # When both change their multipliers in Round 1 (allowed until its end), nothing closes
    for player in ("p1", "p2"):
        assert match.multipliers(player, [-1, -1, 0, 1, 1, 2], phase="Round 1")[0] == 200
    match.advance(1)
    assert match.status()["phases_resolved"] == 1

    # Then the round closes as soon as both have sent their round
    for player in ("p1", "p2"):
        assert match.turn(player, "Round 1", push(player), "stone")[0] == 200
    match.wait_resolved(2)
    resolved = resolutions(match)[1]
    assert resolved.at < deadline and resolved.data["timed_out"] is False


def test_a_submission_after_the_deadline_is_late(crates_match) -> None:
    # Given a 1 s phase
    match = crates_match(2, phase_seconds=1)
    deadline = parse(match.created["open"]["deadline"])

    # When p1's submission arrives the moment the deadline has passed: the clock is moved without
    # letting the machine settle, so the phase may or may not have resolved yet (both must be late)
    match.stack.settle()
    match.stack.clock.advance_to(deadline.timestamp())
    code, reply = match.multipliers("p1", ORDER, phase="Pregame")

    # Then it is refused as late, and the phase resolves without it
    assert (code, reply["error"]) == (409, "Late"), reply
    match.wait_resolved(1)
    assert record_of(match, "Pregame")["submissions"] == {}
    assert match.events("submission_accepted") == []


def test_a_round_submission_sent_in_time_is_in_the_record_and_a_late_one_is_not(crates_match) -> None:
    match = crates_match(2, phase_seconds=2)
    match.advance(2)
    match.wait_resolved(1)
    on_time = {"pushes": push("p1", times=2), "ground": "ice"}
    match.advance(1)
    assert match.submit("p1", "Round 1", "round", on_time)[0] == 200
    match.advance(1)
    match.wait_resolved(2)

    code, reply = match.turn("p2", "Round 1", push("p2"), "stone")

    assert (code, reply["error"]) == (409, "Late")
    assert record_of(match, "Round 1")["submissions"] == {"p1": {"round": on_time}}


def test_cancel_stops_the_execution(crates_match, stack) -> None:
    # Given a running match whose first deadline is 2 s away
    match = crates_match(2, phase_seconds=2)
    deadline = parse(match.created["open"]["deadline"])
    match.wait_for_token()

    # When the host cancels it
    assert match.host("cancel")["status"] == "cancelled"

    # Then the execution ends at once (no time passes) in its "Match cancelled" state
    assert match.wait_for_execution() == "SUCCEEDED"
    assert match.now() < deadline
    history = stack.client("stepfunctions").get_execution_history(executionArn=match.execution()["executionArn"])
    entered = [
        event["stateEnteredEventDetails"]["name"] for event in history["events"] if "stateEnteredEventDetails" in event
    ]
    assert entered[-1] == "Match cancelled"
    assert entered.count("Advance") == 2  # the start, and the wake-up that found the match cancelled
    # And nothing resolves at the deadline, nor is anything accepted any more
    match.advance(3)
    assert match.now() > deadline
    assert resolutions(match) == []
    assert match.status()["status"] == "cancelled"
    assert match.multipliers("p1", ORDER)[0] == 409
