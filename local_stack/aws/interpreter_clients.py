"""One boto3 client per service for moto's Step Functions interpreter, instead of one per task.

moto 5.2.1's interpreter builds a new boto3 client for every Lambda task it runs
(`boto_client_for`, imported into `lambda_eval_utils`): building one (its endpoint, an SSL
context) was about 40% of the time a state machine loop took on the local stack. While installed,
its Lambda tasks share one client per region and service, built as moto builds it (boto3 clients
are thread-safe). `SEAM_DIGEST` pins moto's function; tests/integration/test_interpreter_clients.py
fails loudly the day it changes.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from functools import cache
from typing import Any

import moto.stepfunctions.parser.asl.component.state.exec.state_task.lambda_eval_utils as lambda_eval_utils

SEAM_DIGEST = "1f44dc2ac8aa2179"
"""The first 16 hex digits of the SHA-256 of `boto_client_for`'s source in moto 5.2.1: it takes
no per-task setting but the region and the service (its credentials are fixed), so one client
serves every task of a region."""
ORIGINAL = lambda_eval_utils.boto_client_for


def seam_digest() -> str:
    return hashlib.sha256(inspect.getsource(ORIGINAL).encode()).hexdigest()[:16]


@cache
def _shared(region: str, service: str) -> Any:
    return ORIGINAL(region, service)


def shared_client(region: str, service: str, state_credentials: Any = None) -> Any:
    """moto's `boto_client_for`, made once per region and service (moto ignores the credentials too)."""
    return _shared(region, service)


def install() -> Callable[[], None]:
    """Share the interpreter's Lambda clients; returns the function that restores moto."""
    lambda_eval_utils.boto_client_for = shared_client  # type: ignore[assignment]

    def restore() -> None:
        lambda_eval_utils.boto_client_for = ORIGINAL

    return restore
