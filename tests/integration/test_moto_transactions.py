"""local_stack.aws.moto_dynamodb: moto's DynamoDB transactions back up the items they write, not the
table, and a cancelled transaction still leaves the table exactly as it was."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import boto3
import moto.dynamodb.models as dynamodb_models
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws
from moto.dynamodb.exceptions import ItemSizeTooLarge
from moto.dynamodb.models.dynamo_type import DynamoType, LimitedSizeDict
from moto.dynamodb.models.table import Table

from local_stack.aws import moto_dynamodb
from local_stack.aws.moto_lock import MOTO_LOCK

TABLE = "matches"


def key(pk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": "META"}}


@pytest.fixture
def dynamodb() -> Iterator[Any]:
    """A table holding one item, "a" at version 1, with moto's transactions patched."""
    with mock_aws():
        client = boto3.client("dynamodb", region_name="eu-west-1")
        client.create_table(
            TableName=TABLE,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": k, "AttributeType": "S"} for k in ("pk", "sk")],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        )
        client.put_item(TableName=TABLE, Item=key("a") | {"version": {"N": "1"}})
        restore = moto_dynamodb.item_backups()
        try:
            yield client
        finally:
            restore()


def everything(client: Any) -> list[dict[str, Any]]:
    return sorted(client.scan(TableName=TABLE)["Items"], key=lambda item: item["pk"]["S"])


def bump_a(expected: str) -> dict[str, Any]:
    """Version 1 -> 2 of "a", on the condition that it is at `expected`."""
    return {
        "Update": {
            "TableName": TABLE,
            "Key": key("a"),
            "UpdateExpression": "SET version = :next",
            "ConditionExpression": "version = :expected",
            "ExpressionAttributeValues": {":next": {"N": "2"}, ":expected": {"N": expected}},
        }
    }


def put_b() -> dict[str, Any]:
    return {"Put": {"TableName": TABLE, "Item": key("b") | {"version": {"N": "1"}}}}


def delete_a() -> dict[str, Any]:
    return {"Delete": {"TableName": TABLE, "Key": key("a")}}


def absent_c(exists: bool) -> dict[str, Any]:
    condition = "attribute_exists(pk)" if exists else "attribute_not_exists(pk)"
    return {"ConditionCheck": {"TableName": TABLE, "Key": key("c"), "ConditionExpression": condition}}


def test_the_seam_is_moto_5_2_1s_code() -> None:
    # A changed digest means moto's transactions changed: re-read them and local_stack/aws/moto_dynamodb.py.
    assert moto_dynamodb.seam_digest() == moto_dynamodb.SEAM_DIGEST


def test_a_transaction_applies_every_item(dynamodb) -> None:
    dynamodb.transact_write_items(TransactItems=[put_b(), bump_a("1"), absent_c(exists=False)])
    assert everything(dynamodb) == [key("a") | {"version": {"N": "2"}}, key("b") | {"version": {"N": "1"}}]


@pytest.mark.parametrize(
    "items",
    [
        # the put and the update applied, then the last item's condition fails: both undone
        [put_b(), bump_a("1"), absent_c(exists=True)],
        # the put applied, then the update's own condition fails
        [put_b(), bump_a("7")],
        # "a" deleted, then the last item's condition fails: "a" is back
        [delete_a(), absent_c(exists=True)],
        # two operations on one item: refused as a whole
        [put_b(), bump_a("1"), {"Delete": {"TableName": TABLE, "Key": key("b")}}],
    ],
    ids=["last-condition-fails", "update-condition-fails", "delete-undone", "one-item-twice"],
)
def test_a_cancelled_transaction_leaves_the_table_as_it_was(dynamodb, items) -> None:
    before = everything(dynamodb)
    with pytest.raises(ClientError, match="TransactionCanceledException|ValidationException"):
        dynamodb.transact_write_items(TransactItems=items)
    assert everything(dynamodb) == before == [key("a") | {"version": {"N": "1"}}]
    # and the table still takes writes (the one restored is the live table again)
    dynamodb.transact_write_items(TransactItems=[bump_a("1")])
    assert everything(dynamodb) == [key("a") | {"version": {"N": "2"}}]


def test_a_transaction_copies_no_table(dynamodb, monkeypatch: pytest.MonkeyPatch) -> None:
    copied: list[Any] = []
    deepcopy = copy.deepcopy

    def counting(value: Any, memo: Any = None) -> Any:
        if isinstance(value, Table):
            copied.append(value)
        return deepcopy(value, memo)

    monkeypatch.setattr(copy, "deepcopy", counting)
    dynamodb.transact_write_items(TransactItems=[put_b(), bump_a("1"), absent_c(exists=False)])
    assert copied == []

    # moto's own transaction: the whole table, once per item
    monkeypatch.setattr(dynamodb_models.DynamoDBBackend, "transact_write_items", moto_dynamodb._ORIGINAL)
    dynamodb.transact_write_items(TransactItems=[put_b(), bump_a("2"), absent_c(exists=False)])
    assert len(copied) == 3


def test_restore_leaves_moto_as_it_was(dynamodb) -> None:
    patched = dynamodb_models.DynamoDBBackend.transact_write_items
    restore = moto_dynamodb.item_backups()
    assert dynamodb_models.DynamoDBBackend.transact_write_items is not patched
    restore()
    assert dynamodb_models.DynamoDBBackend.transact_write_items is patched
    assert dynamodb_models.copy is copy


def test_it_refuses_another_moto_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(moto_dynamodb, "version", lambda _package: "5.9.9")
    with pytest.raises(RuntimeError, match=r"moto 5\.2\.1.*moto 5\.9\.9 is installed"):
        moto_dynamodb.item_backups()


def test_the_size_seam_is_moto_5_2_1s_code() -> None:
    assert moto_dynamodb.seam_digest(moto_dynamodb._ORIGINAL_SIZE_CHECK) == moto_dynamodb.SIZE_SEAM_DIGEST


def test_only_items_put_under_sizes_unchecked_skip_motos_size_check() -> None:
    # An attribute past DynamoDB's 400 KB item limit: moto refuses it, but for the table read back
    # from the disk (local_stack/laptop/table_file.py), whose items each passed that check once
    big = DynamoType({"S": "x" * 410_000})
    with MOTO_LOCK, moto_dynamodb.sizes_unchecked():
        LimitedSizeDict()["blob"] = big
    with pytest.raises(ItemSizeTooLarge):
        LimitedSizeDict()["blob"] = big
