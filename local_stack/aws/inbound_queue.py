"""Received mail on the local stack by template.yaml's path: SES's side (the message stored in the
inbound bucket, its notification published on the inbound topic), moto's SNS queueing it raw on
the inbound queue (its redrive policy to the dead letters as the template's), and the real mail
function run on that queue as Lambda's SQS event source would.

`receive()` is SES's side, then `deliver()`: the event source, which takes every record visible
now in batches, invokes EmailInFunction in-process (as `local_stack.aws.webhooks` does), deletes the
records it did not report failed, and goes on until none is visible. A failed record is hidden
until its next try (the function's backoff); with a `VirtualClock`, moto's SQS reads that clock
(`sqs_clock.patch_sqs`), so `run_for()` moves the clock to each next try and delivers: six hours of
tries take no real time. After `MAX_RECEIVES` tries moto moves a record to the dead letters on
the next receive, as SQS does.

The laptop's host server hands each message to the function directly instead (`hand_in`), and
says it failed when it did: the SMTP sender and the mailbox poller keep the message and try again
later, so nothing rides on a queue the laptop would lose at a restart.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import moto.sqs.models as sqs_models

from game_core.aws.inbound_queue import MAX_RECEIVES
from local_stack.aws.inbound_bucket import create_inbound_bucket, deliver, sqs_record, store

FUNCTION = "EmailInFunction"
TOPIC = "inbound-mail"
QUEUE = "inbound-mail-queue"
DEAD_LETTERS = "inbound-mail-dead-letters"
BATCH = 5
"""As the template's event source mapping."""
VISIBILITY_SECONDS = 1800
"""As the template's MailQueue."""

Invoke = Callable[[str, str], tuple[str, bool, str]]
"""`InProcessLambdas.invoke`: a function's handler run on this thread."""
Advance = Callable[[float], None]
"""`LocalStack.advance`: the virtual clock moved, the state machines settled."""


class FunctionFailed(RuntimeError):
    """The mail function failed on a message (or as a whole): its sender should try again."""


class LocalMailIn:
    """The inbound bucket, topic and queues, and the event source that runs the mail function."""

    def __init__(self, s3: Any, sns: Any, sqs: Any, invoke: Invoke) -> None:
        self.s3, self.sns, self.sqs = s3, sns, sqs
        self._invoke = invoke
        create_inbound_bucket(s3)
        self.topic = sns.create_topic(Name=TOPIC)["TopicArn"]
        self.dead_letter_url = sqs.create_queue(QueueName=DEAD_LETTERS)["QueueUrl"]
        redrive = {"deadLetterTargetArn": self._arn(self.dead_letter_url), "maxReceiveCount": MAX_RECEIVES}
        attributes = {"VisibilityTimeout": str(VISIBILITY_SECONDS), "RedrivePolicy": json.dumps(redrive)}
        self.queue_url = sqs.create_queue(QueueName=QUEUE, Attributes=attributes)["QueueUrl"]
        self.queue_arn = self._arn(self.queue_url)
        sns.subscribe(
            TopicArn=self.topic, Protocol="sqs", Endpoint=self.queue_arn, Attributes={"RawMessageDelivery": "true"}
        )
        self.batches = 0
        """Batches the event source handed the mail function so far."""

    def _arn(self, url: str) -> str:
        return str(self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"])

    @property
    def environment(self) -> dict[str, str]:
        """What the functions read (template.yaml's MAIL_QUEUE_URL and MAIL_DLQ_URL)."""
        return {"MAIL_QUEUE_URL": self.queue_url, "MAIL_DLQ_URL": self.dead_letter_url}

    # -- SES's side, and the event source --------------------------------------------------------

    def receive(
        self, raw: bytes, recipients: list[str] | None = None, verdicts: dict[str, str] | None = None
    ) -> dict[str, Any]:
        """A message as SES's receipt rule takes it (`send`), then what the event source does at
        once; {"outcomes": [...]} of the records it took."""
        self.send(raw, recipients, verdicts)
        return {"outcomes": self.deliver()}

    def send(self, raw: bytes, recipients: list[str] | None = None, verdicts: dict[str, str] | None = None) -> str:
        """A message as SES's receipt rule takes it: stored, its notification published on the
        inbound topic (which queues it); SES's message id."""
        notification = store(self.s3, raw, recipients, verdicts)
        self.sns.publish(TopicArn=self.topic, Message=notification)
        return str(json.loads(notification)["mail"]["messageId"])

    def deliver(self) -> list[str]:
        """Run the mail function on every record visible now, until none is; each try's outcome."""
        outcomes: list[str] = []
        while True:
            received = self.sqs.receive_message(
                QueueUrl=self.queue_url, MaxNumberOfMessages=BATCH, AttributeNames=["All"], WaitTimeSeconds=0
            ).get("Messages", [])
            if not received:
                return outcomes
            self.batches += 1
            records = [
                sqs_record(
                    m["MessageId"],
                    m["ReceiptHandle"],
                    m["Body"],
                    int(m["Attributes"]["ApproximateReceiveCount"]),
                    self.queue_arn,
                )
                for m in received
            ]
            reply = self._run({"Records": records})  # the function failing as a whole: all back after the timeout
            failed = {failure["itemIdentifier"] for failure in reply["batchItemFailures"]}
            for message in received:
                if message["MessageId"] not in failed:
                    self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
            outcomes += reply["outcomes"]

    def run_for(self, seconds: float, advance: Advance) -> list[str]:
        """Let `seconds` pass on the virtual clock, the event source taking each record as it
        comes due (as Lambda's pollers do, always); each try's outcome."""
        outcomes = self.deliver()
        left = seconds
        while left > 0 and (due := self._next_due()) is not None and due <= left:
            advance(due)
            left -= due
            outcomes += self.deliver()
        advance(left)
        return outcomes + self.deliver()

    def _next_due(self) -> float | None:
        """The seconds until the next hidden record of the queue shows (moto's model: SQS tells only counts)."""
        _, _, _, region, account, name = self.queue_arn.split(":")
        queue = sqs_models.sqs_backends[account][region].get_queue(name)
        now = sqs_models.unix_time_millis()
        # moto shows a message once the time is past its instant: a millisecond past it
        waits = [max(m.visible_at, m.delayed_until) + 1 - now for m in queue._messages]
        return max(0.0, min(waits)) / 1000 if waits else None

    # -- the laptop's hand-in, and what a test reads -------------------------------------------------

    def hand_in(
        self, raw: bytes, recipients: list[str] | None, verdicts: dict[str, str] | None, message_id: str | None = None
    ) -> dict[str, Any]:
        """A message stored as SES does and handed to the mail function at once, not queued;
        `FunctionFailed` when the function failed on it (the caller keeps it and tries later)."""
        reply = self._run(deliver(self.s3, raw, recipients, verdicts, message_id))
        if reply["batchItemFailures"]:
            raise FunctionFailed(f"{FUNCTION} failed on the message: try again later")
        return reply

    def _run(self, event: dict[str, Any]) -> dict[str, Any]:
        payload, errored, _ = self._invoke(FUNCTION, json.dumps(event))
        reply: dict[str, Any] = json.loads(payload)
        if errored:
            raise FunctionFailed(f"{FUNCTION} failed: {reply.get('errorType')}: {reply.get('errorMessage')}")
        return reply

    def dead_letters(self) -> list[dict[str, Any]]:
        """SES's notifications of the mail in the dead-letter queue (up to ten: read, and left in place)."""
        got = self.sqs.receive_message(QueueUrl=self.dead_letter_url, MaxNumberOfMessages=10, VisibilityTimeout=0)
        return [json.loads(message["Body"]) for message in got.get("Messages", [])]

    def waiting(self) -> int:
        """The mail still queued: visible, or hidden until its next try."""
        attributes = self.sqs.get_queue_attributes(QueueUrl=self.queue_url, AttributeNames=["All"])["Attributes"]
        return sum(int(attributes[f"ApproximateNumberOfMessages{kind}"]) for kind in ("", "NotVisible", "Delayed"))
