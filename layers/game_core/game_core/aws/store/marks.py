"""Marks the service keeps so that nothing is said twice: that a received mail has been
answered, kept a week (the table's TTL drops them), so a redelivered message is answered once;
and what a failed step had told (`letters.tell`), on the match header until the phase changes."""

from __future__ import annotations

from datetime import datetime

from boto3.dynamodb.conditions import Attr

from game_core.aws.store.items import answered_key, expiration, header_key, match_pk
from game_core.aws.store.table import Table
from game_core.aws.store.transaction import Update


class Marks:
    def __init__(self, db: Table) -> None:
        self.db = db

    def answered(self, match_id: str, message: str) -> bool:
        return self.db.get(answered_key(match_id, message)) is not None

    def mark_answered(self, match_id: str, message: str, at: datetime) -> None:
        item = {"pk": match_pk(match_id), "sk": f"ANSWERED#{message}", "expiration": expiration(at)}
        self.db.put(item)

    def remember_told(self, match_id: str, keys: frozenset[str]) -> None:
        """ADD to a string set: the same keys added twice change nothing, so a write whose reply
        was lost may simply be made again. Only on a match that exists (an update would create it)."""
        update = Update("ADD #told :keys", {":keys": set(keys)}, {"#told": "told"})
        self.db.update_if(header_key(match_id), update, Attr("pk").exists())
