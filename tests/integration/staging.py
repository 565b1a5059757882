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
