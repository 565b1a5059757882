"""Run moto's Lambda invocations in this process, with the real handlers.

moto runs Lambda code only in Docker (getmoto/moto#9916), which this machine does not have. moto
5.2.x calls `LambdaFunction._invoke_lambda(self, event)` for every invocation, Step Functions tasks
included, and expects `(payload, errored, logs)` back; this module replaces exactly that method.
`install()` refuses any other moto version, and tests/integration/test_lambda_adapter.py fails
loudly if the seam moves.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import moto.awslambda.models as lambda_models

PINNED_MOTO = "5.2.1"
Handler = Callable[[dict[str, Any], Any], Any]


@dataclass
class FakeContext:
    function_name: str
    memory_limit_in_mb: int = 256
    function_version: str = "$LATEST"

    def __post_init__(self) -> None:
        self.aws_request_id = str(uuid.uuid4())
        self.invoked_function_arn = f"arn:aws:lambda:us-east-1:123456789012:function:{self.function_name}"
        self.log_group_name = f"/aws/lambda/{self.function_name}"
        self.log_stream_name = "local"

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


def load_handler(code_dir: Path, handler: str) -> Handler:
    """Import `module.function` from a function's code folder under a name of its own."""
    module_name, _, function = handler.rpartition(".")
    unique = f"lambda_{code_dir.name}_{module_name}"
    spec = importlib.util.spec_from_file_location(unique, code_dir / f"{module_name}.py")
    assert spec and spec.loader, f"cannot load {code_dir / module_name}.py"
    module = importlib.util.module_from_spec(spec)
    sys.modules[unique] = module
    spec.loader.exec_module(module)
    loaded: Handler = getattr(module, function)
    return loaded


class InProcessLambdas:
    """Function name -> handler, consulted by the patched moto method."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {}
        self.invocations: list[str] = []

    def register(self, name: str, handler: Handler) -> None:
        self.handlers[name] = handler

    def invoke(self, name: str, event: Any) -> tuple[str, bool, str]:
        handler = self.handlers.get(name)
        if handler is None:
            error = {"errorType": "ResourceNotFound", "errorMessage": f"no local handler for {name}"}
            return json.dumps(error), True, ""
        self.invocations.append(name)
        if isinstance(event, str | bytes):
            event = json.loads(event or "{}")
        try:
            result = handler(event, FakeContext(name))
        except Exception as error:  # a Lambda function error, as AWS reports it
            payload = {
                "errorType": type(error).__name__,
                "errorMessage": str(error),
                "stackTrace": traceback.format_exception(error),
            }
            return json.dumps(payload), True, ""
        return json.dumps(result), False, ""


def install(lambdas: InProcessLambdas) -> Callable[[], None]:
    """Patch moto; returns the function that restores it."""
    installed = version("moto")
    if installed != PINNED_MOTO:
        raise RuntimeError(
            f"local_stack.lambda_adapter is written against moto {PINNED_MOTO}'s "
            f"LambdaFunction._invoke_lambda; moto {installed} is installed. Re-check the seam."
        )
    original = lambda_models.LambdaFunction._invoke_lambda

    def invoke_in_process(self: Any, event: Any = None) -> tuple[str, bool, str]:
        return lambdas.invoke(self.function_name, event)

    lambda_models.LambdaFunction._invoke_lambda = invoke_in_process  # type: ignore[method-assign]

    def restore() -> None:
        lambda_models.LambdaFunction._invoke_lambda = original  # type: ignore[method-assign]

    return restore
