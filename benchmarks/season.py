"""What the season machine adds to its matches (issue 31, item 6): state transitions and the AWS
calls of its own steps, per episode, from the season of tests/statemachine/test_season_machine.py
played by bots on the local stack (three players, one Domino episode, then the Finals).

Transitions are read from the season execution's history: each state entered (a Map iteration's
states included) is one billed transition. An episode runs from its Main Match's wait to the next
episode's (or the Finals'); the AWS calls are those the season's step function makes (the matches'
own calls are each match's cost: `bin/bench costs`). Two runs: an EC who names at once (by the
webhook's season route), and a silent EC (its 24 hours, the host's 24, a lot).
"""

from __future__ import annotations

import threading
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack
from local_stack.bots.season_play import play_season

GOAL = 10
"""Transitions the season adds to an episode, at most, on top of its matches."""
SETTINGS = {
    "name": "Bench",
    "seed": 7,
    "cast": [{"id": player} for player in ("ada", "bo", "cy")],
    "episodes": [{"main": {"game": "domino"}}],
    "match_options": {"phase_seconds": 600, "early_close": True},
}


class StepCalls:
    """The AWS calls made while the season's step function runs (its invocations' threads)."""

    def __init__(self, stack: LocalStack) -> None:
        self.calls: Counter[str] = Counter()
        self.invocations = 0
        self._inside = threading.local()
        handlers = stack.lambdas.handlers
        self._handler = handlers["SeasonStepFunction"]
        handlers["SeasonStepFunction"] = self._invoke
        for client in stack.port_clients():
            client.meta.events.register("before-call", self._count)

    def _invoke(self, event: dict[str, Any], context: Any) -> Any:
        self.invocations += 1
        self._inside.on = True
        try:
            return self._handler(event, context)
        finally:
            self._inside.on = False

    def _count(self, model: Any, **_kwargs: Any) -> None:
        if getattr(self._inside, "on", False):
            self.calls[model.name] += 1


def episodes(history: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """(the part of the season, its transitions) in order: before the first Main Match, each
    episode (from its Main Match to the next episode's, after its Eliminate), the Finals on."""
    parts: list[tuple[str, int]] = [("start", 0)]
    eliminated = False
    for event in history:
        name = event.get("stateEnteredEventDetails", {}).get("name")
        if name is None:
            continue
        if name == "Main Match" and (parts[-1][0] == "start" or eliminated):
            parts.append((f"episode {len(parts)}", 0))
            eliminated = False
        elif name == "Finals" and parts[-1][0] != "finals":
            parts.append(("finals", 0))
        eliminated = eliminated or name == "Eliminate"
        label, count = parts[-1]
        parts[-1] = (label, count + 1)
    return parts


def measure(ecs_name: bool) -> tuple[list[tuple[str, int]], StepCalls, int]:
    with LocalStack(games=("domino", "abstrac"), clock=VirtualClock(datetime(2026, 12, 1, tzinfo=UTC))) as stack:
        steps = StepCalls(stack)
        run = play_season(stack, SETTINGS, timeout=600, ecs_name=ecs_name)
        sfn = stack.client("stepfunctions")
        arn = stack.execution(run.season_id, "season")["executionArn"]
        history = [
            e for page in sfn.get_paginator("get_execution_history").paginate(executionArn=arn) for e in page["events"]
        ]
    return episodes(history), steps, len(run.matches)


def report() -> None:
    print("\n== season: the season machine's transitions per episode, on top of its matches ==")
    for label, ecs_name in (("EC names at once, by webhook", True), ("silent EC (24 h, 24 h, lot)", False)):
        parts, steps, matches = measure(ecs_name)
        print(f"  {label}: {matches} matches")
        for part, transitions in parts:
            goal = f"  (goal <= {GOAL})" if part.startswith("episode") else ""
            verdict = "" if not goal else ("  ok" if transitions <= GOAL else "  OVER")
            print(f"    {part:10} {transitions:3} transitions{goal}{verdict}")
        calls = ", ".join(f"{name} {count}" for name, count in steps.calls.most_common())
        print(f"    season step: {steps.invocations} invocations, AWS calls: {calls}")
