"""What a whole match costs on AWS, from what the local stack counts (issue 8's cost goal).

A bot-played match on the local stack (the real ASL and handlers, a virtual clock) with every AWS
call the handlers make counted (local_stack/metering.py), the state machine's transitions read from
its execution history, and DynamoDB's units worked out from the items' sizes as DynamoDB bills
them. Prices: AWS list prices, us-east-1, as of 2026 (below). Mail delivery is counted apart.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from game_core.games import registry
from game_core.match.engine import guests_per_player
from local_stack.clock import VirtualClock
from local_stack.metering import Meter, item_size
from local_stack.play import bot_matches, seat
from local_stack.runner import run_match
from local_stack.stack import LocalStack

PRICES = {
    "transition": 0.025 / 1_000,  # Step Functions Standard, per state transition
    "request": 0.20 / 1_000_000,  # Lambda, per invocation
    "gb_second": 0.0000133334,  # Lambda arm64, per GB-second
    "write_unit": 0.625 / 1_000_000,  # DynamoDB on-demand, per write request unit
    "read_unit": 0.125 / 1_000_000,  # DynamoDB on-demand, per read request unit
    "publish": 0.50 / 1_000_000,  # SNS, per published message (64 KB chunk)
}
MEMORY_GB = 0.25  # the functions' MemorySize (template.yaml Globals)
GOAL_DOLLARS = 0.005
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

    def lines(self) -> list[tuple[str, str, float]]:
        requests = sum(self.invocations.values())
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

    def total(self) -> float:
        return sum(cost for _, _, cost in self.lines())


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
            pk, prefix = (params["ExpressionAttributeValues"][name]["S"] for name in (":pk", ":prefix"))
            read = sum(size for (p, s), size in sizes.items() if p == pk and s.startswith(prefix))
            reads += _units(read, 4096)
    return writes, reads


def match_bill(request: dict[str, Any]) -> tuple[Bill, dict[str, int]]:
    with LocalStack(games=(request["game"],), clock=VirtualClock()) as stack:
        recorder = Recorder(stack)
        run = run_match(stack, request, timeout=600)
        history = stack.client("stepfunctions").get_execution_history(
            executionArn=stack.execution(run.match_id, request["game"])["executionArn"], maxResults=1000
        )
        items = stack.client("dynamodb").scan(TableName="matches")["Items"]
        invocations = Counter(stack.lambdas.invocations)
    sizes = {(item["pk"]["S"], item["sk"]["S"]): item_size(item) for item in items}
    writes, reads = dynamodb_units(recorder.calls, sizes)
    publishes = sum(
        len(params.get("PublishBatchRequestEntries", [])) or 1
        for service, operation, params in recorder.calls
        if service == "sns" and operation in ("Publish", "PublishBatch")
    )
    bill = Bill(
        transitions=sum(1 for event in history["events"] if "stateEnteredEventDetails" in event),
        invocations=invocations,
        seconds=recorder.seconds,
        write_units=writes,
        read_units=reads,
        publishes=publishes,
        calls=recorder.meter.calls,
    )
    largest = {"item": max(sizes.values()), "phases": sum(1 for p, s in sizes if s.startswith("PHASE#"))}
    return bill, largest


MATCHES = bot_matches("typical")
"""Every available game and rule set, with a typical match's players (`Game.demo`)."""


def report() -> None:
    print("cost of a whole match, 24-hour phases, everyone submitting, early close off (goal: mm8 9p <= $0.005)")
    for game_id, rule_set, players in MATCHES:
        request = {
            "game": game_id,
            "settings": {"rule_set": rule_set},
            "players": [
                seat(f"p{i}", guests_per_player(registry.load(game_id))) | {"garnets": 2} for i in range(1, players + 1)
            ],
            "phase_seconds": 86_400,
            "early_close": False,
            "seed": 2026,
        }
        bill, largest = match_bill(request)
        total = bill.total()
        verdict = ("ok" if total <= GOAL_DOLLARS else "OVER") if (game_id, rule_set) == ("palindrome", "mm8") else ""
        print(f"  {game_id} {rule_set}, {players}p, {largest['phases']} phases: ${total:.5f} {verdict}")
        for what, counted, cost in bill.lines():
            print(f"    {what:16} {counted:58} ${cost:.6f}")
        per_phase = bill.transitions / max(1, largest["phases"])
        print(f"    {'':16} {per_phase:.1f} transitions a phase; largest item {largest['item']} bytes (goal <= 16384)")
        webhook = bill.invocations.get("SubmitWebhookFunction", 0)
        print(f"    {'':16} AWS calls: {sum(bill.calls.values())} in all for {webhook} submissions")
