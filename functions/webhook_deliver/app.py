"""Webhook deliveries from the queue (SQS event source, ReportBatchItemFailures): each record is
one notice for one subscription, taken one turn (`service.webhooks.sending.attempt`).

Delivered, refused for good (a 4xx) or unsubscribed: the record succeeds and Lambda deletes it.
To try again (or not yet due): a copy saying so is queued with a delay and the record succeeds
(aws/webhooks.py says why a copy). Past the 24-hour window: it goes to the dead-letter queue,
the host is told, and the record succeeds. A record fails only when the function itself did
(SQS hands it back after the queue's visibility timeout). The records of a batch go side by side,
one lane per subscription (`service.webhooks.lanes`): a slow or dead URL holds none of the
batch's other URLs, is POSTed to once a batch at most when it does not answer, and no POST
begins that the function's time left cannot hold. Only ids, targets and statuses are logged,
never a notice or a URL.
"""

import time
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from game_core.aws.webhooks import AwsHooks, post
from game_core.aws.wiring import ports_from_environment
from game_core.service.ports import Ports
from game_core.service.webhooks.lanes import BatchPoster, in_lanes, lane_of
from game_core.service.webhooks.queue import Delivery
from game_core.service.webhooks.sending import Poster, attempt

logger = Logger(service="webhook-deliver")

SPARE_SECONDS = 5
"""Of the function's time, kept for what follows the last POST (queueing its retry's copy)."""


def handler_for(ports: Callable[[], Ports]) -> Callable[[dict[str, Any], LambdaContext], dict[str, Any]]:
    """The handler, serving with the ports `ports` gives (the local stack passes its own)."""

    def deliver(record: dict[str, Any], poster: Poster) -> None:
        served = ports()
        hooks = served.hooks
        assert isinstance(hooks, AwsHooks), "the delivery function needs WEBHOOK_QUEUE_URL"
        delivery = Delivery.from_json(record["body"])
        turn = attempt(served, delivery, poster, int(time.time()))
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
            hooks.dead_letter(record["body"])

    @logger.inject_lambda_context(log_event=False)
    def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        records: list[dict[str, Any]] = event["Records"]
        poster = BatchPoster(post, lambda: context.get_remaining_time_in_millis() / 1000 - SPARE_SECONDS)
        raised = in_lanes(
            records, lambda record: lane_of(record["body"], record["messageId"]), lambda record: deliver(record, poster)
        )
        failed = []
        for record, error in zip(records, raised, strict=True):
            if error is not None:  # its type alone: an error's text could quote the notice
                logger.error(
                    "webhook record failed", extra={"message_id": record["messageId"], "error": type(error).__name__}
                )
                failed.append({"itemIdentifier": record["messageId"]})
        return {"batchItemFailures": failed}

    return handler


handler = handler_for(ports_from_environment)
