"""A receiver that hangs or fails delays only its own deliveries (issue 29), on both stacks: the
laptop's event source (one lane per subscription, `LocalWebhooks.dispatch`, what bin/host-server
runs every second) and the delivery function on AWS (one batch's records side by side).

Four receivers hang and one is healthy. Nothing here is measured in seconds: each hanging POST
ends only when the test releases it (the POST's timeout is set beyond any test's life), and what
is asserted is the order of events: the healthy receiver's notices arrive while the four others
are still unanswered. Without the lanes, each waited for the hanging POSTs before it."""

from __future__ import annotations

import json
import socket
import threading
from typing import Any

import pytest
from conftest import wait_until
from test_webhooks_out import A_WEEK, create, loopback, receiver, trust  # noqa: F401 - fixtures
from webhook_receiver import Receiver

import game_core.aws.webhooks as aws_webhooks
from game_core.service.webhooks.bodies import Post
from game_core.service.webhooks.queue import Delivery
from game_core.service.webhooks.urls import Destination
from local_stack.aws.webhooks import FUNCTION

HANGING = {"ben": "ben", "cy": "cy", "dee": "dee", "public": "@public"}
"""The receivers (paths) that hang, and the subscription each serves."""
EVENT_WAIT = 60
"""How long a test waits for an event that comes at once when the code is right (a loaded machine)."""


@pytest.fixture
def four_hang_one_healthy(loopback, receiver, monkeypatch):  # noqa: F811 - the fixtures imported above
    """A match of ana, ben, cy and dee where ana's receiver answers and ben's, cy's, dee's and the
    public channel's hang until released; their POSTs never time out meanwhile."""
    monkeypatch.setattr(aws_webhooks, "TIMEOUT_SECONDS", 3600)
    holds = {path: receiver.hold(path) for path in HANGING}
    urls = {"ana": receiver.url("ana")} | {target: receiver.url(path) for path, target in HANGING.items()}
    match = create(loopback, urls, players=("ana", "ben", "cy", "dee"), phase_seconds=A_WEEK)
    trust(receiver, match, {"ana": "ana"} | HANGING)
    yield loopback, match, holds
    for hold in holds.values():
        hold.release()


def notices(at: Receiver, path: str) -> list[str]:
    """The notices (the webhook id's occasion) a receiver accepted, in order of arrival."""
    return [one.webhook_id.split("/")[1] for one in at.accepted(path)]


def test_on_the_laptop_a_healthy_receiver_gets_each_notice_while_four_others_hang(
    four_hang_one_healthy,
    receiver,  # noqa: F811
) -> None:
    stack, match, holds = four_hang_one_healthy

    # When the event source takes the "begins" notices (one tick of bin/host-server's pump)
    stack.webhooks.dispatch()
    # Then ana's arrives, and the four others' POSTs have come and hang
    wait_until(lambda: notices(receiver, "ana") == ["begins"], EVENT_WAIT, "ana's begins")
    assert all(hold.arrived.wait(EVENT_WAIT) for hold in holds.values())

    # When Pregame resolves while they still hang, and the next tick takes its notices
    match.resolve_now()
    stack.webhooks.dispatch()
    # Then ana's second notice arrives too, with the four first POSTs still unanswered
    wait_until(lambda: notices(receiver, "ana") == ["begins", "resolved-1"], EVENT_WAIT, "ana's resolved-1")
    answered_while_hung = [one.target for one in receiver.received]
    assert answered_while_hung == ["ana", "ana"]

    # And once released, each of the four gets its two notices once, in order
    for hold in holds.values():
        hold.release()
    stack.webhooks.deliver()
    assert {path: notices(receiver, path) for path in HANGING} == dict.fromkeys(HANGING, ["begins", "resolved-1"])
    assert stack.webhooks.waiting() == 0


def record(message: dict[str, Any]) -> dict[str, Any]:
    """A received message as Lambda's SQS event source hands it to the function."""
    return {"messageId": message["MessageId"], "receiptHandle": message["ReceiptHandle"], "body": message["Body"]}


def received(stack: Any, count: int) -> list[dict[str, Any]]:
    """`count` messages received from the webhook queue, as the event source would."""
    messages: list[dict[str, Any]] = []
    while len(messages) < count:
        got = stack.client("sqs").receive_message(QueueUrl=stack.webhooks.queue_url, MaxNumberOfMessages=10)
        messages += got.get("Messages", [])
    return messages


def test_on_aws_one_batch_delivers_the_healthy_receivers_notice_while_four_others_in_it_hang(
    four_hang_one_healthy,
    receiver,  # noqa: F811
) -> None:
    stack, match, holds = four_hang_one_healthy
    # Given the five "begins" notices in one batch, ana's last (the batch's order is SQS's to choose)
    batch = sorted(received(stack, 5), key=lambda message: json.loads(message["Body"])["target"] == "ana")
    assert json.loads(batch[-1]["Body"])["target"] == "ana"

    # When the delivery function takes the batch
    replies: list[tuple[str, bool, str]] = []
    event = {"Records": [record(message) for message in batch]}
    taking = threading.Thread(target=lambda: replies.append(stack.lambdas.invoke(FUNCTION, event)), daemon=True)
    taking.start()

    # Then ana's notice arrives while the four others of the batch hang
    wait_until(lambda: notices(receiver, "ana") == ["begins"], EVENT_WAIT, "ana's begins")
    assert all(hold.arrived.wait(EVENT_WAIT) for hold in holds.values())
    assert [one.target for one in receiver.received] == ["ana"]

    # And once they are released, the batch ends with every record done (none handed back)
    for hold in holds.values():
        hold.release()
    taking.join(EVENT_WAIT)
    ((payload, errored, _logs),) = replies
    assert (errored, json.loads(payload)) == (False, {"batchItemFailures": []})
    assert {path: notices(receiver, path) for path in HANGING} == dict.fromkeys(HANGING, ["begins"])


def test_on_aws_a_url_that_refuses_is_posted_to_once_a_batch_and_its_other_notices_wait_for_their_retry(
    loopback,  # noqa: F811
    receiver,  # noqa: F811
) -> None:
    # Given a match whose ana's and ben's notices of the start are delivered, and ben's receiver
    # then answers 503 to everything
    stack = loopback
    match = create(stack, {"ana": receiver.url("ana"), "ben": receiver.url("ben")}, phase_seconds=A_WEEK)
    trust(receiver, match, {"ana": "ana", "ben": "ben"})
    stack.webhooks.deliver()
    receiver.script("ben", [503])
    before = len(receiver.received)

    # When one batch holds three notices for ben and one for ana
    now = stack.clock.time()
    bodies = [
        Delivery(match.match_id, target, f"{match.match_id}/{occasion}/{target}", {"text": occasion}, now).to_json()
        for target, occasion in [("ben", "n1"), ("ben", "n2"), ("ana", "n3"), ("ben", "n4")]
    ]
    event = {"Records": [{"messageId": f"m{n}", "receiptHandle": f"r{n}", "body": b} for n, b in enumerate(bodies)]}
    payload, errored, _logs = stack.lambdas.invoke(FUNCTION, event)

    # Then ben's URL was POSTed to once (its first notice), ana's once; ben's three notices are
    # queued again, each with one failed attempt (the 503 stands for the two not tried), and no
    # record is handed back
    assert sorted((one.target, one.payload["text"]) for one in receiver.received[before:]) == [
        ("ana", "n3"),
        ("ben", "n1"),
    ]
    assert (errored, json.loads(payload)) == (False, {"batchItemFailures": []})
    retries = [json.loads(one.body) for one in stack.webhooks.kept().waiting]
    assert sorted((one["webhook_id"].split("/")[1], one["attempts"]) for one in retries) == [
        ("n1", 1),
        ("n2", 1),
        ("n4", 1),
    ]


def test_a_receiver_that_trickles_its_answer_is_cut_off_at_the_timeout(monkeypatch) -> None:
    # Given a receiver that answers a byte every 50 ms, forever (each wait shorter than any
    # timeout), and a POST timeout of one second
    monkeypatch.setattr(aws_webhooks, "TIMEOUT_SECONDS", 1)
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def trickle() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\n")
            while not stop.wait(0.05):
                try:
                    connection.sendall(b"X")
                except OSError:  # cut off: what the test waits for
                    return

    threading.Thread(target=trickle, daemon=True).start()
    port = listener.getsockname()[1]
    where = Destination(f"http://127.0.0.1:{port}/", "127.0.0.1", port, "127.0.0.1", False)
    answers: list[tuple[int | None, str | None]] = []

    # When a delivery POSTs to it
    posting = threading.Thread(target=lambda: answers.append(aws_webhooks.post(where, Post(b"{}", {}))), daemon=True)
    posting.start()
    posting.join(EVENT_WAIT)
    stop.set()
    listener.close()

    # Then the POST ended as unanswered (to be retried), not held for as long as it trickles
    assert answers == [(None, None)]
