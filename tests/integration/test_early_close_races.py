"""Early close under concurrency, each race staged deterministically (see staging.py). The last
submission of a phase must still be accepted (it was stored), and early close must close the
phase it was sent for, never the next one."""

from __future__ import annotations

from dataclasses import replace

from staging import FixedClock, StagedStore

from game_core.service import host, phases
from game_core.service.submit import SubmissionRequest, submit

ORDER = {"multipliers": [2, 1, 1, 0, -1, -1]}


def last_submission(match, ports) -> dict:
    request = SubmissionRequest(match.match_id, "p2", "Pregame", "multipliers", ORDER, channel="webhook")
    return submit(ports, request)


def test_the_last_submission_is_accepted_when_a_host_act_wins_the_race_to_the_clock(crates_match) -> None:
    # Given p1 has submitted in an early-close match
    match = crates_match(2, early_close=True)
    assert match.multipliers("p1", ORDER["multipliers"])[0] == 200
    ports = match.ports

    # When p2's submission completes the phase, but the host extends the deadline just before
    # p2's early-close request reaches the clock (so that write finds the match changed)
    staged = StagedStore(ports.store, "save", lambda: host.extend(ports, match.match_id, 60))
    reply = last_submission(match, replace(ports, store=staged))

    # Then p2 is told the submission was accepted, and the phase closes early all the same
    assert reply["accepted"] is True
    status = match.wait_resolved(1, timeout=5)
    assert status["open"]["phase"] == "Round 1"
    (record,) = match.export()["phases"]
    assert record["submissions"] == {"p1": {"multipliers": ORDER}, "p2": {"multipliers": ORDER}}
    assert record["timed_out"] is False


def test_early_close_never_closes_the_phase_after_the_one_it_was_sent_for(crates_match) -> None:
    # Given p1 has submitted in an early-close match
    match = crates_match(2, early_close=True)
    assert match.multipliers("p1", ORDER["multipliers"])[0] == 200
    ports = match.ports

    # When p2's submission is stored, and the pregame resolves (its deadline passed) before p2's
    # early-close check runs
    deadline = ports.store.get(match.match_id).phase.deadline
    at_deadline = replace(ports, clock=FixedClock(deadline))
    staged = StagedStore(ports.store, "submissions", lambda: phases.resolve(at_deadline, match.match_id, 1))
    reply = last_submission(match, replace(ports, store=staged))

    # Then p2's submission was accepted, and Round 1, which nobody has played yet, stays open
    assert reply["accepted"] is True
    current = ports.store.get(match.match_id)
    assert current.phase is not None and current.phase.number == 2
    assert current.phase.resolve_requested is False
    assert match.events("resolve_requested") == []
