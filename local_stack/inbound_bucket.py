"""Received mail on the local stack as template.yaml's receipt rule has SES handle it: the message
stored in the inbound bucket under its SES message id (moto's S3), then the S3 action's
notification (`action.type` "S3", the bucket and key, no content) handed to the mail function
through SNS, so the function reads the message from the bucket as it does on AWS.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from local_stack.mail import ses_event

INBOUND_BUCKET = "inbound-mail"
"""The local stack's bucket for received mail (template.yaml's InboundMailBucket)."""
SES_MAX_BYTES = 40 * 1024 * 1024
"""The largest message SES's S3 action stores (a larger one is refused during the SMTP exchange)."""


def create_inbound_bucket(s3: Any) -> None:
    s3.create_bucket(Bucket=INBOUND_BUCKET)


def deliver(
    s3: Any,
    raw: bytes,
    recipients: list[str] | None = None,
    verdicts: dict[str, str] | None = None,
    message_id: str | None = None,
) -> dict[str, Any]:
    """Store `raw` as SES's S3 action does, and the event that then reaches the mail function
    (SES's message id, the object's key, a new one unless given)."""
    if len(raw) > SES_MAX_BYTES:
        raise ValueError(f"the message is {len(raw)} bytes; SES stores at most {SES_MAX_BYTES}")
    key = message_id or uuid.uuid4().hex
    s3.put_object(Bucket=INBOUND_BUCKET, Key=key, Body=raw)
    return stored_event(ses_event(raw, recipients, verdicts, message_id=key), INBOUND_BUCKET, key)


def stored_event(sns_action_event: dict[str, Any], bucket: str, key: str) -> dict[str, Any]:
    """The S3 action's event for the message an SNS action's event carries: the same receipt
    and mail, the action naming where the message is stored, and no content."""
    sns = sns_action_event["Records"][0]["Sns"]
    notification = json.loads(sns["Message"])
    del notification["content"]
    topic = notification["receipt"]["action"]["topicArn"]
    notification["receipt"]["action"] = {"type": "S3", "topicArn": topic, "bucketName": bucket, "objectKey": key}
    sns["Message"] = json.dumps(notification)
    return sns_action_event
