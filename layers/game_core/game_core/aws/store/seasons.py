"""The season store (`service.ports.SeasonStore`) on the match table: one item a season (its
settings and carried state as JSON, its version and stage), every write conditional on the
version read and logged in the same transaction under the season's own numbered log (the match
log's layout and code, `log.py`, under `SEASON#<id>`)."""

from __future__ import annotations

import zlib
from typing import Any

from boto3.dynamodb.conditions import Attr

from game_core.aws.store.items import key, season_pk
from game_core.aws.store.log import COUNTER, EventLog, commit_logged, entry, entry_key
from game_core.aws.store.table import Table
from game_core.aws.store.transaction import Guard, Transaction, Update
from game_core.errors import Conflict, NotFound
from game_core.season.settings import SeasonSettings
from game_core.season.state import SeasonState
from game_core.service.event import Event
from game_core.service.season.ports import StoredSeason

META = "META"


def _packed(model: SeasonSettings | SeasonState) -> bytes:
    """A model's JSON compressed: the item is rewritten whole at each step and billed by its size
    (a six-player season's state, 5 KB of JSON, packs to about 1 KB)."""
    return zlib.compress(model.model_dump_json().encode(), 6)


def _unpacked(blob: Any) -> bytes:
    return zlib.decompress(bytes(blob))


def _item(settings: SeasonSettings, state: SeasonState) -> dict[str, Any]:
    return {
        "pk": season_pk(state.season_id),
        "sk": META,
        "settings": _packed(settings),
        "state": _packed(state),
        "version": state.version,
        "stage": state.stage,
    }


class DynamoSeasonStore:
    def __init__(self, client: Any, table: str) -> None:
        self.client = client
        self.table = table
        self._db = Table(client, table)
        self._log = EventLog(self._db, pk=season_pk)

    def create_season(self, settings: SeasonSettings, state: SeasonState, events: list[Event]) -> None:
        exists = Conflict(f"a season {state.season_id} exists already")

        def build(tx: Transaction) -> list[Event]:
            tx.put(_item(settings, state), Guard(Attr("pk").not_exists(), exists))
            return events

        self._log.starts(state.season_id)
        commit_logged(self.client, self.table, self._log, state.season_id, build, exists)

    def season(self, season_id: str) -> StoredSeason:
        """One read: the season and its log's last number (for the write that follows)."""
        pk = season_pk(season_id)
        items = {item["sk"]: item for item in self._db.batch_get([key(pk, META), key(pk, COUNTER)])}
        item = items.get(META)
        if item is None:
            raise NotFound(f"no season {season_id}")
        self._log.learn(season_id, items)
        return StoredSeason(
            settings=SeasonSettings.model_validate_json(_unpacked(item["settings"])),
            state=SeasonState.model_validate_json(_unpacked(item["state"])),
            logged=int(items.get(COUNTER, {}).get("last", 0)),
            announced=int(item.get("announced", 0)),
        )

    def save_season(self, before: SeasonState, after: SeasonState, events: list[Event]) -> None:
        moved = Conflict(f"season {before.season_id} changed meanwhile; try again")

        def build(tx: Transaction) -> list[Event]:
            tx.update(
                key(season_pk(after.season_id), META),
                Update.assign({"state": _packed(after), "version": after.version, "stage": after.stage}),
                Guard(Attr("version").eq(before.version), moved),
            )
            return events

        commit_logged(self.client, self.table, self._log, after.season_id, build, moved)

    def season_events(self, season_id: str) -> list[Event]:
        return self._log.events(season_id)

    def season_log(self, season_id: str, after: int, upto: int) -> list[tuple[int, Event]]:
        """One Query (a page per MB) of the numbered entries in the range."""
        if upto <= after:
            return []
        items = self._db.query_range(season_pk(season_id), entry_key(after + 1), entry_key(upto))
        return [(int(str(item["sk"]).rsplit("#", 1)[1]), entry(item)) for item in items]

    def mark_announced(self, season_id: str, upto: int) -> None:
        """The `announced` attribute of the season's item, raised only (the item's other
        attributes and its version untouched: a step's conditional write is not disturbed)."""
        raised = Attr("pk").exists() & (Attr("announced").not_exists() | Attr("announced").lt(upto))
        self._db.update_if(key(season_pk(season_id), META), Update.assign({"announced": upto}), raised)
