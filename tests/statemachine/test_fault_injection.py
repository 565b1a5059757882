"""Every step of every game's machine survives a transient AWS failure (but `NOT_YET`'s, for now).

Given the same match (game, rule set, players, seed) played twice by the same bots on the real
ASL, once clean and once with a fault injected into every invocation of the phase-step function
(a throttle or an internal error before an AWS call, or after it was applied with its reply lost,
or the Lambda service failing the invocation itself: see local_stack/faults.py),
Then the faulty match finishes too, with the same record as the clean one: every retried step was
harmless, nothing was resolved twice, and no garnet moved twice.
"""

from __future__ import annotations

import pytest

from game_core.games import registry
from game_core.match.engine import guests_per_player
from local_stack.clock import VirtualClock
from local_stack.faults import StepFaults, rotating
from local_stack.play import bot_matches, seat
from local_stack.runner import run_match
from local_stack.stack import LocalStack

pytestmark = pytest.mark.statemachine

NOT_YET = {
    "domino": "not every strike point is struck in its match (issue #18: fault injection for Clubs and Domino)",
    "clubs": "the faulty run's record differs from the clean one's (issue #18: the same)",
}
"""Games whose faulty run does not yet match the clean one, each with why: the work left, named."""
MATCHES = [match for match in bot_matches("few") if match[0] not in NOT_YET]
"""Every other available game and rule set, with its fewest players (`Game.demo`)."""
STEPS = {"advance", "wait"}


def play(game_id: str, rule_set: str, players: int, faulty: bool):
    request = {
        "game": game_id,
        "settings": {"rule_set": rule_set},
        "players": [
            seat(f"p{i}", guests_per_player(registry.load(game_id))) | {"garnets": 3} for i in range(1, players + 1)
        ],
        "phase_seconds": 600,
        "early_close": True,
        "seed": 99,
    }
    with LocalStack(games=(game_id,), clock=VirtualClock()) as stack:
        faults = StepFaults(stack, rotating) if faulty else None
        run = run_match(stack, request, timeout=300)
        record = stack.host({"command": "export", "match_id": run.match_id})
        stalled = stack.host({"command": "status", "match_id": run.match_id}).get("stalled")
    assert record.pop("ok"), record
    del record["match_id"]
    return run, record, faults, stalled


@pytest.mark.parametrize(("game_id", "rule_set", "players"), MATCHES, ids=[f"{g}-{r}" for g, r, _ in MATCHES])
def test_a_fault_at_every_step_leaves_the_match_as_a_clean_run_would(game_id, rule_set, players) -> None:
    clean_run, clean_record, _, _ = play(game_id, rule_set, players, faulty=False)
    run, record, faults, stalled = play(game_id, rule_set, players, faulty=True)

    assert (clean_run.status, run.status) == ("SUCCEEDED", "SUCCEEDED")
    assert stalled is None
    assert record == clean_record
    assert run.result == clean_run.result

    # Faults struck every kind of step, at every position, before and after the call
    struck = faults.injected
    points = {(s.step, s.operation, s.after) for s in struck}
    assert {s.step for s in struck} == STEPS
    assert {
        ("advance", "TransactWriteItems", True),  # a resolution stored, its reply lost
        ("advance", "TransactWriteItems", False),
        ("advance", "PublishBatch", True),  # an announcement sent, its reply lost
        ("advance", "Invoke", False),
        ("wait", "UpdateItem", True),  # a wait's token stored, its reply lost
        ("wait", "Invoke", False),
    } <= points
