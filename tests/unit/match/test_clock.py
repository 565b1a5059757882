"""The open phase's clock, pure: deadlines, extensions, pauses, closing, and how long to wait."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from game_core.errors import Illegal
from game_core.games.protocol import OpenPhase
from game_core.match.clock import PhaseClock, open_clock

T0 = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def clock(seconds: int = 100):
    return open_clock(OpenPhase("Round 1", ("round",), ("a", "b")), 3, T0, seconds)


def test_a_phase_opens_with_its_deadline_and_waits_for_every_accepted_kind_by_default():
    opened = clock(100)
    assert opened.deadline == at(100)
    # No `owes` given: each actor owes every kind the phase accepts
    assert opened.number == 3 and opened.owes == {"a": ("round",), "b": ("round",)}
    assert not opened.is_due(at(99)) and opened.is_due(at(100))


@pytest.mark.parametrize(
    ("now", "at_most", "expected"),
    [
        (0, 3600, 100),  # the whole phase
        (99.2, 3600, 1),  # rounds up: never wakes before the deadline
        (150, 3600, 1),  # past the deadline: look again at once (at least 1 s)
        (0, 30, 30),  # a long phase is re-read every `at_most` seconds
    ],
)
def test_seconds_to_wait(now, at_most, expected):
    assert clock(100).seconds_to_wait(at(now), at_most) == expected


def test_extensions_add_up_and_move_the_deadline():
    extended = clock(100).extend(50).extend(25)
    assert extended.deadline == at(175) and extended.extension_seconds == 75
    assert not extended.is_due(at(174)) and extended.is_due(at(175))


@pytest.mark.parametrize("seconds", [0, -5])
def test_an_extension_must_be_positive(seconds):
    with pytest.raises(Illegal, match="positive"):
        clock().extend(seconds)


def test_a_pause_stops_the_clock_and_resume_moves_the_deadline_by_the_pause():
    # Given a 100 s phase paused at 40 s for 30 s
    paused = clock(100).pause(at(40))
    # Then nothing is due while paused, however late it gets, and the wait is the re-check interval
    assert not paused.is_due(at(500)) and paused.seconds_to_wait(at(500), 60) == 60
    assert paused.elapsed_seconds(at(60)) == 40
    # When it resumes at 70 s
    resumed = paused.resume(at(70))
    # Then the deadline moved by exactly the pause and the paused time is not elapsed time
    assert resumed.deadline == at(130) and resumed.paused_seconds == 30
    assert resumed.elapsed_seconds(at(100)) == 70


def test_pausing_twice_or_resuming_a_running_clock_is_refused():
    with pytest.raises(Illegal, match="already paused"):
        clock().pause(at(1)).pause(at(2))
    with pytest.raises(Illegal, match="not paused"):
        clock().resume(at(1))


def test_a_closed_phase_stops_counting_time_where_it_closed():
    # Given a move made 30 s in (early close) and resolved 5 s later
    closed = clock(100).request_resolution(at(30))
    assert closed.is_due(at(30))
    assert closed.elapsed_seconds(at(35)) == 30


def test_every_host_act_changes_the_version_the_state_machine_waits_on():
    versions = [
        clock().version,
        clock().extend(1).version,
        clock().pause(at(1)).version,
        clock().pause(at(1)).resume(at(2)).version,
    ]
    assert versions == [0, 1, 1, 2]


# -- reminders: a 24-hour phase, reminded 12 hours and 1 hour before its deadline ---------------

DAY = 86_400
LEADS = (43_200, 3_600)


@pytest.mark.parametrize(
    ("now", "reminded", "due", "wait"),
    [
        (0, (), None, 43_200),  # the first reminder is 12 h away
        (43_199, (), None, 1),
        (43_200, (), 43_200, 1),  # its moment: due (the wait is never below 1)
        (43_200, (43_200,), None, 39_600),  # sent: the next is at 23 h, 11 h away
        (82_800, (43_200,), 3_600, 1),
        (82_800, (43_200, 3_600), None, 3_600),  # both sent: wait for the deadline
        (83_000, (), 3_600, 1),  # a machine that was down sends only the latest one due
        (DAY, (43_200,), None, 1),  # the deadline itself: the phase is due, not a reminder
    ],
)
def test_reminders_come_at_their_lead_before_the_deadline(now, reminded, due, wait):
    phase = clock(DAY).model_copy(update={"reminded": reminded})
    assert phase.reminder_due(at(now), LEADS) == due
    assert phase.seconds_to_wait(at(now), DAY, LEADS) == wait


def test_reminding_marks_every_reminder_whose_moment_has_passed():
    assert clock(DAY).remind(at(83_000), LEADS).reminded == (43_200, 3_600)
    assert clock(DAY).remind(at(50_000), LEADS).reminded == (43_200,)


@pytest.mark.parametrize(
    ("phase", "now"),
    [
        (clock(3_600), 0),  # a 1-hour phase is never "1 hour before": it opened then
        (clock(DAY).pause(at(10)), 50_000),  # paused: no reminder runs against a stopped clock
        (clock(DAY).request_resolution(at(10)), 50_000),  # closed early
    ],
)
def test_no_reminder_for_a_phase_shorter_than_its_lead_paused_or_closed(phase, now):
    assert phase.reminder_due(at(now), LEADS) is None


def test_a_clock_stored_before_owes_reads_its_expects_as_every_actor_owing_them():
    stored = clock(100).model_dump(mode="json")
    stored.pop("owes")
    stored["expects"] = ["round"]
    assert PhaseClock.model_validate(stored).owes == {"a": ("round",), "b": ("round",)}
    stored["expects"] = []  # a phase that waited for nothing: nobody owes it anything
    assert PhaseClock.model_validate(stored).owes == {}
