"""Marks that a received mail has been answered, kept a week (the table's TTL drops them), so a
redelivered message is answered once."""

from __future__ import annotations

from datetime import datetime

from game_core.aws.store.items import answered_key, expiration, match_pk
from game_core.aws.store.table import Table


class MailMarks:
    def __init__(self, db: Table) -> None:
        self.db = db

    def answered(self, match_id: str, message: str) -> bool:
        return self.db.get(answered_key(match_id, message)) is not None

    def mark_answered(self, match_id: str, message: str, at: datetime) -> None:
        item = {"pk": match_pk(match_id), "sk": f"ANSWERED#{message}", "expiration": expiration(at)}
        self.db.put(item)
