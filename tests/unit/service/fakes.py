"""In-memory fakes of the service's ports (game_core.service.ports), for fast unit tests of the
use cases: no moto, no threads, no sleeping.

`MemoryStore` keeps the semantics of `game_core.aws.store.DynamoMatchStore`, condition by
condition, and raises the same errors (tests/contract/test_store_contract.py runs every rule on
both and holds them to it):

- every write is one all-or-nothing transaction: all its conditions are checked first, and
  nothing is written when one fails;
- `create` refuses an existing match id and a contact that changed since it was read (Conflict);
  a player's balance is set only if the player has none yet (`if_not_exists`);
- `put_submission` is conditional on a delivery's key being new -> AlreadyDelivered; on the
  stored phase still taking it (same number, accepting, running, paused or before the deadline,
  compared as the same ISO strings) -> Late; on the player's submissions being the revision read
  -> Conflict; on the player's `available` garnets covering a larger hold -> Illegal (checked in
  that order, as the adapter reads the cancellation reasons). With a completion, the phase check
  also wants `done` of the size read (and, closing, the version and task token read), and its
  failure is HeaderMoved, checked after Conflict; a completion adds the player to `done`, and a
  closing one stores the requested resolution and its event;
- `save` and `commit_resolution` are conditional on the stored version being `before.version`
  (Conflict), and a save that releases the open phase's sheets on each participant's sheet for
  that phase still being the revision read, or still absent (Conflict); a resolution writes each
  player's balance once with the net change, the phase's record and each ledger line only if
  absent;
- `put_action` is conditional on a delivery's key being new -> AlreadyDelivered; on the stored
  version being `before.version`, the phase still taking actions and no action stored under the
  version `after` makes -> Conflict; on each holding a decrease takes from having that many free
  -> Illegal (in that order);
- `stop_accepting` acts only while the stored version is the one read; `set_task_token` only while
  the stored phase number, clock version and status match; `mark_announced` is unconditional;
  `remember_told` adds to `told` (idempotent) of a stored match only;
- the log keeps its entries in the order they were stored, whatever their times say (the
  adapter numbers them as its transactions commit: aws/store/log.py);
- a save recomputes the stored attributes from the match it stores (so a host act after
  `stop_accepting` opens the phase again, as on DynamoDB), and keeps `task_token`/`announced`;
  one that changes the phase number empties `done` and `told`.

It also keeps what a test wants to look at: `garnets(player)` (balance, available), `ledger`,
`settlements` (one entry per balance write of a resolution), and call counters.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from game_core.errors import Conflict, Illegal, Late, MailRefused, NotFound, Reason
from game_core.match import receipts
from game_core.match.clock import iso
from game_core.match.engine import Accepted
from game_core.match.model import ActionRecord, Match, PhaseRecord
from game_core.service.matches.handover import execution_name
from game_core.service.matches.sheets import AlreadyDelivered, HeaderMoved, Sheet, SubmissionView, garnet_changes
from game_core.service.ports import (
    Bounce,
    Clock,
    Completion,
    Contact,
    Event,
    Ids,
    Mailer,
    MatchStore,
    Notice,
    Notifier,
    OutgoingMail,
    Ports,
    Workflow,
)

T0 = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)
"""Where every `SettableClock` starts unless told otherwise."""


# -- the store ---------------------------------------------------------------------------------


@dataclass
class _Meta:
    """The match's item: the match as JSON and the attributes the conditions test."""

    match: str
    version: int
    status: str
    phase_number: int
    accepting: bool
    paused: bool
    deadline: str
    clock_version: int
    task_token: str | None = None
    announced: int = 0
    done: frozenset[str] = frozenset()
    told: frozenset[str] = frozenset()


@dataclass
class _Garnets:
    balance: int
    available: int


@dataclass(frozen=True)
class Settlement:
    """One write of a player's balance by a resolution."""

    match_id: str
    number: int
    player: str
    spent: int
    awarded: int

    @property
    def net(self) -> int:
        return self.awarded - self.spent


def _meta_values(match: Match) -> dict[str, Any]:
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


class MemoryStore:
    def __init__(self) -> None:
        self._meta: dict[str, _Meta] = {}
        self._announced_only: dict[str, int] = {}
        """`mark_announced` of a match id never stored (DynamoDB's update would create the item)."""
        self._handed_over: dict[str, tuple[int, int]] = {}
        """Match id -> (attempt, hand-overs), as the header's `handed_over`."""
        self._sheets: dict[tuple[str, str], Sheet] = {}
        self._deliveries: dict[tuple[str, str, str], str] = {}
        self._answered: set[tuple[str, str]] = set()
        self._bounces: dict[tuple[str, str, str], Bounce] = {}
        """(match id, player, bounce message) -> the bounce, as the BOUNCED# items."""
        self._records: dict[tuple[str, int], str] = {}
        self._events: dict[str, list[tuple[str, str, str]]] = {}
        self._garnets: dict[str, _Garnets] = {}
        self._purses: dict[tuple[str, str], _Garnets] = {}
        """(match id, guest) -> the guest's garnets in the match, as the PURSE# items."""
        self._actions: dict[tuple[str, int], dict[int, str]] = {}
        """(match id, phase number) -> each action's record by the match version it made."""
        self._profiles: dict[str, str] = {}
        self.ledger: dict[tuple[str, str], int] = {}
        """(player, "<match>#<entry>") -> amount, as the LEDGER# items."""
        self.settlements: list[Settlement] = []
        self.commits: list[tuple[str, int]] = []
        """(match id, phase number) of every resolution stored."""
        self.saves: list[tuple[str, str]] = []
        """(match id, event type) of every save stored."""
        self.reads: list[str] = []
        """"get" and "view" (`submission_view`, which reads the header through `get`): each read of a
        match as made, for a test to count (cleared where it starts counting)."""

    # -- looking inside (tests only) -------------------------------------------------------

    def garnets(self, player: str) -> tuple[int, int] | None:
        """(balance, available), None for a player never seen."""
        item = self._garnets.get(player)
        return None if item is None else (item.balance, item.available)

    def stored_match_json(self, match_id: str) -> str:
        return self._meta[match_id].match

    # -- helpers ---------------------------------------------------------------------------

    def _require_version(self, before: Match) -> None:
        meta = self._meta.get(before.match_id)
        if meta is None or meta.version != before.version:
            raise Conflict(f"match {before.match_id} changed meanwhile; try again")

    def _write_meta(self, after: Match) -> None:
        meta = self._meta[after.match_id]
        values = _meta_values(after)
        if values["phase_number"] != meta.phase_number:
            meta.done = frozenset()  # who was done with the phase that closed
            meta.told = frozenset()  # and what failed steps had told in it
        for key, value in values.items():
            setattr(meta, key, value)

    def _append_event(self, match_id: str, event: Event) -> None:
        at = event.at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        # Stored as the adapter stores it: the data as JSON (so it must be JSON), the time as text.
        self._events.setdefault(match_id, []).append((event.type, at, json.dumps(event.data, sort_keys=True)))

    def _holding(self, match: Match, participant: str) -> _Garnets | None:
        """A guest's purse in the match, else the player's garnets (as the adapter's keys)."""
        if participant in match.guests:
            return self._purses.get((match.match_id, participant))
        return self._garnets.get(participant)

    def _hold_ok(self, match: Match, player: str, change: int) -> bool:
        if change <= 0:
            return True
        item = self._holding(match, player)
        return item is not None and item.available >= change

    def _hold(self, match: Match, player: str, change: int) -> None:
        item = self._holding(match, player)
        if item is None:
            # DynamoDB: `available - :change` on an item without `available` is a ValidationException.
            raise RuntimeError(f"player {player} has no garnets item")
        item.available -= change

    # -- the port --------------------------------------------------------------------------

    def create(self, match: Match, balances: dict[str, int], event: Event, contacts: dict[str, Contact]) -> None:
        failed = match.match_id in self._meta
        for player, contact in contacts.items():
            registered = self._profiles.get(player)
            if contact.before is None and registered is not None:
                failed = True
            if contact.before is not None and registered != contact.before:
                failed = True
        if failed:
            raise Conflict(f"match {match.match_id} already exists, or a contact changed meanwhile")
        self._meta[match.match_id] = _Meta(**_meta_values(match))
        for player, balance in balances.items():
            self._garnets.setdefault(player, _Garnets(balance, balance))
        for player, contact in contacts.items():
            self._profiles[player] = contact.after
        for guest in match.guests:
            self._purses[(match.match_id, guest)] = _Garnets(0, 0)
        self._append_event(match.match_id, event)

    def balances(self, players: tuple[str, ...]) -> dict[str, int]:
        return {player: self._garnets[player].balance for player in players if player in self._garnets}

    def get(self, match_id: str) -> Match:
        self.reads.append("get")
        meta = self._meta.get(match_id)
        if meta is None:
            raise NotFound(f"no match {match_id!r}")
        match = Match.model_validate_json(meta.match)
        match.announced = meta.announced
        match.done = meta.done
        match.told = meta.told
        return match

    def submission_view(self, match_id: str, player: str, delivery: str | None) -> SubmissionView:
        self.reads.append("view")
        match = self.get(match_id)
        item = self._holding(match, player)
        delivered = self._deliveries.get((match_id, player, delivery)) if delivery is not None else None
        return SubmissionView(
            match=match,
            available=item.available if item else 0,
            balance=item.balance if item else 0,
            sheet=self._sheets.get((match_id, player)),
            delivered=json.loads(delivered) if delivered else None,
            done=self._meta[match_id].done,
            task_token=self._meta[match_id].task_token,
            accepting=self._meta[match_id].accepting,
        )

    def delivered(self, match_id: str, player: str, delivery: str) -> dict[str, Any] | None:
        stored = self._deliveries.get((match_id, player, delivery))
        return json.loads(stored) if stored else None

    def answered(self, match_id: str, message: str) -> bool:
        return (match_id, message) in self._answered

    def mark_answered(self, match_id: str, message: str, at: datetime) -> None:
        self._answered.add((match_id, message))

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
        meta = self._meta.get(match.match_id)
        still_open = (
            meta is not None
            and meta.phase_number == number
            and meta.accepting
            and meta.status == "running"
            and (meta.paused or meta.deadline > iso(event.at))
        )
        if completion is not None and meta is not None:
            still_open = still_open and len(meta.done) == len(completion.done_before)
            if completion.closing is not None:
                still_open = still_open and (meta.version, meta.task_token) == (match.version, completion.task_token)
        stored = self._sheets.get((match.match_id, player))
        same_sheet = stored is None if seen is None else stored is not None and stored.revision == seen.revision
        current = seen if seen is not None and seen.phase_number == number else None
        change = accepted.garnet_cost - (current.costs.get(accepted.kind, 0) if current else 0)
        if delivery is not None and (match.match_id, player, delivery[0]) in self._deliveries:
            raise AlreadyDelivered()
        if not still_open and completion is None:
            raise Late(f"{match.phase.name!r} closed before the submission arrived")
        if not same_sheet:
            raise Conflict("another submission of yours for this phase arrived meanwhile; send it again")
        if not still_open:
            raise HeaderMoved()
        if not self._hold_ok(match, player, change):
            short = f"it spends {accepted.garnet_cost} garnets, more than your balance has free now"
            raise Illegal(f"the {accepted.kind} submission is not allowed", [Reason("garnets_short", short)])
        self._sheets[(match.match_id, player)] = Sheet(
            player=player,
            phase_number=number,
            kinds=(current.kinds if current else {}) | {accepted.kind: accepted.submission},
            costs=(current.costs if current else {}) | {accepted.kind: accepted.garnet_cost},
            revision=(seen.revision if seen else 0) + 1,
            updated_at=iso(event.at),
            seals=(current.seals if current else {}) | {accepted.kind: receipts.seal(accepted.salt, event.at)},
        )
        if delivery is not None:
            self._deliveries[(match.match_id, player, delivery[0])] = json.dumps(delivery[1], sort_keys=True)
        self._append_event(match.match_id, event)
        if change:
            self._hold(match, player, change)
        if completion is not None:
            assert meta is not None
            if completion.closing is not None:
                self._write_meta(completion.closing)
            if completion.closing_event is not None:
                self._append_event(match.match_id, completion.closing_event)
            meta.done = meta.done | {player}

    def sheets(self, match_id: str, phase_number: int) -> dict[str, Sheet]:
        return {
            player: sheet
            for (m, player), sheet in sorted(self._sheets.items())
            if m == match_id and sheet.phase_number == phase_number
        }

    def submissions(self, match_id: str, phase_number: int) -> dict[str, dict[str, Any]]:
        return {player: sheet.kinds for player, sheet in self.sheets(match_id, phase_number).items()}

    def holds(self, match_id: str, phase_number: int) -> dict[str, int]:
        """(Tests only) the garnets each participant's submissions to the phase hold."""
        sheets = self.sheets(match_id, phase_number)
        return {player: sheet.held for player, sheet in sheets.items() if sheet.held}

    def stop_accepting(self, match: Match) -> bool:
        meta = self._meta.get(match.match_id)
        if meta is None or meta.version != match.version:
            return False
        meta.accepting = False
        return True

    def save(
        self,
        before: Match,
        after: Match,
        event: Event,
        releases: dict[str, Sheet] | None = None,
        returned: dict[str, int] | None = None,
        delivery: tuple[str, str, dict[str, Any]] | None = None,
    ) -> None:
        if delivery is not None and (before.match_id, delivery[0], delivery[1]) in self._deliveries:
            raise AlreadyDelivered()
        self._require_version(before)
        if releases is not None:
            assert before.phase is not None
            now = self.sheets(before.match_id, before.phase.number)
            if {p: s.revision for p, s in now.items()} != {p: s.revision for p, s in releases.items()}:
                raise Conflict(f"match {before.match_id} changed meanwhile; try again")
        self._write_meta(after)
        if delivery is not None:
            self._deliveries[(before.match_id, delivery[0], delivery[1])] = json.dumps(delivery[2], sort_keys=True)
        self._append_event(before.match_id, event)
        held = {participant: sheet.held for participant, sheet in (releases or {}).items() if sheet.held}
        for participant, (balance, available) in sorted(garnet_changes(after.guests, held, returned or {}).items()):
            holding = self._holding(after, participant) or self._garnets.setdefault(participant, _Garnets(0, 0))
            holding.balance += balance
            holding.available += available
            if participant not in after.guests and balance:
                self.ledger[(participant, f"{after.match_id}#returned")] = balance
        self.saves.append((before.match_id, event.type))

    def commit_resolution(
        self,
        before: Match,
        after: Match,
        record: PhaseRecord,
        spending: dict[str, int],
        awards: dict[str, int],
        events: list[Event],
    ) -> None:
        self._require_version(before)
        match_id = after.match_id
        players = sorted(spending.keys() | awards.keys())
        guests = after.guests
        ledger = [
            (p, f"{match_id}#{record.number:05d}#spent", -a) for p, a in sorted(spending.items()) if p not in guests
        ]
        ledger += [(p, f"{match_id}#award", a) for p, a in sorted(awards.items()) if p not in guests]
        holdings = {p: self._holding(after, p) for p in players}
        if (
            (match_id, record.number) in self._records
            or any(item is not None and item.balance < spending.get(p, 0) for p, item in holdings.items())
            or any((p, entry) in self.ledger for p, entry, _a in ledger)
        ):
            raise Conflict(f"match {before.match_id} changed meanwhile; try again")
        self._write_meta(after)
        self._records[(match_id, record.number)] = record.model_dump_json()
        for player in players:
            spent, awarded = spending.get(player, 0), awards.get(player, 0)
            item = holdings[player] or self._garnets.setdefault(player, _Garnets(0, 0))
            item.balance += awarded - spent
            item.available += awarded  # what was spent left `available` when it was held
            self.settlements.append(Settlement(match_id, record.number, player, spent, awarded))
        for player, entry, amount in ledger:
            self.ledger[(player, entry)] = amount
        for event in events:
            self._append_event(match_id, event)
        self.commits.append((match_id, record.number))

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
        meta = self._meta.get(before.match_id)
        delivered_key = (after.match_id, record.actor or "", delivery[0]) if delivery is not None else None
        if delivered_key is not None and delivered_key in self._deliveries:
            raise AlreadyDelivered()
        if (
            meta is None
            or meta.version != before.version
            or after.version in self._actions.get((after.match_id, before.phase.number), {})
            or not meta.accepting
            or meta.status != "running"
            or not (meta.paused or meta.deadline > iso(event.at))
        ):
            raise Conflict(f"match {before.match_id} changed meanwhile; try again")
        if any(change < 0 and not self._hold_ok(after, who, -change) for who, change in garnets.items()):
            short = f"the {record.kind} takes more garnets than you hold free now"
            raise Illegal(f"the {record.kind} is not allowed", [Reason("garnets_short", short)])
        self._write_meta(after)
        if delivery is not None and delivered_key is not None:
            self._deliveries[delivered_key] = json.dumps(delivery[1], sort_keys=True)
        self._actions.setdefault((after.match_id, before.phase.number), {})[after.version] = record.model_dump_json()
        self._append_event(after.match_id, event)
        for who, change in sorted(garnets.items()):
            holding = self._holding(after, who)
            if holding is None:  # DynamoDB's update creates the item (`if_not_exists`)
                holding = self._garnets.setdefault(who, _Garnets(0, 0))
            holding.balance += change
            holding.available += change
            if who not in after.guests:
                self.ledger[(who, f"{after.match_id}#{before.phase.number:05d}#action#{after.version:08d}")] = change

    def actions(self, match_id: str, phase_number: int) -> list[ActionRecord]:
        stored = sorted(self._actions.get((match_id, phase_number), {}).items())
        return [ActionRecord.model_validate_json(text) for _version, text in stored]

    def purses(self, match_id: str) -> dict[str, int]:
        return {guest: item.balance for (m, guest), item in sorted(self._purses.items()) if m == match_id}

    def set_task_token(self, match_id: str, phase_number: int, clock_version: int, token: str) -> bool:
        meta = self._meta.get(match_id)
        if (
            meta is None
            or meta.phase_number != phase_number
            or meta.clock_version != clock_version
            or meta.status != "running"
        ):
            return False
        meta.task_token = token
        return True

    def task_token(self, match_id: str) -> str | None:
        meta = self._meta.get(match_id)
        return meta.task_token if meta and meta.task_token else None

    def mark_announced(self, match_id: str, number: int) -> None:
        meta = self._meta.get(match_id)
        if meta is None:
            self._announced_only[match_id] = number
        else:
            meta.announced = number

    def hand_over(self, match_id: str, attempt: int, handovers: int) -> None:
        self._handed_over[match_id] = (attempt, handovers)

    def handovers(self, match_id: str, attempt: int) -> int:
        handed_attempt, count = self._handed_over.get(match_id, (attempt, 0))
        return count if handed_attempt == attempt else 0

    def remember_told(self, match_id: str, keys: frozenset[str]) -> None:
        meta = self._meta.get(match_id)
        if meta is not None:
            meta.told |= keys

    def record_bounce(self, match_id: str, bounce: Bounce) -> None:
        self._bounces.setdefault((match_id, bounce.player, bounce.message), bounce)

    def bounces(self, match_id: str) -> list[Bounce]:
        found = [bounce for (m, _, _), bounce in self._bounces.items() if m == match_id]
        return sorted(found, key=lambda bounce: bounce.at)

    def phase_records(self, match_id: str, number: int | None = None) -> list[PhaseRecord]:
        return [
            PhaseRecord.model_validate_json(text)
            for (m, n), text in sorted(self._records.items())
            if m == match_id and number in (None, n)
        ]

    def events(self, match_id: str) -> list[Event]:
        stored = self._events.get(match_id, [])
        return [Event(kind, datetime.fromisoformat(at), json.loads(data)) for kind, at, data in stored]

    def header_and_events(self, match_id: str) -> tuple[Match, list[Event]]:
        return self.get(match_id).model_copy(update={"state": {}, "result": None}), self.events(match_id)

    def contacts(self, players: tuple[str, ...]) -> dict[str, str]:
        return {player: self._profiles[player] for player in players if player in self._profiles}


# -- the notifier ------------------------------------------------------------------------------


@dataclass
class RecordingNotifier:
    """Records every notice, subscription and host alert. `unsubscribed` is what `subscribe`
    answers; with `fail_after` set, that many more notices are published (each a batch of its
    own, told to `published`), then the next one raises (SNS unavailable) and `fail_after` is
    cleared."""

    published: list[tuple[str, Notice]] = field(default_factory=list)
    subscribed: list[str] = field(default_factory=list)
    dropped: list[tuple[str, str, str]] = field(default_factory=list)
    """Each `unsubscribe`: (match, player, email)."""
    alerts: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    """Every call in order: "subscribe", "unsubscribe", "publish", "alert_host"."""
    unsubscribed: list[str] = field(default_factory=list)
    fail_after: int | None = None

    def publish(
        self, match: Match, notices: Sequence[Notice], published: Callable[[Sequence[Notice]], None] | None = None
    ) -> None:
        for notice in notices:
            if self.fail_after is not None:
                if self.fail_after == 0:
                    self.fail_after = None
                    raise RuntimeError("SNS is unavailable")
                self.fail_after -= 1
            self.calls.append("publish")
            self.published.append((match.match_id, notice))
            if published is not None:
                published([notice])

    def subscribe(self, match: Match) -> list[str]:
        self.calls.append("subscribe")
        self.subscribed.append(match.match_id)
        return list(self.unsubscribed)

    def unsubscribe(self, match: Match, player: str, email: str) -> bool:
        self.calls.append("unsubscribe")
        self.dropped.append((match.match_id, player, email))
        return True

    def alert_host(self, match: Match, subject: str, body: dict[str, Any]) -> None:
        self.calls.append("alert_host")
        self.alerts.append((match.match_id, subject, body))

    def notices(self, match_id: str | None = None) -> list[Notice]:
        return [notice for m, notice in self.published if match_id in (None, m)]


# -- the workflow ------------------------------------------------------------------------------

ARN_PREFIX = "arn:aws:states:us-east-1:123456789012:stateMachine:genius-"


@dataclass
class FakeWorkflow:
    """Executions by name, as Step Functions keeps them. `start` of a name that exists returns
    that execution (the adapter's answer to ExecutionAlreadyExists); `wake` records the token
    (stale ones are ignored, as the adapter ignores TaskTimedOut/TaskDoesNotExist/InvalidToken),
    or raises `wake_error` (Step Functions throttled, say)."""

    executions: dict[str, str] = field(default_factory=dict)
    """Execution name -> status (RUNNING, SUCCEEDED, FAILED, ...)."""
    started: list[str] = field(default_factory=list)
    """The names of the executions started, in order (a repeated start is not listed again)."""
    woken: list[str] = field(default_factory=list)
    wake_error: Exception | None = None

    @staticmethod
    def arn(match: Match, handovers: int = 0) -> str:
        machine = ARN_PREFIX + match.game
        return machine.replace(":stateMachine:", ":execution:") + f":{execution_name(match, handovers)}"

    def start(self, match: Match, handovers: int = 0) -> str:
        name = execution_name(match, handovers)
        if name not in self.executions:
            self.executions[name] = "RUNNING"
            self.started.append(name)
        return self.arn(match, handovers)

    def is_running(self, match: Match, handovers: int = 0) -> bool:
        return self.executions.get(execution_name(match, handovers)) == "RUNNING"

    def wake(self, token: str) -> None:
        if self.wake_error is not None:
            raise self.wake_error
        self.woken.append(token)

    def end(self, name: str, status: str = "FAILED") -> None:
        """The execution stops (a test plays the state machine giving up)."""
        assert name in self.executions, f"no execution {name}"
        self.executions[name] = status


# -- clock and ids -----------------------------------------------------------------------------


@dataclass
class SettableClock:
    at: datetime = T0

    def now(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at

    def set(self, moment: datetime) -> None:
        self.at = moment


@dataclass
class SequentialIds:
    """m-000000000001, m-000000000002, ...; secrets `secrets` in order, then secret-<n>; the seed
    `seed` every time."""

    secrets: list[str] = field(default_factory=list)
    seed_value: int = 7
    matches: int = 0
    issued: int = 0
    salts: int = 0

    def match_id(self) -> str:
        self.matches += 1
        return f"m-{self.matches:012d}"

    def secret(self) -> str:
        self.issued += 1
        return self.secrets.pop(0) if self.secrets else f"secret-{self.issued}"

    def seed(self) -> int:
        return self.seed_value

    def salt(self) -> str:
        """salt-1, salt-2, ... hashed: 256 bits each, a test can work out which one a move got."""
        self.salts += 1
        return hashlib.sha256(f"salt-{self.salts}".encode()).hexdigest()


# -- all of them -------------------------------------------------------------------------------


@dataclass
class RecordingMailer:
    """Keeps every message sent (nothing leaves), from the match domain `play.test`; with
    `fail_after` set, that many more are sent, then the next one raises (SES unavailable) and
    `fail_after` is cleared."""

    domain: str = "play.test"
    required_checks: frozenset[str] = frozenset({"spf", "dkim", "dmarc"})
    sent: list[OutgoingMail] = field(default_factory=list)
    fail_after: int | None = None
    refuses: dict[str, MailRefused] = field(default_factory=dict)
    """Addresses refused for good, each raising its refusal every time (SES's sandbox, a bad address)."""

    def send(self, mail: OutgoingMail) -> None:
        if mail.to in self.refuses:
            raise self.refuses[mail.to]
        if self.fail_after == 0:
            self.fail_after = None
            raise RuntimeError("SES is unavailable")
        if self.fail_after is not None:
            self.fail_after -= 1
        self.sent.append(mail)


@dataclass
class Fakes:
    """The fakes behind one `Ports`, typed, so a test can look inside each."""

    store: MemoryStore = field(default_factory=MemoryStore)
    notifier: RecordingNotifier = field(default_factory=RecordingNotifier)
    workflow: FakeWorkflow = field(default_factory=FakeWorkflow)
    clock: SettableClock = field(default_factory=SettableClock)
    ids: SequentialIds = field(default_factory=SequentialIds)
    mailer: RecordingMailer = field(default_factory=RecordingMailer)

    @property
    def ports(self) -> Ports:
        return memory_ports(self.store, self.notifier, self.workflow, self.clock, self.ids, self.mailer)


def memory_ports(
    store: MemoryStore,
    notifier: RecordingNotifier,
    workflow: FakeWorkflow,
    clock: SettableClock,
    ids: SequentialIds,
    mailer: RecordingMailer,
) -> Ports:
    """`Ports` of the fakes; mypy checks here that each satisfies its protocol."""
    return Ports(store=store, notifier=notifier, workflow=workflow, clock=clock, ids=ids, mailer=mailer)


def _protocols_hold() -> tuple[MatchStore, Notifier, Workflow, Clock, Ids, Mailer]:
    """Never called: mypy checks each fake against its protocol by name."""
    return MemoryStore(), RecordingNotifier(), FakeWorkflow(), SettableClock(), SequentialIds(), RecordingMailer()
