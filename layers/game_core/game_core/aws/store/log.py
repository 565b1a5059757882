"""The match's event log, kept in the order its entries were stored.

Each entry is keyed `EVENT#SEQ#<number>` (ten digits, from 1), the numbers given out by a
counter item beside the match (`SEQ#EVENT`, its `last` number). A write that logs takes the
numbers after the `last` it read and sets `last` to its own final number, conditional on `last`
being what it read (on the item being absent, for a match that has logged nothing numbered yet),
in the same transaction as its entries: two writers cannot take the same number, and numbers go
in the order the transactions committed, whatever their clocks said.

Why a counter item with that condition, rather than either alternative:
- not a counter on the match header: the header's conditions each mean something to the caller
  (the version a host act read, `done` for early close, the open phase), and a submission only
  checks the header; a moving counter there would fail a host act or a closing submission for
  another player's plain submission, and make every submission write the whole header (billed by
  its size; the counter item is a few bytes);
- not a conditional Put of the next key alone: finding the last key takes a Query per write,
  while `last` comes with the header in the BatchGetItem that every write already makes
  (`learn`).
A lost race is this item's failure alone (`LogMoved`, told apart by the cancellation reasons of
each item), and a cancelled transaction wrote nothing: the writer reads `last` again and commits
the same items again under the next numbers (`DynamoMatchStore._commit`).

Entries stored before the sequence (`EVENT#<time>#<nonce>`, time to the microsecond) stay as they
are and are read with the others: their keys begin with a digit, which sorts before `SEQ#`, so
they come first, among themselves by time (entries of one moment in the random order of their
nonces, as they always were: nothing stored says which came first), then every numbered one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from boto3.dynamodb.conditions import Attr

from game_core.aws.store.items import key, match_pk, stamp
from game_core.aws.store.table import Table
from game_core.aws.store.transaction import Guard, Transaction, Update
from game_core.service.ports import Event

COUNTER = "SEQ#EVENT"
"""The counter item's sort key (outside EVENT#..META, the messages page's one Query)."""
PREFIX = "EVENT#"
NUMBERED = "EVENT#SEQ#"
KNOWN_MATCHES = 256
"""How many matches' `last` a store remembers (the matches a Lambda instance has read lately)."""


class LogMoved(Exception):
    """Another write took the log's next numbers after this one read `last`: nothing was written;
    read `last` again and commit again."""


def counter_key(match_id: str) -> dict[str, Any]:
    return key(match_pk(match_id), COUNTER)


def entry_key(number: int) -> str:
    return f"{NUMBERED}{number:010d}"


class EventLog:
    """Appends a transaction's entries under the next numbers and reads the log back. Remembers
    each match's `last` as read with the match (`learn`), so logging costs no read of its own;
    an unknown one is read first (`read_again`). `pk` gives the partition of the log's owner from
    its id: a match's (the default), or a season's (`service/season/lifecycle.py`), the same layout under each."""

    def __init__(self, db: Table, pk: Callable[[str], str] = match_pk) -> None:
        self.db = db
        self._pk = pk
        self._last: dict[str, int] = {}

    def _remember(self, match_id: str, last: int) -> None:
        self._last.pop(match_id, None)
        self._last[match_id] = last
        if len(self._last) > KNOWN_MATCHES:
            del self._last[next(iter(self._last))]

    def learn(self, match_id: str, items: dict[str, dict[str, Any]]) -> None:
        """`last` from the match's items as read (by sort key; no counter item: nothing numbered)."""
        self._remember(match_id, int(items.get(COUNTER, {}).get("last", 0)))

    def starts(self, match_id: str) -> None:
        """A new match: nothing logged yet."""
        self._remember(match_id, 0)

    def read_again(self, match_id: str) -> None:
        counter = key(self._pk(match_id), COUNTER)
        self._remember(match_id, int((self.db.get(counter) or {}).get("last", 0)))

    def append(self, tx: Transaction, match_id: str, events: list[Event]) -> None:
        """The entries under the numbers after `last` as known, and `last` moved past them only if
        it is still the one known (LogMoved)."""
        if not events:
            return
        if match_id not in self._last:
            self.read_again(match_id)
        last = self._last[match_id]
        for number, event in enumerate(events, start=last + 1):
            at = stamp(event.at)
            data = json.dumps(event.data, sort_keys=True)
            tx.put({"pk": self._pk(match_id), "sk": entry_key(number), "type": event.type, "at": at, "data": data})
        as_read = Attr("pk").not_exists() if last == 0 else Attr("last").eq(last)
        moved = Update("SET #last = :last", {":last": last + len(events)}, {"#last": "last"})
        tx.update(key(self._pk(match_id), COUNTER), moved, Guard(as_read, LogMoved(), collided=LogMoved()))

    def appended(self, match_id: str, count: int) -> None:
        """A transaction that logged `count` entries committed: `last` moved past them."""
        if count and match_id in self._last:
            self._remember(match_id, self._last[match_id] + count)

    def events(self, match_id: str) -> list[Event]:
        return [entry(item) for item in self.db.query(self._pk(match_id), PREFIX)]


LOG_ATTEMPTS = 5
"""Commits of one write, the first included, while other writes keep taking the log's next
numbers first; then the write is refused as a collision (its caller's "try again")."""

Build = Callable[[Transaction], list[Event]]
"""Adds a write's items to its transaction and returns the events it logs."""


def commit_logged(client: Any, table: str, log: EventLog, owner: str, build: Build, collided: Exception) -> None:
    """The write `build` makes, with its events under the log's next numbers, in one transaction;
    made again (from scratch, under the numbers read again) while another write takes those
    numbers first: a cancelled transaction wrote nothing."""
    for _attempt in range(LOG_ATTEMPTS):
        tx = Transaction(client, table, collided)
        events = build(tx)
        log.append(tx, owner, events)
        try:
            tx.commit()
        except LogMoved:
            log.read_again(owner)
            continue
        log.appended(owner, len(events))
        return
    raise collided


def entry(item: dict[str, Any]) -> Event:
    return Event(item["type"], datetime.fromisoformat(item["at"]), json.loads(item["data"]))
