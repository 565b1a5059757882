"""The season machine's task tokens in the match table (service/season_waits.py):

pk MATCH#<id>   sk SEASON   the season waiting for this match, and its wait's token (outside the
                            EVENT#..META range a match's page reads, so no view reads it)
pk SEASON#<id>  sk TOKEN    the token of the season's current wait on people
"""

from __future__ import annotations

from typing import Any

from game_core.aws.store.items import key, match_pk
from game_core.aws.store.table import Table
from game_core.service.season_links import Link


def season_pk(season_id: str) -> str:
    return f"SEASON#{season_id}"


class DynamoSeasonLinks:
    def __init__(self, client: Any, table: str) -> None:
        self.db = Table(client, table)

    def link(self, match_id: str, season_id: str, token: str) -> None:
        self.db.put({"pk": match_pk(match_id), "sk": "SEASON", "season_id": season_id, "token": token})

    def linked(self, match_id: str) -> Link | None:
        item = self.db.get(key(match_pk(match_id), "SEASON"))
        return Link(str(item["season_id"]), str(item["token"])) if item else None

    def keep_token(self, season_id: str, token: str) -> None:
        self.db.put({"pk": season_pk(season_id), "sk": "TOKEN", "token": token})

    def token(self, season_id: str) -> str | None:
        item = self.db.get(key(season_pk(season_id), "TOKEN"))
        return str(item["token"]) if item else None
