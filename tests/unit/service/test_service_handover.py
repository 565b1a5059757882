"""Continue-as-new on the fakes (service/matches/handover.py): the hand-over step starts the match's next
execution once, however often it is retried; `recover` asks about the execution that is current;
the machine's loops are counted; and no match may recheck its clock more often than every 5
minutes (tests/statemachine/test_handover.py runs the whole of it on moto's interpreter)."""

from __future__ import annotations

import pytest
from crates_driver import Table, request
from pydantic import ValidationError

from game_core.errors import Conflict
from game_core.service.commands import PhaseStep, run_phase_step
from game_core.service.host import powers as host
from game_core.service.matches import handover, phases

MID = "m-000000000001"


def test_a_recheck_shorter_than_five_minutes_is_refused_at_creation_naming_the_field_and_the_minimum() -> None:
    with pytest.raises(ValidationError) as refused:
        request(recheck_seconds=299)
    (problem,) = refused.value.errors()
    assert problem["loc"] == ("recheck_seconds",)
    assert "at least 300 seconds (5 minutes), not 299" in problem["msg"]
    assert request(recheck_seconds=300).recheck_seconds == 300  # the floor itself is taken


def test_each_advance_counts_one_more_loop() -> None:
    table = Table.open()
    progress = run_phase_step(table.ports, PhaseStep(step="advance", match_id=MID, loops=299))
    assert progress["loops"] == 300
    assert (progress["phase"], progress["due"]) == ("Pregame", False)  # the rest is advance's, as before


def test_the_hand_over_starts_the_next_execution_once_however_often_it_is_retried() -> None:
    # Given a match whose first execution has made its loops
    table = Table.open()
    workflow, store = table.fakes.workflow, table.fakes.store

    # When its hand-over step runs, and runs again (a retry whose reply was lost)
    step = PhaseStep(step="hand_over", match_id=MID, handovers=0)
    first = run_phase_step(table.ports, step)
    workflow.end(MID, "SUCCEEDED")  # the first execution ends after it
    again = run_phase_step(table.ports, step)

    # Then one execution was started, `<id>-h1`, and the store counts one hand-over
    assert workflow.started == [MID, f"{MID}-h1"]
    assert first == again and first["execution"].endswith(f":{MID}-h1")
    assert store.handovers(MID, 0) == 1
    # And the next one hands over to `-h2` (its input says it is the first hand-over's)
    run_phase_step(table.ports, PhaseStep(step="hand_over", match_id=MID, handovers=1))
    assert workflow.started[-1] == f"{MID}-h2" and store.handovers(MID, 0) == 2


def test_recover_asks_about_the_current_execution_and_a_new_attempt_counts_afresh() -> None:
    table = Table.open()
    workflow = table.fakes.workflow
    handover.hand_over(table.ports, MID, 0)
    workflow.end(MID, "SUCCEEDED")

    # While the execution handed to runs, there is nothing to recover
    with pytest.raises(Conflict, match="running"):
        host.recover(table.ports, MID)

    # Once it stalled, recover starts attempt 1 as `-r1` (the count was attempt 0's), and a
    # hand-over of attempt 1 goes to `-r1-h1`
    phases.stalled(table.ports, MID, {"Error": "States.TaskFailed", "Cause": "boom"})
    workflow.end(f"{MID}-h1")
    assert host.recover(table.ports, MID)["execution"].endswith(f":{MID}-r1")
    assert table.fakes.store.handovers(MID, 1) == 0
    handover.hand_over(table.ports, MID, 0)
    assert workflow.started == [MID, f"{MID}-h1", f"{MID}-r1", f"{MID}-r1-h1"]


def test_an_execution_started_by_a_hand_over_whose_count_was_never_written_is_running() -> None:
    # Given a hand-over that started `-h1` and failed before writing its count (the first
    # execution then stalled: the store still names it, and it has ended)
    table = Table.open()
    workflow = table.fakes.workflow
    workflow.start(table.match(), 1)
    workflow.end(MID)
    assert table.fakes.store.handovers(MID, 0) == 0

    # Then the match's execution is running (the one it was handing over to), and recover starts none
    assert handover.is_running(table.ports, table.match())
    with pytest.raises(Conflict):
        host.recover(table.ports, MID)
    assert workflow.started == [MID, f"{MID}-h1"]
