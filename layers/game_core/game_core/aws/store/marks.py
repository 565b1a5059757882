"""Marks the service keeps so that nothing is said twice: that a received mail has been
answered, kept a week (the table's TTL drops them), so a redelivered message is answered once;
what a failed step had told (`telling.tell`), on the match header until the phase changes; and
each bounce of a participant's mail, kept with the match for the host (`match_status`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from boto3.dynamodb.conditions import Attr

from game_core.aws.store.items import answered_key, expiration, header_key, key, match_pk
from game_core.aws.store.table import Table
from game_core.aws.store.transaction import Update
from game_core.service.ports import Bounce


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

    def record_bounce(self, match_id: str, bounce: Bounce) -> None:
        """Written only where none is: a redelivered bounce keeps the first record's time."""
        written = {"at": bounce.at.isoformat(), "status": bounce.status, "diagnostic": bounce.diagnostic}
        written |= {"refused": "yes"} if bounce.refused else {}  # a bounce's item as it was
        bounced = key(match_pk(match_id), f"BOUNCED#{bounce.player}#{bounce.message}")
        self.db.update_if(bounced, Update.assign(written), Attr("pk").not_exists())

    def bounces(self, match_id: str) -> list[Bounce]:
        found = [_bounce(item) for item in self.db.query(match_pk(match_id), "BOUNCED#")]
        return sorted(found, key=lambda bounce: bounce.at)


def _bounce(item: dict[str, Any]) -> Bounce:
    _, player, message = item["sk"].split("#", 2)
    at = datetime.fromisoformat(item["at"])
    return Bounce(player, message, at, item["status"], item["diagnostic"], refused="refused" in item)
