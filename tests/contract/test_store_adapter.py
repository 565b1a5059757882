"""What only the DynamoDB adapter has: the transaction builder's mapping of cancellation reasons to
errors (by item, never by position), and batched reads (a hundred keys a call, unprocessed keys
read again with backoff, then StoreUnavailable naming them, never a partial answer)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations
from typing import Any

import pytest
from boto3.dynamodb.conditions import Attr
from botocore.exceptions import ClientError
from store_bench import moto_dynamodb

from game_core.aws.store import DynamoMatchStore, StoreUnavailable
from game_core.aws.store.items import key, plain
from game_core.aws.store.table import FIRST_BACKOFF, READ_ATTEMPTS, Table
from game_core.aws.store.transaction import Guard, Transaction
from game_core.errors import Conflict, Illegal, InProgress, Late
from game_core.service.matches.sheets import AlreadyDelivered, HeaderMoved
from local_stack.aws.template import create_match_table


def _cancelled(reasons: list[str]) -> ClientError:
    error = {"Code": "TransactionCanceledException", "Message": "Transaction cancelled"}
    return ClientError({"Error": error, "CancellationReasons": [{"Code": r} for r in reasons]}, "TransactWriteItems")


class CancellingClient:
    """Cancels every transaction: the items whose pk is in `failing` fail their condition, those in
    `colliding` collide; the rest pass (reason "None")."""

    def __init__(self, failing: set[str], colliding: frozenset[str] | set[str] = frozenset(), code: str = "") -> None:
        self.failing, self.colliding, self.code = failing, colliding, code

    def transact_write_items(self, TransactItems: list[dict[str, Any]]) -> None:  # noqa: N803 (boto3's name)
        if self.code:
            raise ClientError({"Error": {"Code": self.code, "Message": "slow down"}}, "TransactWriteItems")
        reasons = []
        for item in TransactItems:
            ((_action, request),) = item.items()
            pk = plain(request.get("Key") or request["Item"])["pk"]
            failed = "ConditionalCheckFailed" if pk in self.failing else ""
            reasons.append(failed or ("TransactionConflict" if pk in self.colliding else "None"))
        raise _cancelled(reasons)


ERRORS = {"delivery": AlreadyDelivered(), "phase": Late("closed"), "sheet": Conflict("moved"), "header": HeaderMoved()}
ERRORS["garnets"] = Illegal("short")

FAILED = [
    # the items whose condition failed -> the error the caller hears (PRECEDENCE: a redelivery,
    # then a closed phase, then anything read that moved, the header last of those, then garnets)
    ({"garnets"}, Illegal),
    ({"sheet", "garnets"}, Conflict),
    ({"header", "garnets"}, HeaderMoved),
    ({"sheet", "header"}, Conflict),
    ({"phase", "sheet", "garnets"}, Late),
    ({"delivery", "phase", "sheet", "header", "garnets"}, AlreadyDelivered),
]


@pytest.mark.parametrize(("failing", "heard"), FAILED)
def test_a_failed_condition_raises_its_items_error_whatever_the_order_of_the_items(failing, heard) -> None:
    for order in permutations(ERRORS):
        tx = Transaction(CancellingClient(failing), "matches", collided=InProgress("collided"))
        for name in order:
            tx.put({"pk": name, "sk": "x"}, Guard(Attr("pk").not_exists(), ERRORS[name]))
        tx.put({"pk": "log", "sk": "x"})  # an item without a condition
        with pytest.raises(heard):
            tx.commit()


def test_a_collision_is_the_transactions_own_error_unless_a_condition_failed() -> None:
    def attempt(client: CancellingClient) -> None:
        tx = Transaction(client, "matches", collided=InProgress("collided"))
        tx.put({"pk": "sheet", "sk": "x"}, Guard(Attr("pk").not_exists(), ERRORS["sheet"]))
        tx.put({"pk": "log", "sk": "x"})
        tx.commit()

    with pytest.raises(InProgress):
        attempt(CancellingClient(failing=set(), colliding={"log"}))
    with pytest.raises(Conflict) as heard:
        attempt(CancellingClient(failing={"sheet"}, colliding={"log"}))
    assert not isinstance(heard.value, InProgress)
    with pytest.raises(ClientError, match="slow down"):  # a throttle is the caller's retry's to mend
        attempt(CancellingClient(failing=set(), code="ThrottlingException"))


# -- batched reads ----------------------------------------------------------------------------------


class Unprocessing:
    """A DynamoDB client (moto's) whose BatchGetItem leaves the last key of each request unread,
    `times` times (None: always), as a throttled or oversized batch does."""

    def __init__(self, client: Any, times: int | None) -> None:
        self.client, self.times = client, times
        self.requested: list[int] = []

    def batch_get_item(self, RequestItems: dict[str, Any]) -> dict[str, Any]:  # noqa: N803 (boto3's name)
        ((table, request),) = RequestItems.items()
        self.requested.append(len(request["Keys"]))
        if self.times == 0:
            return self.client.batch_get_item(RequestItems=RequestItems)
        self.times = None if self.times is None else self.times - 1
        *read, left = request["Keys"]
        response = self.client.batch_get_item(RequestItems={table: request | {"Keys": read}}) if read else {}
        return {
            "Responses": (response or {"Responses": {}})["Responses"],
            "UnprocessedKeys": {table: {"Keys": [left], "ConsistentRead": True}},
        }


@pytest.fixture(scope="module")
def dynamodb() -> Iterator[Any]:
    with moto_dynamodb() as client:
        yield client


@pytest.fixture
def table(dynamodb: Any) -> Iterator[str]:
    create_match_table(dynamodb, "reads")
    for n in range(250):
        dynamodb.put_item(TableName="reads", Item=key("PLAYER#p", f"K{n:03d}"))
    yield "reads"
    dynamodb.delete_table(TableName="reads")


def test_keys_left_unread_are_read_again_after_a_backoff(dynamodb: Any, table: str) -> None:
    client, slept = Unprocessing(dynamodb, times=2), []
    keys = [key("PLAYER#p", f"K{n:03d}") for n in range(3)]
    items = Table(client, table, sleep=slept.append).batch_get(keys)
    assert sorted(item["sk"] for item in items) == ["K000", "K001", "K002"]
    # 3 keys, K002 left; then K002 alone, left again; then read: three calls, two waits, the
    # second at most twice the first's bound
    assert client.requested == [3, 1, 1]
    assert len(slept) == 2 and 0 <= slept[0] <= FIRST_BACKOFF and 0 <= slept[1] <= 2 * FIRST_BACKOFF


def test_keys_that_stay_unread_are_store_unavailable_naming_them_never_a_partial_answer(
    dynamodb: Any, table: str
) -> None:
    client, slept = Unprocessing(dynamodb, times=None), []
    keys = [key("PLAYER#p", "K000"), key("PLAYER#p", "K001")]
    with pytest.raises(StoreUnavailable, match="PLAYER#p K001") as unavailable:
        Table(client, table, sleep=slept.append).batch_get(keys)
    assert unavailable.value.keys == [("PLAYER#p", "K001")]
    assert len(client.requested) == READ_ATTEMPTS and len(slept) == READ_ATTEMPTS - 1


def test_a_read_of_many_keys_is_a_call_per_hundred_and_a_key_given_twice_is_read_once(
    dynamodb: Any, table: str
) -> None:
    client = Unprocessing(dynamodb, times=0)
    keys = [key("PLAYER#p", f"K{n:03d}") for n in range(250)] + [key("PLAYER#p", "K000")]
    items = Table(client, table).batch_get(keys)
    assert len(items) == 250
    assert client.requested == [100, 100, 50]


def test_told_keys_for_a_match_that_does_not_exist_write_nothing(dynamodb: Any) -> None:
    # An update creates the item it names: a retried tell of a match gone from the table (expired)
    # must not leave a header holding nothing but told keys
    create_match_table(dynamodb, "told")
    try:
        DynamoMatchStore(dynamodb, "told").remember_told("m-nowhere", frozenset({"k1"}))
        assert dynamodb.scan(TableName="told")["Items"] == []
    finally:
        dynamodb.delete_table(TableName="told")
