"""What a match costs in Step Functions: state transitions, counted on the real ASL.

The machine is Advance -> Next phase -> <the phase's wait> -> Advance ...: three states entered a
phase when nothing happens but the deadline, the first phase two more (the start's Advance and
Next phase), and the end one (Match over). A wake-up (a host act, early close, a reminder) adds
the same three.
"""

from __future__ import annotations

from collections import Counter

import pytest

pytestmark = pytest.mark.statemachine

PHASES = ["Pregame", "Round 1", "Round 2", "Round 3", "Round 4", "Round 5", "Round 6"]


def entered(stack, match) -> list[str]:
    history = stack.client("stepfunctions").get_execution_history(
        executionArn=match.execution()["executionArn"], maxResults=1000
    )
    return [e["stateEnteredEventDetails"]["name"] for e in history["events"] if "stateEnteredEventDetails" in e]


@pytest.mark.parametrize(
    ("reminders", "waits_a_phase"),
    [
        ([], 1),  # nothing but the deadline: each phase's wait entered once
        (None, 3),  # the default reminders, 12 h and 1 h before: two more wake-ups a phase
    ],
    ids=["no-reminders", "default-reminders"],
)
def test_a_day_long_phase_costs_three_transitions_and_three_more_per_reminder(
    stack, crates_match, reminders, waits_a_phase
) -> None:
    # Given a Pushing Crates match of 24-hour phases (7 phases) in which nobody does anything
    match = crates_match(2, phase_seconds=86_400, reminders=reminders)

    # When every deadline passes, a day at a time
    for _phase in PHASES:
        match.advance(86_400)

    # Then it finished, each phase's wait entered once per wake-up, each with one Advance and one
    # Next phase, plus the start's pair and the end: without reminders 7 x 3 + 2 + 1 = 24 states
    # (3 a phase, 5 the first); with two reminders a phase 7 x 9 + 2 + 1 = 66
    assert match.status()["status"] == "finished"
    states = entered(stack, match)
    assert len(states) == 7 * 3 * waits_a_phase + 3
    counts = Counter(states)
    assert counts["Advance"] == counts["Next phase"] == 7 * waits_a_phase + 1 and counts["Match over"] == 1
    assert all(counts[phase] == waits_a_phase for phase in PHASES)


def test_a_host_act_costs_three_transitions_and_resolving_early_no_more_than_the_deadline(stack, crates_match) -> None:
    # Given a match waiting in its pregame
    match = crates_match(2, phase_seconds=86_400)
    match.wait_for_token()
    before = len(entered(stack, match))

    # When the host extends it (the machine wakes, finds nothing due, waits again: 3 states)
    assert match.host("extend", seconds=60)["ok"]
    match.stack.settle()
    after_extend = len(entered(stack, match))

    # And then resolves it now (wakes, resolves, opens Round 1 and waits there: 3 states)
    match.resolve_now()
    after_resolve = len(entered(stack, match))

    assert (after_extend - before, after_resolve - after_extend) == (3, 3)
