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

Nothing here is the local stack's to set: it builds its own ports (`build_ports`, with its
virtual clock and outbox) and hands them to the handlers it loads (each function's `handler_for`).
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

from game_core.aws.inbound_queue import InboundMailQueue
from game_core.aws.ses_mailer import SesMailer
from game_core.aws.sfn_workflow import StepFunctionsWorkflow
from game_core.aws.sns_notifier import SnsNotifier
from game_core.aws.store import DynamoMatchStore
from game_core.aws.store.season_links import DynamoSeasonLinks
from game_core.aws.store.seasons import DynamoSeasonStore
from game_core.aws.webhooks import AwsHooks
from game_core.match.receipts import SALT_BYTES
from game_core.service.ports import Clock, OutgoingMail, Ports


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC).replace(microsecond=0)


class RandomIds:
    def match_id(self) -> str:
        return f"m-{uuid.uuid4().hex[:12]}"

    def secret(self) -> str:
        return secrets.token_urlsafe(24)

    def seed(self) -> int:
        return secrets.randbits(63)

    def salt(self) -> str:
        return secrets.token_hex(SALT_BYTES)


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


def build_ports(
    environ: Mapping[str, str], clock: Clock | None = None, keep_mail: Callable[[OutgoingMail], None] | None = None
) -> Ports:
    """The ports of the deployment `environ` names (a Lambda function's environment), each client
    made on first use, all from one new session. A function on AWS passes its environment alone:
    the wall clock, and mail that SES alone keeps. The local stack passes its virtual clock, and
    its outbox folder to keep a copy of every message sent."""
    clients = Clients()
    return Ports(
        store=DynamoMatchStore(LazyClient(clients, "dynamodb"), environ["TABLE_NAME"]),
        notifier=SnsNotifier(
            LazyClient(clients, "sns"),
            environ["PUBLIC_TOPIC_ARN"],
            environ["PRIVATE_TOPIC_ARN"],
            environ.get("HOST_TOPIC_ARN", ""),
        ),
        workflow=StepFunctionsWorkflow(
            LazyClient(clients, "stepfunctions"), environ.get("STATE_MACHINE_ARN_PREFIX", "")
        ),
        clock=clock or SystemClock(),
        ids=RandomIds(),
        mailer=SesMailer(
            LazyClient(clients, "sesv2"),
            environ.get("MAIL_DOMAIN", ""),
            frozenset(check for check in environ.get("MAIL_REQUIRED_CHECKS", "spf,dkim,dmarc").split(",") if check),
            keep_mail,
        ),
        hooks=_hooks(clients, environ),
        inbound=_inbound(clients, environ),
        seasons=DynamoSeasonStore(LazyClient(clients, "dynamodb"), environ["TABLE_NAME"]),
        season_links=DynamoSeasonLinks(LazyClient(clients, "dynamodb"), environ["TABLE_NAME"]),
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


def _inbound(clients: Clients, environ: Mapping[str, str]) -> InboundMailQueue | None:
    """The received mail's queue and its dead letters, where the function has them
    (MAIL_QUEUE_URL, MAIL_DLQ_URL: the mail function and the host's commands)."""
    queue = environ.get("MAIL_QUEUE_URL", "")
    return InboundMailQueue(LazyClient(clients, "sqs"), queue, environ.get("MAIL_DLQ_URL", "")) if queue else None


@cache
def ports_from_environment() -> Ports:
    """The Lambda container's ports, built once from its environment."""
    return build_ports(os.environ)
