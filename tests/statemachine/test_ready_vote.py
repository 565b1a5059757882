"""A ready vote on the local stack: the webhook's action stored on DynamoDB's header, and the last
vote waking the real state machine, which resolves the phase before its deadline."""

from __future__ import annotations

from datetime import datetime

import pytest

from local_stack.bots.runner import send_action

pytestmark = pytest.mark.statemachine

ORDER = [2, 1, 1, 0, -1, -1]


def test_the_last_ready_vote_resolves_the_phase_before_its_deadline(crates_match) -> None:
    # Early close off: both multipliers in leave the Pregame open until its deadline (3 s) ...
    match = crates_match(2, phase_seconds=3, early_close=False)
    deadline = datetime.fromisoformat(match.created["open"]["deadline"].replace("Z", "+00:00"))
    for player in ("p1", "p2"):
        assert match.multipliers(player, ORDER)[0] == 200
    vote = send_action(match.stack, match.match_id, "p1", match.secrets["p1"], "ready", {"ready": True})
    assert (vote["accepted"], vote["closing"]) == (True, False)
    match.stack.settle()
    status = match.status()
    assert (status["phases_resolved"], status["open"]["ready"]) == (0, ["p1"])

    # ... until p2 votes too: no time passes, and the phase resolves, not timed out.
    vote = send_action(match.stack, match.match_id, "p2", match.secrets["p2"], "ready", {"ready": True})
    assert vote["closing"] is True and "wake_pending" not in vote
    status = match.wait_resolved(1)
    (resolved,) = match.events("phase_resolved")
    assert resolved.at < deadline and resolved.data["timed_out"] is False
    assert status["open"]["phase"] == "Round 1" and status["open"]["ready"] == []
