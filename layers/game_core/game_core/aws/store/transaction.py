"""One DynamoDB transaction, built item by item: each item carries its condition and the error
its failure means, so which error a caller hears never depends on where an item sits in the list.
Conditions are boto3's condition builders (`Attr`), updates an expression with its own
placeholders."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boto3.dynamodb.conditions import ConditionBase, ConditionExpressionBuilder
from botocore.exceptions import ClientError

from game_core.aws.store.items import typed
from game_core.errors import Conflict, Illegal, Late
from game_core.service.matches.sheets import AlreadyDelivered, HeaderMoved

PRECEDENCE: tuple[type[Exception], ...] = (AlreadyDelivered, Late, Conflict, HeaderMoved, Illegal)
"""When several conditions of one transaction fail, the caller hears the first of these: a
redelivery gets the first reply whatever changed since; a closed phase is final; what the caller
read that changed means read again (the header's moving only if nothing else did); garnets short
last, as what was read may be stale."""


@dataclass(frozen=True)
class Guard:
    """An item's condition, and the error the transaction raises when it fails; `collided`, what
    DynamoDB cancelling it for another transaction on this item means (None: the transaction's own
    `collided`)."""

    condition: ConditionBase
    otherwise: Exception
    collided: Exception | None = None


@dataclass(frozen=True)
class Update:
    """An UpdateExpression with the attribute names and plain values its placeholders stand for."""

    expression: str
    values: dict[str, Any] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    @classmethod
    def assign(cls, values: dict[str, Any]) -> Update:
        """SET each attribute to its value (every name a placeholder: `status` is a reserved word)."""
        assignments = ", ".join(f"#{name} = :{name}" for name in values)
        return cls(
            f"SET {assignments}",
            {f":{name}": value for name, value in values.items()},
            {f"#{name}": name for name in values},
        )

    def then(self, clause: str, values: dict[str, Any] | None = None, names: dict[str, str] | None = None) -> Update:
        """This update followed by another clause (`REMOVE #done`, `ADD #done :me`)."""
        return Update(f"{self.expression} {clause}", self.values | (values or {}), self.names | (names or {}))


def expression(update: Update | None, condition: ConditionBase | None) -> dict[str, Any]:
    """The request's expression parameters: the update's and the condition's placeholders together
    (the condition's are numbered, #n0 and :v0, which no update here uses)."""
    names = dict(update.names) if update else {}
    values = dict(update.values) if update else {}
    request: dict[str, Any] = {"UpdateExpression": update.expression} if update else {}
    if condition is not None:
        built = ConditionExpressionBuilder().build_expression(condition)
        assert not (names.keys() & built.attribute_name_placeholders.keys()), "placeholders collide"
        assert not (values.keys() & built.attribute_value_placeholders.keys()), "placeholders collide"
        request["ConditionExpression"] = built.condition_expression
        names |= built.attribute_name_placeholders
        values |= built.attribute_value_placeholders
    if names:
        request["ExpressionAttributeNames"] = names
    if values:
        request["ExpressionAttributeValues"] = typed(values)
    return request


def changed_meanwhile(match_id: str) -> Conflict:
    """What a caller hears when a write it read for moved first: read again."""
    return Conflict(f"match {match_id} changed meanwhile; try again")


def _rank(error: Exception) -> int:
    return next((rank for rank, kind in enumerate(PRECEDENCE) if isinstance(error, kind)), len(PRECEDENCE))


class Transaction:
    """TransactWriteItems on one table. `collided` is what the caller hears when DynamoDB cancels
    it for another transaction on the same items at the same moment (and no condition failed)."""

    def __init__(self, client: Any, table: str, collided: Exception) -> None:
        self.client = client
        self.table = table
        self.collided = collided
        self._items: list[dict[str, Any]] = []
        self._guards: list[Guard | None] = []

    def _add(self, action: str, target: dict[str, Any], update: Update | None, guard: Guard | None) -> None:
        condition = guard.condition if guard else None
        self._items.append({action: {"TableName": self.table} | target | expression(update, condition)})
        self._guards.append(guard)

    def put(self, item: dict[str, Any], guard: Guard | None = None) -> None:
        """Write the whole item (plain values, its key among them)."""
        self._add("Put", {"Item": typed(item)}, None, guard)

    def update(self, key: dict[str, Any], update: Update, guard: Guard | None = None) -> None:
        self._add("Update", {"Key": key}, update, guard)

    def check(self, key: dict[str, Any], guard: Guard) -> None:
        """Write nothing, only require the item's condition."""
        self._add("ConditionCheck", {"Key": key}, None, guard)

    def commit(self) -> None:
        """All or nothing. A failed condition raises its item's error (of several, the first in
        `PRECEDENCE`); a collision raises `collided`, unless every item that collided has a
        `collided` of its own (then the first of those); any other failure as it came."""
        try:
            self.client.transact_write_items(TransactItems=self._items)
        except ClientError as error:
            reasons = error.response.get("CancellationReasons") or []
            failed = [
                guard.otherwise
                for guard, reason in zip(self._guards, reasons, strict=False)
                if guard is not None and reason.get("Code") == "ConditionalCheckFailed"
            ]
            if failed:
                raise min(failed, key=_rank) from None
            collisions = [
                guard.collided if guard is not None else None
                for guard, reason in zip(self._guards, reasons, strict=False)
                if reason.get("Code") == "TransactionConflict"
            ]
            if collisions:
                own = [collided for collided in collisions if collided is not None]
                raise (own[0] if len(own) == len(collisions) else self.collided) from None
            raise
