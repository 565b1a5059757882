"""The state machine's steps on the in-memory fakes (Pushing Crates): current, wait, resolve,
announce, stalled."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from crates_driver import HOUR, PHASES, Table, push
from fakes import Fakes, MemoryStore, Settlement

from game_core.errors import Late
from game_core.match.model import Match
from game_core.service.host import powers as host
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import match_status
from game_core.service.matches.submit import SubmissionRequest, submit

MID = "m-000000000001"


class HookedStore(MemoryStore):
    """A store that runs `before_stop` once, right before a resolution closes the phase to
    submissions, and `after_stop` once, right after it did and before it reads them: something
    else lands while the resolution runs."""

    def __init__(self) -> None:
        super().__init__()
        self.before_stop: Any = None
        self.after_stop: Any = None

    def stop_accepting(self, match: Match) -> bool:
        hook, self.before_stop = self.before_stop, None
        if hook is not None:
            hook()
        stopped = super().stop_accepting(match)
        hook, self.after_stop = self.after_stop, None
        if hook is not None:
            hook()
        return stopped


def snapshot(table: Table) -> tuple[Any, ...]:
    """Everything a resolution writes."""
    store = table.fakes.store
    return (
        store.stored_match_json(MID),
        [(e.type, e.at, e.data) for e in store.events(MID)],
        store.phase_records(MID),
        list(store.settlements),
        dict(store.ledger),
        store.garnets("ada"),
        store.garnets("bo"),
    )


# -- current -----------------------------------------------------------------------------------

# Seconds after the Pregame opened (deadline at 3600), the recheck bound: due?, seconds to wait.
CLOCK_CHECKS = [
    (0, HOUR, False, 3600),
    (3000, HOUR, False, 600),
    (3599, HOUR, False, 1),
    (3600, HOUR, True, 1),  # due: the wait is never below 1
    (0, 600, False, 600),  # a long wait is cut to the recheck bound
    (3300, 600, False, 300),
]


@pytest.mark.parametrize(("seconds", "recheck", "due", "wait"), CLOCK_CHECKS)
def test_current_says_whether_the_phase_is_due_and_how_long_to_wait(
    seconds: int, recheck: int, due: bool, wait: int
) -> None:
    table = Table.open(recheck_seconds=recheck)
    table.fakes.clock.advance(seconds)
    progress = phases.current(table.ports, MID)
    assert progress == {
        "match_id": MID,
        "phase": "Pregame",
        "phase_number": 1,
        "clock_version": 0,
        "due": due,
        "reminder_due": False,
        "wait_seconds": wait,
        "resolved_number": 0,
        "announce_pending": False,
    }


def test_a_paused_phase_is_never_due_and_waits_the_recheck_bound() -> None:
    table = Table.open(recheck_seconds=900)
    host.pause(table.ports, MID)
    table.fakes.clock.advance(10 * HOUR)
    progress = phases.current(table.ports, MID)
    assert (progress["due"], progress["wait_seconds"], progress["clock_version"]) == (False, 900, 1)


# -- wait --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phase_number", "clock_version", "stored"),
    [
        (1, 0, True),  # the clock the machine computed its wait from: the token is kept
        (1, 1, False),  # a host act changed the clock since (no such version yet): woken at once
        (2, 0, False),  # another phase: woken at once
    ],
)
def test_wait_keeps_the_token_only_for_the_clock_it_waited_for(
    phase_number: int, clock_version: int, stored: bool
) -> None:
    table = Table.open()
    phases.wait(table.ports, MID, phase_number, clock_version, "tok-1")
    assert table.fakes.store.task_token(MID) == ("tok-1" if stored else None)
    assert table.fakes.workflow.woken == ([] if stored else ["tok-1"])


def test_wait_after_a_host_act_wakes_at_once() -> None:
    table = Table.open()
    before = phases.current(table.ports, MID)  # the machine reads clock version 0 ...
    host.extend(table.ports, MID, 60)  # ... the host extends (version 1) before the wait is stored
    phases.wait(table.ports, MID, 1, before["clock_version"], "tok-1")
    assert table.fakes.workflow.woken == ["tok-1"] and table.fakes.store.task_token(MID) is None


# -- resolve -----------------------------------------------------------------------------------


def test_resolve_happens_exactly_once() -> None:
    table = Table.open()
    table.submit("ada", "Pregame", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})
    table.fakes.clock.advance(HOUR)  # the deadline, 13:00
    first = phases.resolve(table.ports, MID, 1)
    assert (first["phase"], first["phase_number"], first["resolved_number"]) == ("Round 1", 2, 1)
    assert first["announce_pending"] is True
    written = snapshot(table)

    again = phases.resolve(table.ports, MID, 1)  # the state machine retries the step
    assert again["resolved_number"] == 1 and again["phase_number"] == 2
    assert snapshot(table) == written
    assert table.fakes.store.commits == [(MID, 1)]


def test_two_resolutions_racing_store_one() -> None:
    store = HookedStore()
    table = Table.open(Fakes(store=store))
    table.fakes.clock.advance(HOUR)
    # A retry of the step runs whole while the first attempt is between closing and committing.
    store.after_stop = lambda: phases.resolve(table.ports, MID, 1)
    progress = phases.resolve(table.ports, MID, 1)
    assert progress["resolved_number"] == 1 and progress["phase"] == "Round 1"
    assert store.commits == [(MID, 1)]
    assert len(table.events("phase_resolved")) == 1


def test_a_phase_not_due_is_not_resolved() -> None:
    table = Table.open()
    table.fakes.clock.advance(HOUR - 1)
    progress = phases.resolve(table.ports, MID, 1)
    assert (progress["phase_number"], progress["due"], progress["wait_seconds"]) == (1, False, 1)
    assert table.fakes.store.commits == []


def test_a_host_extend_stored_first_is_honoured_not_resolved() -> None:
    table = Table.open(reminders=())  # (with the 1-hour reminder, the extension makes one due)
    table.fakes.clock.advance(HOUR)  # due at 13:00 ...
    host.extend(table.ports, MID, 600)  # ... but the host extends by 10 min before the step runs
    progress = phases.resolve(table.ports, MID, 1)
    assert (progress["phase_number"], progress["due"], progress["wait_seconds"]) == (1, False, 600)
    assert table.fakes.store.commits == []


@pytest.mark.parametrize(
    "hook",
    [
        "before_stop",  # stored before the resolution closes the door: the door closes only the match as read
        "after_stop",  # stored after the door closed: the commit loses to it (the version moved)
    ],
)
def test_a_host_extend_landing_during_the_resolution_wins_and_leaves_the_phase_open(hook) -> None:
    store = HookedStore()
    table = Table.open(Fakes(store=store), reminders=())
    table.fakes.clock.advance(HOUR)
    setattr(store, hook, lambda: host.extend(table.ports, MID, 600))
    progress = phases.resolve(table.ports, MID, 1)
    # Read again, the phase is due at 13:10: nothing resolved
    assert (progress["phase_number"], progress["due"], progress["wait_seconds"]) == (1, False, 600)
    assert store.commits == [] and table.match().phases_resolved == 0
    # The phase takes submissions again until its new deadline.
    table.submit("bo", "Pregame", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})
    assert sorted(store.submissions(MID, 1)) == ["bo"]


def test_a_turn_landing_after_the_resolution_closed_the_phase_is_refused_as_late() -> None:
    store = HookedStore()
    table = Table.open(Fakes(store=store), garnets={"ada": 2})
    table.resolve_at_deadline()
    deadline = table.deadline()  # Round 1 is open until 14:00
    clock = table.fakes.clock

    def late_turn() -> None:
        # The webhook read its clock at 13:59:59 (in time for the engine and the store's deadline
        # check), but its write lands after the resolution stopped accepting: the store refuses it.
        clock.set(deadline - timedelta(seconds=1))
        request = SubmissionRequest(MID, "ada", "Round 1", "round", {"pushes": push("ada", 5)}, "test")
        with pytest.raises(Late, match="'Round 1' closed before the submission arrived"):
            submit(table.ports, request)
        clock.set(deadline)

    clock.set(deadline)
    store.after_stop = late_turn
    phases.resolve(table.ports, MID, 2)
    assert store.garnets("ada") == (2, 2)  # nothing held, nothing spent for the refused turn
    assert store.phase_records(MID, 2)[0].submissions == {}


def test_a_whole_match_spending_and_award_settle_in_one_balance_write() -> None:
    table = Table.open(garnets={"ada": 1})
    store = table.fakes.store
    for _number in range(1, 7):  # Pregame and Rounds 1-5: nobody sends anything
        table.resolve_at_deadline()
    assert table.match().phase.name == "Round 6"  # type: ignore[union-attr]
    # Round 6, multiplier 2 (nobody assigned any: the listed order -1, -1, 0, 1, 1, 2).
    table.turn("ada", "Round 6", push("ada", 4), "ice")  # 4 pushes: 1 garnet, held now
    table.turn("bo", "Round 6", push("ada", 3), "stone")  # 3 pushes: free
    assert store.garnets("ada") == (1, 0)

    table.resolve_at_deadline(announce=False)
    # ada's crate: 7 right pushes on ice (x3) = 21 steps, 0 -> 21 crosses 5, 10, 15, 20: 4 x 2 = 8
    # points (every earlier round scored 0: no crate moved). Award floor(8 / 3) = 2. bo: 0 points,
    # 0 garnets. ada's balance: 1 - 1 spent + 2 won = 2, written once with the net +1.
    match = table.match()
    assert match.status == "finished" and match.result is not None
    assert match.result["garnets"] == {"ada": 2, "bo": 0}
    assert [(s["player"], s["score"]) for s in match.result["standings"]] == [("ada", "8"), ("bo", "0")]
    assert (match.result["tol"], match.result["ec"]) == (["ada"], ["bo"])  # 2 players: 1 EC, 1 ToL
    assert [s for s in store.settlements if s.number == 7] == [Settlement(MID, 7, "ada", spent=1, awarded=2)]
    assert store.settlements[-1].net == 1
    assert store.garnets("ada") == (2, 2) and store.garnets("bo") == (0, 0)
    assert store.ledger == {("ada", f"{MID}#00007#spent"): -1, ("ada", f"{MID}#award"): 2}
    resolved = table.events("phase_resolved")[-1]
    assert resolved.data["garnets_spent"] == {"ada": 1} and resolved.data["number"] == 7
    [finished] = table.events("finished")
    assert finished.data["result"]["garnets"] == {"ada": 2, "bo": 0}

    progress = phases.current(table.ports, MID)
    assert (progress["phase"], progress["due"], progress["announce_pending"]) == ("Match over", True, True)
    assert phases.resolve(table.ports, MID, 7)["resolved_number"] == 7  # a retry: nothing twice
    assert store.garnets("ada") == (2, 2) and store.commits.count((MID, 7)) == 1


def test_spending_alone_is_settled_when_the_round_resolves() -> None:
    table = Table.open(garnets={"ada": 5})
    table.resolve_at_deadline()
    table.turn("ada", "Round 1", push("bo", 6))  # 6 pushes: 3 garnets
    assert table.fakes.store.garnets("ada") == (5, 2)  # held, not spent
    table.resolve_at_deadline()
    assert table.fakes.store.garnets("ada") == (2, 2)  # 5 - 3 spent; nothing held any more
    assert table.fakes.store.settlements == [Settlement(MID, 2, "ada", spent=3, awarded=0)]


# -- announce ----------------------------------------------------------------------------------


def test_announce_publishes_once_from_each_players_view() -> None:
    table = Table.open()
    table.submit("ada", "Pregame", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})
    table.resolve_at_deadline()
    table.turn("ada", "Round 1", push("ada", 3), "ice")
    notifier = table.fakes.notifier
    before = len(notifier.published)
    table.fakes.clock.set(table.deadline())
    resolved = phases.resolve(table.ports, MID, 2)
    assert resolved["announce_pending"] is True and len(notifier.published) == before  # not yet told

    progress = phases.announce(table.ports, MID, 2)
    assert progress["announce_pending"] is False and table.match().announced == 2
    notices = notifier.notices()[before:]
    assert [n.recipient for n in notices] == [None, "ada", "bo"]
    assert {n.subject for n in notices} == {f"[{MID}] Round 1 resolved; Round 2 is open"}
    # ada's crate: 3 right pushes on ice = 9 steps, 0 -> 9 crosses 5: 1 x her round-1 multiplier 2
    # = 2 points. bo's crate did not move: 0. Publicly only each location mod 5: 9 % 5 = 4, 0.
    public, ada, bo = (n.body["view"] for n in notices)
    assert public["public"]["reveals"] == [{"round": 1, "mod5": {"ada": 4, "bo": 0}}]
    assert "private" not in public
    assert ada["private"]["rounds"] == [
        {"round": 1, "pushes": push("ada", 3), "ground": "ice", "submitted": True, "total": 2}
    ]
    assert ada["private"]["multipliers"]["standing"] == [2, 1, 1, 0, -1, -1]
    assert bo["private"]["rounds"] == [{"round": 1, "pushes": [], "ground": "stone", "submitted": False, "total": 0}]
    assert bo["private"]["multipliers"]["standing"] == [-1, -1, 0, 1, 1, 2]  # none sent: the listed order
    assert "[2, 1, 1, 0, -1, -1]" not in json.dumps(notices[2].body)  # ada's multipliers are hers

    assert phases.announce(table.ports, MID, 2)["announce_pending"] is False  # a repeat
    assert len(notifier.published) == before + 3


def test_announce_of_a_phase_not_resolved_publishes_nothing() -> None:
    table = Table.open()
    progress = phases.announce(table.ports, MID, 1)
    assert progress["phase_number"] == 1
    assert len(table.fakes.notifier.published) == 3  # only the opening notices: public, ada, bo
    assert table.match().announced == 0


def test_announce_that_fails_midway_stays_pending_and_a_retry_tells_everyone() -> None:
    table = Table.open()
    table.resolve_at_deadline(announce=False)
    notifier = table.fakes.notifier
    before = len(notifier.published)
    notifier.fail_after = 1  # the public notice goes out, ada's fails
    with pytest.raises(RuntimeError):
        phases.announce(table.ports, MID, 1)
    assert phases.current(table.ports, MID)["announce_pending"] is True
    phases.announce(table.ports, MID, 1)
    recipients = [n.recipient for n in notifier.notices()[before:]]
    assert recipients == [None, "ada", "bo"]  # each once: the retry skips the public one, published before
    assert table.match().announced == 1


def test_the_last_announcement_says_the_match_is_over() -> None:
    table = Table.open()
    for _number in PHASES:
        table.resolve_at_deadline()
    [public, *_private] = table.fakes.notifier.notices()[-3:]
    assert public.subject == f"[{MID}] Round 6 resolved; the match is over"
    assert public.body["status"] == "finished" and public.body["result"]["garnets"] == {"ada": 0, "bo": 0}
    assert phases.current(table.ports, MID)["announce_pending"] is False


# -- stalled -----------------------------------------------------------------------------------

ERROR = {
    "Error": "States.TaskFailed",
    "Cause": json.dumps({"errorType": "RuntimeError", "errorMessage": "boom", "stackTrace": ["  File x"]}),
}


def test_stalled_records_the_reason_and_alerts_only_the_host() -> None:
    table = Table.open()
    notifier = table.fakes.notifier
    published = len(notifier.published)
    table.fakes.clock.advance(300)
    phases.stalled(table.ports, MID, ERROR)

    reason = {"error": "States.TaskFailed", "cause": "RuntimeError: boom"}  # the trace left out
    [event] = table.events("stalled")
    assert event.data == reason
    assert len(notifier.published) == published  # players are not told
    [(match_id, subject, body)] = notifier.alerts
    assert (match_id, subject) == (MID, f"[{MID}] the match has stopped: run `recover`")
    assert body["stalled"] == reason and body["status"] == "running"
    status = match_status(table.ports, MID)
    assert status["stalled"] == reason | {"what_to_do": "run `recover` to continue the match"}
    assert status["status"] == "running" and status["open"]["phase"] == "Pregame"

    phases.stalled(table.ports, MID, ERROR)  # the same failure again: logged once, alerted again
    assert len(table.events("stalled")) == 1 and len(notifier.alerts) == 2


def test_stalled_is_recorded_when_a_host_act_lands_between_its_read_and_its_save(monkeypatch) -> None:
    # Given a machine giving up while the host extends the phase at that moment (issue 32: a
    # match whose stall went unrecorded showed a running match in `status` that no machine ran)
    table = Table.open()
    store = table.fakes.store
    save = store.save

    def host_act_first(*args: Any, **kwargs: Any) -> None:
        monkeypatch.setattr(store, "save", save)
        host.extend(table.ports, MID, 60)
        save(*args, **kwargs)

    monkeypatch.setattr(store, "save", host_act_first)
    phases.stalled(table.ports, MID, ERROR)

    # Then the stall is stored on the match as it is after the act: the host's status says so
    reason = {"error": "States.TaskFailed", "cause": "RuntimeError: boom"}
    status = match_status(table.ports, MID)
    assert status["stalled"] == reason | {"what_to_do": "run `recover` to continue the match"}
    assert [event.data for event in table.events("extended")] == [{"seconds": 60}]
    assert [event.data for event in table.events("stalled")] == [reason]
    assert len(table.fakes.notifier.alerts) == 1


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        ({}, {"error": "unknown", "cause": ""}),
        ({"Error": "Lambda.Unknown", "Cause": "not json"}, {"error": "Lambda.Unknown", "cause": "not json"}),
        ({"Error": "E", "Cause": "x" * 900}, {"error": "E", "cause": "x" * 500}),
    ],
)
def test_stalled_keeps_a_short_reason(error: dict[str, Any], reason: dict[str, str]) -> None:
    table = Table.open()
    phases.stalled(table.ports, MID, error)
    assert table.match().stalled == reason


# -- reminders ---------------------------------------------------------------------------------


def test_reminders_go_privately_to_whoever_has_not_sent_what_the_phase_waits_for() -> None:
    # A 24-hour Pregame reminded at 12 h and 1 h before its deadline; ada sends her order at once.
    table = Table.open(phase_seconds=24 * HOUR, recheck_seconds=24 * HOUR)
    table.submit("ada", "Pregame", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})
    notifier = table.fakes.notifier
    assert phases.advance(table.ports, MID)["wait_seconds"] == 12 * HOUR

    before = len(notifier.published)
    table.fakes.clock.advance(12 * HOUR)
    progress = phases.advance(table.ports, MID)
    [reminder] = notifier.notices()[before:]
    assert (reminder.recipient, reminder.subject) == ("bo", f"[{MID}] Reminder: Pregame closes in 12 hours")
    assert reminder.body["closes_in_seconds"] == 12 * HOUR and "view" not in reminder.body
    assert (progress["due"], progress["wait_seconds"]) == (False, 11 * HOUR)  # to the 1-hour reminder
    [event] = table.events("reminded")
    assert event.data == {"number": 1, "lead": 12 * HOUR, "players": ["bo"]}

    assert phases.advance(table.ports, MID)["wait_seconds"] == 11 * HOUR  # a retry sends nothing more
    assert len(notifier.published) == before + 1

    table.fakes.clock.advance(11 * HOUR)
    phases.advance(table.ports, MID)
    assert [(n.recipient, n.subject) for n in notifier.notices()[before + 1 :]] == [
        ("bo", f"[{MID}] Reminder: Pregame closes in 1 hour")
    ]


def test_the_resolution_names_publicly_who_did_not_submit_and_nothing_of_what_was_sent() -> None:
    table = Table.open()
    table.submit("ada", "Pregame", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})
    before = len(table.fakes.notifier.published)
    table.resolve_at_deadline()
    public, *private = table.fakes.notifier.notices()[before:]
    assert public.recipient is None and public.body["did_not_submit"] == ["bo"]
    assert all("did_not_submit" not in notice.body for notice in private)
    [record] = table.fakes.store.phase_records(MID)
    assert record.missing == ("bo",)


def test_once_everyone_has_sent_what_the_phase_waits_for_the_machine_waits_for_the_deadline() -> None:
    # No reminder is due, so none wakes the machine: a phase where everyone plays costs no more
    table = Table.open(phase_seconds=24 * HOUR, recheck_seconds=24 * HOUR)
    for player in ("ada", "bo"):
        table.submit(player, "Pregame", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})
    assert phases.advance(table.ports, MID)["wait_seconds"] == 24 * HOUR
    before = len(table.fakes.notifier.published)
    table.fakes.clock.advance(12 * HOUR)
    assert phases.advance(table.ports, MID)["wait_seconds"] == 12 * HOUR
    assert len(table.fakes.notifier.published) == before and table.events("reminded") == []


def test_an_extension_past_a_reminders_moment_reminds_at_once_with_the_time_really_left() -> None:
    # A 1-hour Pregame is never reminded "1 hour before" (it opened then); extended by 10 minutes
    # at its deadline, the 1-hour mark is behind it: bo is reminded at once that 10 minutes are left.
    table = Table.open()
    table.submit("ada", "Pregame", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})
    table.fakes.clock.advance(HOUR)
    host.extend(table.ports, MID, 600)
    before = len(table.fakes.notifier.published)
    phases.advance(table.ports, MID)
    [reminder] = table.fakes.notifier.notices()[before:]
    assert (reminder.recipient, reminder.subject) == ("bo", f"[{MID}] Reminder: Pregame closes in 10 minutes")
