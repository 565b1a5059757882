"""Reads of the one table, and its single-item conditional updates: batched gets with backoff,
queries page by page (boto3's paginator), always consistent."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from boto3.dynamodb.conditions import ConditionBase, ConditionExpressionBuilder, Key
from botocore.exceptions import ClientError

from game_core.aws.store.items import plain, typed
from game_core.aws.store.transaction import Update, expression
from game_core.errors import Unavailable

BATCH_KEYS = 100
"""The most keys one BatchGetItem takes."""
READ_ATTEMPTS = 6
"""BatchGetItem calls for keys DynamoDB leaves unprocessed (throttled, or over 16 MB), the first
included, before the read gives up: with the backoff below, about 1.6 seconds at most."""
FIRST_BACKOFF = 0.05
"""Seconds of the first wait before reading unprocessed keys again; each later one doubles (full
jitter, as AWS advises for BatchGetItem)."""


class StoreUnavailable(Unavailable):
    """DynamoDB left keys unread after every attempt: the read has no answer (it is never taken
    for "not found"). An AWS failure like a throttle: the caller's retry (a state machine Task's,
    the sender's) reads again."""

    def __init__(self, keys: list[dict[str, Any]]) -> None:
        self.keys = [(plain(key)["pk"], plain(key)["sk"]) for key in keys]
        named = ", ".join(f"{pk} {sk}" for pk, sk in self.keys)
        super().__init__(f"DynamoDB left {len(self.keys)} keys unread after {READ_ATTEMPTS} attempts: {named}")


class Table:
    def __init__(self, client: Any, name: str, sleep: Callable[[float], None] = time.sleep) -> None:
        self.client = client
        self.name = name
        self._sleep = sleep

    def get(self, key: dict[str, Any]) -> dict[str, Any] | None:
        item = self.client.get_item(TableName=self.name, Key=key, ConsistentRead=True).get("Item")
        return plain(item) if item else None

    def put(self, item: dict[str, Any]) -> None:
        """One whole item (plain values, its key among them), unconditionally."""
        self.client.put_item(TableName=self.name, Item=typed(item))

    def batch_get(self, keys: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The items of those keys that exist (a key given twice is read once), one call per
        hundred keys, more only for keys DynamoDB could not read at once (StoreUnavailable when
        some stay unread)."""
        unique = list({(key["pk"]["S"], key["sk"]["S"]): key for key in keys}.values())
        items: list[dict[str, Any]] = []
        for start in range(0, len(unique), BATCH_KEYS):
            items += self._read_all(unique[start : start + BATCH_KEYS])
        return items

    def _read_all(self, keys: list[dict[str, Any]]) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        for attempt in range(READ_ATTEMPTS):
            if attempt:
                self._sleep(random.uniform(0, FIRST_BACKOFF * 2 ** (attempt - 1)))
            request = {self.name: {"Keys": keys, "ConsistentRead": True}}
            response = self.client.batch_get_item(RequestItems=request)
            items += [plain(item) for item in response["Responses"].get(self.name, [])]
            keys = ((response.get("UnprocessedKeys") or {}).get(self.name) or {}).get("Keys") or []
            if not keys:
                return items
        raise StoreUnavailable(keys)

    def query(self, pk: str, prefix: str) -> list[dict[str, Any]]:
        """Every item under `pk` whose sort key begins with `prefix`, in sort key order."""
        return self._query(Key("pk").eq(pk) & Key("sk").begins_with(prefix))

    def query_range(self, pk: str, first: str, last: str) -> list[dict[str, Any]]:
        """Every item under `pk` whose sort key lies from `first` to `last` (both included), in
        sort key order: one call per MB read."""
        return self._query(Key("pk").eq(pk) & Key("sk").between(first, last))

    def _query(self, condition: ConditionBase) -> list[dict[str, Any]]:
        pages = self.client.get_paginator("query").paginate(
            TableName=self.name, ConsistentRead=True, **_key_condition(condition)
        )
        return [plain(item) for page in pages for item in page["Items"]]

    def update_if(self, key: dict[str, Any], update: Update, condition: ConditionBase | None = None) -> bool:
        """One item updated, only if `condition` holds: False (nothing written) when it does not."""
        try:
            self.client.update_item(TableName=self.name, Key=key, **expression(update, condition))
        except ClientError as error:
            if error.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            return False
        return True


def _key_condition(condition: ConditionBase) -> dict[str, Any]:
    """A query's KeyConditionExpression with its placeholders."""
    built = ConditionExpressionBuilder().build_expression(condition, is_key_condition=True)
    return {
        "KeyConditionExpression": built.condition_expression,
        "ExpressionAttributeNames": built.attribute_name_placeholders,
        "ExpressionAttributeValues": typed(built.attribute_value_placeholders),
    }
