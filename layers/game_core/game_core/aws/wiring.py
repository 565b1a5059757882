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
from game_core.service.ports import Ports


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


@cache
def ports_from_environment() -> Ports:
    return Ports(
        store=DynamoMatchStore(boto3.client("dynamodb"), os.environ["TABLE_NAME"]),
        notifier=SnsNotifier(boto3.client("sns"), os.environ["PUBLIC_TOPIC_ARN"], os.environ["PRIVATE_TOPIC_ARN"]),
        workflow=StepFunctionsWorkflow(boto3.client("stepfunctions"), os.environ.get("STATE_MACHINE_ARN_PREFIX", "")),
        clock=SystemClock(),
        ids=RandomIds(),
    )
