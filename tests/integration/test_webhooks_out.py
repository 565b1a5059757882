"""Webhooks out (issue 20) on the local stack: the real delivery function on moto's SQS, POSTing
to a receiver on 127.0.0.1 that verifies every signature with the Standard Webhooks package.
Time is the stack's virtual clock (moto's SQS reads it too): a retry an hour away comes back
when the test advances the clock an hour, never by waiting."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import pytest
from conftest import CratesMatch, crates_request, host_alerts
from webhook_receiver import Receiver

from game_core.aws.webhooks import AwsHooks
from game_core.service.webhooks.bodies import Post
from game_core.service.webhooks.urls import Destination

NO_REMINDERS = {"reminders": []}
"""Reminders would tell the subscribers more than a test counts on."""
A_WEEK = 7 * 86400


@pytest.fixture
def receiver():
    with Receiver() as receiving:
        yield receiving


@pytest.fixture
def loopback(stack, monkeypatch):
    """The stack's functions take http://127.0.0.1 URLs (the laptop's explicit flag)."""
    monkeypatch.setenv("WEBHOOKS_ALLOW_LOOPBACK", "1")
    stack.cold_start()
    return stack


def create(stack, webhooks: dict[str, str], players=("ana", "ben"), **options: Any) -> CratesMatch:
    request = crates_request(list(players), **options) | NO_REMINDERS | {"webhooks": webhooks}
    created = stack.host({"command": "create", "match": request})
    assert created["ok"], created
    stack.settle()
    return CratesMatch(stack, created["match_id"], created["secrets"], list(players), created)


def request(stack, method: str, path: str, secret: str, body: dict[str, Any] | None) -> tuple[int, dict[str, Any]]:
    """A request to the webhook function, as the HTTP API hands it over."""
    from local_stack.aws.api_events import api_gateway_event

    _, match_id, _, player, _ = path.strip("/").split("/")
    event = api_gateway_event(
        f"{method} /matches/{{match_id}}/players/{{player_id}}/webhook",
        path,
        {"match_id": match_id, "player_id": player},
        headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json"},
        body=None if body is None else json.dumps(body),
        request_id=f"test-{method}",
    )
    reply = stack.invoke("SubmitWebhookFunction", event)
    return int(reply["statusCode"]), json.loads(reply["body"])


def trust(receiver: Receiver, match: CratesMatch, names: dict[str, str]) -> None:
    """The receiver verifies each path's POSTs with the secret the create reply gave its target."""
    for path, target in names.items():
        receiver.secrets[path] = match.created["webhook_secrets"][target]


def test_each_subscription_gets_its_notices_signed_as_the_standard_verifies(loopback, receiver) -> None:
    # Given a match whose player ana and whose public channel each have a URL
    stack = loopback
    match = create(stack, {"ana": receiver.url("ana"), "@public": receiver.url("public")})
    trust(receiver, match, {"ana": "ana", "public": "@public"})

    # When Pregame resolves and the queue is worked
    match.resolve_now()
    stack.webhooks.deliver()

    # Then (by the notices: the match began and Pregame resolved, each a public notice and one
    # private each) ana's URL got her two, the public URL the two public ones, every signature
    # verified, each under its notice's id
    ana, public = receiver.accepted("ana"), receiver.accepted("public")
    assert [one.webhook_id for one in ana] == [f"{match.match_id}/begins/ana", f"{match.match_id}/resolved-1/ana"]
    assert [one.webhook_id for one in public] == [f"{match.match_id}/begins/@all", f"{match.match_id}/resolved-1/@all"]
    assert all(one.verified for one in receiver.received)
    assert all(one.payload["you"] == "ana" and one.payload["recipient"] == "ana" for one in ana)
    assert all("you" not in one.payload and one.payload["recipient"] is None for one in public)
    assert ana[1].payload["type"] == "match.notice" and ana[1].payload["phase"] == "Round 1"
    assert "Round 1 closes" in ana[1].payload["text"]
    assert "ben" not in receiver.secrets and not receiver.attempts("ben")
    assert stack.webhooks.waiting() == 0


def test_a_receiver_failing_twice_gets_each_notice_once_after_the_backoff(loopback, receiver) -> None:
    # Given ana's receiver answers 500, then 503, then 200 to each notice
    stack = loopback
    receiver.script("ana", [500, 503, 200])
    match = create(stack, {"ana": receiver.url("ana")}, phase_seconds=A_WEEK)
    trust(receiver, match, {"ana": "ana"})

    # When the queue is worked as time passes: the first retry is due 30 s after the first
    # attempt, the second 60 s after the second (30 s doubling); it is looked at one second
    # before each is due and when it is
    stack.webhooks.deliver()
    tried = [len(receiver.attempts("ana"))]
    for seconds in (29, 1, 59, 1):
        stack.advance(seconds)
        stack.webhooks.deliver()
        tried.append(len(receiver.attempts("ana")))

    # Then nothing was attempted early, and the notice was accepted exactly once, on the third
    # attempt, with the same id and a verified signature each time
    assert tried == [1, 1, 2, 2, 3]
    attempts = receiver.attempts("ana")
    assert [one.answered for one in attempts] == [500, 503, 200]
    assert {one.webhook_id for one in attempts} == {f"{match.match_id}/begins/ana"}
    assert all(one.verified for one in attempts)
    assert len(receiver.accepted("ana")) == 1
    assert stack.webhooks.waiting() == 0


# By hand: the waits after attempt n are 30 x 2^(n-1) s, each at most 12 hours, the last cut to
# end on the window (24 hours = 86,400 s after the notice was queued): attempts at 0, 30, 90,
# 210, 450, 930, 1890, 3810, 7650, 15330, 30690, 61410 and 86400 (61410 + 61440 would pass the
# window, so the wait is the 24,990 s left): 13 attempts; the 13th finds the window spent.
GAPS = [30, 60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 30720, 24990]


def test_a_receiver_down_past_the_window_ends_in_the_dead_letter_queue_with_a_host_alert(loopback, receiver) -> None:
    # Given ana's receiver answers 503 to everything, and the host has an alerts URL and topic
    stack = loopback
    alerts_topic = host_alerts(stack)
    receiver.script("ana", [503])
    match = create(stack, {"ana": receiver.url("ana"), "@alerts": receiver.url("alerts")}, phase_seconds=A_WEEK)
    trust(receiver, match, {"ana": "ana", "alerts": "@alerts"})

    # When the queue is worked one second before each retry is due (waits over 15 minutes are
    # hops of a copy not yet due), and when it is
    stack.webhooks.deliver()
    for number, gap in enumerate(GAPS, start=1):
        stack.advance(gap - 1)
        stack.webhooks.deliver()
        assert len(receiver.attempts("ana")) == number
        stack.advance(1)
        stack.webhooks.deliver()
        assert len(receiver.attempts("ana")) == number + 1

    # Then ana's notice was tried 13 times, went to the dead-letter queue, and the host was told
    # by the topic and by their alerts URL (signed)
    assert len(receiver.attempts("ana")) == 13
    (dead,) = stack.webhooks.dead_letters()
    assert (dead["target"], dead["webhook_id"]) == ("ana", f"{match.match_id}/begins/ana")
    (alert,) = alerts_topic()
    assert (alert["match_id"], alert["target"], alert["last_status"]) == (match.match_id, "ana", 503)
    (told,) = receiver.accepted("alerts")
    assert told.verified and told.payload["type"] == "host.alert" and told.payload["target"] == "ana"
    assert stack.webhooks.waiting() == 0


@pytest.mark.parametrize(("status", "attempts"), [(400, 1), (404, 1), (410, 1), (301, 1), (408, 2), (429, 2)])
def test_a_4xx_is_not_retried_but_408_and_429_are(loopback, receiver, status, attempts) -> None:
    stack = loopback
    receiver.script("ana", [status, 200])
    create(stack, {"ana": receiver.url("ana")}, phase_seconds=A_WEEK)

    stack.webhooks.deliver()
    stack.advance(30)
    stack.webhooks.deliver()

    assert len(receiver.attempts("ana")) == attempts
    assert stack.webhooks.waiting() == 0


DISCORD = "https://discord.com/api/webhooks/123456/secret-token"
DISCORD_ADDRESS = "162.159.128.233"


def test_a_discord_url_gets_discord_bodies_in_order_unsigned_at_the_address_checked(stack, monkeypatch) -> None:
    # Given the public channel on a Discord webhook (its name resolving to a public address, and
    # the POST intercepted here: no network)
    monkeypatch.setattr(AwsHooks, "resolve", lambda self, host: [DISCORD_ADDRESS] if host == "discord.com" else [])
    sent: list[tuple[Destination, Post]] = []

    def intercept(where: Destination, one: Post) -> tuple[int, None]:
        sent.append((where, one))
        return 204, None

    monkeypatch.setattr(sys.modules["lambda_webhook_deliver_app"], "post", intercept)
    match = create(stack, {"@public": DISCORD})
    stack.webhooks.deliver()
    sent.clear()

    # When the host presses a message of 60 lines of 50 characters (3,060 with line ends)
    lines = [f"{number:02d} " + "x" * 47 for number in range(60)]
    assert match.host("press", text="\n".join(lines))["ok"]
    stack.webhooks.deliver()

    # Then Discord gets it as two messages, in order, cut between lines (by hand: "A message from
    # the host to everyone:", "" and 38 lines make 36 + 1 + 1 + 38 x 51 - 1 = 1,975 characters; a
    # 39th line would pass 2,000), mentions off, no signature headers, sent to the address checked
    bodies = [json.loads(one.body) for _where, one in sent]
    assert bodies[0]["content"].startswith("A message from the host to everyone:\n\n")
    assert [len(body["content"]) for body in bodies] == [1975, 22 * 51 - 1]
    assert bodies[0]["content"].split("\n")[2:] == lines[:38]
    assert bodies[1]["content"].split("\n") == lines[38:]
    assert all(body["allowed_mentions"] == {"parse": []} for body in bodies)
    assert all(not any(name.startswith("webhook-") for name in one.headers) for _where, one in sent)
    assert {(where.host, where.address, where.tls) for where, _one in sent} == {("discord.com", DISCORD_ADDRESS, True)}


def test_a_participant_sets_and_removes_their_url_with_their_secret(loopback, receiver) -> None:
    stack = loopback
    match = create(stack, {}, phase_seconds=A_WEEK)
    route = f"/matches/{match.match_id}/players/ana/webhook"

    # A wrong secret changes nothing; a private address is refused naming it
    refused = request(stack, "PUT", route, "wrong", {"url": receiver.url("ana")})
    assert refused[0] == 401
    private = request(stack, "PUT", route, match.secrets["ana"], {"url": "https://10.0.0.7/hook"})
    assert private[0] == 400 and "10.0.0.7" in private[1]["reasons"][0]["text"]

    # The right one sets it: the reply holds the signing secret, and the next notice arrives
    status, reply = request(stack, "PUT", route, match.secrets["ana"], {"url": receiver.url("ana")})
    assert status == 200 and reply["secret"].startswith("whsec_")
    receiver.secrets["ana"] = reply["secret"]
    assert match.host("press", text="Hello", to="ana")["ok"]
    stack.webhooks.deliver()
    (told,) = receiver.accepted("ana")
    assert told.verified and told.payload["press"] == "Hello"

    # Removed, nothing more arrives (what was queued meanwhile is dropped)
    assert match.host("press", text="Queued before the removal", to="ana")["ok"]
    assert request(stack, "DELETE", route, match.secrets["ana"], None)[0] == 200
    assert match.host("press", text="After", to="ana")["ok"]
    stack.webhooks.deliver()
    assert len(receiver.attempts("ana")) == 1
    assert stack.webhooks.waiting() == 0


def test_the_host_sets_the_public_url_from_the_sample_event(stack, monkeypatch) -> None:
    from conftest import load_event

    monkeypatch.setattr(AwsHooks, "resolve", lambda self, host: [DISCORD_ADDRESS])
    match = create(stack, {})

    reply = stack.host(load_event("host_webhook.json", match.match_id))

    assert reply["ok"] and reply["target"] == "@public" and reply["signed"] is False, reply
    assert match.ports.store.get(match.match_id).webhooks == ("@public",)
    removed = stack.host({"command": "webhook", "match_id": match.match_id, "target": "@public"})
    assert removed["ok"] and match.ports.store.get(match.match_id).webhooks == ()


def test_the_host_server_delivers_from_its_own_queue_behind_its_loopback_flag(tmp_path, receiver) -> None:
    from conftest import wait_until
    from test_host_server import host, serve

    from local_stack.aws.clock import VirtualClock

    saved = dict(os.environ)
    server = serve(tmp_path, VirtualClock(), allow_loopback_webhooks=True)
    try:
        # Given a match made through the server's host commands with ana's URL on the receiver
        request = crates_request(["ana", "ben"]) | NO_REMINDERS | {"webhooks": {"ana": receiver.url("ana")}}
        created = host(server, "create", match=request)
        receiver.secrets["ana"] = created["webhook_secrets"]["ana"]

        # Then the server's own pump delivers the opening notice, signed
        (told,) = wait_until(lambda: receiver.accepted("ana"), 60, "the opening notice at ana's URL")
        assert told.verified and told.webhook_id == f"{created['match_id']}/begins/ana"
    finally:
        server.__exit__(None, None, None)
        os.environ.clear()
        os.environ.update(saved)


def test_a_stalled_match_alerts_the_hosts_alerts_url(loopback, receiver) -> None:
    # Given a match whose host has an alerts URL
    stack = loopback
    match = create(stack, {"@alerts": receiver.url("alerts")}, phase_seconds=A_WEEK)
    trust(receiver, match, {"alerts": "@alerts"})

    # When the state machine's Stalled state runs its step, twice (as a retried step would)
    for _ in range(2):
        stalled = {"step": "stalled", "match_id": match.match_id, "error": {"Error": "ClientError", "Cause": "x"}}
        stack.invoke("PhaseStepFunction", stalled)
    stack.webhooks.deliver()

    # Then the alerts URL got the alert, both times under the same id (the receiver drops the
    # repeat), signed
    alerts = receiver.accepted("alerts")
    assert {one.webhook_id for one in alerts} == {f"{match.match_id}/stalled-0"}
    assert all(one.verified and one.payload["type"] == "host.alert" for one in alerts)
    assert alerts[0].payload["stalled"]["error"] == "ClientError"
