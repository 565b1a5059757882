"""Early close under concurrency, each race staged deterministically (see staging.py). The last
submission of a phase must still be accepted (it was stored), and early close must close the
phase it was sent for, never the next one. The submission that closes the phase requests its
resolution in its own transaction, conditional on the header as read; a race read it again."""

from __future__ import annotations

from dataclasses import replace

import pytest
from staging import FixedClock, StagedStore

from game_core.errors import Late
from game_core.service.host import powers as host
from game_core.service.matches import phases
from game_core.service.matches.submit import SubmissionRequest, submit

ORDER = {"multipliers": [2, 1, 1, 0, -1, -1]}


def last_submission(match, ports) -> dict:
    request = SubmissionRequest(match.match_id, "p2", "Pregame", "multipliers", ORDER, channel="webhook")
    return submit(ports, request)


def test_the_last_submission_closes_the_phase_when_a_host_act_lands_between_its_read_and_write(crates_match) -> None:
    # Given p1 has submitted in an early-close match
    match = crates_match(2, early_close=True)
    assert match.multipliers("p1", ORDER["multipliers"])[0] == 200
    ports = match.ports

    # When p2's submission completes the phase, but the host extends the deadline after p2's read
    # and before its write (the closing write is conditional on the match's version as read)
    staged = StagedStore(ports.store, "put_submission", lambda: host.extend(ports, match.match_id, 60))
    reply = last_submission(match, replace(ports, store=staged))

    # Then p2's submission is read again, accepted, and closes the phase early all the same
    assert reply["accepted"] is True
    status = match.wait_resolved(1, timeout=60)  # real seconds: a bound for a loaded machine, not a time
    assert status["open"]["phase"] == "Round 1"
    (record,) = match.export()["phases"]
    assert record["submissions"] == {"p1": {"multipliers": ORDER}, "p2": {"multipliers": ORDER}}
    assert record["timed_out"] is False
    assert len(match.events("resolve_requested")) == 1


def test_a_last_submission_overtaken_by_the_resolution_is_late_and_closes_nothing(crates_match) -> None:
    # Given p1 has submitted in an early-close match
    match = crates_match(2, early_close=True)
    assert match.multipliers("p1", ORDER["multipliers"])[0] == 200
    ports = match.ports

    # When the pregame resolves (its deadline passed) between p2's read and p2's write
    deadline = ports.store.get(match.match_id).phase.deadline
    at_deadline = replace(ports, clock=FixedClock(deadline))
    staged = StagedStore(ports.store, "put_submission", lambda: phases.resolve(at_deadline, match.match_id, 1))
    with pytest.raises(Late):
        last_submission(match, replace(ports, store=staged))

    # Then Round 1, which nobody has played yet, stays open, and the pregame closed without p2's
    current = ports.store.get(match.match_id)
    assert current.phase is not None and current.phase.number == 2
    assert current.phase.resolve_requested is False
    assert match.events("resolve_requested") == []
    (record,) = ports.store.phase_records(match.match_id)
    assert (record.submissions, record.timed_out) == ({"p1": {"multipliers": ORDER}}, True)
