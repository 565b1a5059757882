"""local_stack.aws.moto_expressions: moto parses each condition and update expression once, and every
parse after the first gives what moto's own parse gives (the same operators with this call's values,
the same names and placeholders found, the same error)."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import version
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws
from moto.dynamodb.comparisons import ConditionExpressionParser
from moto.dynamodb.parsing.expressions import UpdateExpressionParser

from local_stack.aws import moto_expressions
from local_stack.aws.template import create_match_table

MOTO_PARSE = moto_expressions.SEAMS["ConditionExpressionParser.parse"][0]
MOTO_MAKE = moto_expressions.SEAMS["UpdateExpressionParser.make"][0]
NAMES = {"#n0": "phase_number", "#n1": "accepting", "#n2": "status", "#n3": "paused", "#n4": "deadline", "#n5": "done"}
NAMES |= {"#m": "map", "#k": "key", "#list": "moves"}
FIRST = {f":v{i}": {"N": str(i)} for i in range(7)} | {":x": {"S": "a"}, ":y": {"BOOL": True}, ":z": {"SS": ["p1"]}}
FIRST |= {":t": {"S": "N"}, ":n": {"N": "3"}}
SECOND = {name: {"S": f"other {name}"} for name in FIRST} | {":v0": {"NULL": True}, ":n": {"N": "-1.5"}}
"""Values of other types and contents under the same placeholders: what a second call binds."""

CONDITIONS = [
    # what the service writes (boto3's ConditionExpressionBuilder)
    "#n0 = :v0",
    "attribute_not_exists(#n0)",
    "((#n0 = :v0 AND #n1 = :v1) AND #n2 = :v2)",
    "(((#n0 = :v0 AND #n1 = :v1) AND #n2 = :v2) AND (#n3 = :v3 OR #n4 > :v4))",
    "((((#n0 = :v0 AND #n1 = :v1) AND #n2 = :v2) AND (#n3 = :v3 OR #n4 > :v4)) AND size(#n5) = :v5)",
    "((((((#n0 = :v0 AND #n1 = :v1) AND #n2 = :v2) AND (#n3 = :v3 OR #n4 > :v4)) AND attribute_not_exists(#n5)) "
    "AND #n1 = :v5) AND #n2 = :v6)",
    # every comparator, boolean, function and operand of the grammar
    "a < :x",
    "a <= :x",
    "a > :x",
    "a >= :x",
    "a <> :x",
    "a = b",
    "NOT a = :x",
    "NOT (a = :x OR b = :y)",
    "a = :x AND (b = :y OR c = :z) AND NOT d = :n",
    "a = :x OR b = :y AND c = :z",
    "a IN (:x, :y, :z)",
    "a BETWEEN :v1 AND :v2",
    "begins_with(a, :x)",
    "begins_with(:x, a)",
    "contains(#list, :x)",
    "attribute_exists(a.b)",
    "attribute_type(a, :t)",
    "size(a) > :n",
    "size(a) = size(b)",
    "a.b.c = :x",
    "a[0] = :x",
    "#m.#k = :x",
    "a.b[1].c = :x AND #m.#k[2] <> :y",
    "  a   =   :x  ",
    "(a = :x)",
    # errors: moto's own, each time
    "a = ",
    "a = :missing",
    "#missing = :x",
    "status = :x",
    "((a = :x))",
    "a = :x AND",
    "attribute_exists(:x)",
    "a = :x )",
    "( a = :x",
    "a IN :x",
    "a BETWEEN :x",
    "size(a)",
    "nosuch(a)",
    "a.:x = :y",
]


def structure(value: Any) -> Any:
    """A parsed value as plain data (its class and attributes, recursively; a tree's parent links left out)."""
    if isinstance(value, list | tuple):
        return [structure(one) for one in value]
    if isinstance(value, dict):
        return {key: structure(one) for key, one in value.items()}
    if hasattr(value, "__dict__"):
        attributes = {key: structure(one) for key, one in vars(value).items() if key != "parent"}
        return (type(value).__name__, attributes)
    return value


def outcome(parse: Any, expression: str, names: dict[str, str] | None, values: dict[str, Any] | None) -> Any:
    """A parse's operators, names and placeholders found, or its error (its type and message)."""
    parser = ConditionExpressionParser(expression, names, values)
    try:
        built = parse(parser)
    except Exception as error:
        return type(error).__name__, str(error)
    return structure(built), parser.expr_attr_names_found, parser.expr_attr_values_found


@pytest.fixture
def cached() -> Iterator[None]:
    restore = moto_expressions.parsed_once()
    try:
        yield
    finally:
        restore()


@pytest.mark.parametrize("expression", CONDITIONS)
@pytest.mark.parametrize("names", [NAMES, None], ids=["names", "no names"])
@pytest.mark.parametrize("values", [FIRST, None], ids=["values", "no values"])
def test_a_condition_parses_as_moto_parses_it_first_and_again_with_other_values(
    cached: None, expression: str, names: dict[str, str] | None, values: dict[str, Any] | None
) -> None:
    again = None if values is None else SECOND
    first = outcome(ConditionExpressionParser.parse, expression, names, values)
    assert first == outcome(MOTO_PARSE, expression, names, values)
    # the second parse of the same expression, names and placeholders is the kept tree: its
    # operators carry this call's values, as moto's own parse of them does
    second = outcome(ConditionExpressionParser.parse, expression, names, again)
    assert second == outcome(MOTO_PARSE, expression, names, again)
    if values is not None and ":x" in expression and len(first) == 3:  # parsed, with :x's value in it
        assert second != first  # the other values are in it (their types and contents differ)


NAMINGS = [
    {"#m": "map", "#k": "key"},
    {"#m": "other", "#k": "key"},
    {"#m": "map", "#k": "key", "#unused": "x"},
    {"#m": "map"},
    None,
]
VALUINGS = [{":x": {"S": "a"}}, {":x": {"S": "a"}, ":y": {"N": "1"}}, {":y": {"N": "1"}}, {}, None]


@pytest.mark.parametrize("expression", ["#m.#k = :x", "attribute_exists(#m) AND #k IN (:x, :x)"])
def test_one_expression_with_other_names_and_placeholders_in_turn_parses_as_moto_parses_each(
    cached: None, expression: str
) -> None:
    # each (names, values) after the first meets a tree kept from the ones before it
    for names in NAMINGS:
        for values in VALUINGS:
            mine = outcome(ConditionExpressionParser.parse, expression, names, values)
            assert mine == outcome(MOTO_PARSE, expression, names, values), (names, values)


UPDATES = [
    "SET #last = :last",
    "SET balance = if_not_exists(balance, :start), available = if_not_exists(available, :start)",
    "ADD #done :me",
    "SET task_token = :token",
    "SET #match = :match, #version = :version, #status = :status REMOVE #done, #told",
    "SET #match = :match, #version = :version ADD #done :me",
    "SET a = a + :n",
    "SET a = a - :n",
    "SET l = list_append(l, :x)",
    "SET a.b[0] = :x",
    "DELETE s :v",
    "SET a = :x REMOVE b ADD c :n DELETE d :s",
    "REMOVE a[1], a[0]",
    # errors
    "SET",
    "SET a =",
    "UPDATE a = :x",
    "SET a = :x,",
    "ADD",
]


def made(make: Any, expression: str) -> Any:
    try:
        return structure(make(UpdateExpressionParser, expression))
    except Exception as error:
        return type(error).__name__, str(error)


@pytest.mark.parametrize("expression", UPDATES)
def test_an_update_expression_parses_as_moto_parses_it_first_and_again(cached: None, expression: str) -> None:
    mine = made(lambda _cls, text: UpdateExpressionParser.make(text), expression)
    assert mine == made(MOTO_MAKE, expression)
    assert made(lambda _cls, text: UpdateExpressionParser.make(text), expression) == mine


@pytest.fixture
def table(cached: None) -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="eu-west-1")
        create_match_table(client, "matches")
        yield client


KEY = {"pk": {"S": "MATCH#a"}, "sk": {"S": "META"}}


def bump(client: Any, expected: int) -> bool:
    """Raise the item's version by one if it is `expected` (one condition text, its value per call)."""
    try:
        client.update_item(
            TableName="matches",
            Key=KEY,
            UpdateExpression="SET #v = #v + :one, #seen = list_append(if_not_exists(#seen, :none), :me)",
            ConditionExpression="#v = :expected",
            ExpressionAttributeNames={"#v": "version", "#seen": "seen"},
            ExpressionAttributeValues={":one": {"N": "1"}, ":expected": {"N": str(expected)}, ":none": {"L": []}}
            | {":me": {"L": [{"N": str(expected)}]}},
        )
    except ClientError as error:
        assert error.response["Error"]["Code"] == "ConditionalCheckFailedException"
        return False
    return True


def test_conditional_writes_judge_each_call_by_its_own_values(table: Any) -> None:
    table.put_item(TableName="matches", Item=KEY | {"version": {"N": "1"}})
    # version 1: the condition on 1 holds, and again on 1 fails (it is 2 now), on 2 holds, on 5
    # fails; a value kept from the first call would pass the second and fail the third
    assert [bump(table, expected) for expected in (1, 1, 2, 5)] == [True, False, True, False]
    item = table.get_item(TableName="matches", Key=KEY)["Item"]
    assert item["version"] == {"N": "3"}
    assert item["seen"] == {"L": [{"N": "1"}, {"N": "2"}]}  # each update's own :me, in turn


def test_the_kept_update_tree_is_left_as_parsed_by_the_updates_run_on_it(table: Any) -> None:
    text = "SET #v = #v + :one, #seen = list_append(if_not_exists(#seen, :none), :me)"
    tree = UpdateExpressionParser.make(text)
    before = structure(tree)
    table.put_item(TableName="matches", Item=KEY | {"version": {"N": "1"}})
    assert bump(table, 1) and bump(table, 2)
    assert UpdateExpressionParser.make(text) is tree  # kept: the updates above used it
    assert structure(tree) == before


def test_the_seams_are_moto_5_2_1s() -> None:
    # A changed digest means moto changed a function the caches rely on: re-read it and
    # local_stack/aws/moto_expressions.py (does the tree still depend on the values only at its
    # leaves? does every user of an update tree still read it or deep-copy it?).
    assert version("moto") == moto_expressions.PINNED_MOTO
    assert moto_expressions.changed_seams() == ()
