"""moto's DynamoDB transactions at the cost of one table backup each.

In moto 5.2.1 `DynamoDBBackend.transact_write_items` backs up the table for its rollback once per
item of the transaction, each a deep copy of the whole table, all taken before its first write: a
transaction costs its items x the table's size. A Puzzler's Clubs match on the local stack (some
440 transactions of 2 to 6 items on a growing table) spent two thirds of its time in those copies.
`one_backup_per_transaction()` makes every backup of a table in one transaction after the first
the first one (equal to it: nothing is written until the backups are all taken), so a rollback
restores exactly what it did before. Every other copy moto's DynamoDB module makes is untouched.

The swap of the module's `copy` lasts one transaction and is safe because every call into moto
runs under `lambda_adapter.MOTO_LOCK`: no other DynamoDB request runs meanwhile. The replaced
behaviour is pinned: the digest of moto's function must match `SEAM_DIGEST`.
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


def _one_copy_per_table() -> SimpleNamespace:
    """A `copy` module for one transaction: a table deep-copied once, its later copies that one."""
    backups: dict[int, Table] = {}

    def deepcopy(value: Any, memo: dict[int, Any] | None = None) -> Any:
        if not isinstance(value, Table):
            return copy.deepcopy(value, memo)
        if id(value) not in backups:
            backups[id(value)] = copy.deepcopy(value, memo)
        return backups[id(value)]

    return SimpleNamespace(deepcopy=deepcopy)


def one_backup_per_transaction() -> Callable[[], None]:
    """Patch moto's transactions to back each table up once; returns the function that restores moto."""
    installed = version("moto")
    if installed != PINNED_MOTO or seam_digest() != SEAM_DIGEST:
        raise RuntimeError(
            f"local_stack.moto_dynamodb is written against moto {PINNED_MOTO}'s {SEAM}; moto {installed} is "
            "installed and its source differs. Re-check the seam."
        )
    backend = dynamodb_models.DynamoDBBackend
    original = backend.transact_write_items

    def transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
        module_copy, dynamodb_models.copy = dynamodb_models.copy, _one_copy_per_table()  # type: ignore[assignment]
        try:
            original(self, transact_items)
        finally:
            dynamodb_models.copy = module_copy

    backend.transact_write_items = transact_write_items  # type: ignore[method-assign]

    def restore() -> None:
        backend.transact_write_items = original  # type: ignore[method-assign]

    return restore
