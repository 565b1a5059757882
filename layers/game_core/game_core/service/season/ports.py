"""The season's ports: its store (service/season/lifecycle.py, aws/store/seasons.py) and the season
machine's task tokens (service/season/waits.py, aws/store/season_links.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from game_core.season.settings import SeasonSettings
from game_core.season.state import SeasonState
from game_core.service.event import Event


@dataclass(frozen=True)
class StoredSeason:
    """A season as stored: the host's settings and its carried state (service/season/lifecycle.py)."""

    settings: SeasonSettings
    state: SeasonState
    logged: int = 0
    """The number of the season's last log entry, as read with it."""
    announced: int = 0
    """Its log is told to the cast up to this entry (`mark_announced`; service/season/news.py)."""


class SeasonStore(Protocol):
    def create_season(self, settings: SeasonSettings, state: SeasonState, events: list[Event]) -> None:
        """Store a new season and its first events; Conflict when a season of that id exists."""

    def season(self, season_id: str) -> StoredSeason:
        """The season's settings and state (NotFound for an unknown id)."""

    def save_season(self, before: SeasonState, after: SeasonState, events: list[Event]) -> None:
        """Store `after` and log `events`, only while the stored season is still `before` (its
        version): Conflict otherwise, nothing written."""

    def season_events(self, season_id: str) -> list[Event]:
        """The season's log, in the order it was stored."""

    def season_log(self, season_id: str, after: int, upto: int) -> list[tuple[int, Event]]:
        """The log's entries numbered after `after` up to `upto`, each with its number, in order."""

    def mark_announced(self, season_id: str, upto: int) -> None:
        """The log is told up to entry `upto`: the mark only ever rises (a lower or equal one,
        a retried mark, changes nothing)."""


@dataclass(frozen=True)
class Link:
    season_id: str
    token: str
    opened: bool = False
    """The match's start is complete: its execution started and its opening notices told."""


class SeasonLinks(Protocol):
    def link(self, match_id: str, season_id: str, token: str) -> None:
        """The season waits for this match's end on `token` (the newest wait's, replacing any);
        the match's start is complete (`Link.opened`)."""

    def linked(self, match_id: str) -> Link | None:
        """The season waiting for this match, and the token it waits on (None: no season's match)."""

    def keep_token(self, season_id: str, token: str) -> None:
        """The token of the season's current wait on people (the newest, replacing any)."""

    def token(self, season_id: str) -> str | None: ...

    def attempt(self, season_id: str) -> int:
        """The season's execution attempt (0 until a recover)."""

    def paused_at(self, season_id: str) -> datetime | None:
        """When the host paused the season (None: it runs)."""

    def set_paused(self, season_id: str, at: datetime | None) -> None:
        """Paused since `at`, or running again (None)."""

    def next_attempt(self, season_id: str, seen: int) -> None:
        """Count a recover: the attempt becomes `seen + 1` only while it is `seen` (Conflict otherwise)."""
