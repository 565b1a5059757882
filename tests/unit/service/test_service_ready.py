"""Ready votes on the fakes (Pushing Crates, Ada and Bo; early close off unless said): where early
close is off, the phase resolves once everyone who owes it a move has sent it and voted READY."""

from __future__ import annotations

import pytest
from conftest import texts
from crates_driver import Table
from test_service_mail_in import ADA, BO, answers, open_table, send

from game_core.cli.schemas import describe
from game_core.errors import Illegal, Late, Malformed
from game_core.service.matches import phases, ready
from game_core.service.matches.actions import ActionRequest, act_by_webhook, take_action
from game_core.service.matches.views import standing
from game_core.service.ports import Event

MID = "m-000000000001"
MULTIPLIERS = {"multipliers": [2, 1, 1, 0, -1, -1]}


def both_sent(**options: object) -> Table:
    """The Pregame (12:00 to 13:00, owing Ada's and Bo's multipliers) with both sent, the machine
    waiting on tok-1."""
    table = Table.open(**options)
    phases.wait(table.ports, MID, 1, 0, "tok-1")
    table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)
    table.submit("bo", "Pregame", "multipliers", MULTIPLIERS)
    return table


def test_when_all_who_owe_a_move_are_ready_the_phase_resolves_at_once() -> None:
    table = both_sent()
    table.fakes.clock.advance(60)
    first = ready.vote(table.ports, MID, "ada", True, "test")
    assert (first["changed"], first["closing"], first["ready_now"]) == (True, False, ["ada"])
    assert table.fakes.workflow.woken == []  # Bo is not ready: the phase runs on
    assert phases.current(table.ports, MID)["due"] is False

    table.fakes.clock.advance(60)
    last = ready.vote(table.ports, MID, "bo", True, "test")
    assert (last["closing"], last["ready_now"]) == (True, ["ada", "bo"])
    assert table.fakes.workflow.woken == ["tok-1"]
    assert phases.current(table.ports, MID)["due"] is True
    # The record: closed at Bo's vote, 12:02, 120 s after the opening, not timed out; the log
    # keeps each vote (a replay reads the phase's time from the record).
    phases.resolve(table.ports, MID, 1)
    [record] = table.fakes.store.phase_records(MID)
    assert (record.elapsed_seconds, record.timed_out) == (120, False)
    votes = [(e.data["actor"], e.data["ready"], e.data["closing"]) for e in table.events("ready_vote")]
    assert votes == [("ada", True, False), ("bo", True, True)]
    assert table.match().phase is not None and table.match().phase.ready == ()  # Round 1 opens with no votes


def test_one_who_takes_the_vote_back_is_waited_for() -> None:
    table = both_sent()
    ready.vote(table.ports, MID, "ada", True, "test")
    assert ready.vote(table.ports, MID, "ada", False, "test")["ready_now"] == []
    reply = ready.vote(table.ports, MID, "bo", True, "test")
    assert (reply["closing"], reply["ready_now"]) == (False, ["bo"])
    assert phases.current(table.ports, MID)["due"] is False and table.fakes.workflow.woken == []


def test_a_vote_cast_twice_changes_nothing_the_second_time() -> None:
    table = both_sent()
    ready.vote(table.ports, MID, "ada", True, "test")
    version = table.match().version
    again = ready.vote(table.ports, MID, "ada", True, "test")
    assert again["changed"] is False and table.match().version == version
    assert len(table.events("ready_vote")) == 1


def test_with_early_close_on_a_vote_is_accepted_and_changes_nothing() -> None:
    table = Table.open(early_close=True)
    table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)
    reply = ready.vote(table.ports, MID, "ada", True, "test")
    assert reply["accepted"] is True and reply["changed"] is False
    assert reply["answer"].startswith("Early close is on")
    assert table.match().phase is not None and table.match().phase.ready == ()


def test_a_ready_vote_before_the_owed_move_is_refused_saying_to_send_it_first() -> None:
    table = Table.open()
    with pytest.raises(Illegal) as refused:
        ready.vote(table.ports, MID, "ada", True, "test")
    assert texts(refused.value.reasons) == [
        "send your multipliers for 'Pregame' first; READY says you have sent all you owe"
    ]


def test_a_vote_from_one_who_owes_the_phase_nothing_is_refused() -> None:
    # The Pregame owes multipliers from every seat: its clock is stored with Bo's taken off.
    table = Table.open()
    match = table.match()
    assert match.phase is not None
    clock = match.phase.model_copy(update={"owes": {"ada": ("multipliers",)}})
    table.fakes.store.save(match, match.model_copy(update={"phase": clock}), Event("test", table.fakes.clock.now(), {}))
    with pytest.raises(Illegal) as refused:
        ready.vote(table.ports, MID, "bo", True, "test")
    assert texts(refused.value.reasons) == ["'Pregame' waits for nothing from you, so it is not yours to vote ready"]


def test_a_vote_after_the_deadline_is_late() -> None:
    table = both_sent()
    table.fakes.clock.set(table.deadline())
    with pytest.raises(Late):
        ready.vote(table.ports, MID, "ada", True, "test")


def test_by_webhook_the_ready_action_votes_and_a_malformed_one_is_refused() -> None:
    table = both_sent()
    reply = take_action(table.ports, ActionRequest(MID, "ada", "ready", {"ready": True}, "webhook"))
    assert reply["ready_now"] == ["ada"]
    for malformed in ({"ready": "yes"}, {"ready": 1}, {}, {"ready": True, "also": 1}, "ready"):
        with pytest.raises(Malformed) as refused:
            take_action(table.ports, ActionRequest(MID, "ada", "ready", malformed, "webhook"))
        assert texts(refused.value.reasons) == ['a ready vote is {"ready": true} or {"ready": false}']
    assert describe("crates", None)["ready_action_schema"]["required"] == ["ready"]  # match-schemas shows it
    # Who is ready is public like who still owes: in Bo's standing too.
    assert standing(table.fakes.store.submission_view(MID, "bo", None), "bo")["open"]["ready"] == ["ada"]


def test_a_retried_webhook_vote_cannot_undo_a_later_one() -> None:
    # READY under key k-1, NOT READY under k-2, then k-1's READY again (the sender's retry of a
    # reply it lost): the retry gets the first reply and Ada stays not ready.
    table = both_sent()
    vote = {"k-1": {"ready": True}, "k-2": {"ready": False}}
    for key in ("k-1", "k-2", "k-1"):
        reply = take_action(table.ports, ActionRequest(MID, "ada", "ready", vote[key], "webhook"), key)
    assert (reply["ready"], reply["ready_now"]) == (True, ["ada"])  # k-1's reply as it was
    assert table.match().phase is not None and table.match().phase.ready == ()
    assert [e.data["ready"] for e in table.events("ready_vote")] == [True, False]


def test_a_webhook_vote_reads_the_match_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The webhook reads the match to check the secret: the vote takes that read, not one more
    table = both_sent()
    store = table.fakes.store
    reads: list[str] = []
    read = store.submission_view
    monkeypatch.setattr(store, "submission_view", lambda *args: reads.append(args[1]) or read(*args))
    secret = table.created["secrets"]["ada"]
    request = ActionRequest(MID, "ada", "ready", {"ready": True}, "webhook")
    reply = act_by_webhook(table.ports, MID, "ada", secret, "k-1", lambda: request)
    assert reply["ready_now"] == ["ada"] and reads == ["ada"]


def test_by_mail_ready_and_not_ready_are_answered_and_help_offers_them() -> None:
    table = open_table()
    table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)
    table.submit("bo", "Pregame", "multipliers", MULTIPLIERS)
    send(table, ADA, "ready")
    send(table, ADA, "Not  Ready")
    send(table, BO, "HELP")
    [(_, said), (_, unsaid), (_, help_text)] = answers(table)
    # Bo has not voted: Ada's vote leaves the phase open, naming who is ready.
    assert "\n".join(said.text.splitlines()[2:5]) == "\n".join(
        [
            "Done: READY.",
            "You are ready; the phase resolves early once everyone who owes it a move is",
            "ready too.",
        ]
    )
    assert "Ready now: ada." in said.text
    assert "Done: NOT READY." in unsaid.text.splitlines()
    assert "Ready now: nobody." in unsaid.text
    assert table.match().phase is not None and table.match().phase.ready == ()
    assert "Send READY once your move is in" in help_text.text
