"""The small ports the use cases are written against; `game_core.aws` has the adapters."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from game_core.match.clock import PhaseClock
from game_core.match.engine import Accepted
from game_core.match.model import Match, PhaseRecord


@dataclass(frozen=True)
class Event:
    """One entry of a match's append-only log. Never carries submission contents."""

    type: str
    at: datetime
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Notice:
    """A message to everyone (recipient None) or to one participant."""

    recipient: str | None
    subject: str
    body: dict[str, Any]


class MatchStore(Protocol):
    def create(self, match: Match, balances: dict[str, int], event: Event) -> None:
        """Store a new match; players the store has never seen get their starting balances."""

    def balances(self, players: tuple[str, ...]) -> dict[str, int]:
        """Each player's garnet balance (absent players: 0)."""

    def get(self, match_id: str) -> Match: ...

    def put_submission(self, match: Match, player: str, accepted: Accepted, event: Event) -> None:
        """Overwrite the player's submission of that kind, only while the phase still takes it."""

    def submissions(self, match_id: str, phase_number: int) -> dict[str, dict[str, Any]]: ...

    def stop_accepting(self, match_id: str, phase_number: int) -> None:
        """Refuse further submissions to the phase (it is being resolved); idempotent."""

    def save_clock(self, before: Match, clock: PhaseClock | None, event: Event, *, cancel: bool = False) -> Match:
        """Replace the open phase's clock (host acts), conditional on `before` being current."""

    def commit_resolution(
        self,
        before: Match,
        after: Match,
        record: PhaseRecord,
        spending: dict[str, int],
        awards: dict[str, int],
        events: list[Event],
    ) -> None:
        """Store a resolution exactly once: conditional on `before` being current."""

    def set_task_token(self, match_id: str, phase_number: int, clock_version: int, token: str) -> bool:
        """Store the state machine's wait token if the clock is still the one it waited for."""

    def task_token(self, match_id: str) -> str | None: ...

    def phase_records(self, match_id: str, number: int | None = None) -> list[PhaseRecord]:
        """The match's phase records in order, or only the one of that phase number."""

    def events(self, match_id: str) -> list[Event]: ...


class Notifier(Protocol):
    def publish(self, match: Match, notice: Notice) -> None: ...


class Workflow(Protocol):
    def start(self, match: Match) -> str:
        """Start the match's state machine; returns the execution's id."""

    def wake(self, token: str) -> None:
        """Complete a waiting task so the state machine re-reads the clock (stale tokens are ignored)."""


class Clock(Protocol):
    def now(self) -> datetime: ...


class Ids(Protocol):
    def match_id(self) -> str: ...

    def secret(self) -> str: ...

    def seed(self) -> int: ...


@dataclass(frozen=True)
class Ports:
    store: MatchStore
    notifier: Notifier
    workflow: Workflow
    clock: Clock
    ids: Ids
