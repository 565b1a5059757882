"""Garnets: each player's balance (carried across matches) and what of it is `available` (the
balance less what submissions hold), a guest's purse in a match, and the ledger.

A submission holds the garnets it would spend (`available` goes down, never below zero), so one
garnet can never back two moves; a resolution writes each holding once with the net change; an
immediate action takes only from what is free."""

from __future__ import annotations

from typing import Any

from boto3.dynamodb.conditions import Attr

from game_core.aws.store.items import garnets_key, match_pk, player_pk
from game_core.aws.store.table import Table
from game_core.aws.store.transaction import Guard, Transaction, Update, changed_meanwhile
from game_core.match.model import Match


class Wallet:
    def __init__(self, db: Table) -> None:
        self.db = db

    def open_accounts(self, tx: Transaction, match: Match, balances: dict[str, int]) -> None:
        """A new match's holdings: players never seen start with their balance (a known one keeps
        theirs), each guest an empty purse."""
        for player, balance in balances.items():
            start = Update(
                "SET balance = if_not_exists(balance, :start), available = if_not_exists(available, :start)",
                {":start": balance},
            )
            tx.update(garnets_key(player), start)
        for guest in sorted(match.guests):
            tx.put({"pk": match_pk(match.match_id), "sk": f"PURSE#{guest}", "balance": 0, "available": 0})

    def hold(self, tx: Transaction, key: dict[str, Any], change: int, short: Exception) -> None:
        """Hold `change` more garnets of the holding at `key` (or release -change), never below
        zero (`short`)."""
        update = Update("SET available = available - :change", {":change": change})
        tx.update(key, update, Guard(Attr("available").gte(change), short) if change > 0 else None)

    def move(self, tx: Transaction, key: dict[str, Any], change: int, short: Exception) -> None:
        """A holding's balance and free garnets changed at once; a decrease only from what is free
        (`short`)."""
        update = Update(
            "SET balance = if_not_exists(balance, :zero) + :change, "
            "available = if_not_exists(available, :zero) + :change",
            {":change": change, ":zero": 0},
        )
        tx.update(key, update, Guard(Attr("available").gte(-change), short) if change < 0 else None)

    def settle(self, tx: Transaction, key: dict[str, Any], spent: int, awarded: int, match_id: str) -> None:
        """A holding written once by a resolution with the net change: what was held is spent (it
        already left `available`), what was awarded is added to both; never below zero."""
        update = Update(
            "SET balance = if_not_exists(balance, :zero) + :net, "
            "available = if_not_exists(available, :zero) + :awarded",
            {":zero": 0, ":net": awarded - spent, ":awarded": awarded},
        )
        covered = Attr("balance").not_exists() | Attr("balance").gte(spent)
        tx.update(key, update, Guard(covered, changed_meanwhile(match_id)))

    def give_back(self, tx: Transaction, key: dict[str, Any], balance: int, available: int) -> None:
        """A holding's balance and free garnets changed by what a stopped match gives back."""
        update = Update(
            "SET balance = if_not_exists(balance, :zero) + :balance, "
            "available = if_not_exists(available, :zero) + :available",
            {":balance": balance, ":available": available, ":zero": 0},
        )
        tx.update(key, update)

    def ledger(self, tx: Transaction, player: str, match_id: str, entry: str, amount: int) -> None:
        """One ledger line, only once."""
        line = {"pk": player_pk(player), "sk": f"LEDGER#{match_id}#{entry}", "amount": amount}
        tx.put(line, Guard(Attr("pk").not_exists(), changed_meanwhile(match_id)))

    def balances(self, players: tuple[str, ...]) -> dict[str, int]:
        items = self.db.batch_get([garnets_key(player) for player in players])
        return {str(item["pk"]).removeprefix("PLAYER#"): int(item["balance"]) for item in items}

    def purses(self, match_id: str) -> dict[str, int]:
        return {
            str(item["sk"]).removeprefix("PURSE#"): int(item["balance"])
            for item in self.db.query(match_pk(match_id), "PURSE#")
        }
