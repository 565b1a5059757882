"""A controllable clock for the local stack: the state machine's waits and the handlers' `now`
move together, and only when a test (or bin/play) moves them.

moto's Step Functions interpreter waits in real time. In moto 5.2.1:

- a Task's TimeoutSeconds(Path) is `terminated_event.wait(timeout_seconds)` in
  `ExecutionState._evaluate_with_timeout`, while the task runs in a worker thread; for
  `waitForTaskToken` that worker waits again, `CallbackEndpoint.wait(timeout)`, in
  `StateTaskServiceCallback._wait_for_task_token_timeout`;
- a Retry interval is `time.sleep(interval_seconds)` in `RetrierDecl._eval_body`;
- a Wait state is `env.program_state_event.wait(seconds)` in `WaitFunction._wait_interval`, and
  `Timestamp(Path)` measures against `datetime.datetime.now()`.

`patch_moto(clock)` routes every one of them through a `VirtualClock` and returns the function that
restores moto. A wait then registers its wake-up instant on the clock and parks; `advance()` moves
the clock and wakes the waiters whose instant has come; a waiter whose event is set (a task token
completed: a host act, an early close; moto's events are the clock's: clock_events.py) returns at
once. Retry intervals are skipped (`clock.skipped_retries`). Handlers read it as their Clock port.

`idle(running)` says whether every running execution is parked: its current wait is registered
and, for a Task, the task's worker is parked too (a waitForTaskToken waiting for its token), not
still running a Lambda. `LocalStack.settle()` waits for that (woken by each change: `await_change`).
The replaced moto code is pinned (`MOTO_SEAMS`: tests/integration/test_lambda_adapter.py).
"""

from __future__ import annotations

import copy
import hashlib
import inspect
import math
import threading
import types
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from importlib.metadata import version
from threading import Thread
from typing import Any

import moto.stepfunctions.parser.asl.component.common.retry.retrier_decl as retrier_decl
import moto.stepfunctions.parser.asl.component.state.exec.execute_state as execute_state
import moto.stepfunctions.parser.asl.component.state.exec.state_map.iteration.inline_iteration_component as inline_map
import moto.stepfunctions.parser.asl.component.state.exec.state_map.iteration.job as map_jobs
import moto.stepfunctions.parser.asl.component.state.exec.state_task.service.state_task_service_callback as callback
import moto.stepfunctions.parser.asl.component.state.wait.wait_function.timestamp as timestamp
import moto.stepfunctions.parser.asl.component.state.wait.wait_function.wait_function as wait_function
import moto.stepfunctions.parser.asl.eval.callback.callback as callback_endpoints

from local_stack.aws import clock_events, clock_map
from local_stack.aws.clock_events import ClockEvent

PINNED_MOTO = "5.2.1"
POLL_SECONDS = 0.01
"""How often a wait on an event not the clock's (not made while patched) looks at it, in real time."""


_MODULES = {
    "execute_state": execute_state,
    "callback": callback,
    "wait_function": wait_function,
    "timestamp": timestamp,
    "retrier_decl": retrier_decl,
    "callback_endpoints": callback_endpoints,
    "inline_map": inline_map,
    "map_jobs": map_jobs,
}
MOTO_SEAMS = {
    "execute_state:ExecutionState._evaluate_with_timeout": "c56deda08a42e98d",
    "callback:StateTaskServiceCallback._wait_for_task_token_timeout": "1275d4ddbb83d001",
    "callback_endpoints:CallbackEndpoint.wait": "85d0fa6224f12b37",
    "wait_function:WaitFunction._wait_interval": "8f954dee80372b4b",
    "timestamp:Timestamp._get_wait_seconds": "611d040940ad5f39",
    "retrier_decl:RetrierDecl._eval_body": "48463fff19cefa98",
    "inline_map:InlineIterationComponent._launch_worker": "49be28469a82f9aa",
    "map_jobs:JobPool.await_jobs": "e41a0edddb85743c",
}
"""Each moto function the clock replaces, copies or relies on -> the first 16 hex digits of the
SHA-256 of its source in moto 5.2.1: the three waits replaced; CallbackEndpoint.wait, whose event
the token wait now waits on; the Timestamp wait and the Retry, whose module's `datetime` and `time`
are re-pointed; a Map's (local_stack/aws/clock_map.py) launch of its iterations and its wait for them.
"""


def _resolve(qualified: str) -> Any:
    module, _, name = qualified.partition(":")
    owner, _, attribute = name.partition(".")
    return getattr(getattr(_MODULES[module], owner), attribute)


_ORIGINALS = {qualified: _resolve(qualified) for qualified in MOTO_SEAMS}
"""moto's functions as imported (before any patch)."""


@cache  # moto's source cannot change in a running process
def seam_digest(qualified: str) -> str:
    """The digest of moto's original function, as MOTO_SEAMS records it."""
    return hashlib.sha256(inspect.getsource(_ORIGINALS[qualified]).encode()).hexdigest()[:16]


@dataclass(eq=False)
class Waiter:
    wake: float
    event: threading.Event
    thread: threading.Thread
    execution: str | None
    """The execution whose current step this wait is (None: a task worker's inner wait)."""
    worker: threading.Thread | None
    """A Task's worker thread: the execution is parked only once that is parked too."""
    stopped: Callable[[], bool] | None

    def parked(self, now: float) -> bool:
        return now < self.wake and not self.event.is_set() and not (self.stopped is not None and self.stopped())


class VirtualClock:
    """Time that passes only when `advance_to` moves it; also the handlers' Clock port (`now`)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._time = float(math.floor((start or datetime.now(UTC)).timestamp()))
        self._condition = threading.Condition()
        self._waiters: list[Waiter] = []
        self._closed = False
        self._changes = 0
        self._maps: dict[int, tuple[Any, str | None]] = {}
        """Each Map's pool of iterations (local_stack/aws/clock_map.py) -> its execution: it is parked
        only once each unfinished iteration is parked too (one parked says nothing of the others)."""
        self.skipped_retries: list[float] = []
        """Every Retry interval the state machines asked for (skipped: a retry happens at once)."""

    # -- reading it ------------------------------------------------------------------------------

    def time(self) -> float:
        """Epoch seconds."""
        with self._condition:
            return self._time

    def now(self) -> datetime:
        """The Clock port: whole seconds, UTC, as SystemClock reads the wall clock."""
        return datetime.fromtimestamp(math.floor(self.time()), UTC)

    # -- waiting on it -------------------------------------------------------------------------------

    def event(self) -> ClockEvent:
        return ClockEvent(self)

    def poke(self) -> None:
        """What `busy` reads changed: every wait and `await_change` looks again (re-entrant)."""
        with self._condition:
            self._changes += 1
            self._condition.notify_all()

    def await_change(self, seen: int | None, timeout: float) -> int:
        """The count of changes so far, once it differs from `seen` (at most `timeout` real seconds)."""
        with self._condition:
            self._condition.wait_for(lambda: self._changes != seen, timeout)
            return self._changes

    def wait(
        self,
        event: threading.Event,
        seconds: float | None,
        *,
        execution: str | None = None,
        worker: threading.Thread | None = None,
        stopped: Callable[[], bool] | None = None,
    ) -> bool:
        """`event.wait(seconds)` on this clock: True once the event is set, False once `seconds`
        of this clock's time have passed (or `stopped()` says the wait no longer matters). Real
        time does not count. Once the clock is closed (its stack is gone), a wait never returns."""
        with self._condition:
            wake = math.inf if seconds is None else self._time + max(0.0, float(seconds))
            waiter = Waiter(wake, event, threading.current_thread(), execution, worker, stopped)
            self._waiters.append(waiter)
            self.poke()
            try:
                while True:
                    if self._closed:
                        self._condition.wait()
                        continue
                    if event.is_set():
                        return True
                    if self._time >= wake or (stopped is not None and stopped()):
                        return False
                    polled = not isinstance(event, ClockEvent)  # `stopped` changes as a ClockEvent is set
                    self._condition.wait(POLL_SECONDS if polled else None)
            finally:
                self._waiters.remove(waiter)
                self.poke()

    def skip_retry_interval(self, seconds: float) -> None:
        """A Retry's backoff: skipped (recorded), so a retry takes no time at all."""
        with self._condition:
            self.skipped_retries.append(seconds)

    # -- moving it -------------------------------------------------------------------------------------

    def advance_to(self, moment: float) -> None:
        """Move the clock forward to `moment` (epoch seconds) and wake every wait that is due.
        Use LocalStack.advance, which lets the machine settle first and between wake-ups."""
        with self._condition:
            if moment > self._time:
                self._time = moment
            self.poke()

    def next_wake(self) -> float | None:
        """The earliest instant a parked wait wakes up by itself, if any."""
        with self._condition:
            wakes = [w.wake for w in self._waiters if w.parked(self._time) and w.wake != math.inf]
            return min(wakes, default=None)

    def busy(self, running: Collection[str]) -> list[str]:
        """The running executions (ARNs) that are not parked in a wait of this clock."""
        with self._condition:
            parked = [w for w in self._waiters if w.parked(self._time)]
            threads = {w.thread for w in parked}
            return [
                arn
                for arn in running
                if sum(w.execution == arn and (w.worker is None or w.worker in threads) for w in parked)
                < self._lines(arn)
            ]

    def track_map(self, pool: Any, execution: str | None) -> None:
        """A Map's pool of iterations (moto's JobPool) running in `execution`."""
        with self._condition:
            self._maps[id(pool)] = (pool, execution)
            self.poke()

    def _lines(self, arn: str) -> int:
        """How many lines of the execution run at once: its own, and each unfinished iteration of
        its Maps (each parks in its own wait)."""
        self._maps = {key: (pool, e) for key, (pool, e) in self._maps.items() if not pool._is_terminated()}
        return 1 + sum(pool._jobs_number - len(pool._closed_jobs) for pool, e in self._maps.values() if e == arn)

    def idle(self, running: Collection[str]) -> bool:
        return not self.busy(running)

    def close(self) -> None:
        """The stack is gone: park every wait for good (it must not run against a stopped mock)."""
        with self._condition:
            self._closed = True
            self.poke()


# -- the moto seams ---------------------------------------------------------------------------------


def _execution_arn(env: Any) -> str | None:
    try:
        return str(env.states.context_object.context_object_data["Execution"]["Id"])
    except (AttributeError, KeyError, TypeError):
        return None


def _require_pinned_moto() -> None:
    installed = version("moto")
    if installed != PINNED_MOTO:
        raise RuntimeError(
            f"local_stack.aws.clock replaces moto {PINNED_MOTO}'s Step Functions waits; moto {installed} is "
            "installed. Re-check the seams (MOTO_SEAMS)."
        )


def _evaluate_with_timeout_on(clock: VirtualClock) -> Any:
    """A Task's timeout (moto 5.2.1's `ExecutionState._evaluate_with_timeout`) waited on `clock`."""

    def evaluate_with_timeout(self: Any, env: Any) -> None:
        # moto 5.2.1's ExecutionState._evaluate_with_timeout, waiting on the clock.
        self.timeout.eval(env=env)
        timeout_seconds: int = env.stack.pop()

        frame = env.open_frame()
        frame.states.reset(input_value=env.states.get_input())
        frame.stack = copy.deepcopy(env.stack)
        execution_outputs: list[Any] = []
        execution_exceptions: list[Exception | None] = [None]
        terminated_event = clock.event()

        def _exec_and_notify() -> None:
            try:
                self._eval_execution(frame)
                execution_outputs.extend(frame.stack)
            except Exception as ex:  # noqa: BLE001 - as moto does: handed to the state's error handling
                execution_exceptions.append(ex)
            terminated_event.set()

        thread = Thread(target=_exec_and_notify, daemon=True)
        execute_state.TMP_THREADS.append(thread)
        thread.start()

        finished_on_time = clock.wait(terminated_event, timeout_seconds, execution=_execution_arn(env), worker=thread)
        frame.set_ended()
        env.close_frame(frame)

        execution_exception = execution_exceptions.pop()
        if execution_exception:
            raise execution_exception

        if not finished_on_time:
            raise execute_state.EvalTimeoutError()

        execution_output = execution_outputs.pop()
        env.stack.append(execution_output)

        if not self._is_language_query_jsonpath():
            env.states.set_result(execution_output)

        if self.assign_decl:
            self.assign_decl.eval(env=env)

        if self.result_selector:
            self.result_selector.eval(env=env)

        if self.result_path:
            self.result_path.eval(env)
        else:
            res = env.stack.pop()
            env.states.reset(input_value=res)

    return evaluate_with_timeout


def _task_token_wait_on(clock: VirtualClock) -> Any:
    """A task token's wait (`_wait_for_task_token_timeout`) on `clock`."""

    def wait_for_task_token_timeout(self: Any, timeout_seconds: int, callback_endpoint: Any) -> Any:
        # CallbackEndpoint.wait(timeout): its event's wait, then the outcome (None: timed out).
        clock.wait(callback_endpoint._notify_event, timeout_seconds)
        return callback_endpoint.get_outcome()

    return wait_for_task_token_timeout


def _wait_interval_on(clock: VirtualClock) -> Any:
    """A Wait state's wait (`WaitFunction._wait_interval`) on `clock`."""

    def wait_interval(self: Any, env: Any, wait_seconds: int) -> None:
        # A Wait state: until its seconds have passed on the clock, or the execution ends.
        end = clock.time() + wait_seconds
        arn = _execution_arn(env)
        while env.is_running() and clock.time() < end:
            clock.wait(
                env.program_state_event,
                end - clock.time(),
                execution=arn,
                stopped=lambda: not env.is_running(),
            )

    return wait_interval


def _clock_datetime(clock: VirtualClock) -> type[datetime]:
    """`datetime.datetime` as moto reads it, its `now()` the clock's."""

    class ClockDatetime(datetime):
        """`datetime.datetime` whose `now()` is the clock's (naive local time, as moto reads it)."""

        @classmethod
        def now(cls, tz: Any = None) -> ClockDatetime:
            moment = datetime.fromtimestamp(clock.time(), tz)
            return cls(*moment.timetuple()[:6], moment.microsecond, moment.tzinfo)

    return ClockDatetime


def patch_moto(clock: VirtualClock) -> Callable[[], None]:
    """Route moto's Step Functions waits through `clock`; returns the function that restores moto."""
    _require_pinned_moto()
    execution_state = execute_state.ExecutionState
    service_callback = callback.StateTaskServiceCallback
    function = wait_function.WaitFunction
    saved = (
        execution_state._evaluate_with_timeout,
        service_callback._wait_for_task_token_timeout,
        function._wait_interval,
        timestamp.datetime,
        retrier_decl.time,
    )
    execution_state._evaluate_with_timeout = _evaluate_with_timeout_on(clock)  # type: ignore[method-assign]
    service_callback._wait_for_task_token_timeout = _task_token_wait_on(clock)  # type: ignore[method-assign]
    function._wait_interval = _wait_interval_on(clock)  # type: ignore[method-assign]
    timestamp.datetime = types.SimpleNamespace(datetime=_clock_datetime(clock))  # type: ignore[assignment]
    retrier_decl.time = types.SimpleNamespace(sleep=clock.skip_retry_interval)  # type: ignore[assignment]
    restore_map = clock_map.patch(clock, _execution_arn)
    restore_events = clock_events.patch(clock)

    def restore() -> None:
        restore_events()
        restore_map()
        (
            execution_state._evaluate_with_timeout,  # type: ignore[method-assign]
            service_callback._wait_for_task_token_timeout,  # type: ignore[method-assign]
            function._wait_interval,  # type: ignore[method-assign]
            timestamp.datetime,
            retrier_decl.time,
        ) = saved

    return restore
