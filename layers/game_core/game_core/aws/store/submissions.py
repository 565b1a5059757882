"""Each participant's submissions to the open phase (a sheet, replaced whole, conditional on the
revision read) and the replies kept for a delivery's redeliveries (stored once per key)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from boto3.dynamodb.conditions import Attr

from game_core.aws.store.items import delivery_key, expiration, match_pk, sheet_key
from game_core.aws.store.table import Table
from game_core.aws.store.transaction import Guard, Transaction
from game_core.errors import Conflict
from game_core.match import receipts
from game_core.match.clock import iso
from game_core.match.engine import Accepted
from game_core.match.model import Match
from game_core.service.matches.sheets import AlreadyDelivered, Sheet, open_sheet


def sheet_of(item: dict[str, Any]) -> Sheet:
    return Sheet(
        player=str(item["player"]),
        phase_number=int(item["phase_number"]),
        kinds=json.loads(item["kinds"]),
        costs={kind: int(cost) for kind, cost in json.loads(item["costs"]).items()},
        revision=int(item["revision"]),
        updated_at=str(item["updated_at"]),
        seals=json.loads(item.get("seals", "{}")),
    )


def replaced_meanwhile() -> Conflict:
    return Conflict("another submission of yours for this phase arrived meanwhile; send it again")


class Submissions:
    def __init__(self, db: Table) -> None:
        self.db = db

    def replace_sheet(
        self, tx: Transaction, match: Match, player: str, accepted: Accepted, at: datetime, seen: Sheet | None
    ) -> int:
        """The sender's sheet with `accepted` in place of its kind's earlier one, only if the
        sheet is still `seen` (its revision; absent if none was read): a concurrent write makes
        this a conflict. Returns the garnets the submission it replaces held."""
        assert match.phase is not None
        number = match.phase.number
        current = open_sheet(seen, match)
        sheet = {
            "pk": match_pk(match.match_id),
            "sk": f"SUB#{player}",
            "player": player,
            "phase_number": number,
            "kinds": json.dumps((current.kinds if current else {}) | {accepted.kind: accepted.submission}),
            "costs": json.dumps((current.costs if current else {}) | {accepted.kind: accepted.garnet_cost}),
            "seals": json.dumps((current.seals if current else {}) | {accepted.kind: receipts.seal(accepted.salt, at)}),
            "revision": (seen.revision if seen else 0) + 1,
            "updated_at": iso(at),
        }
        unchanged = Attr("pk").not_exists() if seen is None else Attr("revision").eq(seen.revision)
        tx.put(sheet, Guard(unchanged, replaced_meanwhile()))
        return current.costs.get(accepted.kind, 0) if current else 0

    def require_unchanged(self, tx: Transaction, match: Match, sheets: dict[str, Sheet]) -> None:
        """Every participant's submissions to the open phase are still `sheets` as read: a
        submission stored since (its sheet's revision moves, or a first one names the phase)
        fails the transaction."""
        assert match.phase is not None
        for participant in match.player_ids:
            seen = sheets.get(participant)
            if seen is None:
                unchanged = Attr("pk").not_exists() | Attr("phase_number").ne(match.phase.number)
            else:
                unchanged = Attr("revision").eq(seen.revision)
            tx.check(sheet_key(match.match_id, participant), Guard(unchanged, replaced_meanwhile()))

    def sheets(self, match_id: str, phase_number: int) -> dict[str, Sheet]:
        sheets = [sheet_of(item) for item in self.db.query(match_pk(match_id), "SUB#")]
        return {sheet.player: sheet for sheet in sheets if sheet.phase_number == phase_number}

    def keep_reply(
        self, tx: Transaction, match_id: str, player: str, delivery: tuple[str, dict[str, Any]], at: datetime
    ) -> None:
        """A delivery's reply, stored only if its key is new (AlreadyDelivered), kept a week."""
        key, reply = delivery
        item = {
            "pk": match_pk(match_id),
            "sk": f"DELIVERY#{player}#{key}",
            "reply": json.dumps(reply, sort_keys=True),
            "expiration": expiration(at),
        }
        tx.put(item, Guard(Attr("pk").not_exists(), AlreadyDelivered()))

    def delivered(self, match_id: str, player: str, delivery: str) -> dict[str, Any] | None:
        item = self.db.get(delivery_key(match_id, player, delivery))
        return reply_of(item) if item else None


def reply_of(item: dict[str, Any]) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(item["reply"])
    return reply
