"""A webhook request with the README's placeholder left in its path (as a player pasting the curl
example without putting their match's id in) is refused 404 saying it is a placeholder, through the
webhook function's own handler on the fakes, with Ada's right secret; nothing is stored. An id that
only names no match is refused as before, without the hint."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from crates_driver import Table

from local_stack.aws.lambda_adapter import FakeContext, load_handler

ROOT = Path(__file__).resolve().parents[3]
HINT = "{} stands for your match's id: put the id create's reply gives (m- and 12 hex digits) in its place"
BODY = {"phase": "Pregame", "kind": "multipliers", "submission": {"multipliers": [2, 1, 1, 0, -1, -1]}}

PATHS = [
    # (the match id segment as sent, what the 404 says)
    ("<match_id>", HINT.format("<match_id>")),
    ("%3Cmatch_id%3E", HINT.format("<match_id>")),  # a client that percent-encodes < and >
    ("MATCH_ID", HINT.format("MATCH_ID")),
    ("{match_id}", HINT.format("{match_id}")),  # the route template itself
    ("%7Bmatch_id%7D", HINT.format("{match_id}")),
    ("m-00000000ffff", "no match 'm-00000000ffff'"),  # a real id's shape: no hint
]


@pytest.mark.parametrize(("segment", "said"), PATHS, ids=[row[0] for row in PATHS])
def test_a_placeholder_left_in_the_path_is_a_404_naming_it(segment: str, said: str) -> None:
    table = Table.open()
    secret = table.created["secrets"]["ada"]
    handler = load_handler(ROOT / "functions" / "submit_webhook", "app.handler", lambda: table.ports)
    event: dict[str, Any] = {
        "rawPath": f"/matches/{segment}/players/ada/submissions",
        "requestContext": {"http": {"method": "POST"}},
        "headers": {"authorization": f"Bearer {secret}", "content-type": "application/json"},
        "body": json.dumps(BODY),
    }

    reply = handler(event, FakeContext("SubmitWebhook"))

    body = json.loads(reply["body"])
    assert (reply["statusCode"], body["error"], body["message"]) == (404, "NotFound", said), body
    assert table.fakes.store.submissions(table.match_id, 1) == {}
