"""Races staged deterministically: on AWS, submissions, host acts and the state machine run in
separate Lambdas at once; here the other party acts at the worst moment through a store that
runs it just before a named call, and a clock can be fixed at a chosen instant."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


class StagedStore:
    """The real store, with `before()` run once just before the named call goes through."""

    def __init__(self, store: Any, name: str, before: Any) -> None:
        self._store, self._name, self._before = store, name, before

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._store, name)
        if name != self._name or self._before is None:
            return real

        def staged(*args: Any, **kwargs: Any) -> Any:
            before, self._before = self._before, None
            before()
            return real(*args, **kwargs)

        return staged


@dataclass(frozen=True)
class FixedClock:
    moment: datetime

    def now(self) -> datetime:
        return self.moment


class Unwoken:
    """The real workflow, except that a host act's wake is only recorded: the state machine stays
    parked in its wait while a race is staged, and the test wakes it afterwards (host commands
    through the stack), so the machine never runs alongside what is staged."""

    def __init__(self, workflow: Any) -> None:
        self._workflow = workflow
        self.woken: list[str] = []

    def wake(self, token: str) -> None:
        self.woken.append(token)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._workflow, name)


class FailingOnce:
    """A DynamoDB client whose first call of `operation` fails with `error` before it reaches the
    table (nothing is written); every other call, and every later one, goes through."""

    def __init__(self, client: Any, operation: str, error: Exception) -> None:
        self._client, self._operation, self._error = client, operation, error
        self.failed = 0

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._client, name)
        if name != self._operation or self.failed:
            return real

        def failing(*args: Any, **kwargs: Any) -> Any:
            self.failed += 1
            raise self._error

        return failing
