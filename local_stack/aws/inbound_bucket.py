"""Received mail on the local stack as template.yaml's receipt rule has SES handle it: the message
stored in the inbound bucket under its SES message id (moto's S3), then the S3 action's
notification (`action.type` "S3", the bucket and key, no content), which the inbound topic
queues as it is for the mail function (local_stack/aws/inbound_queue.py), so the function reads the
message from the bucket as it does on AWS. `ses_event` is the event SES's SNS action would deliver.

    bin/mail-in message.eml          hand a message to the running local stack (bin/local-stack)
    bin/mail-in - < message.eml      the same from stdin
"""

from __future__ import annotations

import base64
import json
import sys
import uuid
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from pathlib import Path
from typing import Any

from game_core.cli.failures import OneLineParser, one_line_errors

PASS = "PASS"
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


def ses_event(
    raw: bytes,
    recipients: list[str] | None = None,
    verdicts: dict[str, str] | None = None,
    message_id: str | None = None,
) -> dict[str, Any]:
    """The Lambda event SES's SNS action delivers for `raw` (AWS's documented shape): the
    recipients are the message's To and Cc unless given; every verdict PASS unless given; SES's
    message id a new one unless given (a message read again keeps its id: it is applied once)."""
    headers = BytesHeaderParser().parsebytes(raw)
    if recipients is None:
        recipients = [address for _name, address in getaddresses(headers.get_all("to", []) + headers.get_all("cc", []))]
    verdicts = {"spam": PASS, "virus": PASS, "spf": PASS, "dkim": PASS, "dmarc": PASS} | (verdicts or {})
    message_id = message_id or uuid.uuid4().hex
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    _name, source = getaddresses(headers.get_all("from", []))[0] if headers.get_all("from") else ("", "")
    notification = {
        "notificationType": "Received",
        "receipt": {
            "timestamp": now,
            "processingTimeMillis": 100,
            "recipients": recipients,
            **{f"{check}Verdict": {"status": status} for check, status in verdicts.items()},
            "action": {
                "type": "SNS",
                "topicArn": "arn:aws:sns:us-east-1:123456789012:inbound-mail",
                "encoding": "BASE64",
            },
        },
        "mail": {
            "timestamp": now,
            "source": source,
            "messageId": message_id,
            "destination": recipients,
            "headersTruncated": False,
            "headers": [{"name": name, "value": str(value)} for name, value in headers.items()],
            "commonHeaders": {"from": headers.get_all("from", []), "to": headers.get_all("to", [])},
        },
        # BASE64, as SES's action may be set: a message in an 8-bit charset arrives byte for byte
        "content": base64.b64encode(raw).decode(),
    }
    return {
        "Records": [
            {
                "EventSource": "aws:sns",
                "EventVersion": "1.0",
                "EventSubscriptionArn": "arn:aws:sns:us-east-1:123456789012:inbound-mail:local",
                "Sns": {
                    "Type": "Notification",
                    "MessageId": str(uuid.uuid4()),
                    "TopicArn": "arn:aws:sns:us-east-1:123456789012:inbound-mail",
                    "Subject": "Amazon SES Email Receipt Notification",
                    "Message": json.dumps(notification),
                    "Timestamp": now,
                },
            }
        ]
    }


@one_line_errors("bin/mail-in")
def main(argv: list[str] | None = None) -> int:
    """Hand a message to the running local stack's mail function, as SES would: stored in the
    inbound bucket, then notified."""
    import boto3

    parser = OneLineParser(prog="bin/mail-in", description="Hand a message to the running local stack as SES would.")
    parser.add_argument("message", help="an .eml file, or - for stdin")
    parser.add_argument("--endpoint", default="http://127.0.0.1:5055", help="the local stack (bin/local-stack)")
    args = parser.parse_args(argv)
    raw = sys.stdin.buffer.read() if args.message == "-" else Path(args.message).read_bytes()
    local = {"endpoint_url": args.endpoint, "region_name": "us-east-1"}
    keys = {"aws_access_key_id": "local", "aws_secret_access_key": "local"}
    event = deliver(boto3.client("s3", **local, **keys), raw)  # as SES's receipt rule: stored, then notified
    response = boto3.client("lambda", **local, **keys).invoke(
        FunctionName="EmailInFunction", Payload=json.dumps(event).encode()
    )
    print(response["Payload"].read().decode() or "{}")
    return 1 if response.get("FunctionError") else 0


if __name__ == "__main__":
    raise SystemExit(main())
