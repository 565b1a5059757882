"""moto's DynamoDB transactions at the cost of the items they write, its queries at the cost of the
partition they read, and its responses at the cost of JSON.

In moto 5.2.1 `DynamoDBBackend.transact_write_items` backs up, for its rollback, the whole table
once per item of the transaction (a deep copy each, all taken before its first write): a
transaction costs its items x the table's size, and a Puzzler's Clubs match on the local stack
(some 440 transactions of 2 to 6 items on a growing table) spent three quarters of its time in
those copies. `item_backups()` backs up instead each item the transaction names (a deep copy, or
its absence) before moto runs it, lets moto's own backups be the live table (so its rollback
restores nothing), and when the transaction fails puts every item it names back as it was: the
same table after a cancelled transaction, at the cost of the items written.

`Table.query` on the table itself (no index) sorts every item of the table (`all_items`) and then
keeps those of the partition asked for: each query cost the whole table's size, and under
bin/bench load at 50 matches (some 200 phase-record and sheet queries a resolution) these sorts
were a quarter of the server's CPU. `partition_queries()` has the query's `all_items` be that
partition's items alone: the same items (moto keeps them by partition key, and the query keeps
only that key's), which moto then sorts, pages and filters as before.

moto writes every response by walking the operation's output shape, looking each member of each
structure up under its possible aliases: for an item, every attribute value (a structure of ten
members) took that walk, and with the queries fixed it was half of a phase resolution's CPU.
`plain_attribute_values()` writes an attribute value (and a map of them: an item, a key) as
moto's JSON serializer would, without the walk: its one type's value as it is, a binary one in
base64, a map's and a list's values the same way, a member moto would leave out (None) left out.

moto checks an item's size (400 KB) at every attribute it sets, summing the sizes of every
attribute set before: building an item costs the square of its attributes, and reading the host
server's table back from the disk at a start (every item put anew) was mostly that.
`sizes_unchecked()` puts items that passed the check once (when they were written) without it.

Swapping the module's `copy` for one transaction is safe because every call into moto runs under
`lambda_adapter.MOTO_LOCK`: no other DynamoDB request runs meanwhile. The replaced behaviour is
pinned: the digest of moto's function must match `SEAM_DIGEST`.
"""

from __future__ import annotations

import copy
import hashlib
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from importlib.metadata import version
from types import SimpleNamespace
from typing import Any

import moto.dynamodb.models as dynamodb_models
from moto.core.serialize import JSONSerializer
from moto.dynamodb.models.dynamo_type import DynamoType, LimitedSizeDict
from moto.dynamodb.models.table import Table

PINNED_MOTO = "5.2.1"
SEAM = "DynamoDBBackend.transact_write_items"
SEAM_DIGEST = "81db2cb7d94e39c9"
"""The first 16 hex digits of the SHA-256 of moto 5.2.1's `transact_write_items` source."""
_ORIGINAL = dynamodb_models.DynamoDBBackend.transact_write_items
"""moto's function as imported (before any patch)."""
QUERY_SEAM = "Table.query"
QUERY_SEAM_DIGEST = "002b4d00be6df07c"
"""The same for moto 5.2.1's `Table.query` (its base-table path reads `self.all_items()`)."""
_ORIGINAL_QUERY = Table.query
SIZE_SEAM = "LimitedSizeDict.__setitem__"
SIZE_SEAM_DIGEST = "d979580fdbe14f79"
"""The same for moto 5.2.1's item-size check (an item's attributes are a LimitedSizeDict)."""
_ORIGINAL_SIZE_CHECK = LimitedSizeDict.__setitem__


@cache  # moto's source cannot change in a running process
def seam_digest(function: Callable[..., Any] = _ORIGINAL) -> str:
    source = inspect.getsource(function)
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def _check_seam(seam: str, function: Callable[..., Any], digest: str) -> None:
    installed = version("moto")
    if installed != PINNED_MOTO or seam_digest(function) != digest:
        raise RuntimeError(
            f"local_stack.aws.moto_dynamodb is written against moto {PINNED_MOTO}'s {seam}; moto {installed} is "
            "installed and its source differs. Re-check the seam."
        )


def _deepcopy_but_tables(value: Any, memo: dict[int, Any] | None = None) -> Any:
    """moto's table backups are the live table; every other copy a copy."""
    return value if isinstance(value, Table) else copy.deepcopy(value, memo)


NO_TABLE_COPIES = SimpleNamespace(deepcopy=_deepcopy_but_tables)


def _backup(backend: Any, operation: dict[str, Any]) -> Callable[[], None]:
    """The item one operation of a transaction names, kept as it is now: the function that puts it
    back (a no-op for an operation moto refuses before writing: no such table, no key)."""
    table = backend.tables.get(operation.get("TableName"))
    named = operation.get("Key") or operation.get("Item") or {}
    attributes = (table.hash_key_attr, table.range_key_attr) if table is not None else ()
    if table is None or not all(name in named for name in attributes if name is not None):
        return lambda: None
    hash_value = DynamoType(named[table.hash_key_attr])
    range_value = DynamoType(named[table.range_key_attr]) if table.range_key_attr is not None else None
    kept = copy.deepcopy(table.get_item(hash_value, range_value))

    def put_back() -> None:
        items = table.items[hash_value] if range_value is not None else table.items
        key = range_value if range_value is not None else hash_value
        if kept is None:
            items.pop(key, None)
        else:
            items[key] = kept

    return put_back


def item_backups() -> Callable[[], None]:
    """Patch moto's transactions to back up the items they write, not the table; returns the
    function that restores moto."""
    _check_seam(SEAM, _ORIGINAL, SEAM_DIGEST)
    backend = dynamodb_models.DynamoDBBackend
    original = backend.transact_write_items

    def transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
        put_back = [_backup(self, operation) for item in transact_items for operation in item.values()]
        module_copy, dynamodb_models.copy = dynamodb_models.copy, NO_TABLE_COPIES  # type: ignore[assignment]
        try:
            original(self, transact_items)
        except Exception:
            for restore_item in reversed(put_back):
                restore_item()
            raise
        finally:
            dynamodb_models.copy = module_copy

    backend.transact_write_items = transact_write_items  # type: ignore[method-assign]

    def restore() -> None:
        backend.transact_write_items = original  # type: ignore[method-assign]

    return restore


def _partition(table: Table, hash_key: Any) -> list[Any]:
    """The items under one partition key, as `Table.all_items` would list them."""
    held = table.items.get(hash_key)
    if held is None:
        return []
    items = list(held.values()) if table.range_key_attr else [held]
    return sorted(items, key=lambda item: item.range_key) if table.range_key_attr else items


def partition_queries() -> Callable[[], None]:
    """Patch moto's queries on a table (not an index) to read the partition they name, not the
    whole table; returns the function that restores moto."""
    _check_seam(QUERY_SEAM, _ORIGINAL_QUERY, QUERY_SEAM_DIGEST)
    original = Table.query

    def query(self: Table, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        index_name = args[6] if len(args) > 6 else kwargs.get("index_name")
        if index_name or hash_key is None:
            return original(self, hash_key, *args, **kwargs)
        self.all_items = lambda: _partition(self, hash_key)  # type: ignore[method-assign]
        try:
            return original(self, hash_key, *args, **kwargs)
        finally:
            del self.all_items

    Table.query = query  # type: ignore[method-assign]

    def restore() -> None:
        Table.query = original  # type: ignore[method-assign]

    return restore


class _NotPlain(Exception):
    """A value moto's serializer would look into as an object (not a dict): its own walk writes it."""


def _attribute_value(value: Any, kinds: frozenset[str], blob: Callable[[Any], str]) -> dict[str, Any]:
    """An AttributeValue (a dict: its type -> its value) as moto's JSON serializer writes it."""
    if type(value) is not dict:
        raise _NotPlain
    written: dict[str, Any] = {}
    for kind, held in value.items():
        if held is None or kind not in kinds:
            continue
        if kind == "M":
            written[kind] = _attribute_map(held, kinds, blob)
        elif kind == "L":  # a list's None stays (moto appends it as it is)
            written[kind] = [None if one is None else _attribute_value(one, kinds, blob) for one in held]
        elif kind == "B":
            written[kind] = blob(held)
        elif kind == "BS":
            written[kind] = [blob(one) for one in held]
        else:  # S, N, SS, NS, NULL, BOOL: strings and booleans, as they are
            written[kind] = list(held) if kind in ("SS", "NS") else held
    return written


def _attribute_map(value: Any, kinds: frozenset[str], blob: Callable[[Any], str]) -> dict[str, Any]:
    if type(value) is not dict:
        raise _NotPlain
    return {name: _attribute_value(one, kinds, blob) for name, one in value.items() if one is not None}


def plain_attribute_values() -> Callable[[], None]:
    """Patch moto's JSON serializer to write DynamoDB's attribute values (and maps of them) without
    walking their shape; returns the function that restores it."""
    structure, mapping = JSONSerializer._serialize_type_structure, JSONSerializer._serialize_type_map

    def kinds_of(serializer: Any, shape: Any) -> frozenset[str] | None:
        """The members of an AttributeValue shape of DynamoDB's, else None."""
        if shape.name != "AttributeValue" or serializer.service_model.service_name != "dynamodb":
            return None
        return frozenset(shape.members)

    def plainly(original: Callable[..., None], convert: Callable[..., Any], value_shape: Callable[[Any], Any]) -> Any:
        """`original` writing a value of DynamoDB's AttributeValue shape (`value_shape` of the
        shape) with `convert`, anything else (or a value not plain JSON) as moto does."""

        def write(self: Any, serialized: Any, value: Any, shape: Any, key: str) -> None:
            kinds = kinds_of(self, value_shape(shape)) if key and value is not None else None
            try:
                if kinds is not None:
                    self._default_serialize(serialized, convert(value, kinds, self._base64), shape, key)
                    return
            except _NotPlain:
                pass
            original(self, serialized, value, shape, key)

        return write

    write_structure = plainly(structure, _attribute_value, lambda shape: shape)
    write_map = plainly(mapping, _attribute_map, lambda shape: shape.value)
    JSONSerializer._serialize_type_structure = write_structure  # type: ignore[method-assign]
    JSONSerializer._serialize_type_map = write_map  # type: ignore[method-assign]

    def restore() -> None:
        JSONSerializer._serialize_type_structure = structure  # type: ignore[method-assign]
        JSONSerializer._serialize_type_map = mapping  # type: ignore[method-assign]

    return restore


@contextmanager
def sizes_unchecked() -> Iterator[None]:
    """The block's items built without moto's size check: only items that passed it once (read
    back from where they were kept), and only holding MOTO_LOCK (no other call builds an item meanwhile)."""
    _check_seam(SIZE_SEAM, _ORIGINAL_SIZE_CHECK, SIZE_SEAM_DIGEST)
    LimitedSizeDict.__setitem__ = dict.__setitem__  # type: ignore[assignment]
    try:
        yield
    finally:
        LimitedSizeDict.__setitem__ = _ORIGINAL_SIZE_CHECK  # type: ignore[method-assign]
