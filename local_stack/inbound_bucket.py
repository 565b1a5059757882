"""Received mail on the local stack as template.yaml's receipt rule has SES handle it: the message
stored in the inbound bucket under its SES message id (moto's S3), then the S3 action's
notification (`action.type` "S3", the bucket and key, no content), which the inbound topic
queues as it is for the mail function (local_stack/inbound_queue.py), so the function reads the
message from the bucket as it does on AWS.
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


def store(
    s3: Any,
    raw: bytes,
    recipients: list[str] | None = None,
    verdicts: dict[str, str] | None = None,
    message_id: str | None = None,
) -> str:
    """Store `raw` as SES's S3 action does; the notification SES then publishes (JSON), with
    SES's message id and the object's key a new one unless given."""
    if len(raw) > SES_MAX_BYTES:
        raise ValueError(f"the message is {len(raw)} bytes; SES stores at most {SES_MAX_BYTES}")
    key = message_id or uuid.uuid4().hex
    s3.put_object(Bucket=INBOUND_BUCKET, Key=key, Body=raw)
    sns_action_event = ses_event(raw, recipients, verdicts, message_id=key)
    notification = json.loads(sns_action_event["Records"][0]["Sns"]["Message"])
    del notification["content"]
    topic = notification["receipt"]["action"]["topicArn"]
    notification["receipt"]["action"] = {
        "type": "S3",
        "topicArn": topic,
        "bucketName": INBOUND_BUCKET,
        "objectKey": key,
    }
    return json.dumps(notification)


def deliver(
    s3: Any,
    raw: bytes,
    recipients: list[str] | None = None,
    verdicts: dict[str, str] | None = None,
    message_id: str | None = None,
) -> dict[str, Any]:
    """Store `raw` (`store`), and the event whose one record is its notification, as the inbound
    queue hands it to the mail function: what the laptop's host server and bin/mail-in invoke
    the function with (the sender tries again when it fails), and a test with one mail."""
    return queued_event(store(s3, raw, recipients, verdicts, message_id))


def queued_event(notification: str, receives: int = 1) -> dict[str, Any]:
    """The SQS event of one record (Lambda's event source's shape) whose body is `notification`,
    taken `receives` times."""
    return {"Records": [sqs_record(str(uuid.uuid4()), f"direct-{uuid.uuid4().hex}", notification, receives, "")]}


def sqs_record(message_id: str, receipt_handle: str, body: str, receives: int, queue_arn: str) -> dict[str, Any]:
    """A queued message as Lambda's SQS event source hands it to a function."""
    return {
        "messageId": message_id,
        "receiptHandle": receipt_handle,
        "body": body,
        "attributes": {"ApproximateReceiveCount": str(receives), "SentTimestamp": "0"},
        "messageAttributes": {},
        "md5OfBody": "",
        "eventSource": "aws:sqs",
        "eventSourceARN": queue_arn,
        "awsRegion": "us-east-1",
    }
