"""The inbound mail queue (template.yaml's MailQueue): SES's receipt notifications, put there by
the inbound topic (raw delivery: each body is SES's notification itself), taken by the mail
function through Lambda's SQS event source, and its dead-letter queue.

Why a queue: Lambda retries an asynchronous invocation (SNS's) twice over a few minutes and then
drops it, so a move mailed while DynamoDB throttles for ten minutes was lost. A message the
function fails stays in the queue and comes back after `retry_seconds` (backoff, set on the
message with ChangeMessageVisibility: a blip costs a minute, an outage an hour a try); after
`MAX_RECEIVES` tries, six hours and some after the first, SQS moves it to the dead-letter queue,
whose alarm and the function's own alert on that last try tell the host, and `redrive` puts it
back. Applying a message twice changes nothing (`service.mail.receive`: its Message-ID is its key).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FIRST_RETRY_SECONDS = 60
LONGEST_RETRY_SECONDS = 3600
MAX_RECEIVES = 12
"""The queue's maxReceiveCount (template.yaml). The tries come at 0, 1, 3, 7, 15, 31 and 63
minutes, then hourly: `retry_seconds` of tries 1..11 add up to 60 * (1+2+4+8+16+32) + 5 * 3600 =
3780 + 18000 = 21780 s, so the 12th and last try comes 6 h 3 min after the first, and a mail the
function fails for six hours is still applied. tests/test_static_checks.py works the sum again."""
REDRIVE_BATCH = 10
"""Messages per ReceiveMessage (SQS's most)."""
LOOK_SECONDS = 300
"""How long a redrive hides the dead letters it has looked at (another match's, shown again at its end)."""
EMPTY_LOOKS = 5
"""Empty receives a redrive makes before it ends while SQS still counts dead letters visible."""


def retry_seconds(receives: int) -> int:
    """How long a message the function failed on its `receives`-th try waits for the next:
    doubling from a minute, at most an hour."""
    return min(FIRST_RETRY_SECONDS * 2 ** max(0, receives - 1), LONGEST_RETRY_SECONDS)


class InboundMailQueue:
    """The queue's handle for the mail function (a failed message's backoff) and the host's
    redrive (the dead letters back into the queue)."""

    def __init__(self, sqs: Any, queue_url: str, dead_letter_url: str) -> None:
        self.sqs = sqs
        self.queue_url = queue_url
        self.dead_letter_url = dead_letter_url

    def later(self, receipt_handle: str, receives: int) -> None:
        """Hide a message the function failed until its next try is due."""
        self.sqs.change_message_visibility(
            QueueUrl=self.queue_url, ReceiptHandle=receipt_handle, VisibilityTimeout=retry_seconds(receives)
        )

    def redrive(self, wanted: Callable[[str], bool]) -> int:
        """Every dead letter whose body is `wanted` sent to the queue again (a new message: its
        tries start over), then deleted; how many. Sent before it is deleted: a failure between
        leaves it in both, and the mail function applies a mail once however often it comes. The
        others are hidden while the letters are gone through, then shown again."""
        moved, passed, empty = 0, [], 0
        while empty < EMPTY_LOOKS:
            got = self.sqs.receive_message(
                QueueUrl=self.dead_letter_url,
                MaxNumberOfMessages=REDRIVE_BATCH,
                VisibilityTimeout=LOOK_SECONDS,
                WaitTimeSeconds=0,
            )
            messages = got.get("Messages", [])
            empty = 0 if messages else empty + (EMPTY_LOOKS if self._none_visible() else 1)
            for message in messages:
                if not wanted(message["Body"]):
                    passed.append(message["ReceiptHandle"])
                    continue
                self.sqs.send_message(QueueUrl=self.queue_url, MessageBody=message["Body"])
                self.sqs.delete_message(QueueUrl=self.dead_letter_url, ReceiptHandle=message["ReceiptHandle"])
                moved += 1
        for handle in passed:
            self.sqs.change_message_visibility(QueueUrl=self.dead_letter_url, ReceiptHandle=handle, VisibilityTimeout=0)
        return moved

    def _none_visible(self) -> bool:
        """The dead letters show none (a short poll, sampling SQS's servers, may find none among a few)."""
        got = self.sqs.get_queue_attributes(
            QueueUrl=self.dead_letter_url, AttributeNames=["ApproximateNumberOfMessages"]
        )
        return int(got["Attributes"]["ApproximateNumberOfMessages"]) == 0
