"""Notices through SNS: public ones on the public topic, private ones on the private topic with a
`recipient` attribute that each participant's subscription filters on (one participant only)."""

from __future__ import annotations

import json
from typing import Any

from game_core.match.model import Match
from game_core.service.ports import Notice


class SnsNotifier:
    def __init__(self, client: Any, public_topic: str, private_topic: str) -> None:
        self.client = client
        self.public_topic = public_topic
        self.private_topic = private_topic

    def publish(self, match: Match, notice: Notice) -> None:
        attributes = {"match_id": {"DataType": "String", "StringValue": match.match_id}}
        topic = self.public_topic
        if notice.recipient is not None:
            topic = self.private_topic
            attributes["recipient"] = {"DataType": "String", "StringValue": notice.recipient}
        self.client.publish(
            TopicArn=topic,
            Subject=notice.subject[:100],
            Message=json.dumps({"subject": notice.subject} | notice.body, sort_keys=True),
            MessageAttributes=attributes,
        )
