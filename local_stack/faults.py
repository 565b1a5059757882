"""Transient AWS failures injected into the state machine's steps, to prove each step is safe to
retry and that nothing strands a match.

    faults = StepFaults(stack, plan=rotating)     # each step invocation fails once, then its retry runs
    ...                                            # play the match
    faults.injected                                # where each fault struck

A fault strikes one AWS call of the phase-step function (a DynamoDB throttle, an SNS or Step
Functions internal error), either *before* the call reaches the service (nothing happened) or
*after* it was applied (the reply was lost: the worst case for a write), or the Lambda service
refuses the invocation itself (call index 0). Host commands and submissions run untouched.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import ClientError

ERROR_CODES = {"dynamodb": "ThrottlingException", "sns": "InternalError", "stepfunctions": "ServiceUnavailable"}


@dataclass(frozen=True)
class Fault:
    call: int
    """Which AWS call of the invocation fails: 1 for the first; 0: the invocation itself."""
    after: bool
    """True: the call is applied and then its reply is lost."""


@dataclass(frozen=True)
class Struck:
    step: str
    phase_number: int
    operation: str
    after: bool


Plan = Callable[[int, dict[str, Any], bool], Fault | None]
"""(how many invocations of the same step came before this one, not counting retries; its event;
whether it is the state machine's retry of an attempt that a fault struck) -> its fault, if any."""


STRIKE_POINTS = (
    Fault(call=4, after=True),  # a resolution's transaction applied, its reply lost; a 2nd publish
    Fault(call=1, after=False),  # the first read throttled
    Fault(call=0, after=False),  # the Lambda service fails the invocation
    Fault(call=2, after=True),  # the wait's token stored, or a phase closed, and the reply lost
    Fault(call=3, after=False),  # the first publish refused; the submissions' read throttled
    Fault(call=4, after=False),  # a resolution's transaction refused
    Fault(call=3, after=True),  # the first publish sent, its reply lost
    Fault(call=1, after=True),
    Fault(call=2, after=False),
)
"""Where `rotating` strikes the n-th invocation of each step: point n mod 9. The steps' calls
(see service/phases.py): current reads the match; wait stores its token; resolve reads the match,
closes the phase, reads the submissions, then writes one transaction; announce reads the match and
the phase record, then publishes. A point past an invocation's last call strikes nothing."""


def rotating(index: int, _event: dict[str, Any], retry: bool) -> Fault | None:
    """Every step invocation fails once, at the next strike point, and its retry runs clean."""
    return None if retry else STRIKE_POINTS[index % len(STRIKE_POINTS)]


def always(step: str) -> Plan:
    """Every attempt of one step fails at its first call: retries cannot mend it."""
    return lambda _index, event, _retry: Fault(call=1, after=False) if event.get("step") == step else None


@dataclass
class StepFaults:
    stack: Any
    plan: Plan
    injected: list[Struck] = field(default_factory=list)
    _invocations: Counter[str] = field(default_factory=Counter)
    _retrying: set[str] = field(default_factory=set)
    _active: threading.local = field(default_factory=threading.local)

    def __post_init__(self) -> None:
        from game_core.aws.wiring import ports_from_environment

        handlers = self.stack.lambdas.handlers
        self._handler = handlers["PhaseStepFunction"]
        handlers["PhaseStepFunction"] = self._invoke
        ports = ports_from_environment()
        for client in {id(c): c for c in (ports.store.client, ports.notifier.client, ports.workflow.client)}.values():
            client.meta.events.register("before-call", self._before)
            client.meta.events.register("after-call", self._after)

    def stop(self) -> None:
        """No more faults: what follows runs clean (the handler stays wrapped, faultless)."""
        self.plan = lambda _index, _event, _retry: None

    # -- the phase-step function, wrapped ------------------------------------------------------------

    def _invoke(self, event: dict[str, Any], context: Any) -> Any:
        key = json.dumps({k: v for k, v in event.items() if k != "token"}, sort_keys=True)
        retry = key in self._retrying
        self._retrying.discard(key)
        step = str(event.get("step"))
        fault = self.plan(self._invocations[step], event, retry)
        self._invocations[step] += 0 if retry else 1
        self._active.state = {"event": event, "fault": fault, "calls": 0}
        try:
            if fault is not None and fault.call == 0:
                self._strike("Invoke", after=False)
            return self._handler(event, context)
        except ClientError:
            if fault is not None and self._active.state["fault"] is None:
                self._retrying.add(key)  # it struck: the machine retries this very step
            raise
        finally:
            self._active.state = None

    # -- the AWS calls it makes ------------------------------------------------------------------------

    def _due(self, after: bool) -> bool:
        state = getattr(self._active, "state", None)
        if state is None or state["fault"] is None:
            return False
        fault: Fault = state["fault"]
        if not after:
            state["calls"] += 1
        return fault.call == state["calls"] and fault.after == after

    def _before(self, model: Any, **_kwargs: Any) -> None:
        if self._due(after=False):
            self._strike(model.name, after=False, service=model.service_model.service_name)

    def _after(self, model: Any, **_kwargs: Any) -> None:
        if self._due(after=True):
            self._strike(model.name, after=True, service=model.service_model.service_name)

    def _strike(self, operation: str, after: bool, service: str = "lambda") -> None:
        state = self._active.state
        event = state["event"]
        state["fault"] = None  # one fault per invocation
        self.injected.append(Struck(event.get("step", "?"), int(event.get("phase_number", 0)), operation, after))
        if service == "lambda":
            code, message = "ServiceException", "the Lambda service failed the invocation (injected)"
        else:
            code, message = ERROR_CODES.get(service, "InternalError"), f"{operation} failed (injected)"
        raise ClientError({"Error": {"Code": code, "Message": message}}, operation)
