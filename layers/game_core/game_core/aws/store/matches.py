"""The match: its header (every condition is checked on it, so it stays small), its state, the
phase records, the immediate actions, the event log, and the waiting machine's task token.

Host acts and resolutions are conditional on the match's version, so a duplicate delivery or a
retried resolution cannot change an outcome twice. `accepting` is written from the match each of
those stores; a resolution closes it beforehand (so no submission lands after it read them) only
on the version it read, so a host act stored first is never left shut."""

from __future__ import annotations

import json
import zlib
from datetime import datetime
from typing import Any

from boto3.dynamodb.conditions import Attr, ConditionBase

from game_core.aws.store.items import header_key, match_pk, state_key
from game_core.aws.store.log import PREFIX, EventLog, counter_key, entry
from game_core.aws.store.table import Table
from game_core.aws.store.transaction import Guard, Transaction, Update, changed_meanwhile
from game_core.errors import Conflict, Late, NotFound
from game_core.match.clock import iso
from game_core.match.model import ActionRecord, Match, PhaseRecord
from game_core.service.matches.sheets import HeaderMoved
from game_core.service.ports import Completion, Event

HEAVY = {"state", "result"}
"""What the match header leaves to the STATE item: conditions and updates bill the whole item."""


def phase_open(number: int, at: datetime) -> ConditionBase:
    """The header still takes submissions and actions to phase `number` at `at`: no resolution
    has closed it, the match runs, and it is paused or before its deadline (ISO strings compare
    as the moments do)."""
    return (
        Attr("phase_number").eq(number)
        & Attr("accepting").eq(True)
        & Attr("status").eq("running")
        & (Attr("paused").eq(True) | Attr("deadline").gt(iso(at)))
    )


def _phase_number(match: Match) -> int:
    return match.phase.number if match.phase else 0


def header_values(match: Match) -> dict[str, Any]:
    """The header's attributes, each written from the match stored."""
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


def _pack_state(match: Match) -> bytes:
    """What the header leaves out, compressed: a full 12-player Palindrome state is 45 KB of JSON
    and 4 KB packed (every item of a match stays under 16 KB)."""
    return zlib.compress(json.dumps({"state": match.state, "result": match.result}).encode(), 6)


def _unpack_state(blob: bytes) -> dict[str, Any]:
    unpacked: dict[str, Any] = json.loads(zlib.decompress(blob))
    return unpacked


class Matches:
    def __init__(self, db: Table, log: EventLog) -> None:
        self.db = db
        self.log = log

    # -- writes, each an item of the caller's transaction ----------------------------------

    def add_new(self, tx: Transaction, match: Match) -> None:
        """A new match's header (only if the id is new) and state."""
        header = {"pk": match_pk(match.match_id), "sk": "META"} | header_values(match)
        tx.put(header, Guard(Attr("pk").not_exists(), Conflict(f"match {match.match_id} already exists")))
        self.put_state(tx, match)

    def put_state(self, tx: Transaction, match: Match) -> None:
        tx.put({"pk": match_pk(match.match_id), "sk": "STATE", "blob": _pack_state(match), "version": match.version})

    def replace_header(self, tx: Transaction, before: Match, after: Match, also: ConditionBase | None = None) -> None:
        """The header written from `after`, only while it is still `before` (its version) and
        `also` holds; a new phase empties who was done with the one that closed, and what failed
        steps had told (every occasion of that phase is told by now: `telling.tell`)."""
        update = Update.assign(header_values(after))
        if _phase_number(before) != _phase_number(after):
            update = update.then("REMOVE #done, #told", names={"#done": "done", "#told": "told"})
        condition = Attr("version").eq(before.version)
        tx.update(
            header_key(after.match_id),
            update,
            Guard(condition & also if also is not None else condition, changed_meanwhile(before.match_id)),
        )

    def complete(self, tx: Transaction, match: Match, player: str, at: datetime, completion: Completion | None) -> None:
        """A submission's part on the header: the phase must still take it (Late). A completion
        adds the sender to `done` conditional on `done` as read (two last submitters cannot both
        miss that they closed the phase), and a closing one also stores the requested resolution,
        conditional on the version and the wait's token as read (HeaderMoved: read again)."""
        assert match.phase is not None
        condition = phase_open(match.phase.number, at)
        if completion is None:
            late = Late(f"{match.phase.name!r} closed before the submission arrived")
            tx.check(header_key(match.match_id), Guard(condition, late))
            return
        if completion.done_before:
            condition &= Attr("done").size().eq(len(completion.done_before))
        else:
            condition &= Attr("done").not_exists()
        update = Update("ADD #done :me", {":me": {player}}, {"#done": "done"})
        if completion.closing is not None:
            update = Update.assign(header_values(completion.closing)).then(
                update.expression, update.values, update.names
            )
            condition &= Attr("version").eq(match.version)
            token = completion.task_token
            condition &= Attr("task_token").not_exists() if token is None else Attr("task_token").eq(token)
        tx.update(header_key(match.match_id), update, Guard(condition, HeaderMoved()))

    def add_record(self, tx: Transaction, match_id: str, record: PhaseRecord) -> None:
        """A phase's record, only once."""
        item = {"pk": match_pk(match_id), "sk": f"PHASE#{record.number:05d}", "record": record.model_dump_json()}
        tx.put(item, Guard(Attr("pk").not_exists(), changed_meanwhile(match_id)))

    def add_action(self, tx: Transaction, after: Match, number: int, record: ActionRecord) -> None:
        """An immediate action under the phase it was taken in, keyed by the match version it made."""
        item = {
            "pk": match_pk(after.match_id),
            "sk": f"ACTION#{number:05d}#{after.version:08d}",
            "record": record.model_dump_json(),
        }
        tx.put(item, Guard(Attr("pk").not_exists(), changed_meanwhile(after.match_id)))

    # -- reads, and the header's own updates -----------------------------------------------

    @staticmethod
    def keys(match_id: str) -> list[dict[str, Any]]:
        """What a read of the match gets: its header, its state, its log's counter (the next write
        logs after it)."""
        return [header_key(match_id), state_key(match_id), counter_key(match_id)]

    def get(self, match_id: str) -> Match:
        items = self.db.batch_get(self.keys(match_id))
        return self.match(match_id, {item["sk"]: item for item in items})

    def match(self, match_id: str, items: dict[str, dict[str, Any]]) -> Match:
        """The match from its header and state among `items` (by sort key, read with `keys`)."""
        if "META" not in items or "STATE" not in items:
            raise NotFound(f"no match {match_id!r}")
        self.log.learn(match_id, items)
        match = _from_header(items["META"])
        return match.model_copy(update=_unpack_state(bytes(items["STATE"]["blob"])))

    def header_and_events(self, match_id: str) -> tuple[Match, list[Event]]:
        """The match as its header holds it (no state, no result) and its log, in one Query: the
        sort keys from EVENT# to META hold the log, the webhooks' HOOK# items (skipped) and the
        header, nothing else (items.py's layout)."""
        items = self.db.query_range(match_pk(match_id), PREFIX, "META")
        header = items[-1] if items and items[-1]["sk"] == "META" else None
        if header is None:
            raise NotFound(f"no match {match_id!r}")
        return _from_header(header), [entry(item) for item in items if item["sk"].startswith(PREFIX)]

    def stop_accepting(self, match: Match) -> bool:
        # Only the match as read: every later save writes `accepting` from the match it stores,
        # so a host act that lands first is never shut by a resolution that read the match before it.
        update = Update("SET accepting = :no", {":no": False})
        return self.db.update_if(header_key(match.match_id), update, Attr("version").eq(match.version))

    def set_task_token(self, match_id: str, phase_number: int, clock_version: int, token: str) -> bool:
        """A wait's token, kept only for the clock it computed: a stale wait cannot store its token
        over a newer one's, so a closing submission wakes the wait that is current."""
        condition = (
            Attr("phase_number").eq(phase_number)
            & Attr("clock_version").eq(clock_version)
            & Attr("status").eq("running")
        )
        return self.db.update_if(header_key(match_id), Update("SET task_token = :token", {":token": token}), condition)

    def task_token(self, match_id: str) -> str | None:
        token = (self.db.get(header_key(match_id)) or {}).get("task_token")
        return str(token) if token else None

    def mark_announced(self, match_id: str, number: int) -> None:
        self.db.update_if(header_key(match_id), Update("SET announced = :n", {":n": number}))

    def hand_over(self, match_id: str, attempt: int, handovers: int) -> None:
        """Beside the match, as `announced`: a save never writes it, and recover's new attempt
        starts from none (the count names the attempt it belongs to)."""
        count = {"attempt": attempt, "count": handovers}
        self.db.update_if(header_key(match_id), Update("SET handed_over = :h", {":h": count}))

    def handovers(self, match_id: str, attempt: int) -> int:
        handed = (self.db.get(header_key(match_id)) or {}).get("handed_over") or {}
        return int(handed["count"]) if handed and int(handed["attempt"]) == attempt else 0

    def phase_records(self, match_id: str, number: int | None = None) -> list[PhaseRecord]:
        prefix = "PHASE#" if number is None else f"PHASE#{number:05d}"
        return [PhaseRecord.model_validate_json(item["record"]) for item in self.db.query(match_pk(match_id), prefix)]

    def actions(self, match_id: str, phase_number: int) -> list[ActionRecord]:
        items = self.db.query(match_pk(match_id), f"ACTION#{phase_number:05d}#")
        return [ActionRecord.model_validate_json(item["record"]) for item in items]


def _from_header(header: dict[str, Any]) -> Match:
    """The match its header item holds, with what is stored beside it there: all of it but the
    state and the result (`HEAVY`)."""
    match = Match.model_validate_json(header["match"])
    match.announced = int(header.get("announced", 0))
    match.done = frozenset(header.get("done", ()))
    match.told = frozenset(header.get("told", ()))
    return match
