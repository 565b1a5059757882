"""Participants' contacts: a player id is one person across the deployment (garnets and private
notices key on it), registered with the contact of the first match that names it."""

from __future__ import annotations

from boto3.dynamodb.conditions import Attr

from game_core.aws.store.items import player_pk, profile_key
from game_core.aws.store.table import Table
from game_core.aws.store.transaction import Guard, Transaction
from game_core.errors import Conflict
from game_core.service.ports import Contact


class Profiles:
    def __init__(self, db: Table) -> None:
        self.db = db

    def contacts(self, players: tuple[str, ...]) -> dict[str, str]:
        items = self.db.batch_get([profile_key(player) for player in players])
        return {str(item["pk"]).removeprefix("PLAYER#"): str(item.get("contact", "")) for item in items}

    def register(self, tx: Transaction, contacts: dict[str, Contact]) -> None:
        """A new match's contact registrations, each conditional on the profile as it was read:
        absent for a new id, else holding the contact read (the host confirmed a change)."""
        for player, contact in sorted(contacts.items()):
            as_read = Attr("pk").not_exists() if contact.before is None else Attr("contact").eq(contact.before)
            changed = Conflict(f"the contact registered for {player!r} changed meanwhile; create the match again")
            tx.put({"pk": player_pk(player), "sk": "PROFILE", "contact": contact.after}, Guard(as_read, changed))
