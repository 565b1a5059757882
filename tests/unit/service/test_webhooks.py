"""Webhooks out, the pure parts (service/webhooks/sending.py): where a URL may point, the bodies, the
signature (checked with the Standard Webhooks package's own verification), what an answer means,
and the backoff. Every expected value is worked out from the issue's rules or the standard."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from crates_driver import request
from fakes import Fakes
from memory_hooks import PUBLIC_V4, MemoryHooks
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from game_core.errors import Malformed, NotFound
from game_core.games import registry
from game_core.match.model import MatchRequest
from game_core.service.commands import parse_host_command, run_host_command
from game_core.service.matches.lifecycle import create_match
from game_core.service.matches.phases import advance
from game_core.service.matches.submit import SubmissionRequest, submit
from game_core.service.telling.channels import tell
from game_core.service.telling.notices import progress_notices
from game_core.service.webhooks.bodies import channel, discord_parts
from game_core.service.webhooks.queue import Delivery, Hook
from game_core.service.webhooks.retries import next_wait, verdict
from game_core.service.webhooks.sending import attempt, new_secret, posts
from game_core.service.webhooks.urls import destination

PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c"


def resolver(*addresses: str):
    return lambda host: list(addresses)


@pytest.mark.parametrize(
    ("url", "addresses", "allowed"),
    [
        ("https://hooks.example.com/in", [PUBLIC_V4], True),
        ("https://hooks.example.com:8443/in?x=1", [PUBLIC_V4, PUBLIC_V6], True),
        ("http://hooks.example.com/in", [PUBLIC_V4], False),  # https only
        ("ftp://hooks.example.com/in", [PUBLIC_V4], False),
        ("https://user:pw@hooks.example.com/in", [PUBLIC_V4], False),  # credentials in the URL
        ("https://hooks.example.com/in", [PUBLIC_V4, "10.1.2.3"], False),  # one private address is enough
        ("https://hooks.example.com/in", ["127.0.0.1"], False),  # loopback
        ("https://hooks.example.com/in", ["169.254.169.254"], False),  # the metadata service (link-local)
        ("https://hooks.example.com/in", ["fd00:ec2::254"], False),  # its IPv6 address (ULA)
        ("https://hooks.example.com/in", ["100.64.0.1"], False),  # CGNAT
        ("https://hooks.example.com/in", ["192.168.1.1"], False),
        ("https://hooks.example.com/in", ["172.16.0.1"], False),
        ("https://hooks.example.com/in", ["::1"], False),
        ("https://hooks.example.com/in", ["fe80::1"], False),
        ("https://hooks.example.com/in", ["::ffff:10.0.0.1"], False),  # IPv4-mapped private
        ("https://hooks.example.com/in", ["2002:a00:1::1"], False),  # 6to4 of 10.0.0.1
        ("https://hooks.example.com/in", ["0.0.0.0"], False),
        ("https://hooks.example.com/in", ["224.0.0.1"], False),  # multicast
        ("https://hooks.example.com/in", [], False),  # does not resolve
        ("https://10.0.0.7/in", ["10.0.0.7"], False),
    ],
)
def test_only_https_to_public_addresses_is_taken(url, addresses, allowed) -> None:
    if allowed:
        assert destination(url, resolver(*addresses)).address == addresses[0]
    else:
        with pytest.raises(Malformed):
            destination(url, resolver(*addresses))


def test_the_refusal_names_the_address() -> None:
    with pytest.raises(Malformed) as refused:
        destination("https://sneaky.example.com/in", resolver("169.254.169.254"))
    assert "sneaky.example.com resolves to 169.254.169.254" in refused.value.reasons[0].text


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("http://127.0.0.1:8080/hook", True),
        ("http://localhost:8080/hook", False),  # only the address itself, never a name
        ("http://10.0.0.2:8080/hook", False),
        ("https://127.0.0.1/hook", False),  # loopback by https is still not public
    ],
)
def test_the_laptops_flag_allows_plain_http_to_127_0_0_1_only(url, allowed) -> None:
    if allowed:
        where = destination(url, resolver("127.0.0.1"), allow_loopback=True)
        assert (where.address, where.port, where.tls) == ("127.0.0.1", 8080, False)
    else:
        with pytest.raises(Malformed):
            destination(url, resolver("127.0.0.1", "10.0.0.2"), allow_loopback=True)
    with pytest.raises(Malformed):
        destination(url, resolver("127.0.0.1"))


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/hook", "http://localhost:8080/hook"])
def test_a_url_to_the_laptop_itself_is_refused_naming_the_flag_that_takes_it(url) -> None:
    # Issue 34: the refusal said "only https:// URLs are taken" and nothing of the laptop's flag
    with pytest.raises(Malformed) as refused:
        destination(url, resolver("127.0.0.1"))
    [reason] = refused.value.reasons
    assert "--allow-loopback-webhooks" in reason.text and "http://127.0.0.1:<port>/" in reason.text
    # Elsewhere plain http is just refused: no flag would take it
    with pytest.raises(Malformed) as elsewhere:
        destination("http://hooks.example.com/in", resolver(PUBLIC_V4))
    assert "--allow-loopback-webhooks" not in elsewhere.value.reasons[0].text


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("https://discord.com/api/webhooks/1/abc", "discord"),
        ("https://discordapp.com/api/webhooks/1/abc", "discord"),
        ("https://discord.com/channels/1/2", "standard"),
        ("https://hooks.slack.com/services/T0/B0/xyz", "slack"),
        ("https://hooks.slack.com.evil.example/services/T0", "standard"),
        ("https://example.com/api/webhooks/1/abc", "standard"),
    ],
)
def test_the_body_follows_the_url(url, kind) -> None:
    assert channel(url) == kind


@pytest.mark.parametrize(
    ("text", "limit", "parts"),
    [
        ("short", 10, ["short"]),
        ("aaaa\nbbbb\ncccc", 9, ["aaaa\nbbbb", "cccc"]),  # "aaaa\nbbbb" is 9
        ("aaaa\nbbbb\ncccc", 8, ["aaaa", "bbbb", "cccc"]),
        ("aaaaaaaaaaaa\nb", 5, ["aaaaa", "aaaaa", "aa\nb"]),  # a line longer than a message is cut
        ("a\n\nb", 10, ["a\n\nb"]),  # empty lines kept inside a message
    ],
)
def test_discord_messages_are_cut_between_lines_in_order(text, limit, parts) -> None:
    assert discord_parts(text, limit) == parts


def delivery(text: str = "Round 1 closes soon.") -> Delivery:
    payload = {"type": "match.notice", "match_id": "m-1", "text": text, "you": "ana"}
    return Delivery("m-1", "ana", "m-1/resolved-1/ana", payload, queued_at=0)


def test_a_delivery_is_signed_as_the_standard_verifies_and_a_tampered_one_is_not() -> None:
    hook = Hook("https://bot.example.com/in", new_secret())
    now = int(time.time())

    (post,) = posts(hook, delivery(), now)

    assert post.headers["webhook-id"] == "m-1/resolved-1/ana"
    assert post.headers["webhook-timestamp"] == str(now)
    assert Webhook(hook.secret).verify(post.body, post.headers) == delivery().payload
    with pytest.raises(WebhookVerificationError):
        Webhook(hook.secret).verify(post.body.replace(b"ana", b"bob"), post.headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(new_secret()).verify(post.body, post.headers)


def test_chat_bodies_carry_the_text_unsigned() -> None:
    text = "\n".join(["x" * 1500, "y" * 1500])
    discord = posts(Hook("https://discord.com/api/webhooks/1/abc", new_secret()), delivery(text), 0)
    slack = posts(Hook("https://hooks.slack.com/services/T/B/C", new_secret()), delivery(text), 0)

    assert [json.loads(one.body)["content"] for one in discord] == ["x" * 1500, "y" * 1500]
    assert [json.loads(one.body) for one in slack] == [{"text": text}]
    assert all("webhook-signature" not in one.headers for one in discord + slack)


NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("status", "retry_after", "outcome", "wait"),
    [
        (200, None, "delivered", None),
        (204, None, "delivered", None),
        (None, None, "retry", None),  # a timeout or no connection
        (500, None, "retry", None),
        (503, "120", "retry", None),  # Retry-After is a 429's only
        (408, None, "retry", None),
        (429, "120", "retry", 120),
        (429, "Wed, 02 Dec 2026 12:05:00 GMT", "retry", 300),
        (429, "soon", "retry", None),
        (400, None, "refused", None),
        (401, None, "refused", None),
        (404, None, "refused", None),
        (410, None, "refused", None),
        (302, None, "refused", None),  # a redirect is not followed
    ],
)
def test_what_an_answer_means(status, retry_after, outcome, wait) -> None:
    judged = verdict(status, retry_after, NOW)
    assert (judged.outcome, judged.retry_after) == (outcome, wait)


@pytest.mark.parametrize(
    ("attempts", "queued_at", "now", "retry_after", "wait"),
    [
        (1, 0, 0, None, 30),
        (2, 0, 30, None, 60),
        (5, 0, 450, None, 480),  # 30 x 2^4
        (11, 0, 30690, None, 30720),
        (12, 0, 61410, None, 24990),  # 61440 would pass the window: the 24,990 s left
        (13, 0, 86400, None, None),  # the window is spent
        (15, 0, 1000, None, 43200),  # 30 x 2^14 = 491,520: twelve hours at most
        (1, 0, 0, 600, 600),  # a 429's Retry-After
        (1, 0, 0, 0, 1),
        (1, 0, 86000, 3600, 400),  # but never past the window
    ],
)
def test_the_backoff_doubles_from_30_seconds_within_24_hours(attempts, queued_at, now, retry_after, wait) -> None:
    assert next_wait(attempts, queued_at, now, retry_after) == wait


# -- queued by `tell`, on the fakes ----------------------------------------------------------


EVERY_URL = {
    "ada": "https://bot.example.com/ada",
    "bo": "https://bot.example.com/bo",
    "@public": "https://site.example/p",
}
"""Both players' and the public channel's subscriptions."""


def hooked(urls: dict[str, str]) -> tuple[Fakes, MemoryHooks, Any, str]:
    fakes, hooks = Fakes(), MemoryHooks()
    ports = replace(fakes.ports, hooks=hooks)
    settings = request().model_dump(mode="json") | {"webhooks": urls}
    created = create_match(ports, MatchRequest.model_validate(settings))
    return fakes, hooks, ports, created["match_id"]


def test_the_match_begins_with_one_delivery_per_subscription_each_with_its_own_view() -> None:
    fakes, hooks, _ports, mid = hooked({"ada": "https://bot.example.com/ada", "@public": "https://site.example/p"})

    # The opening notices: a public one and one each for Ada and Bo; Bo has no URL
    assert [(one.target, one.webhook_id) for one in hooks.queued] == [
        ("@public", f"{mid}/begins/@all"),
        ("ada", f"{mid}/begins/ada"),
    ]
    public, ada = hooks.queued
    assert "you" not in public.payload and public.payload["view"] == fakes.notifier.notices()[0].body["view"]
    private = {notice.recipient: notice.body for notice in fakes.notifier.notices()}
    assert ada.payload["you"] == ada.payload["recipient"] == "ada" and ada.payload["view"] == private["ada"]["view"]


def test_a_refused_url_creates_nothing() -> None:
    fakes, hooks = Fakes(), MemoryHooks()
    settings = request().model_dump(mode="json") | {"webhooks": {"ada": "https://internal.example/hook"}}

    with pytest.raises(Malformed) as refused:
        create_match(replace(fakes.ports, hooks=hooks), MatchRequest.model_validate(settings))

    assert "internal.example resolves to 10.0.0.9" in refused.value.reasons[0].text
    assert not hooks.kept and not hooks.queued and not fakes.notifier.published


def named_settings(urls: dict[str, str]) -> MatchRequest:
    settings = request().model_dump(mode="json") | {"webhooks": urls}
    settings["players"][0]["name"], settings["players"][1]["name"] = "Ada Lovelace", "Bo Baggins"
    return MatchRequest.model_validate(settings)


def test_the_host_names_a_subscriptions_participant_by_name_with_spaces_any_case() -> None:
    fakes, hooks = Fakes(), MemoryHooks()
    ports = replace(fakes.ports, hooks=hooks)
    created = create_match(ports, named_settings({"ada lovelace": "https://bot.example.com/ada"}))
    mid = created["match_id"]
    assert set(created["webhook_secrets"]) == {"ada"} and hooks.hook(mid, "ada") is not None

    event = {"command": "webhook", "match_id": mid, "target": "BO BAGGINS", "url": "https://bot.example.com/bo"}
    assert run_host_command(ports, parse_host_command(event))["target"] == "bo"
    assert hooks.hook(mid, "bo") == Hook("https://bot.example.com/bo", hooks.kept[(mid, "bo")].secret)
    assert fakes.store.get(mid).webhooks == ("ada", "bo")

    stranger = event | {"target": "Bo Byron"}
    with pytest.raises(NotFound, match=r"'Bo Byron' is neither .*\(Ada Lovelace \(ada\), Bo Baggins \(bo\)\) nor"):
        run_host_command(ports, parse_host_command(stranger))


def test_a_notice_for_everyone_reaches_each_subscription_under_an_id_of_its_own() -> None:
    _fakes, hooks, ports, mid = hooked(EVERY_URL)
    hooks.queued.clear()

    # When the host extends the phase: one notice, to everyone (no one has a private part)
    run_host_command(ports, parse_host_command({"command": "extend", "match_id": mid, "seconds": 60}))

    # Then each subscription gets it under an id naming it (Standard Webhooks: an id is one
    # message's; the same id twice is a repeat, so one receiver serving two subscriptions, or
    # counting ids, must not see the public channel's id again in Ada's and Bo's deliveries)
    (occasion,) = {one.webhook_id.split("/")[1] for one in hooks.queued}
    assert sorted((one.target, one.webhook_id) for one in hooks.queued) == [
        ("@public", f"{mid}/{occasion}/@all"),
        ("ada", f"{mid}/{occasion}/ada"),
        ("bo", f"{mid}/{occasion}/bo"),
    ]


def test_a_settings_file_naming_one_participant_twice_in_its_webhooks_is_refused() -> None:
    fakes, hooks = Fakes(), MemoryHooks()
    twice = {"ada": "https://bot.example.com/1", "Ada Lovelace": "https://bot.example.com/2"}
    with pytest.raises(Malformed) as refused:
        create_match(replace(fakes.ports, hooks=hooks), named_settings(twice))
    assert refused.value.reasons[0].text == "'Ada Lovelace' and 'ada' name the same subscription"
    assert not hooks.kept


def test_a_step_retried_after_its_mark_failed_queues_nothing_twice() -> None:
    fakes, hooks, ports, mid = hooked({"ada": "https://bot.example.com/ada", "@public": "https://site.example/p"})
    hooks.queued.clear()
    match = fakes.store.get(mid)
    notices = progress_notices(match, registry.load("crates"), "News", "news")
    failing = iter([RuntimeError("the mark failed")])

    def mark() -> None:
        error = next(failing, None)
        if error is not None:
            raise error

    with pytest.raises(RuntimeError):
        tell(ports, match, notices, mark)
    tell(ports, fakes.store.get(mid), notices, mark)

    assert sorted(one.webhook_id for one in hooks.queued) == [f"{mid}/news/@all", f"{mid}/news/ada"]


def test_a_discord_message_failing_midway_is_retried_from_the_part_that_failed() -> None:
    fakes, hooks = Fakes(), MemoryHooks()
    ports = replace(fakes.ports, hooks=hooks)
    hooks.put_hook("m-1", "@public", Hook("https://discord.com/api/webhooks/1/abc", new_secret()))
    text = "\n".join(["a" * 1500, "b" * 1500, "c" * 1500])  # three messages
    answers = iter([(204, None), (503, None), (204, None), (204, None)])
    sent: list[str] = []

    def post(where, one):
        sent.append(json.loads(one.body)["content"][0])
        return next(answers)

    queued = replace(delivery(text), target="@public", queued_at=fakes.clock.now().timestamp())
    first = attempt(ports, queued, post, 0)
    assert first.outcome == "later" and first.next is not None and first.next.parts_sent == 1
    fakes.clock.advance(30)
    second = attempt(ports, first.next, post, 0)

    assert second.outcome == "delivered"
    assert sent == ["a", "b", "b", "c"]  # "a" once: the retry began where the first stopped


def test_at_the_reveal_each_participants_webhook_opens_their_own_sealed_moves_and_nobody_elses() -> None:
    fakes, hooks, ports, mid = hooked(EVERY_URL)
    moves = {"ada": [2, 1, 1, 0, -1, -1], "bo": [-1, -1, 0, 1, 1, 2]}
    for player, multipliers in moves.items():  # the fakes' salts: Ada's SHA-256("salt-1"), Bo's "salt-2"
        submit(ports, SubmissionRequest(mid, player, "Pregame", "multipliers", {"multipliers": multipliers}, "test"))
    hooks.queued.clear()
    fakes.clock.advance(3600)  # the Pregame's deadline (an hour)

    advance(ports, mid)

    told = {one.target: one.payload for one in hooks.queued if one.webhook_id.startswith(f"{mid}/resolved-1/")}
    salts = {player: hashlib.sha256(f"salt-{n}".encode()).hexdigest() for n, player in ((1, "ada"), (2, "bo"))}
    # Crates reveals no multipliers: nothing is opened publicly, each player's own move to them
    assert sorted(told) == ["@public", "ada", "bo"] and "opened" not in told["@public"]
    for player, other in (("ada", "bo"), ("bo", "ada")):
        opening = {"phase": "Pregame", "number": 1, "player": player, "kind": "multipliers"}
        assert told[player]["opened"] == [
            opening | {"submission": {"multipliers": moves[player]}, "salt": salts[player]}
        ]
        assert f"    salt {salts[player]}" in told[player]["text"].splitlines()  # as their mail says it
        assert salts[other] not in json.dumps(told[player]) and salts[player] not in json.dumps(told["@public"])
