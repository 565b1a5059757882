"""The season store in memory (the service tests' fake of `service.season.lifecycle.SeasonStore`), held to
the same rules as DynamoDB's by tests/contract/test_season_store.py: a season stored once, every
save conditional on the version read, the log in the order it was stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from game_core.errors import Conflict, NotFound
from game_core.season.settings import SeasonSettings
from game_core.season.state import SeasonState
from game_core.service.ports import Event
from game_core.service.season.ports import Link, StoredSeason


class MemorySeasonStore:
    def __init__(self) -> None:
        self.stored: dict[str, tuple[str, str]] = {}
        """Each season's settings and state as JSON: what is read is a copy, as from a table."""
        self.logs: dict[str, list[Event]] = {}
        self.announced: dict[str, int] = {}

    def create_season(self, settings: SeasonSettings, state: SeasonState, events: list[Event]) -> None:
        if state.season_id in self.stored:
            raise Conflict(f"a season {state.season_id} exists already")
        self.stored[state.season_id] = (settings.model_dump_json(), state.model_dump_json())
        self.logs[state.season_id] = list(events)

    def season(self, season_id: str) -> StoredSeason:
        if season_id not in self.stored:
            raise NotFound(f"no season {season_id}")
        settings, state = self.stored[season_id]
        logged, announced = len(self.logs[season_id]), self.announced.get(season_id, 0)
        return StoredSeason(
            SeasonSettings.model_validate_json(settings), SeasonState.model_validate_json(state), logged, announced
        )

    def save_season(self, before: SeasonState, after: SeasonState, events: list[Event]) -> None:
        settings, state = self.stored[before.season_id]
        if SeasonState.model_validate_json(state).version != before.version:
            raise Conflict(f"season {before.season_id} changed meanwhile; try again")
        self.stored[before.season_id] = (settings, after.model_dump_json())
        self.logs[before.season_id] += events

    def season_events(self, season_id: str) -> list[Event]:
        return list(self.logs.get(season_id, []))

    def season_log(self, season_id: str, after: int, upto: int) -> list[tuple[int, Event]]:
        log = self.logs.get(season_id, [])
        return [(number, log[number - 1]) for number in range(after + 1, min(upto, len(log)) + 1)]

    def mark_announced(self, season_id: str, upto: int) -> None:
        if season_id in self.stored:
            self.announced[season_id] = max(self.announced.get(season_id, 0), upto)


T0 = datetime(2026, 12, 1, 12, tzinfo=UTC)


@dataclass
class StepClock:
    """The clock of a season's steps: where a test sets it."""

    at: datetime = T0

    def now(self) -> datetime:
        return self.at


class SeasonIds:
    """Ids as the service draws them, fixed: season secrets numbered secret-1, secret-2, ..."""

    def __init__(self) -> None:
        self.issued = 0

    def match_id(self) -> str:
        return "m-000000000001"

    def secret(self) -> str:
        self.issued += 1
        return f"secret-{self.issued}"

    def seed(self) -> int:
        return 11

    def salt(self) -> str:
        return "00"


@dataclass
class MemoryLinks:
    """The season machine's links (service/season/ports.SeasonLinks), kept in memory."""

    links: dict[str, Link] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)

    def link(self, match_id: str, season_id: str, token: str) -> None:
        self.links[match_id] = Link(season_id, token, opened=True)

    def linked(self, match_id: str) -> Link | None:
        return self.links.get(match_id)

    def keep_token(self, season_id: str, token: str) -> None:
        self.tokens[season_id] = token

    def token(self, season_id: str) -> str | None:
        return self.tokens.get(season_id)

    def paused_at(self, season_id: str) -> datetime | None:
        return None
