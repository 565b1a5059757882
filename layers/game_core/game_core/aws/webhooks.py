"""Webhooks on AWS (`service.webhooks.sending`): subscriptions as items beside their match
(`MATCH#<id>`, `HOOK#<target>`: URL and signing secret), deliveries on an SQS queue, and the
POST itself, made to the very address the URL was checked at (no second DNS look-up between the
check and the connection, so a name cannot be re-pointed at a private address in between).

Why a retry is a copy queued again with a delay (at most SQS's 15 minutes; a longer wait is
several such hops, each a turn of the function that finds it not yet due), not the same message
hidden longer with ChangeMessageVisibility: a message's visibility cannot reach past 12 hours of
its life (moto refuses it from the message's sending, and AWS's own limit is stated loosely), and
the window is 24 hours; the copy carries its own attempt count, first queued time and due time,
so nothing depends on SQS's receive counts either. A dead receiver costs about a hundred hops
over the whole window, a few hundredths of a cent; the queue's redrive to the dead-letter queue
is a backstop for a function that keeps crashing on one message.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import threading
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from game_core.aws.store.items import key, match_pk
from game_core.aws.store.table import Table
from game_core.service.webhooks.queue import Delivery, Hook
from game_core.service.webhooks.retries import TIMEOUT_SECONDS
from game_core.service.webhooks.sending import Post
from game_core.service.webhooks.urls import Destination

BATCH = 10
"""Messages per SendMessageBatch at most."""
BATCH_BYTES = 250_000
"""What one SendMessageBatch carries at most (SQS: 256 KiB for all its messages together)."""
READ_BYTES = 64 * 1024
"""What is read of a receiver's answer (only its status counts)."""


def _hook_key(match_id: str, target: str) -> dict[str, Any]:
    return key(match_pk(match_id), f"HOOK#{target}")


class AwsHooks:
    """The `service.webhooks.queue.Hooks` port: the table for subscriptions, SQS for the queue."""

    def __init__(
        self, dynamodb: Any, table: str, sqs: Any, queue_url: str, dead_letter_url: str, allow_loopback: bool = False
    ) -> None:
        self.table = Table(dynamodb, table)
        self.sqs = sqs
        self.queue_url = queue_url
        self.dead_letter_url = dead_letter_url
        self.allow_loopback = allow_loopback

    def put_hook(self, match_id: str, target: str, hook: Hook) -> None:
        self.table.put(
            {"pk": match_pk(match_id), "sk": f"HOOK#{target}", "url": hook.url, "secret": hook.secret},
        )

    def hook(self, match_id: str, target: str) -> Hook | None:
        item = self.table.get(_hook_key(match_id, target)) or {}
        return Hook(str(item["url"]), str(item["secret"])) if "url" in item else None

    def drop_hook(self, match_id: str, target: str) -> None:
        # Overwritten without URL or secret rather than deleted: no function may delete items
        self.table.put({"pk": match_pk(match_id), "sk": f"HOOK#{target}"})

    def enqueue(self, deliveries: Sequence[Delivery], delay: int = 0) -> None:
        for batch in _batches([one.to_json() for one in deliveries]):
            entries = [
                {"Id": str(number), "MessageBody": body, "DelaySeconds": delay} for number, body in enumerate(batch)
            ]
            failed = self.sqs.send_message_batch(QueueUrl=self.queue_url, Entries=entries).get("Failed") or []
            if failed:
                codes = sorted({entry.get("Code", "?") for entry in failed})
                raise RuntimeError(f"{len(failed)} webhook deliveries not queued ({', '.join(codes)})")

    def dead_letter(self, body: str) -> None:
        """The delivery function's: a delivery whose window is spent, kept for the host."""
        self.sqs.send_message(QueueUrl=self.dead_letter_url, MessageBody=body)

    def resolve(self, host: str) -> list[str]:
        return list(dict.fromkeys(str(info[4][0]) for info in socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)))


def _batches(bodies: list[str]) -> list[list[str]]:
    """The bodies in order, in batches of at most `BATCH` messages and `BATCH_BYTES` bytes."""
    batches: list[list[str]] = []
    size = 0
    for body in bodies:
        length = len(body.encode())
        if not batches or len(batches[-1]) == BATCH or size + length > BATCH_BYTES:
            batches.append([])
            size = 0
        batches[-1].append(body)
        size += length
    return batches


class _Pinned(http.client.HTTPSConnection):
    """HTTPS to the address checked, with the URL's host name for SNI and the certificate."""

    def __init__(self, where: Destination) -> None:
        super().__init__(where.host, where.port, timeout=TIMEOUT_SECONDS, context=ssl.create_default_context())
        self.address = where.address

    def connect(self) -> None:
        raw = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]


class _PinnedPlain(http.client.HTTPConnection):
    """Plain HTTP to the address checked: only ever 127.0.0.1, behind the laptop's flag."""

    def __init__(self, where: Destination) -> None:
        super().__init__(where.host, where.port, timeout=TIMEOUT_SECONDS)
        self.address = where.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


def post(where: Destination, one: Post) -> tuple[int | None, str | None]:
    """POST `one` to the destination; redirects are not followed. (None, None) when nothing
    answered in time or the connection failed. `TIMEOUT_SECONDS` bounds the whole POST, not
    only each wait of it: a receiver trickling its answer a byte at a time is cut off then."""
    parts = urlsplit(where.url)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    connection = _Pinned(where) if where.tls else _PinnedPlain(where)
    cut = threading.Event()
    cutoff = threading.Timer(TIMEOUT_SECONDS, _cut_off, (connection, cut))
    cutoff.start()
    try:
        connection.request("POST", path, body=one.body, headers=one.headers | {"User-Agent": "genius-match-service"})
        response = connection.getresponse()
        response.read(READ_BYTES)
        answer = response.status, response.getheader("Retry-After")
    except (OSError, http.client.HTTPException):
        return None, None
    finally:
        cutoff.cancel()
        connection.close()
    return (None, None) if cut.is_set() else answer  # what was read of a cut answer is not one


def _cut_off(connection: http.client.HTTPConnection, cut: threading.Event) -> None:
    """End a POST that ran out of time: its socket shut, so the wait on it ends at once."""
    cut.set()
    sock = connection.sock  # once: the POST's own thread may be closing it meanwhile
    if sock is not None:  # the plain socket's shutdown (TLS's own would unset what its read uses)
        with contextlib.suppress(OSError):
            socket.socket.shutdown(sock, socket.SHUT_RDWR)
