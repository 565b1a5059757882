"""The host server's matches table on disk: a snapshot and a journal of the changes since.

- `table.json`: every item, as of the last compaction (the items as DynamoDB's wire format has
  them, {"S": ...}, {"N": ...}, binary values as base64 text), replaced whole and durably
  (`write_durably`): a crash leaves the old snapshot or the new one.
- `table.journal`: a line per AWS call that changed the table since (PutItem, UpdateItem,
  DeleteItem, TransactWriteItems, BatchWriteItem), written under moto's lock as the call ends,
  so the lines are in the calls' order: each item the call named, as it is after the call (or
  null: gone). The line is flushed to the disk (fdatasync) before the call returns to its
  caller, so whatever a handler acknowledged is on the disk, while the calls of other threads go
  on (one flush covers every line written before it). A kill mid-write leaves at most the last
  line cut short: its call never returned, and the next load drops that line; a bad line
  anywhere else stops the start, naming the file.

A change costs a line of the items it touched, not the whole table (which the server used to
rewrite after every invocation: issue 32's load benchmark). The journal is folded into a new
snapshot at every start, and while running once it outgrows `JOURNAL_LIMIT`.

Items past their time to live are deleted as DynamoDB's TTL deletes them (moto keeps them): on
load, and by `drop_expired`, which looks only at the items due (a heap of their times).
"""

from __future__ import annotations

import base64
import heapq
import json
import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from moto.core import DEFAULT_ACCOUNT_ID
from moto.dynamodb.models import dynamodb_backends
from moto.dynamodb.models.dynamo_type import DynamoType
from moto.dynamodb.models.utilities import dynamo_json_dump

from game_core.cli.failures import CliError
from local_stack.aws.moto_dynamodb import sizes_unchecked
from local_stack.aws.moto_lock import MOTO_LOCK
from local_stack.laptop.persistence import remove_leftovers, write_durably

JOURNAL_LIMIT = 64 * 1024 * 1024
"""The journal's size (bytes) past which a running server folds it into a new snapshot."""
TTL_IGNORED_AFTER = 5 * 365 * 86_400
"""DynamoDB's TTL ignores a time more than five years past (a value in milliseconds read as
seconds, say): such an item is kept."""
WRITES = ("PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem")
Key = tuple[str, str]
Item = dict[str, Any]


def expired(item: Item, attribute: str, now: float) -> bool:
    """Whether DynamoDB's TTL on `attribute` deletes the item at epoch second `now`: a Number
    attribute holding a time already past (not one more than five years past); an item without
    it, or with another type, never expires."""
    value = item.get(attribute, {}).get("N")
    return value is not None and now - TTL_IGNORED_AFTER <= float(value) < now


def _from_json(value: dict[str, Any]) -> dict[str, Any]:
    """One attribute value from the file, its binary parts as bytes (as moto keeps them)."""
    (kind, inner), *_ = value.items()
    if kind == "B":
        return {"B": base64.b64decode(inner)}
    if kind == "BS":
        return {"BS": [base64.b64decode(part) for part in inner]}
    if kind == "M":
        return {"M": {name: _from_json(part) for name, part in inner.items()}}
    if kind == "L":
        return {"L": [_from_json(part) for part in inner]}
    return value


def _operations(operation: str, body: dict[str, Any]) -> Iterable[tuple[str, Item]]:
    """(table, the key or the item) of each item a write request names."""
    if operation in ("PutItem", "UpdateItem", "DeleteItem"):
        yield body["TableName"], body.get("Key") or body["Item"]
    elif operation == "TransactWriteItems":
        for entry in body["TransactItems"]:
            for kind, part in entry.items():
                if kind != "ConditionCheck":
                    yield part["TableName"], part.get("Key") or part["Item"]
    else:
        for table, requests in body["RequestItems"].items():
            for request in requests:
                put, delete = request.get("PutRequest"), request.get("DeleteRequest")
                yield table, put["Item"] if put else delete["Key"]


def read_stored(snapshot: Path) -> dict[Key, Item]:
    """The items the folder holds (its snapshot, then its journal's changes), by key, as the next
    load reads them, expired ones included; a CliError naming the file that is not the table's."""
    journal = snapshot.with_suffix(".journal")
    try:
        stored = json.loads(snapshot.read_bytes()) if snapshot.exists() else []
        items = {(item["pk"]["S"], item["sk"]["S"]): item for item in stored}
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise _not_the_table(snapshot, error) from None
    lines = journal.read_bytes().split(b"\n") if journal.exists() else []
    for number, line in enumerate(lines):
        if not line:
            continue
        try:
            for key, item in json.loads(line):
                named = (key["pk"]["S"], key["sk"]["S"])
                if item is None:
                    items.pop(named, None)
                else:
                    items[named] = item
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            if number == len(lines) - 1:  # the last line cut short by a kill: its call never returned
                break
            raise _not_the_table(journal, error) from None
    return items


def _not_the_table(path: Path, error: Exception) -> CliError:
    return CliError(
        f"{path} is not the table this server keeps ({type(error).__name__}: {error}): the matches "
        "in it would be lost; put back a good copy, or move it aside to start without them"
    )


class TableFile:
    """The table `table` (through the DynamoDB `client`) kept in `path` (the snapshot) and its
    journal beside it; `now` (epoch seconds) is the stack's clock, which the table's TTL reads.

        table = TableFile(client, "matches", data / "table.json", now=time.time)
        table.load()                                   # before anything runs
        lambdas.after_aws_call.append(table.after_call)  # each change journaled from then on
    """

    def __init__(self, client: Any, table: str, path: Path, now: Callable[[], float]) -> None:
        self.client = client
        self.table = table
        self.path = path
        self.journal = path.with_suffix(".journal")
        self.now = now
        ttl = client.describe_time_to_live(TableName=table)["TimeToLiveDescription"]
        self.ttl: str | None = ttl.get("AttributeName") if ttl.get("TimeToLiveStatus") == "ENABLED" else None
        """The attribute the table's TTL reads, None if it has none."""
        self._backend = dynamodb_backends[DEFAULT_ACCOUNT_ID][client.meta.region_name]
        self._due: list[tuple[float, str, str]] = []
        """(expiration, pk, sk) of each item written with a time to live: a heap, soonest first."""
        self._handle: int | None = None
        self._flushing = threading.Lock()
        self._generation = 0  # a new journal each compaction: a flush of an older one is done
        self._appended = self._flushed = 0
        self.watchers: list[Callable[[list[tuple[Key, Item | None]]], None]] = []
        """Told each item as loaded, then as each write leaves it (None: gone), under moto's lock
        (the login index: local_stack/laptop/login_index.py)."""

    def items(self) -> list[Item]:
        """Every item of the table, in key order."""
        pages = self.client.get_paginator("scan").paginate(TableName=self.table, ConsistentRead=True)
        items = [item for page in pages for item in page["Items"]]
        return sorted(items, key=lambda item: (item["pk"]["S"], item["sk"]["S"]))

    def _expired(self, item: Item) -> bool:
        return self.ttl is not None and expired(item, self.ttl, self.now())

    # -- start -----------------------------------------------------------------------------------

    def load(self) -> int:
        """Put the folder's items into the table (an empty one, before anything runs), less what
        has expired, fold the journal into a new snapshot and start journaling; returns how many.
        Temporary files a crashed compaction left are removed. Read whole before anything is put:
        a bad file stops the start with the table untouched."""
        remove_leftovers(self.path)
        stored = read_stored(self.path)
        try:
            kept = [
                (item, {name: _from_json(value) for name, value in item.items()})
                for _, item in sorted(stored.items())
                if not self._expired(item)
            ]
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            raise _not_the_table(self.path, error) from None
        with MOTO_LOCK:
            table = self._backend.get_table(self.table)
            with sizes_unchecked():  # each passed moto's size check when it was written
                for item, attributes in kept:  # straight into moto's table: thousands of items in a blink
                    table.put_item(attributes)
                    self._note_expiry(item)
            for watcher in self.watchers:
                watcher([((item["pk"]["S"], item["sk"]["S"]), item) for item, _ in kept])
            self.save()
        return len(kept)

    # -- while running -----------------------------------------------------------------------------

    def after_call(self, event_name: str, request: Any, response: Any) -> Callable[[], None] | None:
        """`InProcessLambdas.after_aws_call`: a successful write to the table journaled (under
        moto's lock); the flush to the disk that the caller waits for, to run once the lock is free."""
        service, _, operation = event_name.removeprefix("before-send.").partition(".")
        if service != "dynamodb" or operation not in WRITES or response is None or response.status_code != 200:
            return None
        keys = {
            (named["pk"]["S"], named["sk"]["S"])
            for table, named in _operations(operation, json.loads(request.body))
            if table == self.table
        }
        if not keys or self._handle is None:
            return None
        changes = [[{"pk": {"S": pk}, "sk": {"S": sk}}, self._current(pk, sk)] for pk, sk in sorted(keys)]
        self._append((json.dumps(changes) + "\n").encode())
        for watcher in self.watchers:
            watcher([((key["pk"]["S"], key["sk"]["S"]), item) for key, item in changes])
        for _, item in changes:
            if item is not None:
                self._note_expiry(item)
        if self._appended > JOURNAL_LIMIT:
            self.save()
            return None
        generation, upto = self._generation, self._appended
        return lambda: self._flush(generation, upto)

    def _current(self, pk: str, sk: str) -> Item | None:
        found = self._backend.get_table(self.table).get_item(DynamoType({"S": pk}), DynamoType({"S": sk}))
        return None if found is None else json.loads(dynamo_json_dump(found.to_json()))["Attributes"]

    def _append(self, line: bytes) -> None:
        """One line at the journal's end; written whole or not at all (a failed write is cut off,
        so no half line is left before the next)."""
        assert self._handle is not None
        try:
            rest = memoryview(line)
            while rest:
                rest = rest[os.write(self._handle, rest) :]
        except BaseException:
            os.ftruncate(self._handle, self._appended)
            raise
        self._appended += len(line)

    def _flush(self, generation: int, upto: int) -> None:
        """The journal on the disk at least up to `upto` (each flush takes every line written so far)."""
        with self._flushing:
            if generation != self._generation or self._flushed >= upto or self._handle is None:
                return
            written = self._appended
            os.fdatasync(self._handle)
            self._flushed = max(self._flushed, written)

    def _note_expiry(self, item: Item) -> None:
        value = item.get(self.ttl or "", {}).get("N")
        if value is not None and float(value) >= self.now() - TTL_IGNORED_AFTER:
            heapq.heappush(self._due, (float(value), item["pk"]["S"], item["sk"]["S"]))

    def drop_expired(self) -> int:
        """Delete what has expired, as DynamoDB's TTL would (journaled as any delete); how many."""
        dropped = 0
        if not self._due or self._due[0][0] >= self.now():  # nothing due: no wait for moto's lock
            return dropped
        with MOTO_LOCK:
            while self._due and self._due[0][0] < self.now():
                _, pk, sk = heapq.heappop(self._due)
                current = self._current(pk, sk)
                if current is not None and self._expired(current):
                    self.client.delete_item(TableName=self.table, Key={"pk": {"S": pk}, "sk": {"S": sk}})
                    dropped += 1
        return dropped

    def save(self) -> None:
        """Compaction: the table as it is now (less what has expired) written as the new snapshot,
        then a new, empty journal. A crash between the two replays the old journal onto the new
        snapshot on the next load, which changes nothing (each line holds its items whole)."""
        with MOTO_LOCK:
            table = self._backend.get_table(self.table)
            items = [json.loads(dynamo_json_dump(item.to_json()))["Attributes"] for item in table.all_items()]
            kept = sorted(
                (item for item in items if not self._expired(item)), key=lambda item: (item["pk"]["S"], item["sk"]["S"])
            )
            write_durably(self.path, json.dumps(kept).encode())
            with self._flushing:
                if self._handle is None:
                    self._handle = os.open(self.journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                os.ftruncate(self._handle, 0)
                os.fsync(self._handle)
                self._generation += 1
                self._appended = self._flushed = 0

    def close(self) -> None:
        with self._flushing:
            if self._handle is not None:
                os.fsync(self._handle)
                os.close(self._handle)
                self._handle = None
