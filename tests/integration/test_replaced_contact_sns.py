"""A replaced participant's address stops hearing the match on SNS (a deployment without mail of
its own mails each address through its subscriptions), and nothing else changes: the SNS adapter
on moto alone (no stack)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from moto import mock_aws

from game_core.aws.sns_notifier import SnsNotifier
from game_core.match.model import Match, Participant

BO, ADA = "bo@one.example", "ada@one.example"


def match(match_id: str, emails: dict[str, str]) -> Match:
    players = tuple(Participant(id=who, name=who, email=email, secret_hash="") for who, email in emails.items())
    return Match(
        match_id=match_id,
        game="crates",
        settings={},
        seed=7,
        players=players,
        phase_seconds=3600,
        early_close=False,
        recheck_seconds=3600,
        created_at=datetime(2026, 12, 1, tzinfo=UTC),
        starting_garnets={},
    )


@pytest.fixture
def sns() -> Any:
    with mock_aws():
        client = boto3.client("sns", region_name="us-east-1")
        private = client.create_topic(Name="private")["TopicArn"]
        public = client.create_topic(Name="public")["TopicArn"]
        yield client, SnsNotifier(client, public, private), private, public


def filters(client: Any, topic: str) -> dict[str, Any]:
    """The topic's email subscriptions: address -> filter policy."""
    found = {}
    for subscription in client.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"]:
        attributes = client.get_subscription_attributes(SubscriptionArn=subscription["SubscriptionArn"])["Attributes"]
        found[subscription["Endpoint"]] = json.loads(attributes["FilterPolicy"])
    return found


def test_the_old_address_leaves_the_replaced_match_and_keeps_its_others(sns) -> None:
    client, notifier, private, public = sns
    # Given Bo plays m-1 (with Ada) and m-2, each address subscribed as at create
    notifier.subscribe(match("m-1", {"ada": ADA, "bo": BO}))
    notifier.subscribe(match("m-2", {"bo": BO}))

    # When Bo's seat in m-1 goes to Dana
    replaced = match("m-1", {"ada": ADA, "bo": "dana@one.example"})
    assert notifier.unsubscribe(replaced, "bo", BO) is True
    notifier.subscribe(replaced)

    # Then Bo's address hears m-2 alone, Dana's hears seat bo of m-1, Ada's is as it was
    assert filters(client, private) == {
        ADA: {"match_id": ["m-1"], "recipient": ["ada"]},
        BO: {"match_id": ["m-2"], "recipient": ["bo"]},
        "dana@one.example": {"match_id": ["m-1"], "recipient": ["bo"]},
    }
    assert filters(client, public) == {
        ADA: {"match_id": ["m-1"]},
        BO: {"match_id": ["m-2"]},
        "dana@one.example": {"match_id": ["m-1"]},
    }


def test_an_address_left_owing_nothing_is_unsubscribed_not_left_unfiltered(sns) -> None:
    client, notifier, private, public = sns
    notifier.subscribe(match("m-1", {"ada": ADA, "bo": BO}))

    assert notifier.unsubscribe(match("m-1", {"ada": ADA}), "bo", BO.upper()) is True  # any case

    # An empty filter would pass every notice: the subscription goes instead
    assert BO not in filters(client, private) and BO not in filters(client, public)
    assert filters(client, private) == {ADA: {"match_id": ["m-1"], "recipient": ["ada"]}}
    # Asked again (a retried replacement), there is nothing left to change
    assert notifier.unsubscribe(match("m-1", {"ada": ADA}), "bo", BO) is True


def test_an_idn_address_is_subscribed_at_its_a_label_and_leaves_in_either_form(sns) -> None:
    client, notifier, private, public = sns
    # Ada registered as "ada@bücher.de" ("bücher" is "xn--bcher-kva" in IDNA, RFC 3492): SNS, as
    # SES, mails only an ASCII domain
    notifier.subscribe(match("m-1", {"ada": "ada@bücher.de"}))

    assert filters(client, private) == {"ada@xn--bcher-kva.de": {"match_id": ["m-1"], "recipient": ["ada"]}}

    # Her seat goes to Dana: the address she left with, in the other form, is found all the same
    assert notifier.unsubscribe(match("m-1", {"ada": "dana@one.example"}), "ada", "ADA@xn--bcher-kva.de") is True
    assert filters(client, private) == {} and filters(client, public) == {}
