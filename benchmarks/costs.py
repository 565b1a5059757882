"""What a whole match costs on AWS, from what the local stack counts (issue 8's cost goal).

A bot-played match on the local stack (the real ASL and handlers, a virtual clock) with every AWS
call the handlers make counted (local_stack/aws/metering.py), the state machine's transitions read from
its execution history, and DynamoDB's units worked out from the items' sizes as DynamoDB bills
them. Prices: AWS list prices, us-east-1, as of 2026 (below).

Played by mail (issue 19's cost goal), the bots mail their moves: each message is stored in the
inbound bucket and notified as SES's receipt rule does, and read by the mail function; what SES
is billed for is counted from that run: each message received and its 256 KB chunks (every
message at least one), each message the service sent (answers, notices, reminders, as the outbox
kept them) and their bytes, the bucket's writes (SES's) and reads (the mail function's GetObject
calls, counted on its client), and the notification SES publishes per message.
"""

from __future__ import annotations

import math
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from game_core.aws.mail_bucket import mail_bucket
from game_core.games import registry
from game_core.match.engine import guests_per_player
from local_stack.aws.clock import VirtualClock
from local_stack.aws.metering import Meter, item_size
from local_stack.aws.stack import LocalStack
from local_stack.bots.play import bot_matches, seat
from local_stack.bots.runner import run_match

PRICES = {
    "transition": 0.025 / 1_000,  # Step Functions Standard, per state transition
    "request": 0.20 / 1_000_000,  # Lambda, per invocation
    "gb_second": 0.0000133334,  # Lambda arm64, per GB-second
    "write_unit": 0.625 / 1_000_000,  # DynamoDB on-demand, per write request unit
    "read_unit": 0.125 / 1_000_000,  # DynamoDB on-demand, per read request unit
    "publish": 0.50 / 1_000_000,  # SNS, per published message (64 KB chunk)
    "mail_received": 0.10 / 1_000,  # SES receiving, per message
    "mail_chunk": 0.09 / 1_000,  # SES receiving, per incoming 256 KB chunk (a message's last one whole)
    "mail_sent": 0.10 / 1_000,  # SES sending, per message (one recipient each)
    "mail_sent_gb": 0.12,  # SES sending, per GB sent (attachments: counted here on whole messages)
    "s3_put": 0.005 / 1_000,  # S3 Standard, per PUT (SES storing a received message)
    "s3_get": 0.0004 / 1_000,  # S3 Standard, per GET (the mail function reading it)
    "sqs_request": 0.40 / 1_000_000,  # SQS standard, per request (64 KB chunk); the first million free
}
IDLE_POLLS_A_MONTH = 5 * 3 * 60 * 24 * 30
"""Lambda's SQS event source polls the inbound queue while it is idle: 5 pollers, each a 20-second
long poll, 3 ReceiveMessage requests a minute: 5 x 3 x 60 x 24 x 30 = 648,000 requests a 30-day
month, x $0.40 a million = $0.2592, a fixed cost of the deployment whatever the matches (the
dead-letter queue is not polled: it costs nothing until a mail lands there)."""
CHUNK_BYTES = 256 * 1024
GB = 1024**3
MEMORY_GB = 0.25  # the functions' MemorySize (template.yaml Globals)
GOAL_DOLLARS = 0.005
MAIL_GOAL_DOLLARS = 0.03
"""Issue 19's goal: a 9-player mm8 match played entirely by mail, SES and all."""
LOGGED_AT_ERROR = ("Failed", "TimedOut", "Aborted")
"""The history events a state machine's ERROR log level writes (template.yaml's Logging Level)."""
WRITES = {"PutItem", "UpdateItem", "DeleteItem"}
READS = {"GetItem", "Query", "BatchGetItem"}


@dataclass
class Bill:
    transitions: int = 0
    invocations: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    write_units: float = 0.0
    read_units: float = 0.0
    publishes: int = 0
    calls: Counter[tuple[str, str]] = field(default_factory=Counter)
    received: Sequence[int] = ()
    """By mail: the size of each message received."""
    sent: Sequence[int] = ()
    """By mail: the size of each message sent."""
    stored_reads: int = 0
    """By mail: the mail function's GetObject calls."""
    mail_batches: int = 0
    """By mail: the batches the inbound queue's event source handed the mail function."""
    topic_publishes: Counter[str] = field(default_factory=Counter)
    """The functions' publishes by topic name (each entry of a PublishBatch one)."""
    failed_events: int = 0
    """The execution history's events a state machine logging at ERROR writes (failures, time-outs)."""

    def lines(self) -> list[tuple[str, str, float]]:
        requests = sum(self.invocations.values())
        by_mail = [*self._mail_lines(), self.mail_queue_line()] if self.received or self.sent else []
        return [*self._aws_lines(requests), *by_mail]

    def _aws_lines(self, requests: int) -> list[tuple[str, str, float]]:
        return [
            ("Step Functions", f"{self.transitions} transitions", self.transitions * PRICES["transition"]),
            ("Lambda requests", f"{requests} invocations", requests * PRICES["request"]),
            (
                "Lambda compute",
                f"{self.seconds:.1f} s x {MEMORY_GB} GB (in-process time: an upper bound)",
                self.seconds * MEMORY_GB * PRICES["gb_second"],
            ),
            ("DynamoDB writes", f"{self.write_units:.0f} write units", self.write_units * PRICES["write_unit"]),
            ("DynamoDB reads", f"{self.read_units:.0f} read units", self.read_units * PRICES["read_unit"]),
            ("SNS", f"{self.publishes} messages published", self.publishes * PRICES["publish"]),
        ]

    def _mail_lines(self) -> list[tuple[str, str, float]]:
        received, sent = len(self.received), len(self.sent)
        chunks = sum(_units(size, CHUNK_BYTES) for size in self.received)
        sent_gb = sum(self.sent) / GB
        return [
            (
                "SES receiving",
                f"{received} messages, {chunks} chunks of 256 KB",
                received * PRICES["mail_received"] + chunks * PRICES["mail_chunk"],
            ),
            (
                "SES sending",
                f"{sent} messages, {sum(self.sent) / 1024:.0f} KB",
                sent * PRICES["mail_sent"] + sent_gb * PRICES["mail_sent_gb"],
            ),
            (
                "S3 (mail stored)",
                f"{received} PUTs by SES, {self.stored_reads} GETs",
                received * PRICES["s3_put"] + self.stored_reads * PRICES["s3_get"],
            ),
            ("SNS (mail in)", f"{received} receipt notifications", received * PRICES["publish"]),
        ]

    def mail_queue_line(self) -> tuple[str, str, float]:
        """The inbound queue: each mail sent into it by the topic (one request), each batch
        received and deleted by the event source (one request each); a retry would add a
        ChangeMessageVisibility and a receive (none in a clean run)."""
        received = len(self.received)
        requests = received + 2 * self.mail_batches
        counted = f"{received} sends by SNS, {self.mail_batches} receives and {self.mail_batches} deletes"
        return ("SQS (mail in)", counted, requests * PRICES["sqs_request"])

    def total(self) -> float:
        return sum(cost for _, _, cost in self.lines())

    def mail_total(self) -> float:
        """What the mail alone costs (SES, its bucket, its notifications): a floor no saving in
        the match's own compute can go under."""
        return sum(cost for _, _, cost in self._mail_lines())


class Recorder:
    """Every AWS call with its parameters, and every handler's in-process time."""

    def __init__(self, stack: LocalStack) -> None:
        self.calls: list[tuple[str, str, dict[str, Any]]] = []
        self.seconds = 0.0
        self.meter = Meter(stack)
        for client in stack.port_clients():
            client.meta.events.register("provide-client-params", self._record)
        handlers = stack.lambdas.handlers
        for name, handler in list(handlers.items()):
            handlers[name] = self._timed(handler)

    def _record(self, params: dict[str, Any], model: Any, **_kwargs: Any) -> None:
        self.calls.append((model.service_model.service_name, model.name, params))

    def _timed(self, handler: Any) -> Any:
        def timed(event: Any, context: Any) -> Any:
            started = time.perf_counter()
            try:
                return handler(event, context)
            finally:
                self.seconds += time.perf_counter() - started

        return timed


def _units(size: int, unit: int) -> int:
    return max(1, math.ceil(size / unit))


def dynamodb_units(
    calls: list[tuple[str, str, dict[str, Any]]], sizes: dict[tuple[str, str], int]
) -> tuple[float, float]:
    """(write units, read units): a write of an item costs 1 unit a KB of the item (its size at
    the end of the match, an upper bound), twice in a transaction; a consistent read 1 unit per 4 KB,
    a Query per 4 KB of all it read."""
    writes = reads = 0.0

    def size_of(key: dict[str, Any]) -> int:
        return sizes.get((key["pk"]["S"], key["sk"]["S"]), 100)

    for service, operation, params in calls:
        if service != "dynamodb":
            continue
        if operation in ("PutItem",):
            writes += _units(item_size(params["Item"]), 1024)
        elif operation in ("UpdateItem", "DeleteItem"):
            writes += _units(size_of(params["Key"]), 1024)
        elif operation == "TransactWriteItems":
            for entry in params["TransactItems"]:
                (kind, body), *_ = entry.items()
                size = item_size(body["Item"]) if kind == "Put" else size_of(body["Key"])
                writes += 2 * _units(size, 1024)
        elif operation == "GetItem":
            reads += _units(size_of(params["Key"]), 4096)
        elif operation == "BatchGetItem":
            for table in params["RequestItems"].values():
                reads += sum(_units(size_of(key), 4096) for key in table["Keys"])
        elif operation == "Query":
            pk, prefix = _query_key(params)
            read = sum(size for (p, s), size in sizes.items() if p == pk and s.startswith(prefix))
            reads += _units(read, 4096)
    return writes, reads


def _query_key(params: dict[str, Any]) -> tuple[str, str]:
    """A Query's partition key and sort key prefix: `<pk> = :v AND begins_with(<sk>, :w)`,
    placeholders as boto3's condition builder names them."""
    condition = params["KeyConditionExpression"]
    equals = re.search(r"= (:\w+)", condition)
    begins = re.search(r"begins_with\([^,]+, (:\w+)\)", condition)
    assert equals and begins, f"a Query this bill does not price: {condition}"
    values = params["ExpressionAttributeValues"]
    return values[equals.group(1)]["S"], values[begins.group(1)]["S"]


def match_bill(request: dict[str, Any], channel: str = "webhook") -> tuple[Bill, dict[str, int]]:
    with LocalStack(games=(request["game"],), clock=VirtualClock()) as stack:
        recorder = Recorder(stack)
        stored_reads = Meter(stack, clients=[mail_bucket().client])
        run = run_match(stack, request, timeout=600, channel=channel)
        sent = [len(mail.raw) for mail in stack.outbox.sent]
        history = stack.client("stepfunctions").get_execution_history(
            executionArn=stack.execution(run.match_id, request["game"])["executionArn"], maxResults=1000
        )
        items = stack.client("dynamodb").scan(TableName="matches")["Items"]
        invocations = Counter(stack.lambdas.invocations)
        batches = stack.mail_in.batches
    sizes = {(item["pk"]["S"], item["sk"]["S"]): item_size(item) for item in items}
    writes, reads = dynamodb_units(recorder.calls, sizes)
    topic_publishes = Counter[str]()
    for service, operation, params in recorder.calls:
        if service == "sns" and operation in ("Publish", "PublishBatch"):
            topic = params.get("TopicArn") or params.get("TargetArn", "")
            topic_publishes[topic.rsplit(":", 1)[-1]] += len(params.get("PublishBatchRequestEntries", [])) or 1
    bill = Bill(
        transitions=sum(1 for event in history["events"] if "stateEnteredEventDetails" in event),
        invocations=invocations,
        seconds=recorder.seconds,
        write_units=writes,
        read_units=reads,
        publishes=sum(topic_publishes.values()),
        calls=recorder.meter.calls,
        received=[len(raw) for raws in run.mailed.values() for raw in raws],
        sent=sent,
        stored_reads=stored_reads.calls[("s3", "GetObject")],
        mail_batches=batches,
        topic_publishes=topic_publishes,
        failed_events=sum(1 for event in history["events"] if event["type"].endswith(LOGGED_AT_ERROR)),
    )
    largest = {"item": max(sizes.values()), "phases": sum(1 for p, s in sizes if s.startswith("PHASE#"))}
    return bill, largest


MATCHES = bot_matches("typical")
"""Every available game and rule set, with a typical match's players (`Game.demo`)."""


def bench_request(game_id: str, rule_set: str, players: int) -> dict[str, Any]:
    """A whole match of 24-hour phases, everyone submitting, early close off."""
    return {
        "game": game_id,
        "settings": {"rule_set": rule_set},
        "players": [
            seat(f"p{i}", guests_per_player(registry.load(game_id))) | {"garnets": 2} for i in range(1, players + 1)
        ],
        "phase_seconds": 86_400,
        "early_close": False,
        "seed": 2026,
    }


def print_bill(heading: str, bill: Bill) -> None:
    print(heading)
    for what, counted, cost in bill.lines():
        print(f"    {what:16} {counted:58} ${cost:.6f}")


def report() -> tuple[Bill, Bill]:
    """Prints the bills, and returns the 9-player mm8 match's: (by webhook, by mail)."""
    print("cost of a whole match, 24-hour phases, everyone submitting, early close off (goal: mm8 9p <= $0.005)")
    by_webhook, webhook_bill = 0.0, Bill()
    for game_id, rule_set, players in MATCHES:
        bill, largest = match_bill(bench_request(game_id, rule_set, players))
        total = bill.total()
        verdict = ""
        if (game_id, rule_set) == ("palindrome", "mm8"):
            by_webhook, verdict = total, "ok" if total <= GOAL_DOLLARS else "OVER"
            webhook_bill = bill
        print_bill(f"  {game_id} {rule_set}, {players}p, {largest['phases']} phases: ${total:.5f} {verdict}", bill)
        per_phase = bill.transitions / max(1, largest["phases"])
        print(f"    {'':16} {per_phase:.1f} transitions a phase; largest item {largest['item']} bytes (goal <= 16384)")
        webhook = bill.invocations.get("SubmitWebhookFunction", 0)
        print(f"    {'':16} AWS calls: {sum(bill.calls.values())} in all for {webhook} submissions")
    bill, _largest = match_bill(bench_request("palindrome", "mm8", 9), channel="email")
    total = bill.total()
    print(f"the same mm8 match, 9 players, played entirely by mail, SES at list price (goal <= ${MAIL_GOAL_DOLLARS})")
    verdict = "ok" if total <= MAIL_GOAL_DOLLARS else "OVER"
    print_bill(f"  by mail: ${total:.5f} {verdict}   (by webhook: ${by_webhook:.5f})", bill)
    mail = bill.mail_total()
    floor = "over the goal before any compute" if mail > MAIL_GOAL_DOLLARS else "under the goal"
    print(f"    the mail alone (SES, its bucket and notifications, nothing else): ${mail:.5f}, {floor}")
    idle = IDLE_POLLS_A_MONTH * PRICES["sqs_request"]
    _what, _counted, queue = bill.lines()[-1]
    print(
        f"    the inbound queue: ${queue:.6f} for this match, and its idle polling ({IDLE_POLLS_A_MONTH:,} requests)"
        f" ${idle:.4f} a month: ${idle + queue:.4f} for a month with this match (SQS's first million a month are free)"
    )
    return webhook_bill, bill
