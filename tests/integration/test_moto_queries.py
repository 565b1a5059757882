"""local_stack.aws.moto_dynamodb.partition_queries: moto's queries read the partition they name, not
the whole table, and answer exactly as moto's own query does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.dynamodb.models.table import Table

from local_stack.aws import moto_dynamodb
from local_stack.aws.template import create_match_table

TABLE = "matches"
PARTITIONS = {
    "MATCH#a": ["META", "PHASE#001", "PHASE#002", "PHASE#010", "SHEET#001#p1", "SHEET#001#p2"],
    "MATCH#b": ["META", "PHASE#001", "SHEET#001#p1"],
    "MATCH#c": ["META"],
}


@pytest.fixture
def dynamodb() -> Iterator[Any]:
    """Three matches' items, put in an order that is not their keys' (moto sorts on reading)."""
    with mock_aws():
        client = boto3.client("dynamodb", region_name="eu-west-1")
        create_match_table(client, TABLE)
        for pk, sort_keys in sorted(PARTITIONS.items(), reverse=True):
            for number, sk in enumerate(reversed(sort_keys)):
                item = {"pk": {"S": pk}, "sk": {"S": sk}, "n": {"N": str(number)}, "pad": {"S": "x" * 10}}
                client.put_item(TableName=TABLE, Item=item)
        yield client


def keys(items: list[dict[str, Any]]) -> list[str]:
    return [item["sk"]["S"] for item in items]


def query(client: Any, **asked: Any) -> list[dict[str, Any]]:
    """Every page of a query, each page's items in order (the paginator follows LastEvaluatedKey)."""
    pages = client.get_paginator("query").paginate(TableName=TABLE, **asked)
    return [item for page in pages for item in page["Items"]]


def key_is(pk: str, condition: str = "", **values: str | int) -> dict[str, Any]:
    """A query's key condition on `pk` (and `condition` on sk), with `values` (text: S, whole: N)."""
    expression = "pk = :pk" + (f" AND {condition}" if condition else "")
    typed = {f":{name}": {"N": str(one)} if isinstance(one, int) else {"S": one} for name, one in values.items()}
    return {"KeyConditionExpression": expression, "ExpressionAttributeValues": {":pk": {"S": pk}} | typed}


# (query, the sort keys it answers: worked from PARTITIONS by hand, in sort key order)
QUERIES = {
    "one partition whole": (key_is("MATCH#a"), PARTITIONS["MATCH#a"]),
    "begins_with": (
        key_is("MATCH#a", "begins_with(sk, :p)", p="PHASE#"),
        ["PHASE#001", "PHASE#002", "PHASE#010"],
    ),
    "between": (
        key_is("MATCH#a", "sk BETWEEN :f AND :l", f="PHASE#002", l="SHEET#001#p1"),
        ["PHASE#002", "PHASE#010", "SHEET#001#p1"],
    ),
    "backwards": (
        key_is("MATCH#a", "begins_with(sk, :p)", p="PHASE#") | {"ScanIndexForward": False},
        ["PHASE#010", "PHASE#002", "PHASE#001"],
    ),
    "pages of two": (key_is("MATCH#a") | {"Limit": 2}, PARTITIONS["MATCH#a"]),
    "another partition": (key_is("MATCH#b"), ["META", "PHASE#001", "SHEET#001#p1"]),
    "a partition of one": (key_is("MATCH#c"), ["META"]),
    "no such partition": (key_is("MATCH#z"), []),
    "filtered": (
        key_is("MATCH#a", two=2) | {"FilterExpression": "n < :two"},
        # n counts from the last sort key put (SHEET#001#p2 is 0, SHEET#001#p1 is 1)
        ["SHEET#001#p1", "SHEET#001#p2"],
    ),
}


@pytest.mark.parametrize("name", QUERIES)
def test_a_query_answers_as_moto_does(dynamodb, name: str) -> None:
    query_, expected = QUERIES[name]
    by_moto = query(dynamodb, **query_)
    restore = moto_dynamodb.partition_queries()
    try:
        patched = query(dynamodb, **query_)
    finally:
        restore()
    assert keys(patched) == expected
    assert patched == by_moto


def test_a_query_reads_no_other_partition(dynamodb, monkeypatch: pytest.MonkeyPatch) -> None:
    def whole_table(_table: Table) -> list[Any]:
        raise AssertionError("the query listed the whole table")

    restore = moto_dynamodb.partition_queries()
    try:
        monkeypatch.setattr(Table, "all_items", whole_table)
        assert keys(query(dynamodb, **key_is("MATCH#b"))) == ["META", "PHASE#001", "SHEET#001#p1"]
    finally:
        restore()
    with pytest.raises(Exception, match="listed the whole table"):  # moto's own query does
        query(dynamodb, **key_is("MATCH#b"))


def test_the_seam_is_moto_5_2_1s_code() -> None:
    # A changed digest means moto's query changed: re-read it and local_stack/aws/moto_dynamodb.py.
    assert moto_dynamodb.seam_digest(moto_dynamodb._ORIGINAL_QUERY) == moto_dynamodb.QUERY_SEAM_DIGEST


def test_restore_leaves_moto_as_it_was() -> None:
    before = Table.query
    restore = moto_dynamodb.partition_queries()
    assert Table.query is not before
    restore()
    assert Table.query is before
