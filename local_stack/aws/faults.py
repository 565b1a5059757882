"""Transient AWS failures injected into the state machine's steps, to prove each step is safe to
retry and that nothing strands a match.

    faults = StepFaults(stack, every_point())  # each step invocation fails once, then its retry runs
    ...                                      # play the match
    faults.injected                          # where each fault struck

A fault strikes the first call of one AWS operation that a phase-step invocation makes (a
DynamoDB throttle, an SNS, SES or Step Functions internal error), either *before* the call reaches the
service (nothing happened) or *after* it was applied (the reply was lost: the worst case for a
write); or the Lambda service refuses the invocation itself (operation "Invoke"). Host commands
and submissions run untouched.
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
INVOKE = "Invoke"


@dataclass(frozen=True)
class Fault:
    operation: str
    """The AWS operation whose first call in the invocation fails, EVERY_CALL: its first call of any,
    or INVOKE: the invocation itself."""
    after: bool = False
    """True: the call is applied and then its reply is lost."""


@dataclass(frozen=True)
class Struck:
    step: str
    operation: str
    after: bool


Plan = Callable[[int, dict[str, Any], bool], Fault | None]
"""(how many invocations of the same step came before this one, not counting retries; its event;
whether it is the state machine's retry of an attempt that a fault struck) -> its fault, if any."""


STRIKE_POINTS = {
    # advance (service/matches/phases.py): reads the match (and, with early close, the submissions), then
    # to resolve closes the phase (UpdateItem), reads the submissions and writes one transaction;
    # to announce reads the phase record, publishes, mails (when participants have addresses), and
    # marks it told (UpdateItem). The points
    # that only a resolution reaches come first: a short match has few resolutions.
    "advance": (
        Fault("TransactWriteItems", after=True),  # the resolution stored, its reply lost
        Fault("TransactWriteItems"),
        Fault("PublishBatch", after=True),  # the announcement sent, its reply lost
        Fault(INVOKE),
        Fault("SendEmail"),  # a notice's mail refused: what went before it is remembered, not sent again
        Fault("UpdateItem"),
        Fault("Query", after=True),
        Fault("PublishBatch"),
        Fault("UpdateItem", after=True),
        Fault("GetItem"),
        Fault("GetItem", after=True),
    ),
    # wait: stores the task token (UpdateItem), or wakes the machine at once if the clock moved.
    "wait": (Fault("UpdateItem", after=True), Fault(INVOKE), Fault("UpdateItem")),
}
"""Where `every_point` strikes each step's invocations, in turn."""
SEASON_STRIKE_POINTS = {
    # advance (service/season/machine.py): reads the season and the matches it waits on, and
    # writes each transition due (one transaction each: the season and its log); then tells the
    # cast what the log holds past its `announced` mark (service/season/news.py: a Query of the
    # log, the notices published, the mark written).
    "advance": (
        Fault("TransactWriteItems", after=True),  # a transition stored, its reply lost
        Fault("Query"),
        Fault("PublishBatch"),
        Fault("UpdateItem", after=True),  # the mark written, its reply lost
        Fault("GetItem"),
        Fault("TransactWriteItems"),
        Fault(INVOKE),
    ),
    # match, death_match: read the season, store the match (a transaction), start its execution,
    # tell its opening notices, link the wait's token (PutItem, the mark that the start is whole).
    "match": (
        Fault("TransactWriteItems", after=True),  # the match stored, its reply lost
        Fault("StartExecution", after=True),
        Fault("PublishBatch", after=True),
        Fault("PutItem"),
        Fault(INVOKE),
    ),
    "death_match": (Fault("TransactWriteItems", after=True), Fault("PutItem", after=True), Fault("StartExecution")),
    # people: keeps the wait's token (PutItem), reads the season (its item and counter: one
    # BatchGetItem) to wake itself if it moved on.
    "people": (Fault("PutItem", after=True), Fault("PutItem"), Fault("BatchGetItem")),
}
"""Where `every_point` strikes the season machine's steps (`StepFaults(..., function="SeasonStepFunction")`)."""


def every_point(points: dict[str, tuple[Fault, ...]] = STRIKE_POINTS) -> Plan:
    """Every step invocation fails once, and its retry runs clean; each of its step's strike points
    strikes at least once however short the match, in their order: an invocation is given the
    first point not yet struck. One it never reached (it struck nothing: the next invocation of
    the step is no retry) changes places with the point behind it, to be tried again by the
    invocation after next. Once every point has struck, they come round again."""
    waiting = {step: list(faults) for step, faults in points.items()}
    given: dict[str, Fault] = {}

    def plan(_index: int, event: dict[str, Any], retry: bool) -> Fault | None:
        step = str(event.get("step"))
        queue = waiting.get(step)
        if queue is None:
            return None
        last = given.pop(step, None)
        if last is not None and retry:
            queue.remove(last)
            if not queue:
                queue.extend(points[step])  # every point has struck: round again
        elif last is not None and len(queue) > 1:
            queue[0], queue[1] = queue[1], queue[0]  # it struck nothing
        if retry:
            return None
        given[step] = queue[0]
        return queue[0]

    return plan


def always(operation: str, step: str = "advance") -> Plan:
    """Every call of one AWS operation by one step fails: retries cannot mend it."""
    return lambda _index, event, _retry: Fault(operation) if event.get("step") == step else None


@dataclass
class StepFaults:
    stack: Any
    plan: Plan
    function: str = "PhaseStepFunction"
    """The function whose invocations are struck (the season's steps: SeasonStepFunction)."""
    injected: list[Struck] = field(default_factory=list)
    _invocations: Counter[str] = field(default_factory=Counter)
    _retrying: set[str] = field(default_factory=set)
    _active: threading.local = field(default_factory=threading.local)

    def __post_init__(self) -> None:
        handlers = self.stack.lambdas.handlers
        self._handler = handlers[self.function]
        handlers[self.function] = self._invoke
        for client in self.stack.port_clients():
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
        self._active.state = {"step": step, "fault": fault}
        try:
            if fault is not None and fault.operation == INVOKE:
                self._strike(INVOKE, after=False, service="lambda")
            return self._handler(event, context)
        except ClientError:
            if fault is not None and self._active.state["fault"] is None:
                self._retrying.add(key)  # it struck: the machine retries this very step
            raise
        finally:
            self._active.state = None

    # -- the AWS calls it makes ------------------------------------------------------------------------

    def _due(self, operation: str, after: bool) -> bool:
        state = getattr(self._active, "state", None)
        fault: Fault | None = state["fault"] if state else None
        return fault is not None and fault.operation in (operation, EVERY_CALL) and fault.after == after

    def _before(self, model: Any, **_kwargs: Any) -> None:
        if self._due(model.name, after=False):
            self._strike(model.name, after=False, service=model.service_model.service_name)

    def _after(self, model: Any, **_kwargs: Any) -> None:
        if self._due(model.name, after=True):
            self._strike(model.name, after=True, service=model.service_model.service_name)

    def _strike(self, operation: str, after: bool, service: str) -> None:
        state = self._active.state
        state["fault"] = None  # one fault per invocation
        self.injected.append(Struck(state["step"], operation, after))
        if service == "lambda":
            code, message = "ServiceException", "the Lambda service failed the invocation (injected)"
        else:
            code, message = ERROR_CODES.get(service, "InternalError"), f"{operation} failed (injected)"
        raise ClientError({"Error": {"Code": code, "Message": message}}, operation)


EVERY_CALL = "*"
"""A fault's operation that is any call: a mail fault's, every DynamoDB call of the try (the table
unreachable for the whole try); a step fault's, the invocation's first AWS call, whatever it is."""
MailPlan = Callable[[str, int], Fault | None]
"""(SES's id of a received mail, which try of it this is, from 1) -> the try's fault, if any."""


@dataclass
class MailFaults:
    """Transient AWS failures in the mail function's tries of chosen mail: while a try of a mail
    runs, every call of the fault's DynamoDB operation (`EVERY_CALL`: every call) fails before it
    reaches the table, or, for a fault `after`, the first one is applied and its reply lost. A try
    is known by the GetObject of its stored message, the first AWS call of each record (SES's id
    is the object's key): the calls after it on the same thread are that try's, up to the next
    record's GetObject or the invocation's end."""

    stack: Any
    plan: MailPlan
    tries: Counter[str] = field(default_factory=Counter)
    injected: list[tuple[str, int, str]] = field(default_factory=list)
    """(SES's id, try, operation) of each fault that struck."""
    _active: threading.local = field(default_factory=threading.local)

    def __post_init__(self) -> None:
        from game_core.aws.mail_bucket import mail_bucket  # the function's own S3 reader

        handlers = self.stack.lambdas.handlers
        self._handler = handlers["EmailInFunction"]
        handlers["EmailInFunction"] = self._invoke
        mail_bucket().client.meta.events.register("provide-client-params.s3.GetObject", self._reading)
        events = self.stack.ports().store.client.meta.events
        events.register("before-call.dynamodb", self._before)
        events.register("after-call.dynamodb", self._after)

    def _invoke(self, event: dict[str, Any], context: Any) -> Any:
        try:
            return self._handler(event, context)
        finally:
            self._active.try_ = ("", 0, None)

    def _reading(self, params: dict[str, Any], **_kwargs: Any) -> None:
        mail = str(params["Key"])
        self.tries[mail] += 1
        self._active.try_ = (mail, self.tries[mail], self.plan(mail, self.tries[mail]))

    def _due(self, model: Any, after: bool) -> tuple[str, int] | None:
        mail, number, fault = getattr(self._active, "try_", ("", 0, None))
        if fault is None or fault.operation not in (model.name, EVERY_CALL) or fault.after != after:
            return None
        if after:  # the reply of one call lost: the try's only fault
            self._active.try_ = (mail, number, None)
        return mail, number

    def _before(self, model: Any, **_kwargs: Any) -> None:
        self._strike(model, self._due(model, after=False))

    def _after(self, model: Any, **_kwargs: Any) -> None:
        self._strike(model, self._due(model, after=True))

    def _strike(self, model: Any, due: tuple[str, int] | None) -> None:
        if due is None:
            return
        self.injected.append((*due, model.name))
        code = ERROR_CODES["dynamodb"]
        raise ClientError({"Error": {"Code": code, "Message": f"{model.name} failed (injected)"}}, model.name)


@dataclass
class ClientFaults:
    """Faults on one boto3 client's calls, outside the state machine (a store under test): `arm`
    makes the next call of the fault's operation fail before it reaches AWS (nothing happened) or,
    `after`, once it was applied (its reply lost: the worst case for a write). One fault per arm."""

    client: Any
    armed: Fault | None = None
    injected: list[Fault] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.client.meta.events.register("before-call", self._before)
        self.client.meta.events.register("after-call", self._after)

    def arm(self, fault: Fault | None) -> None:
        self.armed = fault

    def close(self) -> None:
        """No more faults on the client (it may be shared with other tests)."""
        self.armed = None
        self.client.meta.events.unregister("before-call", self._before)
        self.client.meta.events.unregister("after-call", self._after)

    def _before(self, model: Any, **_kwargs: Any) -> None:
        self._strike(model, after=False)

    def _after(self, model: Any, **_kwargs: Any) -> None:
        self._strike(model, after=True)

    def _strike(self, model: Any, after: bool) -> None:
        fault = self.armed
        if fault is None or fault.operation != model.name or fault.after != after:
            return
        self.armed = None
        self.injected.append(fault)
        code = ERROR_CODES.get(model.service_model.service_name, "InternalError")
        raise ClientError({"Error": {"Code": code, "Message": f"{model.name} failed (injected)"}}, model.name)
