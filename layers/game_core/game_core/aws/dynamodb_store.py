"""The match store on one DynamoDB table, keyed by match.

    pk MATCH#<id>   sk META                      the match (JSON) + the attributes conditions test
                    sk SUB#<number>#<player>     one item per participant and phase, a field per kind
                    sk PHASE#<number>            the phase's record (replay input)
                    sk EVENT#<time>#<nonce>      the append-only event log
    pk PLAYER#<id>  sk GARNETS                   the player's balance, carried across matches
                    sk LEDGER#<match>#<number>   one entry per spending or award

Every write that changes a phase is a transaction conditional on the phase still being open and
on the match's version, so a late submission, a duplicate delivery or a retried resolution
cannot change an outcome twice.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import ClientError

from game_core.errors import Conflict, Late, NotFound
from game_core.match.clock import PhaseClock, iso
from game_core.match.engine import Accepted
from game_core.match.model import Match, PhaseRecord
from game_core.service.ports import Event

_serialize = TypeSerializer().serialize
_deserialize = TypeDeserializer().deserialize


def _item(values: dict[str, Any]) -> dict[str, Any]:
    return {key: _serialize(value) for key, value in values.items()}


def _plain(item: dict[str, Any]) -> dict[str, Any]:
    return {key: _deserialize(value) for key, value in item.items()}


def _match_key(match_id: str) -> dict[str, Any]:
    return _item({"pk": f"MATCH#{match_id}", "sk": "META"})


def _garnet_key(player: str) -> dict[str, Any]:
    return _item({"pk": f"PLAYER#{player}", "sk": "GARNETS"})


def _kind_attribute(kind: str) -> str:
    return f"kind_{kind}"


class DynamoMatchStore:
    def __init__(self, client: Any, table: str) -> None:
        self.client = client
        self.table = table

    # -- helpers ---------------------------------------------------------------------------

    def _meta_values(self, match: Match) -> dict[str, Any]:
        clock = match.phase
        return {
            "match": match.model_dump_json(),
            "version": match.version,
            "status": match.status,
            "phase_number": clock.number if clock else 0,
            "accepting": bool(clock and not clock.resolve_requested),
            "paused": bool(clock and clock.paused),
            "deadline": iso(clock.deadline) if clock else "",
            "clock_version": clock.version if clock else 0,
        }

    def _meta_update(self, before: Match, after: Match) -> dict[str, Any]:
        values = self._meta_values(after)
        names = {f"#{key}": key for key in values}
        return {
            "Update": {
                "TableName": self.table,
                "Key": _match_key(after.match_id),
                "UpdateExpression": "SET " + ", ".join(f"#{key} = :{key}" for key in values),
                "ConditionExpression": "#version = :before",
                "ExpressionAttributeNames": names,
                "ExpressionAttributeValues": _item(
                    {f":{k}": v for k, v in values.items()} | {":before": before.version}
                ),
            }
        }

    def _event_put(self, match_id: str, event: Event) -> dict[str, Any]:
        at = event.at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        return {
            "Put": {
                "TableName": self.table,
                "Item": _item(
                    {
                        "pk": f"MATCH#{match_id}",
                        "sk": f"EVENT#{at}#{uuid.uuid4().hex[:12]}",
                        "type": event.type,
                        "at": at,
                        "data": json.dumps(event.data, sort_keys=True),
                    }
                ),
            }
        }

    def _transact(self, items: list[dict[str, Any]], on_condition_failure: Exception) -> None:
        try:
            self.client.transact_write_items(TransactItems=items)
        except ClientError as error:
            if error.response["Error"]["Code"] in (
                "TransactionCanceledException",
                "ConditionalCheckFailedException",
            ):
                raise on_condition_failure from None
            raise

    def _query(self, pk: str, prefix: str) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        kwargs: dict[str, Any] = {
            "TableName": self.table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            "ExpressionAttributeValues": _item({":pk": pk, ":prefix": prefix}),
            "ConsistentRead": True,
        }
        while True:
            page = self.client.query(**kwargs)
            items.extend(_plain(item) for item in page["Items"])
            if "LastEvaluatedKey" not in page:
                return items
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    # -- the port --------------------------------------------------------------------------

    def create(self, match: Match, balances: dict[str, int], event: Event) -> None:
        items: list[dict[str, Any]] = [
            {
                "Put": {
                    "TableName": self.table,
                    "Item": _match_key(match.match_id) | _item(self._meta_values(match)),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            }
        ]
        for player, balance in balances.items():
            items.append(
                {
                    "Update": {
                        "TableName": self.table,
                        "Key": _garnet_key(player),
                        "UpdateExpression": "SET balance = if_not_exists(balance, :start)",
                        "ExpressionAttributeValues": _item({":start": balance}),
                    }
                }
            )
        items.append(self._event_put(match.match_id, event))
        self._transact(items, Conflict(f"match {match.match_id} already exists"))

    def balances(self, players: tuple[str, ...]) -> dict[str, int]:
        result = {}
        for player in players:
            item = self.client.get_item(TableName=self.table, Key=_garnet_key(player), ConsistentRead=True)
            if "Item" in item:
                result[player] = int(_plain(item["Item"])["balance"])
        return result

    def get(self, match_id: str) -> Match:
        item = self.client.get_item(TableName=self.table, Key=_match_key(match_id), ConsistentRead=True)
        if "Item" not in item:
            raise NotFound(f"no match {match_id!r}")
        return Match.model_validate_json(_plain(item["Item"])["match"])

    def put_submission(self, match: Match, player: str, accepted: Accepted, event: Event) -> None:
        assert match.phase is not None
        number = match.phase.number
        attribute = _kind_attribute(accepted.kind)
        still_open = {
            "ConditionCheck": {
                "TableName": self.table,
                "Key": _match_key(match.match_id),
                "ConditionExpression": "phase_number = :n AND accepting = :yes AND #status = :running "
                "AND (paused = :yes OR deadline > :now)",
                "ExpressionAttributeNames": {"#status": "status"},
                "ExpressionAttributeValues": _item(
                    {
                        ":n": number,
                        ":yes": True,
                        ":running": "running",
                        ":now": iso(event.at),
                    }
                ),
            }
        }
        write = {
            "Update": {
                "TableName": self.table,
                "Key": _item({"pk": f"MATCH#{match.match_id}", "sk": f"SUB#{number:05d}#{player}"}),
                "UpdateExpression": "SET #kind = :body, player = :player, updated_at = :at",
                "ExpressionAttributeNames": {"#kind": attribute},
                "ExpressionAttributeValues": _item(
                    {
                        ":body": json.dumps(accepted.submission, sort_keys=True),
                        ":player": player,
                        ":at": iso(event.at),
                    }
                ),
            }
        }
        self._transact(
            [still_open, write, self._event_put(match.match_id, event)],
            Late(f"{match.phase.name!r} closed before the submission arrived"),
        )

    def submissions(self, match_id: str, phase_number: int) -> dict[str, dict[str, Any]]:
        result: dict[str, dict[str, Any]] = {}
        for item in self._query(f"MATCH#{match_id}", f"SUB#{phase_number:05d}#"):
            kinds = {
                key.removeprefix("kind_"): json.loads(value) for key, value in item.items() if key.startswith("kind_")
            }
            result[item["player"]] = kinds
        return result

    def stop_accepting(self, match_id: str, phase_number: int) -> None:
        try:
            self.client.update_item(
                TableName=self.table,
                Key=_match_key(match_id),
                UpdateExpression="SET accepting = :no",
                ConditionExpression="phase_number = :n",
                ExpressionAttributeValues=_item({":no": False, ":n": phase_number}),
            )
        except ClientError as error:
            if error.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise  # else the phase has moved on: nothing to close

    def save_clock(self, before: Match, clock: PhaseClock | None, event: Event, *, cancel: bool = False) -> Match:
        after = before.model_copy(
            update={
                "phase": clock,
                "version": before.version + 1,
                "status": "cancelled" if cancel else before.status,
            }
        )
        self._transact(
            [self._meta_update(before, after), self._event_put(before.match_id, event)],
            Conflict(f"match {before.match_id} changed meanwhile; try again"),
        )
        return after

    def commit_resolution(
        self,
        before: Match,
        after: Match,
        record: PhaseRecord,
        spending: dict[str, int],
        awards: dict[str, int],
        events: list[Event],
    ) -> None:
        items = [self._meta_update(before, after)]
        items.append(
            {
                "Put": {
                    "TableName": self.table,
                    "Item": _item(
                        {
                            "pk": f"MATCH#{after.match_id}",
                            "sk": f"PHASE#{record.number:05d}",
                            "record": record.model_dump_json(),
                        }
                    ),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            }
        )
        for player, amount in sorted(spending.items()):
            items += self._ledger(player, after.match_id, f"{record.number:05d}#spent", -amount)
        for player, amount in sorted(awards.items()):
            items += self._ledger(player, after.match_id, "award", amount)
        items += [self._event_put(after.match_id, event) for event in events]
        self._transact(items, Conflict(f"match {before.match_id} changed meanwhile; try again"))

    def _ledger(self, player: str, match_id: str, entry: str, amount: int) -> list[dict[str, Any]]:
        balance: dict[str, Any] = {
            "Update": {
                "TableName": self.table,
                "Key": _garnet_key(player),
                "UpdateExpression": "SET balance = if_not_exists(balance, :zero) + :amount",
                "ExpressionAttributeValues": _item({":zero": 0, ":amount": amount}),
            }
        }
        if amount < 0:  # never below zero
            balance["Update"]["ConditionExpression"] = "balance >= :needed"
            balance["Update"]["ExpressionAttributeValues"] |= _item({":needed": -amount})
        line = {
            "Put": {
                "TableName": self.table,
                "Item": _item({"pk": f"PLAYER#{player}", "sk": f"LEDGER#{match_id}#{entry}", "amount": amount}),
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        }
        return [balance, line]

    def set_task_token(self, match_id: str, phase_number: int, clock_version: int, token: str) -> bool:
        try:
            self.client.update_item(
                TableName=self.table,
                Key=_match_key(match_id),
                UpdateExpression="SET task_token = :token",
                ConditionExpression="phase_number = :n AND clock_version = :cv AND #status = :running",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues=_item(
                    {
                        ":token": token,
                        ":n": phase_number,
                        ":cv": clock_version,
                        ":running": "running",
                    }
                ),
            )
        except ClientError as error:
            if error.response["Error"]["Code"] == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def task_token(self, match_id: str) -> str | None:
        item = self.client.get_item(TableName=self.table, Key=_match_key(match_id), ConsistentRead=True)
        token = _plain(item.get("Item", {})).get("task_token")
        return str(token) if token else None

    def phase_records(self, match_id: str, number: int | None = None) -> list[PhaseRecord]:
        prefix = "PHASE#" if number is None else f"PHASE#{number:05d}"
        return [PhaseRecord.model_validate_json(item["record"]) for item in self._query(f"MATCH#{match_id}", prefix)]

    def events(self, match_id: str) -> list[Event]:
        return [
            Event(item["type"], datetime.fromisoformat(item["at"]), json.loads(item["data"]))
            for item in self._query(f"MATCH#{match_id}", "EVENT#")
        ]
