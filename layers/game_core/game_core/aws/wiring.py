"""Build the ports from the Lambda environment, once per container.

Cold start (issue 8): the ports hold one boto3 session, made with the first client, and each
adapter's client is made from it on its first use, so a container pays for the services its
requests call and no more (a webhook submission needs SNS and Step Functions only when it closes
a phase early). No client is made at import, not even the DynamoDB one every request uses: a cold
start pays for it once either way (in Lambda's init or in the first request), and making it on
first use keeps a handler's import within the goal of 1.3x `import boto3; boto3.client(...)` and
free of AWS configuration. benchmarks/cold_start.py prints both: the import, and the import plus
that client.
`ports_from_environment.cache_clear()` drops the ports with their session and clients.
"""

from __future__ import annotations

import os
import secrets
import threading
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from functools import cache
from typing import Any

import boto3

from game_core.aws.ses_mailer import SesMailer
from game_core.aws.sfn_workflow import StepFunctionsWorkflow
from game_core.aws.sns_notifier import SnsNotifier
from game_core.aws.store import DynamoMatchStore
from game_core.aws.webhooks import AwsHooks
from game_core.service.ports import Clock, OutgoingMail, Ports


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC).replace(microsecond=0)


_local_clock: Clock | None = None
_local_outbox: Callable[[OutgoingMail], None] | None = None


def use_clock(clock: Clock | None) -> None:
    """The local stack's hook (local_stack/stack.py): the ports built from now on read `clock`
    instead of the wall clock, so the handlers' `now` moves with the local state machines' waits;
    None restores the wall clock. Nothing calls it on AWS."""
    global _local_clock
    _local_clock = clock
    ports_from_environment.cache_clear()


def use_outbox(keep: Callable[[OutgoingMail], None] | None) -> None:
    """The local stack's hook: every message the ports built from now on send is also given to
    `keep` (the local outbox folder). Nothing calls it on AWS."""
    global _local_outbox
    _local_outbox = keep
    ports_from_environment.cache_clear()


class RandomIds:
    def match_id(self) -> str:
        return f"m-{uuid.uuid4().hex[:12]}"

    def secret(self) -> str:
        return secrets.token_urlsafe(24)

    def seed(self) -> int:
        return secrets.randbits(63)


class Clients:
    """One boto3 session, made with the first client, and one client per service made from it on
    first use. Thread-safe (a session is not, and the local stack runs handlers on threads)."""

    def __init__(self) -> None:
        self._session: boto3.session.Session | None = None
        self._made: dict[str, Any] = {}
        self._lock = threading.Lock()

    def __call__(self, service: str) -> Any:
        made = self._made.get(service)
        if made is None:
            with self._lock:
                made = self._made.get(service)
                if made is None:
                    if self._session is None:
                        self._session = boto3.session.Session()
                    made = self._made[service] = self._session.client(service)
        return made

    @property
    def made(self) -> tuple[str, ...]:
        """The services whose client exists, in the order they were made."""
        return tuple(self._made)


class LazyClient:
    """Stands for `clients(service)` in an adapter (`self.client.put_item(...)`): the client is
    made on the first attribute looked up, then every look-up goes to it."""

    def __init__(self, clients: Clients, service: str) -> None:
        self._lazy_clients = clients
        self._lazy_service = service

    def __getattr__(self, name: str) -> Any:
        if name.startswith(("_lazy_", "__")):  # a copy being made, a protocol probed: not the client's
            raise AttributeError(name)
        return getattr(self._lazy_clients(self._lazy_service), name)

    def __repr__(self) -> str:
        return f"LazyClient({self._lazy_service!r})"


_clients = Clients()
"""The clients of the ports last built; `ports_from_environment` makes new ones with new ports."""


@cache
def ports_from_environment() -> Ports:
    global _clients
    _clients = shared = Clients()
    return Ports(
        store=DynamoMatchStore(LazyClient(shared, "dynamodb"), os.environ["TABLE_NAME"]),
        notifier=SnsNotifier(
            LazyClient(shared, "sns"),
            os.environ["PUBLIC_TOPIC_ARN"],
            os.environ["PRIVATE_TOPIC_ARN"],
            os.environ.get("HOST_TOPIC_ARN", ""),
        ),
        workflow=StepFunctionsWorkflow(
            LazyClient(shared, "stepfunctions"), os.environ.get("STATE_MACHINE_ARN_PREFIX", "")
        ),
        clock=SystemClock() if _local_clock is None else _local_clock,
        ids=RandomIds(),
        mailer=SesMailer(
            LazyClient(shared, "sesv2"),
            os.environ.get("MAIL_DOMAIN", ""),
            frozenset(check for check in os.environ.get("MAIL_REQUIRED_CHECKS", "spf,dkim,dmarc").split(",") if check),
            _local_outbox,
        ),
        hooks=_hooks(shared, os.environ),
    )


def _hooks(clients: Clients, environ: Mapping[str, str]) -> AwsHooks | None:
    """Webhook subscriptions and their queue, where the stack has one (WEBHOOK_QUEUE_URL, and its
    dead-letter queue WEBHOOK_DLQ_URL); `http://127.0.0.1` URLs only where WEBHOOKS_ALLOW_LOOPBACK
    is 1 (the laptop's flag, for tests)."""
    queue = environ.get("WEBHOOK_QUEUE_URL", "")
    if not queue:
        return None
    loopback = environ.get("WEBHOOKS_ALLOW_LOOPBACK") == "1"
    dead = environ.get("WEBHOOK_DLQ_URL", "")
    return AwsHooks(
        LazyClient(clients, "dynamodb"), environ["TABLE_NAME"], LazyClient(clients, "sqs"), queue, dead, loopback
    )
