"""Webhook deliveries on the local stack: moto's SQS queue and dead-letter queue as template.yaml
declares them, and the real delivery function invoked as Lambda's SQS event source would.

`LocalWebhooks.deliver()` is the event source: it receives what the queue holds visible now, in
batches, invokes WebhookDeliverFunction (in-process, through moto's Lambda), deletes the records
it did not report failed, and goes on until nothing is visible. A retry is a copy the function
queued with a delay. With a `VirtualClock`, moto's SQS reads that clock (its delays and
visibility: `patch_sqs`), so a retry an hour away comes back once the test has advanced the
clock an hour: no test waits in real time. bin/host-server calls `deliver()` every second on
the wall clock.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import logging
import threading
from collections.abc import Callable
from typing import Any

import moto.sqs.models as sqs_models

from local_stack.clock import VirtualClock

logger = logging.getLogger(__name__)

FUNCTION = "WebhookDeliverFunction"
QUEUE = "webhook-deliveries"
DEAD_LETTERS = "webhook-dead-letters"
BATCH = 5
"""As the template's event source mapping."""
MAX_RECEIVES = 40
"""As the template's redrive policy."""
SQS_TIME_SEAM = ("unix_time", "unix_time_millis")
"""moto 5.2.1's SQS models read the time through these two names of their module (sent times,
visibility, delays): `patch_sqs` points them at the virtual clock."""
SQS_TIME_DIGEST = "e48bcdf0df5c8397"
"""The first 16 hex digits of the SHA-256 of `Message.delay`'s and `Message.delayed`'s sources in
moto 5.2.1: a retry's delay is measured on `unix_time_millis` there."""


def seam_digest() -> str:
    sources = inspect.getsource(sqs_models.Message.delay) + inspect.getsource(sqs_models.Message.delayed.fget)
    return hashlib.sha256(sources.encode()).hexdigest()[:16]


def patch_sqs(clock: VirtualClock) -> Callable[[], None]:
    """moto's SQS on `clock`; returns the function that restores it."""
    if seam_digest() != SQS_TIME_DIGEST:
        raise RuntimeError("moto's SQS Message.delay changed: re-check local_stack/webhooks.py's seam")
    originals = {name: getattr(sqs_models, name) for name in SQS_TIME_SEAM}
    sqs_models.unix_time = lambda *_args: clock.time()  # type: ignore[assignment]
    sqs_models.unix_time_millis = lambda *_args: clock.time() * 1000  # type: ignore[assignment]

    def restore() -> None:
        for name, original in originals.items():
            setattr(sqs_models, name, original)

    return restore


class LocalWebhooks:
    """The queues, and the event source that runs the delivery function on them."""

    def __init__(self, sqs: Any, invoke: Callable[[str, dict[str, Any]], Any], clock: VirtualClock | None) -> None:
        self.sqs = sqs
        self._invoke = invoke
        self.dead_letter_url = sqs.create_queue(QueueName=DEAD_LETTERS)["QueueUrl"]
        dead_arn = sqs.get_queue_attributes(QueueUrl=self.dead_letter_url, AttributeNames=["QueueArn"])
        redrive = {"deadLetterTargetArn": dead_arn["Attributes"]["QueueArn"], "maxReceiveCount": MAX_RECEIVES}
        self.queue_url = sqs.create_queue(
            QueueName=QUEUE, Attributes={"VisibilityTimeout": "540", "RedrivePolicy": json.dumps(redrive)}
        )["QueueUrl"]
        self.queue_arn = sqs.get_queue_attributes(QueueUrl=self.queue_url, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        self._restore = patch_sqs(clock) if clock is not None else (lambda: None)
        self.attempts = 0
        """Records handed to the delivery function so far."""

    @property
    def environment(self) -> dict[str, str]:
        """What the functions read (template.yaml's WEBHOOK_QUEUE_URL and WEBHOOK_DLQ_URL)."""
        return {"WEBHOOK_QUEUE_URL": self.queue_url, "WEBHOOK_DLQ_URL": self.dead_letter_url}

    def close(self) -> None:
        self._restore()

    def deliver(self) -> int:
        """Run the delivery function on every record visible now, until none is; how many
        attempts that made."""
        made = 0
        while True:
            received = self.sqs.receive_message(
                QueueUrl=self.queue_url, MaxNumberOfMessages=BATCH, AttributeNames=["All"], WaitTimeSeconds=0
            ).get("Messages", [])
            if not received:
                return made
            made += len(received)
            self.attempts += len(received)
            reply = self._invoke(FUNCTION, {"Records": [self._record(message) for message in received]})
            failed = {failure["itemIdentifier"] for failure in (reply or {}).get("batchItemFailures", [])}
            for message in received:
                if message["MessageId"] not in failed:
                    self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])

    def _record(self, message: dict[str, Any]) -> dict[str, Any]:
        """A received message as Lambda's SQS event source hands it to the function."""
        return {
            "messageId": message["MessageId"],
            "receiptHandle": message["ReceiptHandle"],
            "body": message["Body"],
            "attributes": message.get("Attributes", {}),
            "messageAttributes": {},
            "md5OfBody": message.get("MD5OfBody", ""),
            "eventSource": "aws:sqs",
            "eventSourceARN": self.queue_arn,
            "awsRegion": "us-east-1",
        }

    def waiting(self) -> int:
        """The deliveries still queued, visible or waiting for their next attempt."""
        attributes = self.sqs.get_queue_attributes(QueueUrl=self.queue_url, AttributeNames=["All"])["Attributes"]
        return int(attributes["ApproximateNumberOfMessages"]) + int(attributes["ApproximateNumberOfMessagesNotVisible"])

    def dead_letters(self) -> list[dict[str, Any]]:
        """The deliveries that gave up (read, and left in place for the host)."""
        bodies = []
        while True:
            got = self.sqs.receive_message(QueueUrl=self.dead_letter_url, MaxNumberOfMessages=10, VisibilityTimeout=0)
            messages = got.get("Messages", [])
            fresh = [m for m in messages if m["Body"] not in bodies]
            if not fresh:
                return [json.loads(body) for body in bodies]
            bodies += [m["Body"] for m in fresh]


class DeliveryPump:
    """bin/host-server's event source: `deliver()` every `interval` seconds of real time on a
    thread of its own, until stopped (a delivery the server was stopped before is not kept: the
    queue lives in the process)."""

    def __init__(self, webhooks: LocalWebhooks, interval: float = 1.0) -> None:
        self._webhooks = webhooks
        self._interval = interval
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="webhook-deliveries", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while not self._stopping.wait(self._interval):
            try:
                self._webhooks.deliver()
            except Exception:  # the function failed: its records come back after their visibility
                logger.exception("webhook deliveries failed; trying again")
