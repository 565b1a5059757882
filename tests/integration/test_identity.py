"""Participant ids are unique within a deployment, and each participant hears only their own match.

Garnet balances and private notices key on the participant id, so two groups that both name an
"ada" must not become one ledger and one inbox: the first match naming an id registers its
contact (email); a later match naming it with another contact is refused unless the host
confirms (`"confirm_contact": true`). Every notice carries its `match_id`, a private one its
`recipient` too, and the subscriptions the service makes filter on both.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import crates_request

from game_core.aws.sns_notifier import MAX_COMBINATIONS, filter_policy, owed_pairs


def request(players: dict[str, str | None], **confirm: bool) -> dict[str, Any]:
    """A Crates settings file naming those players with those emails (None: no email)."""
    settings = crates_request(list(players))
    for entry in settings["players"]:
        if players[entry["id"]] is not None:
            entry["email"] = players[entry["id"]]
        if confirm.get(entry["id"]):
            entry["confirm_contact"] = True
    return settings


def create(stack: Any, players: dict[str, str | None], **confirm: bool) -> dict[str, Any]:
    reply: dict[str, Any] = stack.host({"command": "create", "match": request(players, **confirm)})
    return reply


def registered(players: tuple[str, ...]) -> dict[str, str]:
    from game_core.aws.wiring import ports_from_environment

    contacts: dict[str, str] = ports_from_environment().store.contacts(players)
    return contacts


def email_filters(stack: Any, topic: str) -> dict[str, dict[str, Any]]:
    """The topic's email subscriptions: endpoint -> filter policy."""
    sns = stack.client("sns")
    filters = {}
    for subscription in sns.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"]:
        if subscription["Protocol"] == "email":
            attributes = sns.get_subscription_attributes(SubscriptionArn=subscription["SubscriptionArn"])["Attributes"]
            filters[subscription["Endpoint"]] = json.loads(attributes["FilterPolicy"])
    return filters


# -- one id, one person ------------------------------------------------------------------------------


def test_a_known_id_with_another_contact_is_refused_unless_the_host_confirms(stack) -> None:
    # Given "ada" registered by a first match with her email
    first = create(stack, {"ada": "ada@one.example", "bo": "bo@one.example"})
    assert first["ok"], first

    # When another group's match names an "ada" with another email, unconfirmed
    refused = create(stack, {"ada": "ada@two.example", "cy": "cy@two.example"})

    # Then it is refused, naming the id, and nothing of it is registered
    assert refused["ok"] is False and refused["error"] == "Illegal", refused
    assert [reason["code"] for reason in refused["reasons"]] == ["contact_changed"]
    assert "'ada'" in refused["reasons"][0]["text"]
    assert "confirm_contact" in refused["reasons"][0]["text"]
    assert "ada@one.example" not in json.dumps(refused)  # nor is the registered email told
    assert registered(("ada", "bo", "cy")) == {"ada": "ada@one.example", "bo": "bo@one.example"}

    # An id registered without an email is a contact too: naming it with one is a change
    assert create(stack, {"dee": None, "eve": None})["ok"]
    assert create(stack, {"dee": "dee@three.example", "fay": None})["error"] == "Illegal"

    # When the host confirms it is the same person, the contact is updated
    confirmed = create(stack, {"ada": "ada@two.example", "cy": "cy@two.example"}, ada=True)
    assert confirmed["ok"], confirmed
    assert registered(("ada", "cy")) == {"ada": "ada@two.example", "cy": "cy@two.example"}


def test_a_known_id_with_the_same_contact_is_accepted(stack) -> None:
    assert create(stack, {"ada": "ada@one.example", "bo": None})["ok"]
    # The same email, written differently: compared ignoring case and surrounding blanks
    again = create(stack, {"ada": " Ada@One.example", "cy": None})
    assert again["ok"], again
    assert registered(("ada", "bo", "cy")) == {"ada": "ada@one.example", "bo": "", "cy": ""}


def test_a_contact_changed_between_the_check_and_the_create_fails_the_whole_create(stack, monkeypatch) -> None:
    # Given "ada" registered, and a create that read her profile before it was registered
    # (the registration races the create: its read is stale)
    assert create(stack, {"ada": "ada@one.example", "bo": None})["ok"]
    store = stack.ports().store
    monkeypatch.setattr(store, "contacts", lambda players: {})

    # When that create stores the match
    raced = create(stack, {"ada": "ada@two.example", "cy": "cy@two.example"})

    # Then the conditional write refuses it whole: no contact changed, none registered
    assert raced["ok"] is False and raced["error"] == "Conflict", raced
    monkeypatch.undo()
    assert registered(("ada", "cy")) == {"ada": "ada@one.example"}


# -- each participant hears only their own match --------------------------------------------------------


def test_each_ada_receives_only_her_own_matchs_private_notices(stack) -> None:
    # Given two matches that both have "ada" (the same person, so both are accepted), and an
    # inbox per match that filters as the service's own subscriptions do
    first = create(stack, {"ada": "ada@one.example", "bo": None})
    second = create(stack, {"ada": "ada@one.example", "cy": None})
    assert first["ok"] and second["ok"], (first, second)
    inboxes = {
        first["match_id"]: stack.subscribe(["ada"], match_id=first["match_id"]),
        second["match_id"]: stack.subscribe(["ada"], match_id=second["match_id"]),
    }

    # When the host resolves the first match's Pregame once and the second's twice
    for match_id, times in ((first["match_id"], 1), (second["match_id"], 2)):
        for number in range(1, times + 1):
            assert stack.host({"command": "resolve_now", "match_id": match_id})["ok"]
            wait_resolved(stack, match_id, number)

    # Then each resolution sent each player one private notice: ada's inbox for the first match
    # holds exactly the first's one, the second's exactly the second's two
    for match_id, expected in ((first["match_id"], 1), (second["match_id"], 2)):
        notices = wait_for_messages(inboxes[match_id], "ada", expected)
        assert [(m["match_id"], m["you"]) for m in notices] == [(match_id, "ada")] * expected
        public = inboxes[match_id].receive(None)
        assert public and {m["match_id"] for m in public} == {match_id}


def wait_resolved(stack: Any, match_id: str, count: int) -> None:
    from conftest import wait_until

    def resolved() -> bool:
        status = stack.host({"command": "status", "match_id": match_id})
        return bool(status["phases_resolved"] >= count)

    wait_until(resolved, 15, f"{count} resolved phases of {match_id}")


def wait_for_messages(inbox: Any, player: str, count: int) -> list[dict[str, Any]]:
    """The player's messages once `count` have arrived (the announce step runs after the
    resolution), checking that no more come while the machine settles."""
    from conftest import wait_until

    messages: list[dict[str, Any]] = []

    def arrived() -> bool:
        messages.extend(inbox.receive(player))
        return len(messages) >= count

    wait_until(arrived, 15, f"{count} messages for {player}")
    messages.extend(inbox.receive(player))
    return messages


# -- the subscriptions the service makes ---------------------------------------------------------------


@pytest.fixture
def without_mail(stack: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The stack as a deployment without a mail domain, whose notices reach addresses by SNS."""
    monkeypatch.setenv("MAIL_DOMAIN", "")
    stack.cold_start()
    yield stack


def test_with_mail_of_its_own_the_service_subscribes_no_address_to_sns(stack) -> None:
    # The readable mail is the notices: an SNS subscription would send each one twice
    assert create(stack, {"ada": "ada@one.example", "bo": None, "cy": None})["ok"]
    assert email_filters(stack, stack.private_topic) == email_filters(stack, stack.public_topic) == {}


def test_the_service_subscribes_each_email_filtered_on_match_and_recipient(without_mail) -> None:
    stack = without_mail
    # Given a deployment without mail, a match with two emails and a player without one
    first = create(stack, {"ada": "ada@one.example", "bo": "bo@one.example", "cy": None})
    assert first["ok"], first
    a = first["match_id"]

    # Then each email is subscribed to the private topic filtered on both keys, to the public
    # one on the match; a player without an email is not subscribed
    assert email_filters(stack, stack.private_topic) == {
        "ada@one.example": {"match_id": [a], "recipient": ["ada"]},
        "bo@one.example": {"match_id": [a], "recipient": ["bo"]},
    }
    assert email_filters(stack, stack.public_topic) == {
        "ada@one.example": {"match_id": [a]},
        "bo@one.example": {"match_id": [a]},
    }

    # When ada plays a second match: SNS keeps one subscription per topic and address (it refuses
    # a second with other attributes), so hers is extended to that match
    second = create(stack, {"ada": "ada@one.example", "dee": "dee@one.example"})
    assert second["ok"], second
    b = second["match_id"]
    private = email_filters(stack, stack.private_topic)
    assert private["ada@one.example"] == {"match_id": [a, b], "recipient": ["ada"]}
    assert private["bo@one.example"] == {"match_id": [a], "recipient": ["bo"]}
    assert private["dee@one.example"] == {"match_id": [b], "recipient": ["dee"]}
    assert email_filters(stack, stack.public_topic)["ada@one.example"] == {"match_id": [a, b]}
    assert "unsubscribed" not in second


def test_a_filter_is_narrowed_never_widened() -> None:
    # A subscription made by hand on the recipient alone (the old README's advice) would get that
    # recipient's notices of every match: the service's extension keeps only the match it adds.
    owed = owed_pairs(json.dumps({"recipient": ["ada"]}), private=True)
    assert owed == {}
    owed.setdefault("ada", []).append("m-2")
    assert filter_policy(owed) == {"match_id": ["m-2"], "recipient": ["ada"]}
    # No filter at all: nothing is owed either
    assert owed_pairs(None, private=True) == {} and owed_pairs(None, private=False) == {}

    # One address with two ids: a branch each, never their cross product (ada's matches for bo)
    two = owed_pairs(json.dumps({"match_id": ["m-1"], "recipient": ["ada"]}), private=True)
    two["bo"] = ["m-2"]
    policy = filter_policy(two)
    assert policy == {"$or": [{"match_id": ["m-1"], "recipient": ["ada"]}, {"match_id": ["m-2"], "recipient": ["bo"]}]}
    assert owed_pairs(json.dumps(policy), private=True) == {"ada": ["m-1"], "bo": ["m-2"]}


@pytest.mark.parametrize("recipients", [1, 2, 3])
def test_a_filter_keeps_the_most_recent_matches_within_the_sns_limit(recipients: int) -> None:
    # 200 matches for each recipient: 150 combinations in all allowed, so 150 // recipients each
    owed = {f"p{r}": [f"m-{i:03d}" for i in range(200)] for r in range(recipients)}
    policy = filter_policy(owed)
    branches = policy["$or"] if recipients > 1 else [policy]
    keep = {1: 150, 2: 75, 3: 50}[recipients]
    assert MAX_COMBINATIONS == 150
    for branch in branches:
        assert branch["match_id"] == [f"m-{i:03d}" for i in range(200 - keep, 200)]
    assert sum(len(b["match_id"]) * len(b.get("recipient", [None])) for b in branches) <= 150
