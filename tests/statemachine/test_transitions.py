"""What a match costs in Step Functions: state transitions, counted on the real ASL.

The machine is Advance -> Next phase -> <the phase's wait> -> Advance ...: three states entered a
phase when nothing happens but the deadline, the first phase two more (the start's Advance and
Next phase), and the end one (Match over). A wake-up (a host act, early close) adds the same three.
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


def test_a_day_long_phase_with_nothing_but_its_deadline_costs_three_transitions(stack, crates_match) -> None:
    # Given a Pushing Crates match of 24-hour phases (7 phases) in which nobody does anything
    match = crates_match(2, phase_seconds=86_400)

    # When every deadline passes, a day at a time
    for _phase in PHASES:
        match.advance(86_400)

    # Then it finished, and each phase was entered once, with one Advance and one Next phase each,
    # plus the start's pair and the end: 7 x 3 + 2 + 1 = 24 states, 3 a phase (5 the first)
    assert match.status()["status"] == "finished"
    states = entered(stack, match)
    assert len(states) == 24
    counts = Counter(states)
    assert counts["Advance"] == 8 and counts["Next phase"] == 8 and counts["Match over"] == 1
    assert all(counts[phase] == 1 for phase in PHASES)


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
