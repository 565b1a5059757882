"""local_stack.aws.moto_direct: a DynamoDB call goes straight to moto's DynamoDB handler, and its caller
sees what moto's HTTP-like path gave: the same answers, the same ClientErrors (codes, messages,
CancellationReasons), botocore's parameter checks first, faults and meters hooked on the client
striking and counting as before, and `after_aws_call` told of every call."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError, EndpointConnectionError, ParamValidationError
from moto import mock_aws
from moto.core.botocore_stubber import BotocoreStubber

from local_stack.aws import moto_direct
from local_stack.aws.faults import ClientFaults, Fault
from local_stack.aws.lambda_adapter import InProcessLambdas, install
from local_stack.aws.metering import Meter
from local_stack.aws.template import create_match_table

TABLE = "matches"
META = {"pk": {"S": "MATCH#a"}, "sk": {"S": "META"}}
SHEET = {"pk": {"S": "MATCH#a"}, "sk": {"S": "SHEET#1"}}
EVERY_KIND = {
    "version": {"N": "1"},
    "state": {"B": b"\x78\x9c\x00compressed"},
    "blobs": {"BS": [b"\x00\x01", b"\xff"]},
    "names": {"SS": ["p1", "p2"]},
    "numbers": {"NS": ["1", "2.5"]},
    "nothing": {"NULL": True},
    "accepting": {"BOOL": False},
    "clock": {"M": {"deadline": {"N": "1796678104"}, "moves": {"L": [{"S": "a"}, {"N": "2"}]}}},
}
VERSION_IS = {"ConditionExpression": "#v = :v", "ExpressionAttributeNames": {"#v": "version"}}


def version_is(number: int) -> dict[str, Any]:
    return VERSION_IS | {"ExpressionAttributeValues": {":v": {"N": str(number)}}}


def bump(key: dict[str, Any], number: int, **more: Any) -> dict[str, Any]:
    update = {"TableName": TABLE, "Key": key, "UpdateExpression": "SET #v = #v + :one"}
    condition = version_is(number)
    condition["ExpressionAttributeValues"] |= {":one": {"N": "1"}}
    return update | condition | more


# Every operation the service calls, answered and refused (an operation, its parameters), in turn
SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("put_item", {"TableName": TABLE, "Item": META | EVERY_KIND, "ConditionExpression": "attribute_not_exists(pk)"}),
    ("put_item", {"TableName": TABLE, "Item": META, "ConditionExpression": "attribute_not_exists(pk)"}),
    (
        "put_item",
        {
            "TableName": TABLE,
            "Item": META,
            "ConditionExpression": "attribute_not_exists(pk)",
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        },
    ),
    ("put_item", {"TableName": TABLE, "Item": SHEET | {"version": {"N": "1"}, "player": {"S": "p1"}}}),
    ("get_item", {"TableName": TABLE, "Key": META, "ConsistentRead": True}),
    ("get_item", {"TableName": TABLE, "Key": {"pk": {"S": "MATCH#z"}, "sk": {"S": "META"}}}),
    ("get_item", {"TableName": TABLE, "Key": META, "ProjectionExpression": "version, clock.deadline"}),
    ("get_item", {"TableName": "no-such-table", "Key": META}),
    ("update_item", bump(META, 1, ReturnValues="ALL_NEW")),
    ("update_item", bump(META, 1)),
    ("update_item", bump(META, 2, ReturnValues="UPDATED_OLD")),
    ("update_item", {"TableName": TABLE, "Key": META, "UpdateExpression": ""}),
    (
        "update_item",
        {"TableName": TABLE, "Key": META, "UpdateExpression": "SET a = :x", "ExpressionAttributeNames": {"#u": "u"}}
        | {"ExpressionAttributeValues": {":x": {"S": "1"}}},
    ),
    (
        "transact_write_items",
        {
            "TransactItems": [
                {"Update": bump(META, 3)},
                {"Put": {"TableName": TABLE, "Item": SHEET | {"version": {"N": "2"}}} | version_is(1)},
            ]
        },
    ),
    (
        "transact_write_items",
        {
            "TransactItems": [
                {"Update": bump(META, 4)},  # holds: 1, bumped to 2, to 3, and by the transaction before to 4
                {"Update": bump(SHEET, 9, ReturnValuesOnConditionCheckFailure="ALL_OLD")},
                {
                    "ConditionCheck": {"TableName": TABLE, "Key": {"pk": {"S": "MATCH#b"}, "sk": {"S": "META"}}}
                    | {"ConditionExpression": "attribute_exists(pk)"}
                },
            ]
        },
    ),
    ("transact_write_items", {"TransactItems": [{"Update": bump(META, 4)}, {"Update": bump(META, 4)}]}),
    (
        "batch_get_item",
        {"RequestItems": {TABLE: {"Keys": [META, SHEET, {"pk": {"S": "MATCH#z"}, "sk": {"S": "META"}}]}}},
    ),
    ("batch_get_item", {"RequestItems": {"no-such-table": {"Keys": [META]}}}),
    (
        "query",
        {
            "TableName": TABLE,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :s)",
            "ExpressionAttributeValues": {":pk": {"S": "MATCH#a"}, ":s": {"S": "S"}},
        },
    ),
    (
        "query",
        {"TableName": TABLE, "KeyConditionExpression": "pk = :pk", "Limit": 1}
        | {"ExpressionAttributeValues": {":pk": {"S": "MATCH#a"}}, "ScanIndexForward": False},
    ),
    ("query", {"TableName": TABLE, "KeyConditionExpression": "nosuch = :pk"}),
    ("scan", {"TableName": TABLE, "FilterExpression": "attribute_exists(player)"}),
    ("delete_item", {"TableName": TABLE, "Key": SHEET, "ReturnValues": "ALL_OLD"}),
    ("delete_item", {"TableName": TABLE, "Key": META} | version_is(1)),
]


def plain(response: dict[str, Any]) -> dict[str, Any]:
    """A parsed response or error without what differs from call to call (request ids, dates)."""
    metadata = response.get("ResponseMetadata", {})
    kept = {key: value for key, value in metadata.items() if key not in ("RequestId", "HTTPHeaders")}
    headers = {k: v for k, v in metadata.get("HTTPHeaders", {}).items() if k not in ("x-amzn-requestid", "date")}
    return {key: value for key, value in response.items() if key != "ResponseMetadata"} | {"meta": (kept, headers)}


def played(client: Any) -> list[Any]:
    """The script's outcomes: each answer, or each error's class, text and response."""
    outcomes: list[Any] = []
    for operation, parameters in SCRIPT:
        try:
            outcomes.append(plain(getattr(client, operation)(**parameters)))
        except ClientError as error:
            outcomes.append((type(error).__name__, str(error), plain(error.response)))
    return outcomes


@pytest.fixture
def moto() -> Iterator[tuple[Any, list[str]]]:
    """A client on moto as the local stack installs it, and the event names `after_aws_call` was told."""
    with mock_aws():
        lambdas = InProcessLambdas()
        told: list[str] = []
        lambdas.after_aws_call.append(lambda name, request, response: told.append(name) and None)
        restore = install(lambdas)
        try:
            client = boto3.session.Session().client("dynamodb", region_name="eu-west-1")
            create_match_table(client, TABLE)
            told.clear()
            yield client, told
        finally:
            restore()


def stubber_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URLs moto's stubber was asked to serve from now on."""
    asked: list[str] = []
    original = BotocoreStubber.process_request

    def counted(self: Any, request: Any) -> Any:
        asked.append(request.url)
        return original(self, request)

    monkeypatch.setattr(BotocoreStubber, "process_request", counted)
    return asked


def test_every_call_answers_as_through_motos_stubber_and_only_the_direct_way_is_taken(
    moto: tuple[Any, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, told = moto
    asked = stubber_calls(monkeypatch)
    direct = played(client)
    assert asked == []  # no call went the HTTP-like way
    told_direct = list(told)

    serialized, moto_direct.DIRECT.serialized = moto_direct.DIRECT.serialized, None
    try:
        client.delete_table(TableName=TABLE)
        create_match_table(client, TABLE)
        told.clear()
        asked.clear()
        through_stubber = played(client)
    finally:
        moto_direct.DIRECT.serialized = serialized
    assert len(asked) == len(SCRIPT)
    assert direct == through_stubber
    assert told_direct == told == [f"before-send.dynamodb.{botocore_name(op)}" for op, _ in SCRIPT]
    # the script reaches what it was written for: answers, refusals, a cancellation's reasons
    codes = [outcome[2]["Error"]["Code"] for outcome in direct if isinstance(outcome, tuple)]
    assert codes.count("ConditionalCheckFailedException") == 4
    assert {"TransactionCanceledException", "ResourceNotFoundException", "ValidationException"} <= set(codes)
    refused = [outcome[2] for outcome in direct if isinstance(outcome, tuple)]
    cancelled = next(response for response in refused if "CancellationReasons" in response)
    reasons = [reason["Code"] for reason in cancelled["CancellationReasons"]]
    assert reasons == ["None", "ConditionalCheckFailed", "ConditionalCheckFailed"]
    # ALL_OLD, as asked: the sheet as the first transaction's Put left it
    assert cancelled["CancellationReasons"][1]["Item"] == SHEET | {"version": {"N": "2"}}


def botocore_name(operation: str) -> str:
    return "".join(part.capitalize() for part in operation.split("_"))


def test_botocores_parameter_check_refuses_before_moto_hears_of_it(moto: tuple[Any, list[str]]) -> None:
    client, told = moto
    with pytest.raises(ParamValidationError, match="Item.pk.S"):
        client.put_item(TableName=TABLE, Item={"pk": {"S": 1}, "sk": {"S": "META"}})
    with pytest.raises(ParamValidationError, match="Unknown parameter"):
        client.get_item(TableName=TABLE, Key=META, Nonsense=True)
    assert told == []
    assert "Item" not in client.get_item(TableName=TABLE, Key=META)


def test_faults_strike_and_meters_count_the_direct_calls(moto: tuple[Any, list[str]]) -> None:
    client, told = moto
    meter = Meter(stack=None, clients=[client])
    faults = ClientFaults(client)
    try:
        faults.arm(Fault("PutItem"))  # refused before it reaches the table
        with pytest.raises(ClientError, match="ThrottlingException"):
            client.put_item(TableName=TABLE, Item=META)
        assert "Item" not in client.get_item(TableName=TABLE, Key=META)
        faults.arm(Fault("PutItem", after=True))  # applied, its reply lost
        with pytest.raises(ClientError, match="ThrottlingException"):
            client.put_item(TableName=TABLE, Item=META)
        assert "Item" in client.get_item(TableName=TABLE, Key=META)
    finally:
        faults.close()
    assert meter.calls == {("dynamodb", "PutItem"): 2, ("dynamodb", "GetItem"): 2}
    assert told == ["before-send.dynamodb.GetItem", "before-send.dynamodb.PutItem", "before-send.dynamodb.GetItem"]


def test_the_functions_stood_in_for_are_pinned() -> None:
    # A changed digest means botocore's endpoint or moto's stubber changed: re-read them and
    # local_stack/aws/moto_direct.py (what does the HTTP path do that the direct one does not?).
    assert moto_direct.changed_seams() == ()


def test_a_client_with_its_own_endpoint_goes_moto_stubbers_way(
    moto: tuple[Any, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, told = moto
    asked = stubber_calls(monkeypatch)
    once = Config(retries={"max_attempts": 0})
    other = boto3.session.Session().client("dynamodb", "eu-west-1", endpoint_url="http://127.0.0.1:1", config=once)
    with pytest.raises(EndpointConnectionError):  # not moto's: a real request, to no one
        other.get_item(TableName=TABLE, Key=META)
    assert asked == ["http://127.0.0.1:1/"]
    assert told == ["before-send.dynamodb.GetItem"]  # moto's stubber was asked (and said it is not its)
