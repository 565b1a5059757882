"""What webhooks out cost per notice (issue 20), counted on the local stack.

The mm8 match of the cost goal (9 players, 24-hour phases, bots by webhook) is played with every
player and the public channel subscribed to a receiver on 127.0.0.1 that answers 204; the queue
is worked by the real delivery function as the match goes. Counted: the SQS calls the telling
functions make (SendMessageBatch, billed per 64 KB of each call), what Lambda's event source does per batch
(ReceiveMessage, DeleteMessageBatch), the delivery function's invocations (one per such batch of
5, as on AWS: the local stack's lanes invoke it per subscription) and in-process time,
and its reads of the subscription (GetItem). Not counted: the event source's empty long polls
while the queue is idle, a fixed cost of the deployment (a few hundred thousand requests a month,
about $0.10 to $0.30), whatever the matches.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from benchmarks.costs import MEMORY_GB, PRICES, bench_request
from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack
from local_stack.aws.webhooks import BATCH, FUNCTION
from local_stack.bots.runner import run_match

SQS_REQUEST = 0.40 / 1_000_000
"""SQS standard, per request (each 64 KB chunk of a call's payload is one)."""
CHUNK = 64 * 1024


class _Accept(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def webhook_bill() -> tuple[int, list[tuple[str, str, float]]]:
    """(deliveries, the bill's lines) of the mm8 match with every subscription."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Accept)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    request = bench_request("palindrome", "mm8", 9)
    request["webhooks"] = {player["id"]: f"{url}/{player['id']}" for player in request["players"]} | {
        "@public": f"{url}/public"
    }
    saved = dict(os.environ)
    os.environ["WEBHOOKS_ALLOW_LOOPBACK"] = "1"
    sent: list[int] = []
    reads = Counter[str]()
    try:
        with LocalStack(games=("palindrome",), clock=VirtualClock()) as stack:
            ports = stack.ports()
            assert ports.hooks is not None

            def queued(params: dict[str, Any], model: Any, **_kwargs: Any) -> None:
                if model.name == "SendMessageBatch":
                    sent.append(sum(len(entry["MessageBody"].encode()) for entry in params["Entries"]))

            def read(params: dict[str, Any], model: Any, **_kwargs: Any) -> None:
                if model.name == "GetItem" and params["Key"]["sk"]["S"].startswith("HOOK#"):
                    reads["hook"] += 1

            ports.hooks.sqs.meta.events.register("provide-client-params", queued)
            ports.store.client.meta.events.register("provide-client-params", read)
            handler = stack.lambdas.handlers[FUNCTION]
            seconds = 0.0

            def timed(event: Any, context: Any) -> Any:
                nonlocal seconds
                started = time.perf_counter()
                try:
                    return handler(event, context)
                finally:
                    seconds += time.perf_counter() - started

            stack.lambdas.handlers[FUNCTION] = timed
            deliveries = 0

            def deliver(_kind: str, _data: dict[str, Any]) -> None:  # as the event source would, at once
                nonlocal deliveries
                deliveries += stack.webhooks.deliver()

            run_match(stack, request, observe=deliver, timeout=600)
            deliveries += stack.webhooks.deliver()
    finally:
        server.shutdown()
        server.server_close()
        os.environ.clear()
        os.environ.update(saved)
    return deliveries, _bill(deliveries, sent, seconds, reads["hook"])


def _bill(deliveries: int, sent: list[int], seconds: float, hook_reads: int) -> list[tuple[str, str, float]]:
    """The bill's lines: SQS's sends (by their 64 KB chunks), receives and deletes, the delivery
    function's requests and compute, and the subscriptions read."""
    send_requests = sum(max(1, math.ceil(size / CHUNK)) for size in sent)
    batches = math.ceil(deliveries / BATCH)
    sqs = f"{send_requests} billed sends ({len(sent)} batches), {batches} receives and deletes"
    compute = f"{seconds:.2f} s x {MEMORY_GB} GB (in-process time: an upper bound)"
    return [
        ("SQS", sqs, (send_requests + 2 * batches) * SQS_REQUEST),
        ("Lambda requests", f"{batches} invocations of the delivery function", batches * PRICES["request"]),
        ("Lambda compute", compute, seconds * MEMORY_GB * PRICES["gb_second"]),
        ("DynamoDB reads", f"{hook_reads} subscription reads", hook_reads * PRICES["read_unit"]),
    ]


def report() -> None:
    deliveries, lines = webhook_bill()
    total = sum(cost for _what, _counted, cost in lines)
    print(f"webhooks out: the mm8 match, 9 players and the public channel subscribed: {deliveries} deliveries")
    for what, counted, cost in lines:
        print(f"    {what:16} {counted:58} ${cost:.6f}")
    print(f"    {'':16} ${total:.5f} in all, ${total / max(1, deliveries):.8f} a delivery (none retried)")
