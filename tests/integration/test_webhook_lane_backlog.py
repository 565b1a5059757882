"""The laptop's webhook lanes send each notice once (issue 32):

- held in its lane longer than the queue's visibility timeout (540 s): the laptop's event source
  takes every visible record into its lane at once, so a receiver slow for notice after notice
  (or a laptop asleep) keeps later ones waiting in the lane past the time SQS hides a received
  message; handed out again, each was put in the lane a second time and POSTed twice;
- POSTed when the server stops: the stop waits for its answer, and keeps it as delivered (the
  queue file used to be kept as the batch began, so the next start sent it again).

The server runs on a virtual clock in this process (tests/integration/test_host_server.py): the
clock is moved, nothing waits 540 s."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from conftest import crates_request
from test_host_server import (  # noqa: F401 - environment: the fixture restoring the process environment
    REQUEST_TIMEOUT,
    START,
    environment,
    host,
    serve,
)
from webhook_receiver import Receiver

import game_core.aws.webhooks as aws_webhooks
from local_stack.aws.clock import VirtualClock

pytestmark = pytest.mark.statemachine


def test_notices_held_in_a_lane_past_the_visibility_timeout_are_sent_once_each(tmp_path, monkeypatch) -> None:
    # The hang ends when the test releases it, not at the POST's 10-s timeout
    monkeypatch.setattr(aws_webhooks, "TIMEOUT_SECONDS", 3600)
    with Receiver() as receiver:
        # Given a match whose p1's receiver hangs on its first notice ("begins"), and two notices
        # more for p1 waiting in its lane behind it (two messages from the host to everyone)
        hung = receiver.hold("p1")
        server = serve(tmp_path, VirtualClock(START), allow_loopback_webhooks=True)
        try:
            request = crates_request(2, phase_seconds=7 * 86_400) | {"reminders": []}
            request["webhooks"] = {"p1": receiver.url("p1")}
            match_id = host(server, "create", match=request)["match_id"]
            server.stack.settle()
            server.stack.webhooks.dispatch()
            assert hung.arrived.wait(REQUEST_TIMEOUT)
            for text in ("Back at 8", "Back at 9"):
                host(server, "press", match_id=match_id, text=text)
            server.stack.settle()
            server.stack.webhooks.dispatch()

            # When the visibility timeout passes while they are held, and the event source looks
            # again: 10 minutes on (hidden again while held), then 13 hours on (past SQS's 12-hour
            # limit on hiding a message: handed out again, and known as the records held)
            for seconds in (600, 13 * 3600):
                server.stack.advance(seconds)
                server.stack.webhooks.dispatch()
            hung.release()
            server.stack.webhooks.deliver()
            left = server.stack.webhooks.waiting()
        finally:
            server.__exit__()

    # Then p1 got each of its three notices once, in order, and nothing is left queued
    occasions = [one.webhook_id.split("/")[1] for one in receiver.attempts("p1")]
    assert Counter(occasions).most_common(1)[0][1] == 1, occasions
    assert len(occasions) == 3 and occasions[0] == "begins", occasions
    assert left == 0


def test_a_post_under_way_when_the_server_stops_is_answered_and_not_sent_again_after_a_restart(
    tmp_path, monkeypatch
) -> None:
    monkeypatch.setattr(aws_webhooks, "TIMEOUT_SECONDS", 3600)
    with Receiver() as receiver:
        # Given p1's "begins" notice POSTed, its receiver not yet answering
        hung = receiver.hold("p1")
        server = serve(tmp_path, VirtualClock(START), allow_loopback_webhooks=True)
        request = crates_request(2, phase_seconds=7 * 86_400) | {"reminders": []}
        request["webhooks"] = {"p1": receiver.url("p1")}
        host(server, "create", match=request)
        server.stack.settle()
        server.stack.webhooks.dispatch()
        assert hung.arrived.wait(REQUEST_TIMEOUT)

        # When the server stops (Ctrl-C), the receiver answering once the stop has begun, and a
        # server starts again on the folder and delivers what it kept
        def answer_once_stopping() -> None:
            server.stack.webhooks.stopping.wait(REQUEST_TIMEOUT)
            hung.release()

        answering = threading.Thread(target=answer_once_stopping)
        answering.start()
        server.__exit__()
        answering.join(REQUEST_TIMEOUT)
        again = serve(tmp_path, VirtualClock(START), allow_loopback_webhooks=True)
        try:
            again.stack.webhooks.deliver()
        finally:
            again.__exit__()

    # Then the notice was POSTed once: the stop waited for its answer and kept it as delivered
    assert [(one.webhook_id.split("/")[1], one.answered) for one in receiver.attempts("p1")] == [("begins", 200)]
