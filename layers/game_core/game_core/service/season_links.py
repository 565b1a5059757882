"""The season machine's task-token port (service/season_waits.py uses it; aws/store/season_links.py
keeps it in the table)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Link:
    season_id: str
    token: str


class SeasonLinks(Protocol):
    def link(self, match_id: str, season_id: str, token: str) -> None:
        """The season waits for this match's end on `token` (the newest wait's, replacing any)."""

    def linked(self, match_id: str) -> Link | None:
        """The season waiting for this match, and the token it waits on (None: no season's match)."""

    def keep_token(self, season_id: str, token: str) -> None:
        """The token of the season's current wait on people (the newest, replacing any)."""

    def token(self, season_id: str) -> str | None: ...
