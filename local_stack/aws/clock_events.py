"""The events a parked execution waits on, made the virtual clock's (local_stack/aws/clock.py), so
that setting one wakes its wait and `LocalStack.settle` at once, instead of their looking again
every few milliseconds.

While patched (moto 5.2.1):

- a task token's event (`CallbackEndpoint._notify_event`, set by SendTaskSuccess or a timeout) is
  a `ClockEvent`: `Event` as moto's callback module reads it makes one;
- so is an execution's program-state event (`Environment.program_state_event`, pulsed as the
  execution ends, fails or is stopped: what a Wait state's wait watches), through `threading` as
  moto's environment module reads it;
- and a Map's (`JobPool._termination_event`, set once its iterations are all over), through
  `threading` as moto's job module reads it;
- an execution's end (`BaseExecutionWorkerCommunication.terminated`, once its status is written)
  and a Map iteration's (`JobPool.close_job`) poke the clock, so a settle sees them.

`SEAMS` pins each moto function that relies on (digests of their sources, as clock.MOTO_SEAMS).
"""

from __future__ import annotations

import hashlib
import inspect
import threading
from collections.abc import Callable
from functools import cache
from typing import Any

import moto.stepfunctions.parser.asl.component.state.exec.state_map.iteration.job as map_jobs
import moto.stepfunctions.parser.asl.eval.callback.callback as callback_endpoints
import moto.stepfunctions.parser.asl.eval.environment as environment
import moto.stepfunctions.parser.backend.execution as execution

SEAMS = {
    callback_endpoints.CallbackEndpoint.__init__: "7a550442a6a5e18d",
    environment.Environment.__init__: "aa71d1e8d70ecbb9",
    execution.BaseExecutionWorkerCommunication.terminated: "360372a6a57bf99b",
    map_jobs.JobPool.__init__: "b6d6e9c098110cac",
    map_jobs.JobPool.close_job: "e0e9101d84494756",
}
"""moto's functions whose events (or end) these patches make the clock's -> the first 16 hex
digits of the SHA-256 of their source in moto 5.2.1."""


@cache  # moto's source cannot change in a running process
def seam_digest(function: Callable[..., Any]) -> str:
    return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]


class ClockEvent(threading.Event):
    """An event whose `set` wakes the clock's waiters at once (no polling)."""

    def __init__(self, clock: Any) -> None:
        super().__init__()
        self._clock = clock

    def set(self) -> None:
        super().set()
        self._clock.poke()


class _Threading:
    """`threading` as a moto module reads it: its `Event` the clock's."""

    def __init__(self, event: Callable[[], threading.Event]) -> None:
        self.Event = event

    def __getattr__(self, name: str) -> Any:
        return getattr(threading, name)


def _then_poke(clock: Any, method: Callable[..., None]) -> Callable[..., None]:
    def then_poke(self: Any, *args: Any) -> None:
        method(self, *args)
        clock.poke()

    return then_poke


def patch(clock: Any) -> Callable[[], None]:
    """Make the events `clock`'s (a VirtualClock: its `event` and `poke`); returns the function
    that restores moto."""
    if any(seam_digest(function) != digest for function, digest in SEAMS.items()):
        raise RuntimeError("moto's Step Functions events changed: re-check local_stack/aws/clock_events.py's seams")
    communication, pool = execution.BaseExecutionWorkerCommunication, map_jobs.JobPool
    saved = (callback_endpoints.Event, environment.threading, map_jobs.threading)
    saved += (communication.terminated, pool.close_job)
    callback_endpoints.Event = clock.event  # type: ignore[assignment]
    environment.threading = map_jobs.threading = _Threading(clock.event)  # type: ignore[assignment]
    communication.terminated = _then_poke(clock, saved[3])  # type: ignore[method-assign]
    pool.close_job = _then_poke(clock, saved[4])  # type: ignore[method-assign]

    def restore() -> None:
        (  # type: ignore[method-assign]
            callback_endpoints.Event,
            environment.threading,
            map_jobs.threading,
            communication.terminated,
            pool.close_job,
        ) = saved

    return restore
