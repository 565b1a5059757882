"""The season machine's task tokens in the match table (service/season/waits.py):

pk MATCH#<id>   sk SEASON   the season waiting for this match, and its wait's token (outside the
                            EVENT#..META range a match's page reads, so no view reads it)
pk SEASON#<id>  sk TOKEN    the token of the season's current wait on people
                sk ATTEMPT  the season's execution attempt (one more each recover)
                sk PAUSED   when the host paused the season (none, or "": it runs)
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from boto3.dynamodb.conditions import Attr

from game_core.aws.store.items import key, match_pk, season_pk
from game_core.aws.store.table import Table
from game_core.aws.store.transaction import Update
from game_core.errors import Conflict
from game_core.service.season.ports import Link


class DynamoSeasonLinks:
    def __init__(self, client: Any, table: str) -> None:
        self.db = Table(client, table)

    def link(self, match_id: str, season_id: str, token: str) -> None:
        self.db.put({"pk": match_pk(match_id), "sk": "SEASON", "season_id": season_id, "token": token, "opened": True})

    def linked(self, match_id: str) -> Link | None:
        item = self.db.get(key(match_pk(match_id), "SEASON"))
        return Link(str(item["season_id"]), str(item["token"]), bool(item.get("opened"))) if item else None

    def keep_token(self, season_id: str, token: str) -> None:
        self.db.put({"pk": season_pk(season_id), "sk": "TOKEN", "token": token})

    def token(self, season_id: str) -> str | None:
        item = self.db.get(key(season_pk(season_id), "TOKEN"))
        return str(item["token"]) if item else None

    def attempt(self, season_id: str) -> int:
        item = self.db.get(key(season_pk(season_id), "ATTEMPT"))
        return int(item["attempt"]) if item else 0

    def next_attempt(self, season_id: str, seen: int) -> None:
        condition = Attr("attempt").not_exists() if seen == 0 else Attr("attempt").eq(seen)
        stored = self.db.update_if(
            key(season_pk(season_id), "ATTEMPT"), Update("SET attempt = :next", {":next": seen + 1}), condition
        )
        if not stored:
            raise Conflict(f"season {season_id} was recovered meanwhile")

    def paused_at(self, season_id: str) -> datetime | None:
        item = self.db.get(key(season_pk(season_id), "PAUSED"))
        return datetime.fromisoformat(str(item["at"])) if item and item["at"] else None

    def set_paused(self, season_id: str, at: datetime | None) -> None:
        # Running again is written, not deleted (no function of the stack deletes an item)
        self.db.put({"pk": season_pk(season_id), "sk": "PAUSED", "at": at.isoformat() if at else ""})
