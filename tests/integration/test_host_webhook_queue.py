"""bin/host-server keeps its webhook queue in the data folder (issue 20, a laptop host): a delivery
queued or waiting for a retry when the server stops is delivered after the next start, under
its webhook-id, and one delivered before the stop is not sent again; a queue file that is not
whole is refused by name, before anything starts, and left as it was. A receiver that hangs
stalls none of the server's requests nor another receiver's notices, and what the folder keeps
meanwhile sends each notice once.

The server runs on a virtual clock in this process (tests/integration/test_host_server.py)."""

from __future__ import annotations

import json
import shutil
import threading
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest
from conftest import crates_request, wait_until
from test_host_server import (  # noqa: F401 - environment: the fixture restoring the process environment
    REQUEST_TIMEOUT,
    START,
    environment,
    host,
    http,
    move,
    player_url,
    post_move,
    serve,
)
from webhook_receiver import Receiver

import game_core.aws.webhooks as aws_webhooks
from game_core.cli.failures import CliError
from local_stack.aws.clock import VirtualClock
from local_stack.laptop.persistence import DataFolder

pytestmark = pytest.mark.statemachine

QUEUE_FILE = "webhook-queue.json"


def test_a_delivery_waiting_for_its_retry_when_the_server_stops_arrives_once_after_the_restart(tmp_path) -> None:
    with Receiver() as receiver:
        # Given a match whose ana's receiver is down (503) for her first attempt and up after,
        # and whose public channel's is up: each gets its "begins" notice at create
        receiver.script("ana", [503, 200])
        server = serve(tmp_path, VirtualClock(START), allow_loopback_webhooks=True)
        request = crates_request(["ana", "ben"], phase_seconds=7 * 86_400) | {"reminders": []}
        request["webhooks"] = {"ana": receiver.url("ana"), "@public": receiver.url("public")}
        created = host(server, "create", match=request)
        match_id = created["match_id"]
        receiver.secrets |= {"ana": created["webhook_secrets"]["ana"], "public": created["webhook_secrets"]["@public"]}
        server.stack.settle()
        server.stack.webhooks.deliver()
        assert sorted((one.target, one.answered) for one in receiver.received) == [("ana", 503), ("public", 200)]

        # When the server stops while ana's retry waits (due 30 s after her first attempt, the
        # backoff's first wait), a dead letter of an earlier day beside it in the file, and starts
        # again on the same folder a minute later
        server.stack.settle()
        stopped_at = server.stack.clock.time()
        server.__exit__()
        kept = json.loads((tmp_path / QUEUE_FILE).read_text())
        (retry,) = [json.loads(one["body"]) for one in kept["waiting"]]
        assert (retry["webhook_id"], retry["attempts"], retry["due"]) == (f"{match_id}/begins/ana", 1, stopped_at + 30)
        assert kept["dead_letters"] == []
        kept["dead_letters"] = [DEAD_LETTER]
        (tmp_path / QUEUE_FILE).write_text(json.dumps(kept))
        server = serve(
            tmp_path, VirtualClock(datetime.fromtimestamp(stopped_at + 60, UTC)), allow_loopback_webhooks=True
        )
        try:
            server.stack.webhooks.deliver()
            left = server.stack.webhooks.waiting()
            dead = server.stack.webhooks.dead_letters()
        finally:
            server.__exit__()

    # Then ana's notice arrived once more, accepted, under its id, signed as the standard
    # verifies; the public notice delivered before the stop was not sent again; nothing waits,
    # and the dead letter is still there for the host, in the folder too
    ana = receiver.attempts("ana")
    assert [(one.webhook_id, one.answered) for one in ana] == [
        (f"{match_id}/begins/ana", 503),
        (f"{match_id}/begins/ana", 200),
    ]
    assert all(one.verified for one in ana)
    assert [one.webhook_id for one in receiver.attempts("public")] == [f"{match_id}/begins/@all"]
    assert left == 0
    assert dead == [json.loads(DEAD_LETTER)]
    assert json.loads((tmp_path / QUEUE_FILE).read_text()) == {"waiting": [], "dead_letters": [DEAD_LETTER]}


def queued(kept: dict[str, Any]) -> list[tuple[str, str, int]]:
    """The deliveries waiting in a kept queue: (target, webhook-id's notice, failed attempts)."""
    bodies = [json.loads(one["body"]) for one in kept["waiting"]]
    return [(body["target"], body["webhook_id"].split("/")[1], body["attempts"]) for body in bodies]


def test_a_receiver_that_hangs_stalls_no_request_nor_other_receiver_and_what_is_kept_meanwhile_sends_each_once(
    tmp_path, monkeypatch
) -> None:
    # The hang ends when the test releases it, not at the POST's 10-s timeout (a slow machine)
    monkeypatch.setattr(aws_webhooks, "TIMEOUT_SECONDS", 3600)
    data, copy = tmp_path / "data", tmp_path / "copy"
    with Receiver() as receiver:
        # Given a match of p1 and p2 (early close) whose public receiver answers each notice's first
        # POST 503 and whose p1's hangs
        receiver.script("public", [503, 200])
        hung = receiver.hold("p1")
        server = serve(data, VirtualClock(START), allow_loopback_webhooks=True)
        try:
            request = crates_request(2, early_close=True, phase_seconds=7 * 86_400) | {"reminders": []}
            request["webhooks"] = {"@public": receiver.url("public"), "p1": receiver.url("p1")}
            created = host(server, "create", match=request)
            match_id, secrets = created["match_id"], created["secrets"]
            server.stack.settle()

            # When the "begins" notices go out (the public one refused, its retry's copy queued;
            # p1's hangs), and meanwhile both players submit by HTTP, closing Pregame early, p1
            # reads her page, and the event source takes what closing Pregame queued
            delivering = threading.Thread(target=server.stack.webhooks.deliver, daemon=True)
            delivering.start()
            try:
                assert hung.arrived.wait(REQUEST_TIMEOUT)
                submitted = [post_move(server, match_id, p, secrets[p], move(p, "Pregame"))[0] for p in ("p1", "p2")]
                server.stack.settle()
                headers = {"Authorization": f"Bearer {secrets['p1']}"}
                page = http(player_url(server, match_id, "p1"), headers=headers)[0]
                server.stack.webhooks.dispatch()
                public_retries = {("@public", "begins", 1), ("@public", "resolved-1", 1)}
                kept_file = data / QUEUE_FILE
                wait_until(lambda: public_retries <= set(queued(json.loads(kept_file.read_text()))), 60, "both retries")
                hang_ends = server.stack.clock.time()
                answered_while_hung = [(one.target, one.answered) for one in receiver.received]
                kept_while_hung = json.loads(kept_file.read_text())
                shutil.copytree(data, copy)  # the folder as a crash now would leave it
            finally:
                hung.release()
            delivering.join(REQUEST_TIMEOUT)
            server.stack.webhooks.deliver()  # what the lanes still hold: done too
            kept_after = json.loads(kept_file.read_text())
            left = server.stack.webhooks.waiting()
        finally:
            server.__exit__()
        delivered = Counter((one.target, one.webhook_id.split("/")[1], one.answered) for one in receiver.received)

        # Then the requests were served, and the public receiver got both its notices (each
        # refused once), while p1's first POST was still unanswered: nothing waited on it
        assert (submitted, page, answered_while_hung) == ([200, 200], 200, [("public", 503), ("public", 503)])
        # and the folder then held p1's notices as before they were taken (not yet tried, visible
        # at once, not hidden as in flight) and the public's retries' copies
        assert sorted(queued(kept_while_hung)) == [
            ("@public", "begins", 1),
            ("@public", "resolved-1", 1),
            ("p1", "begins", 0),
            ("p1", "resolved-1", 0),
        ]
        p1_kept = [one for one in kept_while_hung["waiting"] if json.loads(one["body"])["target"] == "p1"]
        assert all(one["ready_at"] <= hang_ends and one["receives"] == 0 for one in p1_kept)
        # and once released, p1's notices arrived once each, in order, public's each failed once
        # and waits for its retry: nothing lost, nothing sent twice
        assert delivered == {
            ("public", "begins", 503): 1,
            ("p1", "begins", 200): 1,
            ("public", "resolved-1", 503): 1,
            ("p1", "resolved-1", 200): 1,
        }
        assert [one.webhook_id.split("/")[1] for one in receiver.attempts("p1")] == ["begins", "resolved-1"]
        assert sorted(queued(kept_after)) == [("@public", "begins", 1), ("@public", "resolved-1", 1)]
        assert left == 2  # those two copies, delayed 30 s: still queued

        # When a server starts on the folder as it was during the hang, and delivers until past
        # the 30-s retries of public's kept copies
        restored = serve(copy, VirtualClock(datetime.fromtimestamp(hang_ends, UTC)), allow_loopback_webhooks=True)
        try:
            restored.stack.webhooks.deliver()
            restored.stack.advance(60)
            restored.stack.webhooks.deliver()
        finally:
            restored.__exit__()

    # Then each delivery kept was sent once more, and only once (public's second POSTs: accepted)
    again = Counter(
        (one.target, one.webhook_id.split("/")[1], one.answered) for one in receiver.received[delivered.total() :]
    )
    assert again == {
        ("public", "begins", 200): 1,
        ("p1", "begins", 200): 1,
        ("public", "resolved-1", 200): 1,
        ("p1", "resolved-1", 200): 1,
    }


DEAD_LETTER = json.dumps(
    {"match_id": "m0", "target": "bo", "webhook_id": "m0/begins/bo", "payload": {}, "queued_at": 0, "attempts": 12}
)
"""A delivery that gave up (the dead-letter queue keeps the body the function was handed)."""


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('{"waiting": [{"body": "{}", "ready_at": 3', "Invalid JSON: EOF"),  # cut short
        ("", "Invalid JSON"),
        ('{"waiting": []}', "dead_letters: Field required"),
        (
            '{"waiting": [{"body": "{\\"match_id\\": \\"m1\\"}", "ready_at": 30, "receives": 1}], "dead_letters": []}',
            "waiting.0.body: Value error, not a webhook delivery",
        ),
        ('{"waiting": [], "dead_letters": ["not json"]}', "dead_letters.0: Value error, not a webhook delivery"),
        (
            json.dumps({"waiting": [{"body": DEAD_LETTER, "ready_at": "soon", "receives": 1}], "dead_letters": []}),
            "waiting.0.ready_at: Input should be a valid number",
        ),
        ("[1, 2]", "Input should be an object"),
    ],
)
def test_a_queue_file_that_is_not_whole_is_refused_by_name_before_anything_starts(tmp_path, text, named) -> None:
    # Given a data folder whose queue file is cut short, edited or something else
    (tmp_path / QUEUE_FILE).write_text(text)

    # When a server starts on it
    with pytest.raises(CliError) as refused:
        serve(tmp_path, VirtualClock(START))

    # Then it is refused in one line naming the file and what is wrong, the file as it was, and
    # the folder free again
    message = str(refused.value)
    assert message.startswith(f"{tmp_path / QUEUE_FILE} is not the webhook queue this server keeps (")
    assert named in message and "\n" not in message
    assert (tmp_path / QUEUE_FILE).read_text() == text
    assert not (tmp_path / "table.json").exists()
    folder = DataFolder(tmp_path)
    folder.hold()
    folder.release()
