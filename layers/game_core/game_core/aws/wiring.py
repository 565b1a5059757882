"""Build the ports from the Lambda environment, once per container."""

from __future__ import annotations

import os
import secrets
import uuid
from datetime import UTC, datetime
from functools import cache

import boto3

from game_core.aws.dynamodb_store import DynamoMatchStore
from game_core.aws.sfn_workflow import StepFunctionsWorkflow
from game_core.aws.sns_notifier import SnsNotifier
from game_core.service.ports import Clock, Ports


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC).replace(microsecond=0)


_local_clock: Clock | None = None


def use_clock(clock: Clock | None) -> None:
    """The local stack's hook (local_stack/stack.py): the ports built from now on read `clock`
    instead of the wall clock, so the handlers' `now` moves with the local state machines' waits;
    None restores the wall clock. Nothing calls it on AWS."""
    global _local_clock
    _local_clock = clock
    ports_from_environment.cache_clear()


class RandomIds:
    def match_id(self) -> str:
        return f"m-{uuid.uuid4().hex[:12]}"

    def secret(self) -> str:
        return secrets.token_urlsafe(24)

    def seed(self) -> int:
        return secrets.randbits(63)


@cache
def ports_from_environment() -> Ports:
    return Ports(
        store=DynamoMatchStore(boto3.client("dynamodb"), os.environ["TABLE_NAME"]),
        notifier=SnsNotifier(
            boto3.client("sns"),
            os.environ["PUBLIC_TOPIC_ARN"],
            os.environ["PRIVATE_TOPIC_ARN"],
            os.environ.get("HOST_TOPIC_ARN", ""),
        ),
        workflow=StepFunctionsWorkflow(boto3.client("stepfunctions"), os.environ.get("STATE_MACHINE_ARN_PREFIX", "")),
        clock=SystemClock() if _local_clock is None else _local_clock,
        ids=RandomIds(),
    )
