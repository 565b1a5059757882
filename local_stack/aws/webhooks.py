"""Webhook deliveries on the local stack: moto's SQS queue and dead-letter queue as template.yaml
declares them, and the real delivery function invoked as Lambda's SQS event source would.

`LocalWebhooks.dispatch()` is the event source: it receives what the queue holds visible now and
hands each record to its subscription's lane (`service.webhooks.lanes.lane_of`); a lane is a
thread that invokes WebhookDeliverFunction (in-process, as Lambda's poller does; not through
moto's Invoke, which holds moto's lock for the whole run) on its records, a batch at a time, in
order, and deletes those it did not report failed. So a receiver that hangs holds only its own
lane: every other subscription's notices go out at the next dispatch. A record waits in its lane
as long as the lane's earlier records take, which can outlast the queue's visibility timeout:
it is hidden again while held, and never put in its lane twice (`_keep_hidden`). `deliver()` dispatches and
waits until nothing is visible or under way (tests). Only the receive and the deletes hold moto's
lock (and the function's own AWS calls, one by one, as every call does), not the function's
POSTs (up to 10 s each): a dead receiver stalls nothing else of the host server. While batches
are under way, `kept()` shows the queues as if they had not begun. A retry is a copy the
function queued with a delay. With a `VirtualClock`, moto's SQS reads that clock (its delays and
visibility: `sqs_clock.patch_sqs`), so a retry an hour away comes back once the test has advanced the
clock an hour: no test waits in real time. bin/host-server dispatches every second on the wall
clock, and keeps what the queues hold in its data folder (`kept`, `put_back`:
local_stack/laptop/persistence.py's `QueueFile`), so a delivery survives the server's restart.
"""

from __future__ import annotations

import contextvars
import json
import logging
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

import moto.sqs.models as sqs_models
from botocore.exceptions import ClientError
from pydantic import AfterValidator, BaseModel, ConfigDict

from game_core.service.webhooks.lanes import lane_of
from game_core.service.webhooks.queue import HOP_SECONDS, Delivery
from game_core.service.webhooks.retries import TIMEOUT_SECONDS
from local_stack.aws.clock import VirtualClock
from local_stack.aws.lambda_adapter import MOTO_LOCK
from local_stack.aws.sqs_clock import patch_sqs

logger = logging.getLogger(__name__)

FUNCTION = "WebhookDeliverFunction"
QUEUE = "webhook-deliveries"
DEAD_LETTERS = "webhook-dead-letters"
BATCH = 5
"""As the template's event source mapping: a lane's records per invocation at most."""
RECEIVE = 10
"""Messages per ReceiveMessage at most (SQS's limit)."""
MAX_RECEIVES = 40
"""As the template's redrive policy."""
SPARE_SECONDS = 5
"""A stop waits this much past a POST's timeout for the batch under way (its retry's queueing)."""
VISIBILITY_SECONDS = 540
"""As the template's queue: how long a received record stays hidden."""


def _a_delivery(body: str) -> str:
    try:
        Delivery.from_json(body)
    except (ValueError, TypeError):
        raise ValueError("not a webhook delivery") from None
    return body


DeliveryBody = Annotated[str, AfterValidator(_a_delivery)]
"""A queued message's body: a `Delivery` as JSON."""


class Waiting(BaseModel):
    """A delivery in the queue as the host server keeps it: its body (the notice, the attempts
    that failed and when the next is due), when SQS hands it out next (epoch seconds), and how
    often it was handed out (what the redrive counts)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    body: DeliveryBody
    ready_at: float
    receives: int


class KeptQueue(BaseModel):
    """What the queues hold: the deliveries waiting, in order, and the dead letters' bodies."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    waiting: tuple[Waiting, ...]
    dead_letters: tuple[DeliveryBody, ...]


def _moto_queue(arn: str) -> Any:
    """moto's own model of the queue `arn` names (its messages, delayed and in flight included)."""
    _, _, _, region, account, name = arn.split(":")
    return sqs_models.sqs_backends[account][region].get_queue(name)


@dataclass(eq=False)
class _Run:
    """An invocation of the function under way: the ids of what it queued since it began
    (retries' copies, dead letters, alerts), hidden by `kept()` until it is over."""

    queued: set[str] = field(default_factory=set)


_RUN: contextvars.ContextVar[_Run | None] = contextvars.ContextVar("webhook_run", default=None)
"""The run on whose behalf this thread works: its lane's, and the function's own lanes' (their
threads start in a copy of the caller's context), so what they queue is noted as the run's."""


class LocalWebhooks:
    """The queues, and the event source that runs the delivery function on them."""

    def __init__(
        self, sqs: Any, invoke: Callable[[str, str], tuple[str, bool, str]], clock: VirtualClock | None
    ) -> None:
        self.sqs = sqs
        self._invoke = invoke
        """`InProcessLambdas.invoke`: a function's handler run on this thread, no lock held."""
        self.dead_letter_url = sqs.create_queue(QueueName=DEAD_LETTERS)["QueueUrl"]
        dead_arn = sqs.get_queue_attributes(QueueUrl=self.dead_letter_url, AttributeNames=["QueueArn"])
        self.dead_letter_arn = dead_arn["Attributes"]["QueueArn"]
        redrive = {"deadLetterTargetArn": self.dead_letter_arn, "maxReceiveCount": MAX_RECEIVES}
        self.queue_url = sqs.create_queue(
            QueueName=QUEUE,
            Attributes={"VisibilityTimeout": str(VISIBILITY_SECONDS), "RedrivePolicy": json.dumps(redrive)},
        )["QueueUrl"]
        self.queue_arn = sqs.get_queue_attributes(QueueUrl=self.queue_url, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        self._restore = patch_sqs(clock) if clock is not None else (lambda: None)
        self.attempts = 0
        """Records handed to the delivery function so far."""
        self.after_batch: list[Callable[[], None]] = []
        """Called once each batch is done with (its records deleted or handed back), and when
        nothing was visible: the host server keeps the queues then."""
        self._received: dict[str, Waiting] = {}
        """Each record received and not yet settled (deleted, or handed back failed), as it was
        just before: visible, received one time fewer. Read and changed under moto's lock."""
        self._hidden: dict[str, tuple[str, float]] = {}
        """The same records' latest receipt handles, and until when SQS hides each (`_keep_hidden`)."""
        self._runs: list[_Run] = []
        """The invocations under way: read and changed under moto's lock."""
        self._lanes: dict[str, list[dict[str, Any]]] = {}
        """Each lane at work and the records waiting in it (its thread ends when none waits)."""
        self._lanes_changed = threading.Condition()
        """Guards `_lanes`; notified when a lane ends (`deliver()` waits for all to)."""
        self._failure: Exception | None = None
        """The first thing an invocation raised since `deliver()` last said one."""
        self._closed = False
        self.stopping = threading.Event()
        """Set by `stop`: no batch begins any more."""
        for arn in (self.queue_arn, self.dead_letter_arn):
            queue = _moto_queue(arn)
            queue.add_message = self._noting(queue.add_message)

    def _noting(self, add_message: Callable[[Any], None]) -> Callable[[Any], None]:
        """moto's `Queue.add_message` (every send and redrive goes through it, under moto's lock),
        noting what it queues as the run of the thread queueing it (`_RUN`)."""

        def noted(message: Any) -> None:
            add_message(message)
            if (run := _RUN.get()) is not None:
                run.queued.add(message.id)

        return noted

    @property
    def environment(self) -> dict[str, str]:
        """What the functions read (template.yaml's WEBHOOK_QUEUE_URL and WEBHOOK_DLQ_URL)."""
        return {"WEBHOOK_QUEUE_URL": self.queue_url, "WEBHOOK_DLQ_URL": self.dead_letter_url}

    def close(self) -> None:
        """Stop: a lane under way ends with its invocation (its records as kept before it)."""
        self._closed = True
        self._restore()

    def deliver(self) -> int:
        """Dispatch every record visible now and wait for the lanes to end, until none is; how
        many attempts that made. What an invocation raised is raised then."""
        attempts = self.attempts
        while True:
            received = self.dispatch()
            with self._lanes_changed:
                self._lanes_changed.wait_for(lambda: not self._lanes)
                failure, self._failure = self._failure, None
            if failure is not None:
                raise failure
            if not received:
                return self.attempts - attempts

    def dispatch(self) -> int:
        """Receive every record visible now, each into its subscription's lane (a lane not at
        work is started); how many. Nothing visible: the `after_batch` hooks are called."""
        received = 0
        while not self._closed and not self.stopping.is_set():
            with MOTO_LOCK:
                self._keep_hidden()
                messages: list[dict[str, Any]] = self.sqs.receive_message(
                    QueueUrl=self.queue_url, MaxNumberOfMessages=RECEIVE, AttributeNames=["All"], WaitTimeSeconds=0
                ).get("Messages", [])
                ids = {message["MessageId"] for message in messages} - self._hidden.keys()
                hidden_until = sqs_models.unix_time() + VISIBILITY_SECONDS
                self._hidden |= {message["MessageId"]: (message["ReceiptHandle"], hidden_until) for message in messages}
                self._received |= {
                    message.id: Waiting.model_construct(
                        body=message.body,
                        ready_at=sqs_models.unix_time(),
                        receives=message.approximate_receive_count - 1,
                    )
                    for message in _moto_queue(self.queue_arn)._messages
                    if message.id in ids
                }
            if not messages:
                break
            fresh = [message for message in messages if message["MessageId"] in ids]  # held ones are in their lane
            received += len(fresh)
            with self._lanes_changed:
                for message in fresh:
                    lane = lane_of(message["Body"], message["MessageId"])
                    if lane not in self._lanes:
                        threading.Thread(target=self._work, args=(lane,), name=f"lane-{lane}", daemon=True).start()
                    self._lanes.setdefault(lane, []).append(message)
        if not received:
            self._batch_done()
        return received

    def _keep_hidden(self) -> None:
        """Under moto's lock: each record held (a lane slow for notice after notice can hold it
        past the visibility timeout) hidden again once half of it has passed. SQS hides one 12
        hours at most: handed out again past them, `dispatch` knows it as the record held."""
        now = sqs_models.unix_time()
        for message_id, (handle, until) in list(self._hidden.items()):
            if until - now > VISIBILITY_SECONDS / 2:
                continue
            try:
                self.sqs.change_message_visibility(
                    QueueUrl=self.queue_url, ReceiptHandle=handle, VisibilityTimeout=VISIBILITY_SECONDS
                )
            except ClientError:  # past the 12 hours
                continue
            self._hidden[message_id] = (handle, now + VISIBILITY_SECONDS)

    def _work(self, lane: str) -> None:
        """A lane's thread: its records a batch at a time, in order, until none waits."""
        while True:
            with self._lanes_changed:
                waiting = self._lanes[lane]
                if not waiting or self._closed or self.stopping.is_set():
                    del self._lanes[lane]
                    self._lanes_changed.notify_all()
                    return
                batch, self._lanes[lane] = waiting[:BATCH], waiting[BATCH:]
            try:
                self._run(batch)
            except Exception as error:  # its records come back after their visibility timeout
                logger.exception("webhook deliveries failed; trying again")
                with self._lanes_changed:
                    self._failure = self._failure or error
            self._batch_done()

    def stop(self, timeout: float) -> bool:
        """Begin no batch more, wait (`timeout` s at most) for those under way, then the `after_batch`
        hooks: a POST answered meanwhile is kept as done. Whether every batch ended."""
        self.stopping.set()
        with self._lanes_changed:
            ended = self._lanes_changed.wait_for(lambda: not self._lanes, timeout)
        self._batch_done()
        return ended

    def _batch_done(self) -> None:
        if not self._closed:
            for hook in self.after_batch:
                hook()

    def _run(self, batch: list[dict[str, Any]]) -> None:
        """One invocation on `batch`, and its records deleted but for those it failed. The
        deletes and the run's end are one step under moto's lock: `kept()` sees it under way or
        over."""
        run = _Run()
        with MOTO_LOCK:
            self._runs.append(run)
            self.attempts += len(batch)
        done: list[dict[str, Any]] = []
        noting = _RUN.set(run)
        try:
            payload, errored, _ = self._invoke(FUNCTION, json.dumps({"Records": [self._record(m) for m in batch]}))
            reply = json.loads(payload)
            if errored:
                raise RuntimeError(f"{FUNCTION} failed: {reply.get('errorType')}: {reply.get('errorMessage')}")
            failed = {failure["itemIdentifier"] for failure in (reply or {}).get("batchItemFailures", [])}
            done = [message for message in batch if message["MessageId"] not in failed]
        finally:
            _RUN.reset(noting)
            with MOTO_LOCK:
                for message in done:
                    handle, _ = self._hidden[message["MessageId"]]
                    self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=handle)
                for message in batch:
                    self._received.pop(message["MessageId"], None)
                    self._hidden.pop(message["MessageId"], None)
                self._runs.remove(run)

    def kept(self) -> KeptQueue:
        """What the queues hold now (read from moto's models: SQS has no way to look without
        receiving): every delivery not deleted, whether delayed, visible or in flight, and the
        dead letters. While records are received and not yet settled, the queues as if they had
        not been: those records as they were before, and nothing their runs queued. So a restart
        from what was kept then runs them again, each once; keeping a record in flight beside the
        retry's copy the function had already queued would send that notice twice. Unvalidated
        (kept after every invocation): the bodies are the functions' own (a file read is checked)."""
        with MOTO_LOCK:
            hidden = {message_id for run in self._runs for message_id in run.queued}
            waiting = tuple(
                self._received.get(message.id)
                or Waiting.model_construct(
                    body=message.body,
                    ready_at=max(message.delayed_until, message.visible_at) / 1000,
                    receives=message.approximate_receive_count,
                )
                for message in _moto_queue(self.queue_arn)._messages
                if message.id not in hidden
            )
            dead_letters = _moto_queue(self.dead_letter_arn)._messages
            dead = tuple(message.body for message in dead_letters if message.id not in hidden)
        return KeptQueue.model_construct(waiting=waiting, dead_letters=dead)

    def put_back(self, kept: KeptQueue) -> None:
        """Queue what `kept` holds again (a server starting where the last one stopped): each
        delivery hidden until it is ready (a delivery that came due meanwhile: at once), with its
        receive count; the dead letters as they were. Before anything is delivered."""
        now = sqs_models.unix_time()
        queue = _moto_queue(self.queue_arn)
        for one in kept.waiting:
            delay = min(max(0, math.ceil(one.ready_at - now)), HOP_SECONDS)
            sent = self.sqs.send_message(QueueUrl=self.queue_url, MessageBody=one.body, DelaySeconds=delay)
            (message,) = [message for message in queue._messages if message.id == sent["MessageId"]]
            message.approximate_receive_count = one.receives
        for body in kept.dead_letters:
            self.sqs.send_message(QueueUrl=self.dead_letter_url, MessageBody=body)

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
        """The deliveries still queued: visible, in flight, or delayed (a retry's copy waiting for
        its next attempt)."""
        attributes = self.sqs.get_queue_attributes(QueueUrl=self.queue_url, AttributeNames=["All"])["Attributes"]
        return sum(int(attributes[f"ApproximateNumberOfMessages{kind}"]) for kind in ("", "NotVisible", "Delayed"))

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
    """bin/host-server's event source: `dispatch()` every `interval` seconds of real time on a
    thread of its own, until stopped (what is queued then is in the data folder for the next start)."""

    def __init__(self, webhooks: LocalWebhooks, interval: float = 1.0) -> None:
        self._webhooks = webhooks
        self._interval = interval
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="webhook-deliveries", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop dispatching, and give the POSTs under way their answer (`LocalWebhooks.stop`)."""
        self._stopping.set()
        self._thread.join(timeout=30)
        if not self._webhooks.stop(TIMEOUT_SECONDS + SPARE_SECONDS):
            logger.warning("a webhook POST was still unanswered at the stop: it is sent again at the next start")

    def _run(self) -> None:
        while not self._stopping.wait(self._interval):
            try:
                self._webhooks.dispatch()
            except Exception:  # a receive failed: the records are still queued, tried at the next tick
                logger.exception("webhook deliveries failed; trying again")
