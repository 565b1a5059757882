"""The match store on one DynamoDB table, keyed by match.

    pk MATCH#<id>   sk META                      the match header (JSON: players, settings, clock)
                                                 + the attributes conditions test, the actors
                                                 done with the open phase (`done`, for early
                                                 close), the waiting machine's task token, the
                                                 last phase announced
                    sk STATE                     the game state and the result (zlib-compressed JSON),
                                                 written only by the match's creation and resolutions
                    sk SUB#<player>              the participant's submissions to the phase it names:
                                                 per kind, the submission and the garnets it holds
                    sk DELIVERY#<player>#<key>   a delivery's reply (webhook or mail; expires after a week)
                    sk ANSWERED#<mail id>        a received mail has been answered (expires after a week)
                    sk PURSE#<guest>             a guest's garnets while the match runs (balance,
                                                 available, as a player's GARNETS)
                    sk ACTION#<number>#<version> an immediate action taken in the phase, with its
                                                 arrival time (gathered into the phase's record)
                    sk PHASE#<number>            the phase's record (replay input)
                    sk EVENT#<time>#<nonce>      the append-only event log
    pk PLAYER#<id>  sk GARNETS                   the player's balance, carried across matches, and what
                                                 of it is available (the balance less every garnet held
                                                 by a submission waiting for its phase to resolve)
                    sk LEDGER#<match>#<number>   one entry per spending or award
                    sk PROFILE                   the contact the id was registered with (ids are
                                                 unique in a deployment: the ledger keys on them)

A submission is a transaction conditional on its phase still being open, and it holds the garnets
it would spend (`available` goes down, never below zero), so one garnet can never back two moves.
The one that makes every actor done also requests the phase's resolution, in the same transaction.
An immediate action is a transaction conditional on the match's version (and on its phase still
taking actions): it stores the match it leaves, its record and the garnets it moves, a decrease
only from what is free. Host acts and resolutions are transactions conditional on the match's
version, so a duplicate
delivery or a retried resolution cannot change an outcome twice; a resolution writes each
player's balance once, with the net change. `accepting` is written from the match each of those
stores; a resolution closes it beforehand (so no submission lands after it read them) only on the
version it read, so a host act stored first is never left shut. A cancel closes nothing: it is
also conditional on every participant's submissions to the phase as read, whose holds it releases.
"""

from __future__ import annotations

import json
import uuid
import zlib
from datetime import datetime
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import ClientError

from game_core.errors import Conflict, Illegal, InProgress, Late, NotFound, Reason
from game_core.match.clock import iso
from game_core.match.engine import Accepted
from game_core.match.model import ActionRecord, Match, PhaseRecord
from game_core.service.ports import (
    AlreadyDelivered,
    Completion,
    Contact,
    Event,
    HeaderMoved,
    Sheet,
    SubmissionView,
    garnet_changes,
)

KEPT = 7 * 86_400
"""How long a delivery's reply, or a mail's answered mark, is kept for its redeliveries (the
table's TTL removes it)."""
HEAVY = {"state", "result"}
"""What the match header leaves to the STATE item: conditions and updates bill the whole item."""
_serialize = TypeSerializer().serialize
_deserialize = TypeDeserializer().deserialize


def _item(values: dict[str, Any]) -> dict[str, Any]:
    return {key: _serialize(value) for key, value in values.items()}


def _plain(item: dict[str, Any]) -> dict[str, Any]:
    return {key: _deserialize(value) for key, value in item.items()}


def _match_key(match_id: str) -> dict[str, Any]:
    return _item({"pk": f"MATCH#{match_id}", "sk": "META"})


def _state_key(match_id: str) -> dict[str, Any]:
    return _item({"pk": f"MATCH#{match_id}", "sk": "STATE"})


def _pack_state(match: Match) -> bytes:
    """What the header leaves out, compressed: a full 12-player Palindrome state is 45 KB of JSON
    and 4 KB packed (every item of a match stays under 16 KB)."""
    return zlib.compress(json.dumps({"state": match.state, "result": match.result}).encode(), 6)


def _unpack_state(blob: bytes) -> dict[str, Any]:
    unpacked: dict[str, Any] = json.loads(zlib.decompress(blob))
    return unpacked


def _phase_number(match: Match) -> int:
    return match.phase.number if match.phase else 0


def _garnet_key(player: str) -> dict[str, Any]:
    return _item({"pk": f"PLAYER#{player}", "sk": "GARNETS"})


def _purse_key(match_id: str, guest: str) -> dict[str, Any]:
    return _item({"pk": f"MATCH#{match_id}", "sk": f"PURSE#{guest}"})


def _holding_key(match: Match, participant: str) -> dict[str, Any]:
    """Where a participant's garnets are: a guest's purse in the match, else the player's balance."""
    return _purse_key(match.match_id, participant) if participant in match.guests else _garnet_key(participant)


def _submission_key(match_id: str, player: str) -> dict[str, Any]:
    return _item({"pk": f"MATCH#{match_id}", "sk": f"SUB#{player}"})


def _delivery_key(match_id: str, player: str, key: str) -> dict[str, Any]:
    return _item({"pk": f"MATCH#{match_id}", "sk": f"DELIVERY#{player}#{key}"})


def _sheet(item: dict[str, Any]) -> Sheet:
    return Sheet(
        player=str(item["player"]),
        phase_number=int(item["phase_number"]),
        kinds=json.loads(item["kinds"]),
        costs={kind: int(cost) for kind, cost in json.loads(item["costs"]).items()},
        revision=int(item["revision"]),
        updated_at=str(item["updated_at"]),
    )


def _collided(error: ClientError) -> bool:
    """A transaction cancelled for another one on the same items at the same moment."""
    reasons = error.response.get("CancellationReasons") or []
    return any(reason.get("Code") == "TransactionConflict" for reason in reasons)


def _cancelled_items(error: ClientError) -> list[int]:
    """The indexes of a cancelled transaction's items whose condition failed."""
    reasons = error.response.get("CancellationReasons") or []
    return [index for index, reason in enumerate(reasons) if reason.get("Code") == "ConditionalCheckFailed"]


class DynamoMatchStore:
    def __init__(self, client: Any, table: str) -> None:
        self.client = client
        self.table = table

    # -- helpers ---------------------------------------------------------------------------

    def _meta_values(self, match: Match) -> dict[str, Any]:
        clock = match.phase
        return {
            "match": match.model_dump_json(exclude=HEAVY),
            "version": match.version,
            "status": match.status,
            "phase_number": _phase_number(match),
            "accepting": bool(clock and not clock.resolve_requested),
            "paused": bool(clock and clock.paused),
            "deadline": iso(clock.deadline) if clock else "",
            "clock_version": clock.version if clock else 0,
        }

    def _meta_update(self, before: Match, after: Match) -> dict[str, Any]:
        values = self._meta_values(after)
        names = {f"#{key}": key for key in values}
        update = "SET " + ", ".join(f"#{key} = :{key}" for key in values)
        if _phase_number(before) != _phase_number(after):
            update += " REMOVE #done"  # who was done with the phase that closed
            names["#done"] = "done"
        return {
            "Update": {
                "TableName": self.table,
                "Key": _match_key(after.match_id),
                "UpdateExpression": update,
                "ConditionExpression": "#version = :before",
                "ExpressionAttributeNames": names,
                "ExpressionAttributeValues": _item(
                    {f":{k}": v for k, v in values.items()} | {":before": before.version}
                ),
            }
        }

    def _state_put(self, match: Match) -> dict[str, Any]:
        values = {"blob": _pack_state(match), "version": match.version}
        return {"Put": {"TableName": self.table, "Item": _state_key(match.match_id) | _item(values)}}

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
            if _cancelled_items(error) or _collided(error):  # read again, and judge afresh
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

    def create(self, match: Match, balances: dict[str, int], event: Event, contacts: dict[str, Contact]) -> None:
        items: list[dict[str, Any]] = [
            {
                "Put": {
                    "TableName": self.table,
                    "Item": _match_key(match.match_id) | _item(self._meta_values(match)),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            },
            self._state_put(match),
        ]
        for player, balance in balances.items():
            items.append(
                {
                    "Update": {
                        "TableName": self.table,
                        "Key": _garnet_key(player),
                        "UpdateExpression": "SET balance = if_not_exists(balance, :start), "
                        "available = if_not_exists(available, :start)",
                        "ExpressionAttributeValues": _item({":start": balance}),
                    }
                }
            )
        for guest in sorted(match.guests):
            purse = {"balance": 0, "available": 0}
            items.append({"Put": {"TableName": self.table, "Item": _purse_key(match.match_id, guest) | _item(purse)}})
        items += self._contact_writes(contacts)
        items.append(self._event_put(match.match_id, event))
        self._transact(items, Conflict(f"match {match.match_id} already exists, or a contact changed meanwhile"))

    def balances(self, players: tuple[str, ...]) -> dict[str, int]:
        result = {}
        for player in players:
            item = self.client.get_item(TableName=self.table, Key=_garnet_key(player), ConsistentRead=True)
            if "Item" in item:
                result[player] = int(_plain(item["Item"])["balance"])
        return result

    def _batch_get(self, keys: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The items of those keys that exist, read consistently in one call (more only for what
        DynamoDB could not read at once, which is rare)."""
        request = {self.table: {"Keys": keys, "ConsistentRead": True}}
        items: list[dict[str, Any]] = []
        for _attempt in range(5):
            response = self.client.batch_get_item(RequestItems=request)
            items += [_plain(item) for item in response["Responses"].get(self.table, [])]
            request = response.get("UnprocessedKeys") or {}
            if not request:
                break
        return items

    def get(self, match_id: str) -> Match:
        items = {item["sk"]: item for item in self._batch_get([_match_key(match_id), _state_key(match_id)])}
        return self._match(match_id, items)

    def _match(self, match_id: str, items: dict[str, dict[str, Any]]) -> Match:
        if "META" not in items or "STATE" not in items:
            raise NotFound(f"no match {match_id!r}")
        header = items["META"]
        match = Match.model_validate_json(header["match"])
        match = match.model_copy(update=_unpack_state(bytes(items["STATE"]["blob"])))
        match.announced = int(header.get("announced", 0))
        match.done = frozenset(header.get("done", ()))
        return match

    def submission_view(self, match_id: str, player: str, delivery: str | None) -> SubmissionView:
        keys = [_match_key(match_id), _state_key(match_id), _garnet_key(player), _submission_key(match_id, player)]
        keys.append(_purse_key(match_id, player))  # read at once: whether it is a guest's is in the match
        if delivery is not None:
            keys.append(_delivery_key(match_id, player, delivery))
        items = {item["sk"]: item for item in self._batch_get(keys)}
        match = self._match(match_id, items)
        garnets = items.get(f"PURSE#{player}" if player in match.guests else "GARNETS", {})
        sheet = items.get(f"SUB#{player}")
        delivered = next((item for sk, item in items.items() if sk.startswith("DELIVERY#")), None)
        return SubmissionView(
            match=match,
            available=int(garnets.get("available", garnets.get("balance", 0))),
            balance=int(garnets.get("balance", 0)),
            sheet=_sheet(sheet) if sheet else None,
            delivered=json.loads(delivered["reply"]) if delivered else None,
            done=frozenset(items["META"].get("done", ())),
            task_token=items["META"].get("task_token"),
            accepting=bool(items["META"].get("accepting", False)),
        )

    def delivered(self, match_id: str, player: str, delivery: str) -> dict[str, Any] | None:
        key = _delivery_key(match_id, player, delivery)
        item = self.client.get_item(TableName=self.table, Key=key, ConsistentRead=True).get("Item")
        reply: dict[str, Any] | None = json.loads(_plain(item)["reply"]) if item else None
        return reply

    def answered(self, match_id: str, message: str) -> bool:
        key = _item({"pk": f"MATCH#{match_id}", "sk": f"ANSWERED#{message}"})
        return "Item" in self.client.get_item(TableName=self.table, Key=key, ConsistentRead=True)

    def mark_answered(self, match_id: str, message: str, at: datetime) -> None:
        item = {"pk": f"MATCH#{match_id}", "sk": f"ANSWERED#{message}", "expiration": int(at.timestamp()) + KEPT}
        self.client.put_item(TableName=self.table, Item=_item(item))

    def put_submission(
        self,
        match: Match,
        player: str,
        accepted: Accepted,
        event: Event,
        seen: Sheet | None,
        delivery: tuple[str, dict[str, Any]] | None = None,
        completion: Completion | None = None,
    ) -> None:
        assert match.phase is not None
        number = match.phase.number
        current = seen if seen is not None and seen.phase_number == number else None
        held = current.costs.get(accepted.kind, 0) if current else 0
        header = self._submission_header(match, player, event, completion)
        sheet = {
            "player": player,
            "phase_number": number,
            "kinds": json.dumps((current.kinds if current else {}) | {accepted.kind: accepted.submission}),
            "costs": json.dumps((current.costs if current else {}) | {accepted.kind: accepted.garnet_cost}),
            "revision": (seen.revision if seen else 0) + 1,
            "updated_at": iso(event.at),
        }
        write: dict[str, Any] = {
            "Put": {
                "TableName": self.table,
                "Item": _submission_key(match.match_id, player) | _item(sheet),
                # The submissions replaced are the ones read: a concurrent write makes this a conflict.
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        }
        if seen is not None:
            write["Put"]["ConditionExpression"] = "revision = :revision"
            write["Put"]["ExpressionAttributeValues"] = _item({":revision": seen.revision})
        items = [header, write, self._event_put(match.match_id, event)]
        if completion is not None and completion.closing_event is not None:
            items.append(self._event_put(match.match_id, completion.closing_event))
        change = accepted.garnet_cost - held
        if change:
            items.append(self._hold(_holding_key(match, player), change))
        if delivery is not None:
            items.append(self._delivery_put(match.match_id, player, delivery, event))
        try:
            self.client.transact_write_items(TransactItems=items)
        except ClientError as error:
            failed = _cancelled_items(error)
            if not failed:
                if _collided(error):
                    raise InProgress("another write to your submissions is under way; send it again") from None
                raise
            if delivery is not None and len(items) - 1 in failed:
                raise AlreadyDelivered() from None
            if 0 in failed and completion is None:
                raise Late(f"{match.phase.name!r} closed before the submission arrived") from None
            if 1 in failed:
                raise Conflict("another submission of yours for this phase arrived meanwhile; send it again") from None
            if 0 in failed:
                raise HeaderMoved() from None
            short = f"it spends {accepted.garnet_cost} garnets, more than your balance has free now"
            raise Illegal(f"the {accepted.kind} submission is not allowed", [Reason("garnets_short", short)]) from None

    def _delivery_put(
        self, match_id: str, player: str, delivery: tuple[str, dict[str, Any]], event: Event
    ) -> dict[str, Any]:
        """A delivery's reply, stored only if its key is new (kept for a week of redeliveries)."""
        key, reply = delivery
        record = {"reply": json.dumps(reply, sort_keys=True), "expiration": int(event.at.timestamp()) + KEPT}
        return {
            "Put": {
                "TableName": self.table,
                "Item": _delivery_key(match_id, player, key) | _item(record),
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        }

    def _submission_header(
        self, match: Match, player: str, event: Event, completion: Completion | None
    ) -> dict[str, Any]:
        """A submission's part on the match header: the phase must still take it; a completion
        adds the sender to `done` conditional on `done` as read (two last submitters cannot both
        miss that they closed the phase), and a closing one also stores the requested resolution,
        conditional on the version and the wait's token as read."""
        assert match.phase is not None
        condition = (
            "phase_number = :n AND accepting = :yes AND #status = :running AND (paused = :yes OR deadline > :now)"
        )
        names = {"#status": "status", "#done": "done"}
        values: dict[str, Any] = {":n": match.phase.number, ":yes": True, ":running": "running", ":now": iso(event.at)}
        key = {"TableName": self.table, "Key": _match_key(match.match_id)}
        if completion is None:
            return {"ConditionCheck": key | self._expression(condition, {"#status": "status"}, values)}
        if completion.done_before:
            condition += " AND size(#done) = :done_before"
            values[":done_before"] = len(completion.done_before)
        else:
            condition += " AND attribute_not_exists(#done)"
        values[":me"] = {player}
        update = "ADD #done :me"
        if completion.closing is not None:
            closing = self._meta_values(completion.closing)
            update = "SET " + ", ".join(f"#{name} = :{name}" for name in closing) + " " + update
            names |= {f"#{name}": name for name in closing}
            values |= {f":{name}": value for name, value in closing.items()} | {":before": match.version}
            condition += " AND #version = :before AND "
            if completion.task_token is None:
                condition += "attribute_not_exists(task_token)"
            else:
                condition += "task_token = :token"
                values[":token"] = completion.task_token
        return {"Update": key | {"UpdateExpression": update} | self._expression(condition, names, values)}

    @staticmethod
    def _expression(condition: str, names: dict[str, str], values: dict[str, Any]) -> dict[str, Any]:
        return {
            "ConditionExpression": condition,
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": _item(values),
        }

    def _hold(self, key: dict[str, Any], change: int) -> dict[str, Any]:
        """Hold `change` more garnets of the holding at `key` (or release -change), never below zero."""
        update: dict[str, Any] = {
            "TableName": self.table,
            "Key": key,
            "UpdateExpression": "SET available = available - :change",
            "ExpressionAttributeValues": _item({":change": change}),
        }
        if change > 0:
            update["ConditionExpression"] = "available >= :change"
        return {"Update": update}

    def sheets(self, match_id: str, phase_number: int) -> dict[str, Sheet]:
        sheets = [_sheet(item) for item in self._query(f"MATCH#{match_id}", "SUB#")]
        return {sheet.player: sheet for sheet in sheets if sheet.phase_number == phase_number}

    def submissions(self, match_id: str, phase_number: int) -> dict[str, dict[str, Any]]:
        return {player: sheet.kinds for player, sheet in self.sheets(match_id, phase_number).items()}

    def stop_accepting(self, match: Match) -> bool:
        # Only the match as read: every later save writes `accepting` from the match it stores,
        # so a host act that lands first is never shut by a resolution that read the match before it.
        try:
            self.client.update_item(
                TableName=self.table,
                Key=_match_key(match.match_id),
                UpdateExpression="SET accepting = :no",
                ConditionExpression="#version = :v",
                ExpressionAttributeNames={"#version": "version"},
                ExpressionAttributeValues=_item({":no": False, ":v": match.version}),
            )
        except ClientError as error:
            if error.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            return False  # the match has moved on: nothing closed
        return True

    def save(
        self,
        before: Match,
        after: Match,
        event: Event,
        releases: dict[str, Sheet] | None = None,
        returned: dict[str, int] | None = None,
    ) -> None:
        items = [self._meta_update(before, after), self._event_put(before.match_id, event)]
        if (before.state, before.result) != (after.state, after.result):
            items.append(self._state_put(after))  # a host's decision of a tie changes the result
        if releases is not None:
            items += self._sheets_unchanged(before, releases)
        # One update per holding (a transaction touches an item once): a guest's release and the
        # emptying of their purse together. The purses were read at this match version, which only
        # an immediate action or a resolution moves, so the condition on it keeps them as read.
        held = {participant: sheet.held for participant, sheet in (releases or {}).items() if sheet.held}
        changes = garnet_changes(after.guests, held, returned or {})
        items += [
            self._change(_holding_key(after, participant), balance, available)
            for participant, (balance, available) in sorted(changes.items())
        ]
        items += [
            self._ledger_line(participant, after.match_id, "returned", balance)
            for participant, (balance, _available) in sorted(changes.items())
            if participant not in after.guests and balance
        ]
        self._transact(items, Conflict(f"match {before.match_id} changed meanwhile; try again"))

    def _sheets_unchanged(self, match: Match, sheets: dict[str, Sheet]) -> list[dict[str, Any]]:
        """Conditions that every participant's submissions to the open phase are still `sheets`
        as read: a submission stored since (its sheet's revision moves, or a first one names the
        phase) fails them."""
        assert match.phase is not None
        checks = []
        for participant in match.player_ids:
            seen = sheets.get(participant)
            if seen is None:
                condition = "attribute_not_exists(pk) OR phase_number <> :n"
                values = {":n": match.phase.number}
            else:
                condition, values = "revision = :revision", {":revision": seen.revision}
            check = {"TableName": self.table, "Key": _submission_key(match.match_id, participant)}
            check |= {"ConditionExpression": condition, "ExpressionAttributeValues": _item(values)}
            checks.append({"ConditionCheck": check})
        return checks

    def commit_resolution(
        self,
        before: Match,
        after: Match,
        record: PhaseRecord,
        spending: dict[str, int],
        awards: dict[str, int],
        events: list[Event],
    ) -> None:
        items = [self._meta_update(before, after), self._state_put(after)]
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
        for player in sorted(spending.keys() | awards.keys()):
            key = _holding_key(after, player)
            items.append(self._settle(key, spending.get(player, 0), awards.get(player, 0)))
        guests = after.guests
        for player, amount in sorted(spending.items()):
            if player not in guests:
                items.append(self._ledger_line(player, after.match_id, f"{record.number:05d}#spent", -amount))
        for player, amount in sorted(awards.items()):
            if player not in guests:
                items.append(self._ledger_line(player, after.match_id, "award", amount))
        items += [self._event_put(after.match_id, event) for event in events]
        self._transact(items, Conflict(f"match {before.match_id} changed meanwhile; try again"))

    def _settle(self, key: dict[str, Any], spent: int, awarded: int) -> dict[str, Any]:
        """A holding written once with the net change: what was held is spent (it already left
        `available`), what was awarded is added to both."""
        return {
            "Update": {
                "TableName": self.table,
                "Key": key,
                "UpdateExpression": "SET balance = if_not_exists(balance, :zero) + :net, "
                "available = if_not_exists(available, :zero) + :awarded",
                "ConditionExpression": "attribute_not_exists(balance) OR balance >= :spent",
                "ExpressionAttributeValues": _item(
                    {":zero": 0, ":net": awarded - spent, ":awarded": awarded, ":spent": spent}
                ),
            }
        }

    def _ledger_line(self, player: str, match_id: str, entry: str, amount: int) -> dict[str, Any]:
        return {
            "Put": {
                "TableName": self.table,
                "Item": _item({"pk": f"PLAYER#{player}", "sk": f"LEDGER#{match_id}#{entry}", "amount": amount}),
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        }

    def put_action(
        self,
        before: Match,
        after: Match,
        record: ActionRecord,
        garnets: dict[str, int],
        event: Event,
        delivery: tuple[str, dict[str, Any]] | None = None,
    ) -> None:
        assert before.phase is not None
        number = before.phase.number
        header = self._meta_update(before, after)
        header["Update"]["ConditionExpression"] += (
            " AND accepting = :yes AND #status = :running AND (paused = :yes OR deadline > :now)"
        )
        header["Update"]["ExpressionAttributeNames"]["#status"] = "status"
        header["Update"]["ExpressionAttributeValues"] |= _item(
            {":yes": True, ":running": "running", ":now": iso(event.at)}
        )
        action = {
            "pk": f"MATCH#{after.match_id}",
            "sk": f"ACTION#{number:05d}#{after.version:08d}",
            "record": record.model_dump_json(),
        }
        items = [
            header,
            self._state_put(after),
            {
                "Put": {
                    "TableName": self.table,
                    "Item": _item(action),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            },
            self._event_put(after.match_id, event),
        ]
        for participant, change in sorted(garnets.items()):
            items.append(self._move(_holding_key(after, participant), change))
            if participant not in after.guests:
                entry = f"{number:05d}#action#{after.version:08d}"
                items.append(self._ledger_line(participant, after.match_id, entry, change))
        if delivery is not None:
            items.append(self._delivery_put(after.match_id, record.actor or "", delivery, event))
        try:
            self.client.transact_write_items(TransactItems=items)
        except ClientError as error:
            failed = _cancelled_items(error)
            if not failed and not _collided(error):
                raise
            if delivery is not None and len(items) - 1 in failed:
                raise AlreadyDelivered() from None
            if not failed or 0 in failed:
                raise Conflict(f"match {after.match_id} changed meanwhile; try again") from None
            short = f"the {record.kind} takes more garnets than you hold free now"
            raise Illegal(f"the {record.kind} is not allowed", [Reason("garnets_short", short)]) from None

    def _change(self, key: dict[str, Any], balance: int, available: int) -> dict[str, Any]:
        """A holding's balance and free garnets changed by what a stopped match gives back."""
        return {
            "Update": {
                "TableName": self.table,
                "Key": key,
                "UpdateExpression": "SET balance = if_not_exists(balance, :zero) + :balance, "
                "available = if_not_exists(available, :zero) + :available",
                "ExpressionAttributeValues": _item({":balance": balance, ":available": available, ":zero": 0}),
            }
        }

    def _move(self, key: dict[str, Any], change: int) -> dict[str, Any]:
        """A holding's balance and free garnets changed at once; a decrease only from what is free."""
        update: dict[str, Any] = {
            "TableName": self.table,
            "Key": key,
            "UpdateExpression": "SET balance = if_not_exists(balance, :zero) + :change, "
            "available = if_not_exists(available, :zero) + :change",
            "ExpressionAttributeValues": _item({":change": change, ":zero": 0}),
        }
        if change < 0:
            update["ConditionExpression"] = "available >= :taken"
            update["ExpressionAttributeValues"] |= _item({":taken": -change})
        return {"Update": update}

    def actions(self, match_id: str, phase_number: int) -> list[ActionRecord]:
        items = self._query(f"MATCH#{match_id}", f"ACTION#{phase_number:05d}#")
        return [ActionRecord.model_validate_json(item["record"]) for item in items]

    def purses(self, match_id: str) -> dict[str, int]:
        return {
            item["sk"].removeprefix("PURSE#"): int(item["balance"])
            for item in self._query(f"MATCH#{match_id}", "PURSE#")
        }

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

    def mark_announced(self, match_id: str, number: int) -> None:
        self.client.update_item(
            TableName=self.table,
            Key=_match_key(match_id),
            UpdateExpression="SET announced = :n",
            ExpressionAttributeValues=_item({":n": number}),
        )

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

    # -- participants' contacts: pk PLAYER#<id>, sk PROFILE, contact ------------------------

    @staticmethod
    def _profile_key(player: str) -> dict[str, Any]:
        return _item({"pk": f"PLAYER#{player}", "sk": "PROFILE"})

    def contacts(self, players: tuple[str, ...]) -> dict[str, str]:
        result = {}
        for player in players:
            item = self.client.get_item(TableName=self.table, Key=self._profile_key(player), ConsistentRead=True)
            if "Item" in item:
                result[player] = str(_plain(item["Item"]).get("contact", ""))
        return result

    def _contact_writes(self, contacts: dict[str, Contact]) -> list[dict[str, Any]]:
        """A new match's contact registrations, each conditional on the profile as it was read:
        absent for a new id, else holding the contact read (the host confirmed a change)."""
        items: list[dict[str, Any]] = []
        for player, contact in sorted(contacts.items()):
            put: dict[str, Any] = {
                "TableName": self.table,
                "Item": self._profile_key(player) | _item({"contact": contact.after}),
            }
            if contact.before is None:
                put["ConditionExpression"] = "attribute_not_exists(pk)"
            else:
                put["ConditionExpression"] = "contact = :before"
                put["ExpressionAttributeValues"] = _item({":before": contact.before})
            items.append({"Put": put})
        return items
