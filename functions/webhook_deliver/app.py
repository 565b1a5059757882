"""Webhook deliveries from the queue (SQS event source, ReportBatchItemFailures): each record is
one notice for one subscription, taken one turn (`service.webhooks.attempt`).

Delivered, refused for good (a 4xx) or unsubscribed: the record succeeds and Lambda deletes it.
To try again (or not yet due): a copy saying so is queued with a delay and the record succeeds
(aws/webhooks.py says why a copy). Past the 24-hour window: it goes to the dead-letter queue,
the host is told, and the record succeeds. A record fails only when the function itself did
(SQS hands it back after the queue's visibility timeout). The records of a batch are taken one
after another, so one invocation holds one connection at a time, and the event source's maximum
concurrency bounds how many reach one URL at once. Only ids, targets and statuses are logged,
never a notice or a URL.
"""

import time
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from game_core.aws.webhooks import AwsHooks, post
from game_core.aws.wiring import ports_from_environment
from game_core.service.ports import Ports
from game_core.service.webhooks import Delivery, attempt

logger = Logger(service="webhook-deliver")


def handler_for(ports: Callable[[], Ports]) -> Callable[[dict[str, Any], LambdaContext], dict[str, Any]]:
    """The handler, serving with the ports `ports` gives (the local stack passes its own)."""

    def deliver(record: SQSRecord) -> None:
        served = ports()
        hooks = served.hooks
        assert isinstance(hooks, AwsHooks), "the delivery function needs WEBHOOK_QUEUE_URL"
        delivery = Delivery.from_json(record.body)
        turn = attempt(served, delivery, post, int(time.time()))
        logger.info(
            "webhook turn",
            extra={
                "match_id": delivery.match_id,
                "target": delivery.target,
                "webhook_id": delivery.webhook_id,
                "failed_before": delivery.attempts,
                "outcome": turn.outcome,
                "status": turn.status,
            },
        )
        if turn.next is not None:
            hooks.enqueue([turn.next], turn.delay(served.clock.now().timestamp()))
        if turn.outcome == "dead":
            hooks.dead_letter(record.body)

    @logger.inject_lambda_context(log_event=False)
    def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        processor = BatchProcessor(event_type=EventType.SQS)
        return process_partial_response(event=event, record_handler=deliver, processor=processor, context=context)

    return handler


handler = handler_for(ports_from_environment)
