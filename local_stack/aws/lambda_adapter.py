"""Run moto's Lambda invocations in this process, with the real handlers.

moto runs Lambda code only in Docker (getmoto/moto#9916), which this machine does not have. moto
5.2.x calls `LambdaFunction._invoke_lambda(self, event)` for every invocation, Step Functions tasks
included, and expects `(payload, errored, logs)` back; this module replaces exactly that method.
`install()` refuses any other moto version, and tests/integration/test_lambda_adapter.py fails
loudly if the seam moves.

It also works around getmoto/moto#10077 (fixed upstream by #10093, not in 5.2.1): the Step
Functions interpreter deep-copies the state machine, live executions (threads, locks) included,
at every StartExecution, so a state machine's second execution failed with "cannot pickle
'_thread.RLock' object" (the second match of a game on one stack). While installed, a state
machine copies as its definition alone, as the upstream fix does.

A task token can be used once, as on AWS: moto 5.2.1 keeps a finished waitForTaskToken task's
callback in its pool and accepts SendTaskSuccess on it again, silently (the wake is lost). While
installed, a token whose task is over (completed, or timed out) gets TaskTimedOut, as AWS answers
("Provided task does not exist anymore"), so the service sees a stale token as stale.

And it serializes calls into moto: moto's backends are not thread-safe (DynamoDB's
TransactWriteItems deep-copies whole tables for its rollback, which fails with "dictionary changed
size during iteration", or rolls back another thread's writes, when a state machine thread writes
at the same time as a host command or a submission). One lock around moto's request handling
(local_stack/aws/moto_lock.py) makes each call atomic; an invocation gives it up while its handler
runs, so handlers run at once as on AWS, each of their calls atomic. Code that must see every
call (the host server's journal of the table) hooks `InProcessLambdas.after_aws_call`.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
import threading
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version
from pathlib import Path
from types import CodeType
from typing import Any

import moto.awslambda.models as lambda_models
import moto.stepfunctions.models as sfn_models
import moto.stepfunctions.parser.api as sfn_api
import moto.stepfunctions.parser.asl.eval.callback.callback as callbacks
from moto.core.botocore_stubber import BotocoreStubber

from game_core.service.ports import Ports
from local_stack.aws import interpreter_clients, moto_direct
from local_stack.aws.moto_dynamodb import item_backups, partition_queries, plain_attribute_values
from local_stack.aws.moto_expressions import parsed_once
from local_stack.aws.moto_lock import MOTO_LOCK

PINNED_MOTO = "5.2.1"
Handler = Callable[[dict[str, Any], Any], Any]
AfterCall = Callable[[str, Any, Any], Callable[[], None] | None]
"""Called under moto's lock after each AWS call with its event name ("before-send.dynamodb.PutItem"),
request and response; what it returns (if anything) is called once the call has given the lock up."""
__all__ = ["MOTO_LOCK", "InProcessLambdas", "install", "load_handler"]


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


def load_handler(code_dir: Path, handler: str, ports: Callable[[], Ports]) -> Handler:
    """Import `module.function` from a function's code folder under a name of its own, serving
    with `ports` (the module's `<function>_for` makes the function with the ports it is given;
    the module's own `function` uses the Lambda environment's)."""
    module_name, _, function = handler.rpartition(".")
    unique = f"lambda_{code_dir.name}_{module_name}"
    path = code_dir / f"{module_name}.py"
    spec = importlib.util.spec_from_file_location(unique, path)
    assert spec and spec.loader, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    sys.modules[unique] = module
    exec(_compiled(path, path.stat().st_mtime_ns), module.__dict__)  # noqa: S102 - as exec_module runs it
    loaded: Handler = getattr(module, f"{function}_for")(ports)
    return loaded


@cache
def _compiled(path: Path, _mtime_ns: int) -> CodeType:
    """A handler module's code, compiled once a process for each version of its file: every stack
    runs each module anew (a new container's globals), and compiling them (no bytecode cache is
    written under PYTHONDONTWRITEBYTECODE) was a seventh of what starting a stack cost."""
    return compile(path.read_bytes(), path, "exec")


STOP_SECONDS = 30.0
"""Real seconds a stop waits for the invocations under way (`InProcessLambdas.close`)."""


class InProcessLambdas:
    """Function name -> handler, consulted by the patched moto method."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {}
        self.invocations: list[str] = []
        self.after_each: list[Callable[[str], object]] = []
        """Called with the function's name once each invocation has returned or failed (the host
        server saves the webhook queue then)."""
        self.after_aws_call: list[AfterCall] = []
        self.closing = threading.Event()
        """Set once `close` began: no invocation is taken from then on."""
        self._running: list[str] = []
        self._ended = threading.Condition()

    def register(self, name: str, handler: Handler) -> None:
        self.handlers[name] = handler

    def close(self, timeout: float = STOP_SECONDS) -> list[str]:
        """Take no invocation from now on, and wait (at most `timeout` real seconds) for those under
        way to return: the functions still running then. On the wall clock (bin/host-server) a stop
        otherwise stopped moto under a step in the middle of telling a resolution, which the next
        start's machine then told again in full (the outbox and the webhook receivers got each
        notice it had sent twice)."""
        with self._ended:
            self.closing.set()
            self._ended.wait_for(lambda: not self._running, timeout)
            return list(self._running)

    def invoke(self, name: str, event: Any) -> tuple[str, bool, str]:
        handler = self.handlers.get(name)
        with self._ended:
            if handler is None or self.closing.is_set():
                why = "the stack is stopping: not run" if handler else f"no local handler for {name}"
                error = {"errorType": "ResourceNotFound" if handler is None else "Stopping", "errorMessage": why}
                return json.dumps(error), True, ""
            self._running.append(name)
        try:
            return self._run(name, handler, event)
        finally:
            with self._ended:
                self._running.remove(name)
                self._ended.notify_all()

    def _run(self, name: str, handler: Handler, event: Any) -> tuple[str, bool, str]:
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
        finally:
            for hook in self.after_each:
                hook(name)
        return json.dumps(result), False, ""


def _copy_without_executions(self: Any, memo: dict[int, Any]) -> Any:
    """A state machine's deep copy for a new execution: everything but its executions."""
    clone = object.__new__(type(self))
    memo[id(self)] = clone
    for name, value in self.__dict__.items():
        setattr(clone, name, [] if name == "executions" else copy.deepcopy(value, memo))
    return clone


def _notify_once(original: Callable[..., bool]) -> Callable[..., bool]:
    def notify(self: Any, callback_id: str, outcome: Any) -> bool:
        endpoint = self._pool.get(callback_id)
        if endpoint is not None and endpoint._notify_event.is_set():  # its task is over
            raise sfn_api.TaskTimedOut("Task Timed Out: 'Provided task does not exist anymore'", "TaskTimedOut")
        return original(self, callback_id, outcome)

    return notify


def install(lambdas: InProcessLambdas) -> Callable[[], None]:
    """Patch moto; returns the function that restores it."""
    installed = version("moto")
    if installed != PINNED_MOTO:
        raise RuntimeError(
            f"local_stack.aws.lambda_adapter is written against moto {PINNED_MOTO}'s "
            f"LambdaFunction._invoke_lambda; moto {installed} is installed. Re-check the seam."
        )
    original = lambda_models.LambdaFunction._invoke_lambda

    def invoke_in_process(self: Any, event: Any = None) -> tuple[str, bool, str]:
        with MOTO_LOCK.released():  # the handler's own calls take it, each for itself
            return lambdas.invoke(self.function_name, event)

    lambda_models.LambdaFunction._invoke_lambda = invoke_in_process  # type: ignore[method-assign]
    state_machine = sfn_models.StateMachine
    had_deepcopy = "__deepcopy__" in vars(state_machine)
    state_machine.__deepcopy__ = _copy_without_executions  # type: ignore[attr-defined]

    original_call = BotocoreStubber.__call__

    def serialized(event_name: str, request: Any, call: Callable[[], Any]) -> Any:
        with MOTO_LOCK:
            response = call()
            then = [hook(event_name, request, response) for hook in lambdas.after_aws_call]
        for step in then:
            if step is not None:
                step()
        return response

    def serialized_call(self: Any, event_name: str, request: Any, **kwargs: Any) -> Any:
        return serialized(event_name, request, lambda: original_call(self, event_name, request, **kwargs))

    BotocoreStubber.__call__ = serialized_call  # type: ignore[method-assign]

    original_notify = callbacks.CallbackPoolManager.notify
    callbacks.CallbackPoolManager.notify = _notify_once(original_notify)  # type: ignore[method-assign]
    restores = [
        item_backups(),  # safe under MOTO_LOCK (its docstring)
        partition_queries(),  # the same
        plain_attribute_values(),
        parsed_once(),  # safe under MOTO_LOCK: one parse at a time
        moto_direct.install(serialized),
        interpreter_clients.install(),
    ]

    def restore() -> None:
        for undo in reversed(restores):
            undo()
        lambda_models.LambdaFunction._invoke_lambda = original  # type: ignore[method-assign]
        BotocoreStubber.__call__ = original_call  # type: ignore[method-assign]
        callbacks.CallbackPoolManager.notify = original_notify  # type: ignore[method-assign]
        if not had_deepcopy:
            del state_machine.__deepcopy__  # type: ignore[attr-defined]

    return restore
