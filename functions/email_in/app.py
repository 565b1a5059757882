"""Mail to the matches, from the inbound queue (SQS event source, ReportBatchItemFailures): SES
receives it for the match domain, its receipt rule's S3 action stores each message (up to SES's
40 MB) in the inbound bucket and tells the inbound topic, which queues SES's notification as it is.

Each record is one message (`game_core.mail.ses.receipt_of`), read from the bucket
(`game_core.aws.mail_bucket`; a notification that carries the message, as an SNS action's does,
is read as it is) and answered by `mail_in.receive`: moves, STATUS and HELP from the players, the
host's commands from the host's address, a message over 10 MB refused with why; anything else
is dropped unanswered. A record that is not SES's notification of a received message is dropped
(there is nothing in it to read, and nothing a retry would change).

A record whose mail fails (AWS failing: DynamoDB throttled, Step Functions down) is reported
failed alone, so the batch's other mail is not taken again, and hidden until its next try
(`aws.inbound_queue`: backoff, tries over six hours); on its last try the host is told
(`service.mail.dead_letters.gave_up`) and SQS moves it to the dead-letter queue, which
`match-host redrive-mail` queues again. A mail taken twice is applied and answered once.

The reply is Lambda's partial batch response, with each record's outcome beside it (Lambda reads
`batchItemFailures` alone; the outcomes are for the local stack's callers). What is logged is
each message's outcome, never an address or what a message says.
"""

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from game_core.aws.inbound_queue import MAX_RECEIVES, InboundMailQueue
from game_core.aws.mail_bucket import mail_bucket
from game_core.aws.wiring import ports_from_environment
from game_core.mail.ses import Receipt, receipt_of
from game_core.service.mail.dead_letters import gave_up
from game_core.service.mail.receive import receive
from game_core.service.ports import Ports

logger = Logger(service="email-in")

DROPPED = "dropped"
"""The outcome of a record that is no message SES received."""
FAILED = "failed"
"""The outcome of a record tried again later."""


def handler_for(ports: Callable[[], Ports]) -> Callable[[dict[str, Any], LambdaContext], dict[str, Any]]:
    """The handler, serving with the ports `ports` gives (the local stack passes its own)."""

    def take(record: SQSRecord) -> str:
        try:
            receipt = receipt_of(record.body)
        except ValueError as error:  # pydantic's and JSON's errors: the record is not what SES sends
            logger.error("not an SES receipt notification", extra={"error": type(error).__name__})
            return DROPPED
        if receipt is None:  # SES's other notifications (the setup notification)
            return DROPPED
        serving = ports()
        try:
            return receive(serving, mail_bucket().read(receipt)).value
        except Exception as error:
            later(serving, record, receipt, error)
            raise

    def later(serving: Ports, record: SQSRecord, receipt: Receipt, error: Exception) -> None:
        """Put off the record's next try, or on its last tell the host."""
        tries = int(record.attributes.approximate_receive_count)
        extra = {"ses_message_id": receipt.ses_message_id, "tries": tries, "error": type(error).__name__}
        logger.warning("mail not taken: tried again later", extra=extra)
        try:
            if tries >= MAX_RECEIVES:
                gave_up(serving, receipt, tries)
            elif isinstance(serving.inbound, InboundMailQueue):
                serving.inbound.later(record.receipt_handle, tries)
        except Exception:  # AWS still failing: the queue's own timeout and the dead letters' alarm stand in
            logger.exception("mail's next try not put off, or its host not told", extra=extra)

    @logger.inject_lambda_context(log_event=False)
    def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)
        with processor(records=event.get("Records") or [], handler=take, lambda_context=context):
            processed = processor.process()
        outcomes = [result if status == "success" else FAILED for status, result, _record in processed]
        logger.info("mail received", extra={"outcomes": outcomes})
        return processor.response() | {"outcomes": outcomes}

    return handler


handler = handler_for(ports_from_environment)
