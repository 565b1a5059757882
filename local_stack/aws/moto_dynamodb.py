"""moto's DynamoDB transactions at the cost of the items they write.

In moto 5.2.1 `DynamoDBBackend.transact_write_items` backs up, for its rollback, the whole table
once per item of the transaction (a deep copy each, all taken before its first write): a
transaction costs its items x the table's size, and a Puzzler's Clubs match on the local stack
(some 440 transactions of 2 to 6 items on a growing table) spent three quarters of its time in
those copies. `item_backups()` backs up instead each item the transaction names (a deep copy, or
its absence) before moto runs it, lets moto's own backups be the live table (so its rollback
restores nothing), and when the transaction fails puts every item it names back as it was: the
same table after a cancelled transaction, at the cost of the items written.

Swapping the module's `copy` for one transaction is safe because every call into moto runs under
`lambda_adapter.MOTO_LOCK`: no other DynamoDB request runs meanwhile. The replaced behaviour is
pinned: the digest of moto's function must match `SEAM_DIGEST`.
"""

from __future__ import annotations

import copy
import hashlib
import inspect
from collections.abc import Callable
from importlib.metadata import version
from types import SimpleNamespace
from typing import Any

import moto.dynamodb.models as dynamodb_models
from moto.dynamodb.models.dynamo_type import DynamoType
from moto.dynamodb.models.table import Table

PINNED_MOTO = "5.2.1"
SEAM = "DynamoDBBackend.transact_write_items"
SEAM_DIGEST = "81db2cb7d94e39c9"
"""The first 16 hex digits of the SHA-256 of moto 5.2.1's `transact_write_items` source."""
_ORIGINAL = dynamodb_models.DynamoDBBackend.transact_write_items
"""moto's function as imported (before any patch)."""


def seam_digest() -> str:
    source = inspect.getsource(_ORIGINAL)
    return hashlib.sha256(source.encode()).hexdigest()[:16]


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
    installed = version("moto")
    if installed != PINNED_MOTO or seam_digest() != SEAM_DIGEST:
        raise RuntimeError(
            f"local_stack.aws.moto_dynamodb is written against moto {PINNED_MOTO}'s {SEAM}; moto {installed} is "
            "installed and its source differs. Re-check the seam."
        )
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
