"""`DynamoMatchStore`: the service's `MatchStore` port. Each write is one transaction assembled
from the repositories' items, each item with its condition and the error its failure means.

A submission is conditional on its phase still being open, holds the garnets it would spend and
stores its delivery's reply once; the one that makes every actor done also requests the phase's
resolution. An immediate action is conditional on the match's version and on its phase still
taking actions. Host acts and resolutions are conditional on the match's version; a cancel closes
nothing: it is also conditional on every participant's submissions to the phase as read, whose
holds it releases. Every write that logs also takes the log's next numbers (`log.py`): when another
write took them first, it is made again under the next ones (`_commit`).
tests/contract/test_store_contract.py holds every one of these rules, here and in the service
tests' in-memory store."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from game_core.aws.store.items import (
    delivery_key,
    garnets_key,
    holding_key,
    purse_key,
    sheet_key,
)
from game_core.aws.store.log import Build, EventLog, commit_logged
from game_core.aws.store.marks import Marks
from game_core.aws.store.matches import Matches, phase_open
from game_core.aws.store.profiles import Profiles
from game_core.aws.store.submissions import Submissions, reply_of, sheet_of
from game_core.aws.store.table import Table
from game_core.aws.store.transaction import Transaction, changed_meanwhile
from game_core.aws.store.wallet import Wallet
from game_core.errors import Illegal, InProgress, Reason
from game_core.match.engine import Accepted
from game_core.match.model import ActionRecord, Match, PhaseRecord
from game_core.service.matches.sheets import Sheet, SubmissionView, garnet_changes
from game_core.service.ports import Bounce, Completion, Contact, Event


class DynamoMatchStore:
    def __init__(self, client: Any, table: str) -> None:
        self.client = client
        self.table = table
        db = Table(client, table)
        self._log = EventLog(db)
        self._matches = Matches(db, self._log)
        self._sheets = Submissions(db)
        self._wallet = Wallet(db)
        self._profiles = Profiles(db)
        self._marks = Marks(db)
        self._db = db

    def _commit(self, match_id: str, build: Build, collided: Exception | None = None) -> None:
        """The write `build` makes, with its events under the log's next numbers (`commit_logged`)."""
        commit_logged(self.client, self.table, self._log, match_id, build, collided or changed_meanwhile(match_id))

    # -- a match's life --------------------------------------------------------------------

    def create(self, match: Match, balances: dict[str, int], event: Event, contacts: dict[str, Contact]) -> None:
        def build(tx: Transaction) -> list[Event]:
            self._matches.add_new(tx, match)
            self._wallet.open_accounts(tx, match, balances)
            self._profiles.register(tx, contacts)
            return [event]

        self._log.starts(match.match_id)
        self._commit(match.match_id, build)

    def get(self, match_id: str) -> Match:
        return self._matches.get(match_id)

    def stop_accepting(self, match: Match) -> bool:
        return self._matches.stop_accepting(match)

    def save(
        self,
        before: Match,
        after: Match,
        event: Event,
        releases: dict[str, Sheet] | None = None,
        returned: dict[str, int] | None = None,
        delivery: tuple[str, str, dict[str, Any]] | None = None,
    ) -> None:
        def build(tx: Transaction) -> list[Event]:
            self._matches.replace_header(tx, before, after)
            if delivery is not None:
                sender, key, reply = delivery
                self._sheets.keep_reply(tx, after.match_id, sender, (key, reply), event.at)
            if (before.state, before.result) != (after.state, after.result):
                self._matches.put_state(tx, after)  # a host's decision of a tie changes the result
            if releases is not None:
                self._sheets.require_unchanged(tx, before, releases)
            # One update per holding (a transaction touches an item once): a guest's release and the
            # emptying of their purse together. The purses were read at this match version, which
            # only an immediate action or a resolution moves, so the condition on it keeps them as read.
            held = {participant: sheet.held for participant, sheet in (releases or {}).items() if sheet.held}
            changes = sorted(garnet_changes(after.guests, held, returned or {}).items())
            for participant, (balance, available) in changes:
                self._wallet.give_back(tx, holding_key(after, participant), balance, available)
                if participant not in after.guests and balance:
                    self._wallet.ledger(tx, participant, after.match_id, "returned", balance)
            return [event]

        self._commit(before.match_id, build)

    def commit_resolution(
        self,
        before: Match,
        after: Match,
        record: PhaseRecord,
        spending: dict[str, int],
        awards: dict[str, int],
        events: list[Event],
    ) -> None:
        match_id = after.match_id

        def build(tx: Transaction) -> list[Event]:
            self._matches.replace_header(tx, before, after)
            self._matches.put_state(tx, after)
            self._matches.add_record(tx, match_id, record)
            for player in sorted(spending.keys() | awards.keys()):
                spent, awarded = spending.get(player, 0), awards.get(player, 0)
                self._wallet.settle(tx, holding_key(after, player), spent, awarded, match_id)
            players = {player for player in spending.keys() | awards.keys() if player not in after.guests}
            for player in sorted(players & spending.keys()):
                self._wallet.ledger(tx, player, match_id, f"{record.number:05d}#spent", -spending[player])
            for player in sorted(players & awards.keys()):
                self._wallet.ledger(tx, player, match_id, "award", awards[player])
            return events

        self._commit(match_id, build)

    def set_task_token(self, match_id: str, phase_number: int, clock_version: int, token: str) -> bool:
        return self._matches.set_task_token(match_id, phase_number, clock_version, token)

    def task_token(self, match_id: str) -> str | None:
        return self._matches.task_token(match_id)

    def mark_announced(self, match_id: str, number: int) -> None:
        self._matches.mark_announced(match_id, number)

    def hand_over(self, match_id: str, attempt: int, handovers: int) -> None:
        self._matches.hand_over(match_id, attempt, handovers)

    def handovers(self, match_id: str, attempt: int) -> int:
        return self._matches.handovers(match_id, attempt)

    def phase_records(self, match_id: str, number: int | None = None) -> list[PhaseRecord]:
        return self._matches.phase_records(match_id, number)

    def events(self, match_id: str) -> list[Event]:
        return self._log.events(match_id)

    def header_and_events(self, match_id: str) -> tuple[Match, list[Event]]:
        return self._matches.header_and_events(match_id)

    # -- submissions and actions -----------------------------------------------------------

    def submission_view(self, match_id: str, player: str, delivery: str | None) -> SubmissionView:
        keys = [*self._matches.keys(match_id), garnets_key(player), sheet_key(match_id, player)]
        keys.append(purse_key(match_id, player))  # read at once: whether it is a guest's is in the match
        if delivery is not None:
            keys.append(delivery_key(match_id, player, delivery))
        items = {item["sk"]: item for item in self._db.batch_get(keys)}
        match = self._matches.match(match_id, items)
        garnets = items.get(f"PURSE#{player}" if player in match.guests else "GARNETS", {})
        sheet = items.get(f"SUB#{player}")
        delivered = items.get(f"DELIVERY#{player}#{delivery}")
        header = items["META"]
        return SubmissionView(
            match=match,
            available=int(garnets.get("available", garnets.get("balance", 0))),
            balance=int(garnets.get("balance", 0)),
            sheet=sheet_of(sheet) if sheet else None,
            delivered=reply_of(delivered) if delivered else None,
            done=frozenset(header.get("done", ())),
            task_token=header.get("task_token"),
            accepting=bool(header.get("accepting", False)),
        )

    def delivered(self, match_id: str, player: str, delivery: str) -> dict[str, Any] | None:
        return self._sheets.delivered(match_id, player, delivery)

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
        def build(tx: Transaction) -> list[Event]:
            self._matches.complete(tx, match, player, event.at, completion)
            held = self._sheets.replace_sheet(tx, match, player, accepted, event.at, seen)
            if change := accepted.garnet_cost - held:
                text = f"it spends {accepted.garnet_cost} garnets, more than your balance has free now"
                short = Illegal(f"the {accepted.kind} submission is not allowed", [Reason("garnets_short", text)])
                self._wallet.hold(tx, holding_key(match, player), change, short)
            if delivery is not None:
                self._sheets.keep_reply(tx, match.match_id, player, delivery, event.at)
            closing = completion.closing_event if completion is not None else None
            return [event] if closing is None else [event, closing]

        collided = InProgress("another write to your submissions is under way; send it again")
        self._commit(match.match_id, build, collided)

    def sheets(self, match_id: str, phase_number: int) -> dict[str, Sheet]:
        return self._sheets.sheets(match_id, phase_number)

    def submissions(self, match_id: str, phase_number: int) -> dict[str, dict[str, Any]]:
        return {player: sheet.kinds for player, sheet in self.sheets(match_id, phase_number).items()}

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
        text = f"the {record.kind} takes more garnets than you hold free now"
        short = Illegal(f"the {record.kind} is not allowed", [Reason("garnets_short", text)])

        def build(tx: Transaction) -> list[Event]:
            self._matches.replace_header(tx, before, after, also=phase_open(number, event.at))
            self._matches.put_state(tx, after)
            self._matches.add_action(tx, after, number, record)
            for participant, change in sorted(garnets.items()):
                self._wallet.move(tx, holding_key(after, participant), change, short)
                if participant not in after.guests:
                    entry = f"{number:05d}#action#{after.version:08d}"
                    self._wallet.ledger(tx, participant, after.match_id, entry, change)
            if delivery is not None:
                self._sheets.keep_reply(tx, after.match_id, record.actor or "", delivery, event.at)
            return [event]

        self._commit(after.match_id, build)

    def actions(self, match_id: str, phase_number: int) -> list[ActionRecord]:
        return self._matches.actions(match_id, phase_number)

    # -- garnets, contacts, mail -----------------------------------------------------------

    def balances(self, players: tuple[str, ...]) -> dict[str, int]:
        return self._wallet.balances(players)

    def purses(self, match_id: str) -> dict[str, int]:
        return self._wallet.purses(match_id)

    def contacts(self, players: tuple[str, ...]) -> dict[str, str]:
        return self._profiles.contacts(players)

    def answered(self, match_id: str, message: str) -> bool:
        return self._marks.answered(match_id, message)

    def mark_answered(self, match_id: str, message: str, at: datetime) -> None:
        self._marks.mark_answered(match_id, message, at)

    def remember_told(self, match_id: str, keys: frozenset[str]) -> None:
        self._marks.remember_told(match_id, keys)

    def record_bounce(self, match_id: str, bounce: Bounce) -> None:
        self._marks.record_bounce(match_id, bounce)

    def bounces(self, match_id: str) -> list[Bounce]:
        return self._marks.bounces(match_id)
