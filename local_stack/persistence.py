"""The local table on disk: the host server (local_stack/host_server.py) keeps every item of the
matches table in one JSON file, written after every handler invocation and read back into moto's
table when the server starts again, so a restart loses nothing that was stored.

The file holds the items as DynamoDB's wire format has them ({"S": ...}, {"N": ...}), binary
values (the packed game state) as base64 text. It is replaced whole (a temporary file renamed over
it), so a crash mid-write leaves the previous one.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any

from local_stack.lambda_adapter import MOTO_LOCK


def _to_json(value: dict[str, Any]) -> dict[str, Any]:
    """One attribute value with its binary parts as base64 text."""
    (kind, inner), *_ = value.items()
    if kind == "B":
        return {"B": base64.b64encode(inner).decode()}
    if kind == "BS":
        return {"BS": [base64.b64encode(part).decode() for part in inner]}
    if kind == "M":
        return {"M": {name: _to_json(part) for name, part in inner.items()}}
    if kind == "L":
        return {"L": [_to_json(part) for part in inner]}
    return value


def _from_json(value: dict[str, Any]) -> dict[str, Any]:
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


class TableFile:
    """The table `table` (through the DynamoDB `client`) kept in `path`."""

    def __init__(self, client: Any, table: str, path: Path) -> None:
        self.client = client
        self.table = table
        self.path = path
        self._written = ""

    def items(self) -> list[dict[str, Any]]:
        """Every item of the table, in key order (the file then changes only with its contents)."""
        pages = self.client.get_paginator("scan").paginate(TableName=self.table, ConsistentRead=True)
        items = [item for page in pages for item in page["Items"]]
        return sorted(items, key=lambda item: (item["pk"]["S"], item["sk"]["S"]))

    def save(self) -> None:
        # Under moto's lock, so the file written last is the table as it is last: one save cannot
        # scan before another and write after it.
        with MOTO_LOCK:
            text = json.dumps([{name: _to_json(value) for name, value in item.items()} for item in self.items()])
            if text == self._written:
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, self.path)
            self._written = text

    def load(self) -> int:
        """Put the file's items into the table (an empty one, before anything runs); returns how many."""
        if not self.path.exists():
            return 0
        text = self.path.read_text(encoding="utf-8")
        items = json.loads(text)
        for item in items:
            self.client.put_item(TableName=self.table, Item={name: _from_json(value) for name, value in item.items()})
        self._written = text
        return len(items)
