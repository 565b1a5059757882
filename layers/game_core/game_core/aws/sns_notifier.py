"""Notices through SNS: public ones on the public topic, private ones on the private topic; every
notice carries a `match_id` attribute and a private one a `recipient` attribute too (and each its
`notice_id`).

When a match is created the service subscribes each participant's email: to the private topic
filtered on both attributes, to the public topic filtered on the match. SNS keeps one subscription
per topic and endpoint (subscribing again with other attributes is refused), so a contact's
subscription is extended in place: its filter lists every (recipient, match) pair it is owed,
never a recipient without its matches nor a match without its recipient, and keeps the most
recent matches within SNS's 150 combinations per filter policy."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

from botocore.exceptions import ClientError

from game_core.match.email_address import sendable_address
from game_core.match.model import Match
from game_core.service.ports import Notice

logger = logging.getLogger(__name__)

BATCH = 10
"""SNS's most messages in one PublishBatch."""
MAX_COMBINATIONS = 150
"""SNS's limit on the value combinations of one filter policy."""


class SnsNotifier:
    def __init__(self, client: Any, public_topic: str, private_topic: str, host_topic: str = "") -> None:
        self.client = client
        self.public_topic = public_topic
        self.private_topic = private_topic
        self.host_topic = host_topic
        """The host's alerts (a stalled match); none configured: the alert is only logged."""

    def publish(
        self, match: Match, notices: Sequence[Notice], published: Callable[[Sequence[Notice]], None] | None = None
    ) -> None:
        """Public notices on the public topic, private ones on the private topic, ten to a
        PublishBatch call, each with its `notice_id` (an attribute, and in the message) for a
        subscriber to drop a repeat; any entry SNS refuses fails the whole call (the caller's retry
        sends it again), and `published` hears of each call SNS accepted whole."""
        by_topic: dict[str, list[Notice]] = {}
        for notice in notices:
            topic = self.public_topic if notice.recipient is None else self.private_topic
            by_topic.setdefault(topic, []).append(notice)
        for topic, queued in by_topic.items():
            for start in range(0, len(queued), BATCH):
                batch = queued[start : start + BATCH]
                entries = [_entry(match, index, notice) for index, notice in enumerate(batch)]
                response = self.client.publish_batch(TopicArn=topic, PublishBatchRequestEntries=entries)
                if response.get("Failed"):
                    codes = sorted({failure.get("Code", "?") for failure in response["Failed"]})
                    raise RuntimeError(f"SNS refused {len(response['Failed'])} notices: {', '.join(codes)}")
                if published is not None:
                    published(batch)

    def alert_host(self, match: Match, subject: str, body: dict[str, Any]) -> None:
        if not self.host_topic:
            return
        self.client.publish(
            TopicArn=self.host_topic,
            Subject=subject[:100],
            Message=json.dumps({"subject": subject} | body, sort_keys=True),
            MessageAttributes={"match_id": {"DataType": "String", "StringValue": match.match_id}},
        )

    # -- subscriptions -----------------------------------------------------------------------

    def subscribe(self, match: Match) -> list[str]:
        # SNS mails an address as SES does: an internationalised domain as its A-label
        emails = {p.id: sendable_address(p.email.strip()) for p in match.players if p.email and p.email.strip()}
        if not emails:
            return []
        private, public = self._email_subscriptions(self.private_topic), self._email_subscriptions(self.public_topic)
        unsubscribed = []
        for player, email in emails.items():
            owed = [
                (self.private_topic, private.get(email.lower()), player),
                (self.public_topic, public.get(email.lower()), None),
            ]
            if not all([self._extend(topic, arn, email, match.match_id, who) for topic, arn, who in owed]):
                unsubscribed.append(player)
        return unsubscribed

    def unsubscribe(self, match: Match, player: str, email: str) -> bool:
        arns = [
            (self._email_subscriptions(topic).get(sendable_address(email.strip()).lower()), recipient)
            for topic, recipient in ((self.private_topic, player), (self.public_topic, None))
        ]
        for arn, recipient in arns:
            if arn is not None and arn.startswith("arn:"):
                self._narrow(arn, match.match_id, recipient)
        pending = [arn for arn, _recipient in arns if arn is not None and not arn.startswith("arn:")]
        if pending:  # SNS will not change a subscription awaiting confirmation
            logger.warning("subscription awaits confirmation", extra={"match_id": match.match_id})
        return not pending

    def _narrow(self, arn: str, match_id: str, recipient: str | None) -> None:
        """Take (recipient, match) out of the subscription's filter; one left owing nothing goes
        (an empty filter would let every notice through)."""
        attributes = self.client.get_subscription_attributes(SubscriptionArn=arn)["Attributes"]
        owed = owed_pairs(attributes.get("FilterPolicy"), recipient is not None)
        owed[recipient] = [one for one in owed.get(recipient, []) if one != match_id]
        owed = {who: matches for who, matches in owed.items() if matches}
        if not owed:
            self.client.unsubscribe(SubscriptionArn=arn)
            return
        policy = json.dumps(filter_policy(owed), sort_keys=True)
        self.client.set_subscription_attributes(
            SubscriptionArn=arn, AttributeName="FilterPolicy", AttributeValue=policy
        )

    def _email_subscriptions(self, topic: str) -> dict[str, str]:
        """The topic's email subscriptions: endpoint (lower case) -> ARN ("PendingConfirmation"
        until the owner of the address confirms it)."""
        found: dict[str, str] = {}
        for page in self.client.get_paginator("list_subscriptions_by_topic").paginate(TopicArn=topic):
            for subscription in page["Subscriptions"]:
                if subscription["Protocol"] == "email":
                    found[subscription["Endpoint"].lower()] = subscription["SubscriptionArn"]
        return found

    def _extend(self, topic: str, arn: str | None, email: str, match_id: str, recipient: str | None) -> bool:
        """Add (recipient, match) to the contact's subscription to the topic, making it if need be."""
        confirmed = arn is not None and arn.startswith("arn:")
        owed: dict[str | None, list[str]] = {}
        if confirmed:
            attributes = self.client.get_subscription_attributes(SubscriptionArn=arn)["Attributes"]
            owed = owed_pairs(attributes.get("FilterPolicy"), recipient is not None)
        owed.setdefault(recipient, [])
        if match_id not in owed[recipient]:
            owed[recipient].append(match_id)
        policy = json.dumps(filter_policy(owed), sort_keys=True)
        if confirmed:
            self.client.set_subscription_attributes(
                SubscriptionArn=arn, AttributeName="FilterPolicy", AttributeValue=policy
            )
            return True
        try:
            self.client.subscribe(
                TopicArn=topic,
                Protocol="email",
                Endpoint=email,
                Attributes={"FilterPolicy": policy, "FilterPolicyScope": "MessageAttributes"},
            )
        except ClientError as error:
            if error.response["Error"]["Code"] != "InvalidParameter":
                raise
            # An earlier subscription of this address awaits confirmation: SNS will not change it.
            logger.warning("subscription awaits confirmation", extra={"match_id": match_id})
            return False
        return True


def _entry(match: Match, index: int, notice: Notice) -> dict[str, Any]:
    """A notice as one PublishBatch entry: its attributes are what subscriptions filter on."""
    attributes = {
        "match_id": {"DataType": "String", "StringValue": match.match_id},
        "notice_id": {"DataType": "String", "StringValue": notice.notice_id},
    }
    if notice.recipient is not None:
        attributes["recipient"] = {"DataType": "String", "StringValue": notice.recipient}
    return {
        "Id": str(index),
        "Subject": notice.subject[:100],
        "Message": json.dumps({"subject": notice.subject, "notice_id": notice.notice_id} | notice.body, sort_keys=True),
        "MessageAttributes": attributes,
    }


def owed_pairs(policy: str | None, private: bool) -> dict[str | None, list[str]]:
    """The (recipient, matches) a subscription's filter lets through; a filter that is not one
    this service wrote (none at all, or a recipient with no match) is dropped, not widened."""
    try:
        loaded = json.loads(policy) if policy else {}
    except ValueError:
        loaded = {}
    groups = loaded.get("$or", [loaded]) if isinstance(loaded, dict) else []
    owed: dict[str | None, list[str]] = {}
    for group in groups:
        if not isinstance(group, dict):
            continue
        matches = [m for m in group.get("match_id", []) if isinstance(m, str)]
        if not matches:
            continue
        recipients: list[str | None] = [None]
        if private:
            recipients = [r for r in group.get("recipient", []) if isinstance(r, str)]
        for recipient in recipients:
            owed.setdefault(recipient, [])
            owed[recipient] += [m for m in matches if m not in owed[recipient]]
    return owed


def filter_policy(owed: dict[str | None, list[str]]) -> dict[str, Any]:
    """One branch per recipient (a public subscription: the recipient None), each listing its
    most recent matches so that the whole stays within SNS's combination limit."""
    keep = max(1, MAX_COMBINATIONS // len(owed))
    branches = []
    for recipient, matches in owed.items():
        branch: dict[str, Any] = {"match_id": matches[-keep:]}
        if recipient is not None:
            branch["recipient"] = [recipient]
        branches.append(branch)
    return branches[0] if len(branches) == 1 else {"$or": branches}
