"""A move for another phase, answered by mail and by webhook in words a player reads: the phase a
move names matches in any case; one still to come is "not open yet" and says when it opens; no
answer carries a phase "?", an ISO timestamp or a duration in seconds. Round 1 (phase 2) is open
from 13:00 to 14:00 on Tuesday 1 December, and it is 13:00."""

from __future__ import annotations

import json

import pytest
from crates_driver import push
from test_service_mail_in import ADA, MID, round_one, send, the_answer

from game_core.errors import GameCoreError

UNTIL = "Tuesday 1 December, 14:00 UTC, in 1 hour"
CASES = [
    # (the phase the move names, the webhook's error and message, how the mail answer begins)
    ("round 1", None, None, "Accepted for Round 1:"),
    (
        "Round 2",
        "NotOpen",
        f"'Round 2' is not open yet; it opens when 'Round 1' closes, by {UNTIL}",
        "Not submitted: your round for Round 2.\n  - ",
    ),
    (
        "pregame",
        "Late",
        f"'Pregame' is not the open phase; 'Round 1' is open until {UNTIL}",
        "Too late: your round for pregame was not accepted. ",
    ),
    (
        "Round 9",
        "Malformed",
        f"Pushing Crates has no phase 'Round 9'; 'Round 1' is open until {UNTIL}",
        "Not submitted: your round for Round 9.\n  - ",
    ),
]
MOVE = {"pushes": push("bo", 2)}


@pytest.mark.parametrize(("phase", "_error", "message", "begins"), CASES)
def test_the_mail_answer_names_the_phases_in_words(phase, _error, message, begins) -> None:
    table = round_one()

    send(table, ADA, json.dumps({"phase": phase, "kind": "round", "submission": MOVE}))

    answer = the_answer(table)
    assert " ".join((begins + (message or "")).split()) in " ".join(answer.split()), answer  # folded at 78
    assert "?" not in answer and "T14:00" not in answer and "3600" not in answer


@pytest.mark.parametrize(("phase", "error", "message", "_begins"), CASES)
def test_the_webhook_reply_names_the_phases_in_words(phase, error, message, _begins) -> None:
    table = round_one()
    if error is None:
        assert table.submit("ada", phase, "round", MOVE)["phase"] == "Round 1"
        return
    with pytest.raises(GameCoreError) as refused:
        table.submit("ada", phase, "round", MOVE)
    reply = refused.value.to_json()
    assert (reply["error"], reply["message"]) == (error, message)
    assert table.fakes.store.submissions(MID, 2) == {}
