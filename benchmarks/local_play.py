"""The local stack's speed (issue 8's local goal): a whole 12-player Pushing Crates match with
1-second phases that run to their deadlines, played by bots as `bin/play` plays it (one real
second per match second while everyone waits), in at most 30 s wall with no move late."""

from __future__ import annotations

import time

from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack
from local_stack.bots.runner import run_match

GOAL_SECONDS = 30.0


def report() -> None:
    request = {
        "game": "crates",
        "settings": {},
        "players": [{"id": f"p{i:02d}"} for i in range(1, 13)],
        "phase_seconds": 1,
        "early_close": False,
        "seed": 2026,
    }
    started = time.monotonic()
    with LocalStack(games=("crates",), clock=VirtualClock()) as stack:
        run = run_match(stack, request, pace=1.0, timeout=300)
    wall = time.monotonic() - started
    late = sum(1 for _player, status, _reply in run.replies if status == 409)
    verdict = "ok" if wall <= GOAL_SECONDS and late == 0 and run.status == "SUCCEEDED" else "OVER"
    print(
        f"local: 12-player Crates, 1 s phases to their deadlines: {wall:.1f} s wall, {late} moves late, "
        f"{run.status} (goal: at most {GOAL_SECONDS:.0f} s, none late): {verdict}"
    )
