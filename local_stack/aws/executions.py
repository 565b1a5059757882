"""The stack's executions as moto holds them, read in-process: `LocalStack.settle` asks which run
many times a wake-up, and an API call each time (serialized, under the adapter's lock) cost more
than the machine's own steps."""

from __future__ import annotations

from collections.abc import Iterable

from moto.core import DEFAULT_ACCOUNT_ID
from moto.stepfunctions.responses import get_backend

from local_stack.aws.lambda_adapter import MOTO_LOCK


def running(region: str, state_machines: Iterable[str]) -> list[str]:
    """The ARNs of every running execution of these state machines (as ListExecutions with the
    RUNNING filter answers)."""
    backend = get_backend(DEFAULT_ACCOUNT_ID, region)
    with MOTO_LOCK:
        return [
            execution.execution_arn
            for arn in state_machines
            for execution in backend.describe_state_machine(arn).executions
            if execution.status == "RUNNING"
        ]
