"""local_stack.aws.moto_dynamodb.plain_attribute_values: moto writes DynamoDB's attribute values without
walking their shape, and every response is the same text as moto's own walk writes."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.core.serialize import JSONSerializer, XFormedAttributePicker
from moto.core.utils import get_service_model
from moto.dynamodb.models.dynamo_type import DynamoType

from local_stack.aws import moto_dynamodb
from local_stack.aws.template import create_match_table

EVERY_KIND = {
    "pk": {"S": "MATCH#a"},
    "sk": {"S": "META"},
    "version": {"N": "7"},
    "state": {"B": b"\x78\x9c\x00compressed"},
    "text_blob": {"B": "already text"},
    "blobs": {"BS": [b"\x00\x01", b"\xff"]},
    "names": {"SS": ["p1", "p2"]},
    "numbers": {"NS": ["1", "2.5"]},
    "nothing": {"NULL": True},
    "accepting": {"BOOL": False},
    "clock": {"M": {"deadline": {"N": "1796678104"}, "paused": {"BOOL": True}, "gone": None}},
    "moves": {"L": [{"S": "a"}, {"M": {"deep": {"L": [{"B": b"\x01"}]}}}, None]},
}
"""An item with every type of value DynamoDB has, nested, with the None moto's walk leaves out of a
map and keeps in a list."""


def written(operation: str, result: Any) -> Any:
    """What moto's JSON serializer writes for `operation`'s `result` (the body, as JSON)."""
    model = get_service_model("dynamodb").operation_model(operation)
    serializer = JSONSerializer(operation_model=model, value_picker=XFormedAttributePicker())
    return json.loads(serializer.serialize(result)["body"])


RESULTS = {
    "GetItem": {"Item": EVERY_KIND, "ConsumedCapacity": {"TableName": "matches", "CapacityUnits": 1.0}},
    "Query": {"Items": [EVERY_KIND, {"pk": {"S": "b"}}], "Count": 2, "ScannedCount": 2, "LastEvaluatedKey": None},
    "BatchGetItem": {
        "Responses": {"matches": [EVERY_KIND]},
        "UnprocessedKeys": {"matches": {"Keys": [{"pk": {"S": "c"}, "sk": {"S": "META"}}], "ConsistentRead": True}},
    },
    "UpdateItem": {"Attributes": EVERY_KIND},
    "TransactWriteItems": {},
}


@pytest.mark.parametrize("operation", RESULTS)
def test_a_response_is_written_as_moto_writes_it(operation: str) -> None:
    by_moto = written(operation, RESULTS[operation])
    restore = moto_dynamodb.plain_attribute_values()
    try:
        assert written(operation, RESULTS[operation]) == by_moto
    finally:
        restore()


def test_binary_values_are_base64_as_dynamodb_sends_them() -> None:
    # DynamoDB's JSON carries B and BS in base64 (worked by hand: b"\x00\x01" is "AAE=", b"\xff" "/w==")
    restore = moto_dynamodb.plain_attribute_values()
    try:
        item = written("GetItem", {"Item": EVERY_KIND})["Item"]
    finally:
        restore()
    assert item["blobs"] == {"BS": ["AAE=", "/w=="]}
    assert item["text_blob"] == {"B": base64.b64encode(b"already text").decode()}
    assert item["clock"] == {"M": {"deadline": {"N": "1796678104"}, "paused": {"BOOL": True}}}
    assert item["moves"]["L"][2] is None


def test_a_value_that_is_not_plain_json_is_left_to_moto() -> None:
    # moto's own responses may hold its DynamoType objects: its walk reads their attributes
    result = {"Item": {"pk": DynamoType({"S": "MATCH#a"})}}
    by_moto = written("GetItem", result)
    restore = moto_dynamodb.plain_attribute_values()
    try:
        assert written("GetItem", result) == by_moto
    finally:
        restore()


@pytest.fixture
def dynamodb() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="eu-west-1")
        create_match_table(client, "matches")
        yield client


def test_an_item_reads_back_as_it_was_put(dynamodb) -> None:
    stored = {name: value for name, value in EVERY_KIND.items() if name not in ("clock", "moves", "text_blob")}
    stored |= {"clock": {"M": {"deadline": {"N": "1796678104"}}}, "moves": {"L": [{"S": "a"}, {"B": b"\x01"}]}}
    dynamodb.put_item(TableName="matches", Item=stored)
    key = {"pk": {"S": "MATCH#a"}, "sk": {"S": "META"}}
    by_moto = dynamodb.get_item(TableName="matches", Key=key)["Item"]
    restore = moto_dynamodb.plain_attribute_values()
    try:
        patched = dynamodb.get_item(TableName="matches", Key=key)["Item"]
        queried = dynamodb.query(
            TableName="matches", KeyConditionExpression="pk = :pk", ExpressionAttributeValues={":pk": key["pk"]}
        )["Items"]
    finally:
        restore()
    assert patched == by_moto == stored
    assert queried == [stored]


def test_restore_leaves_moto_as_it_was() -> None:
    before = (JSONSerializer._serialize_type_structure, JSONSerializer._serialize_type_map)
    restore = moto_dynamodb.plain_attribute_values()
    assert JSONSerializer._serialize_type_structure is not before[0]
    restore()
    assert (JSONSerializer._serialize_type_structure, JSONSerializer._serialize_type_map) == before
