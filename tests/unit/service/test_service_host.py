"""The host's acts on the in-memory fakes (Pushing Crates): extend, pause, resume, resolve now,
cancel, recover."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from crates_driver import HOUR, PHASES, Table, push
from fakes import T0, Fakes, MemoryStore

from game_core.errors import Conflict, Illegal, Late, NotFound, NotOpen
from game_core.service.commands import parse_host_command, run_host_command
from game_core.service.host import powers as host
from game_core.service.matches import phases, press
from game_core.service.matches.lifecycle import match_status
from game_core.service.ports import Event, Ports

MID = "m-000000000001"
ROOT = Path(__file__).resolve().parents[3]
TOKEN = "tok-1"


def at(hh_mm_ss: str) -> datetime:
    return datetime.fromisoformat(f"2026-12-01T{hh_mm_ss}+00:00")


class HookedStore(MemoryStore):
    """A store that runs `before_save` once, just before the next save's condition is checked:
    something else is stored between the act's read and its write."""

    def __init__(self) -> None:
        super().__init__()
        self.before_save: Callable[[], Any] | None = None

    def save(self, *args: Any, **kwargs: Any) -> None:
        hook, self.before_save = self.before_save, None
        if hook is not None:
            hook()
        super().save(*args, **kwargs)


def _pause_then_resume(ports: Ports) -> dict[str, Any]:
    host.pause(ports, MID)  # at 12:01:40
    ports.clock.advance(300)  # type: ignore[attr-defined]
    return host.resume(ports, MID)  # at 12:06:40: 300 s paused


# Each act 100 s into the Pregame (opened 12:00, deadline 13:00), with the machine waiting on
# TOKEN: (act, the clock after it as (deadline, extension, paused_at, resolve_requested, closed_at,
# version), the match status, the events logged, the public notices' headlines, wakes).
ACTS = [
    pytest.param(
        lambda ports: host.extend(ports, MID, 600),
        (at("13:10:00"), 600, None, False, None, 1),  # 13:00 + 600 s
        "running",
        [("extended", {"seconds": 600})],
        ["the deadline is extended by 10 minutes"],  # 600 s
        1,
        id="extend",
    ),
    pytest.param(
        lambda ports: host.pause(ports, MID),
        (at("13:00:00"), 0, at("12:01:40"), False, None, 1),
        "running",
        [("paused", {})],
        ["the match is paused"],
        1,
        id="pause",
    ),
    pytest.param(
        _pause_then_resume,
        (at("13:05:00"), 0, None, False, None, 2),  # 13:00 + the 300 s paused
        "running",
        [("paused", {}), ("resumed", {})],
        ["the match is paused", "the match resumes"],
        2,
        id="pause, resume",
    ),
    pytest.param(
        lambda ports: host.resolve_now(ports, MID),
        (at("13:00:00"), 0, None, True, at("12:01:40"), 1),
        "running",
        [("resolve_requested", {"reason": "the host resolved the phase now"})],
        [],
        1,
        id="resolve now",
    ),
    pytest.param(
        lambda ports: host.cancel(ports, MID),
        (at("13:00:00"), 0, None, False, None, 0),  # the clock as it was; the match is over
        "cancelled",
        [("cancelled", {})],
        ["the match is cancelled"],
        1,
        id="cancel",
    ),
]


@pytest.mark.parametrize(("act", "clock", "status", "events", "headlines", "wakes"), ACTS)
def test_a_host_act_changes_the_clock_and_wakes_the_stored_token(
    act: Callable[[Ports], dict[str, Any]],
    clock: tuple[Any, ...],
    status: str,
    events: list[tuple[str, dict[str, Any]]],
    headlines: list[str],
    wakes: int,
) -> None:
    table = Table.open()
    phases.wait(table.ports, MID, 1, 0, TOKEN)
    published = len(table.fakes.notifier.published)
    table.fakes.clock.advance(100)

    reply = act(table.ports)

    match = table.match()
    phase = match.phase
    assert phase is not None
    got = (phase.deadline, phase.extension_seconds, phase.paused_at, phase.resolve_requested, phase.closed_at)
    assert (*got, phase.version) == clock
    assert match.status == reply["status"] == status
    assert [(e.type, e.data) for e in table.events() if e.type != "created"] == events
    assert table.fakes.workflow.woken == [TOKEN] * wakes
    notices = table.fakes.notifier.notices()[published:]
    assert [n.subject for n in notices] == [f"[{MID}] {headline}" for headline in headlines]
    assert all(n.recipient is None and "view" not in n.body for n in notices)  # only times, no game


def test_resolve_now_resolves_at_the_machines_next_step_with_the_time_stopped() -> None:
    table = Table.open()
    table.fakes.clock.advance(100)
    host.resolve_now(table.ports, MID)
    table.fakes.clock.advance(50)  # the machine wakes a little later
    assert phases.current(table.ports, MID)["due"] is True
    phases.resolve(table.ports, MID, 1)
    [record] = table.fakes.store.phase_records(MID)
    assert (record.elapsed_seconds, record.timed_out) == (100, False)  # closed at 100 s, not 150
    assert host.resolve_now(table.ports, MID)["open"]["phase"] == "Round 1"  # the next phase now
    # Asking twice changes nothing.
    version = table.match().version
    host.resolve_now(table.ports, MID)
    assert table.match().version == version


def test_acts_that_do_not_fit_the_clock_are_refused() -> None:
    table = Table.open()
    with pytest.raises(Illegal, match="the match is not paused"):
        host.resume(table.ports, MID)
    host.pause(table.ports, MID)
    with pytest.raises(Illegal, match="the match is already paused"):
        host.pause(table.ports, MID)
    with pytest.raises(Illegal, match="an extension must be a positive number of seconds, not 0"):
        host.extend(table.ports, MID, 0)
    assert [e.type for e in table.events()] == ["created", "paused"]


# The act is read while phase 1 is open and past its deadline; the machine's resolution of phase 1
# is stored before the act: refused, naming the phase it meant.
LOST_RACES = [
    pytest.param(lambda ports: host.extend(ports, MID, 600), "extended", id="extend"),
    pytest.param(lambda ports: host.pause(ports, MID), "paused", id="pause"),
    pytest.param(lambda ports: host.resolve_now(ports, MID), "resolve_now", id="resolve now"),
]


@pytest.mark.parametrize(("act", "name"), LOST_RACES)
def test_an_act_that_loses_to_the_resolution_is_refused_as_late(act: Callable[[Ports], Any], name: str) -> None:
    store = HookedStore()
    table = Table.open(Fakes(store=store))
    phases.wait(table.ports, MID, 1, 0, TOKEN)
    table.fakes.clock.advance(HOUR)
    store.before_save = lambda: phases.resolve(table.ports, MID, 1)

    with pytest.raises(Late) as refused:
        act(table.ports)
    assert refused.value.message == f"phase 1 has already resolved; the {name} act was not applied"
    match = table.match()
    phase = match.phase
    assert match.phases_resolved == 1 and phase is not None and phase.number == 2
    # Round 1's clock is untouched: opened at 13:00, due at 14:00, no act on it.
    assert (phase.deadline, phase.version, phase.paused_at, phase.resolve_requested) == (at("14:00:00"), 0, None, False)
    assert table.fakes.workflow.woken == []
    assert [e.type for e in table.events()][-2:] == ["phase_resolved", "phase_opened"]


def test_a_cancel_that_loses_to_the_resolution_cancels_the_match_as_it_is_now() -> None:
    store = HookedStore()
    table = Table.open(Fakes(store=store))
    table.fakes.clock.advance(HOUR)
    store.before_save = lambda: phases.resolve(table.ports, MID, 1)
    assert host.cancel(table.ports, MID)["status"] == "cancelled"
    match = table.match()
    assert (match.status, match.phases_resolved) == ("cancelled", 1)
    # The machine's next step sees the end.
    assert phases.current(table.ports, MID)["phase"] == phases.MATCH_CANCELLED


def test_cancel_gives_back_what_the_open_phase_holds_and_only_that() -> None:
    fakes = Fakes()
    first = Table.open(fakes, players=("ada", "bo"), garnets={"ada": 3, "bo": 1})
    second = Table.open(fakes, players=("ada", "cy"))  # ada known: 3
    first.resolve_at_deadline()
    second.resolve_at_deadline()
    first.turn("ada", "Round 1", push("bo", 5))  # 5 pushes: holds 2
    first.turn("bo", "Round 1", push("ada", 4))  # 4 pushes: holds 1
    second.turn("ada", "Round 1", push("cy", 4))  # holds 1 in the other match
    store = fakes.store
    assert (store.garnets("ada"), store.garnets("bo")) == ((3, 0), (1, 0))  # ada: 3 - 2 - 1

    host.cancel(first.ports, first.match_id)

    # Back: ada's 2 and bo's 1 held by the cancelled match; ada's 1 in the other match stays held.
    assert (store.garnets("ada"), store.garnets("bo")) == ((3, 2), (1, 1))
    assert store.holds(second.match_id, 2) == {"ada": 1}
    assert store.settlements == []  # nothing was spent
    # Cancelled: the resolve step changes nothing, and no act applies any more.
    assert phases.resolve(first.ports, first.match_id, 2)["phase"] == phases.MATCH_CANCELLED
    for act in (host.cancel, host.pause, host.resolve_now):
        with pytest.raises(NotOpen, match="the match is cancelled"):
            act(first.ports, first.match_id)


# -- recover -----------------------------------------------------------------------------------


def test_recover_is_refused_while_the_execution_runs() -> None:
    table = Table.open()
    with pytest.raises(Conflict, match=f"the state machine of match {MID} is running"):
        host.recover(table.ports, MID)
    assert table.fakes.workflow.started == [MID]


def test_recover_starts_a_new_execution_each_time_and_clears_the_stall() -> None:
    table = Table.open()
    workflow = table.fakes.workflow
    phases.stalled(table.ports, MID, {"Error": "States.TaskFailed", "Cause": "boom"})
    workflow.end(MID)

    reply = host.recover(table.ports, MID)
    assert reply["execution"].endswith(f":execution:genius-crates:{MID}-r1")
    assert workflow.started == [MID, f"{MID}-r1"]
    match = table.match()
    assert (match.attempt, match.stalled) == (1, None)
    assert "stalled" not in match_status(table.ports, MID)
    assert table.events("recovered")[0].data == {"execution": f"{MID}-r1"}

    workflow.end(f"{MID}-r1")
    assert host.recover(table.ports, MID)["execution"].endswith(f"{MID}-r2")
    assert workflow.started == [MID, f"{MID}-r1", f"{MID}-r2"]
    with pytest.raises(Conflict):  # -r2 runs
        host.recover(table.ports, MID)


def test_recover_of_a_match_that_never_started_its_machine() -> None:
    fakes = Fakes()
    table = Table.open(fakes)
    del fakes.workflow.executions[MID]  # the create failed after storing the match
    assert host.recover(table.ports, MID)["execution"].endswith(f"{MID}-r1")


def test_recover_of_a_finished_match_only_while_something_is_unannounced() -> None:
    table = Table.open()
    for _phase in PHASES[:-1]:
        table.resolve_at_deadline()
    table.resolve_at_deadline(announce=False)  # the machine stalled between resolve and announce
    table.fakes.workflow.end(MID)
    assert host.recover(table.ports, MID)["status"] == "finished"
    progress = phases.current(table.ports, MID)
    assert (progress["announce_pending"], progress["resolved_number"]) == (True, 7)
    phases.announce(table.ports, MID, 7)  # what the new execution does first
    table.fakes.workflow.end(f"{MID}-r1", "SUCCEEDED")
    with pytest.raises(NotOpen, match="the match is finished and everything is announced"):
        host.recover(table.ports, MID)


def test_the_act_time_is_the_clock_not_the_opening() -> None:
    # The log's instants come from the Clock port.
    table = Table.open()
    table.fakes.clock.advance(42)
    host.pause(table.ports, MID)
    [event] = table.events("paused")
    assert event.at == T0.replace(second=42)


def test_a_turn_racing_the_cancel_leaves_nothing_held() -> None:
    store = HookedStore()
    table = Table.open(Fakes(store=store), garnets={"ada": 3})
    table.resolve_at_deadline()
    outcome: list[str] = []

    def turn() -> None:  # ada's 5-push turn (holds 2) lands after cancel read the holds, before it saves
        try:
            table.turn("ada", "Round 1", push("bo", 5))
            outcome.append("accepted")
        except Late:
            outcome.append("late")

    store.before_save = turn
    host.cancel(table.ports, MID)
    # The cancel closes nothing before its save: the turn is taken (holding 2), the save that read
    # no turn fails on ada's submissions, and the cancel read again releases the turn's hold too:
    # the cancelled match holds nothing, ada has all 3 available.
    assert outcome == ["accepted"]
    assert store.garnets("ada") == (3, 3)
    assert [event.type for event in table.events("cancelled")] == ["cancelled"]


def test_an_act_on_a_stalled_match_is_stored_with_a_warning_that_only_recover_runs_it() -> None:
    table = Table.open()
    phases.stalled(table.ports, MID, {"Error": "States.TaskFailed"})
    reply = host.extend(table.ports, MID, 600)
    assert reply["warning"] == "the match's state machine has stopped; run `recover` to act on this"
    assert table.deadline() == at("13:10:00")  # stored all the same: 13:00 + 600 s
    assert "warning" not in host.extend(Table.open().ports, MID, 600)


def test_an_act_stored_but_unable_to_wake_the_machine_says_so_and_sending_it_again_wakes_it() -> None:
    # Given the machine waits on TOKEN, and Step Functions refuses the wake once
    table = Table.open()
    table.fakes.store.set_task_token(MID, 1, 0, TOKEN)
    table.fakes.workflow.wake_error = RuntimeError("Step Functions throttled")

    # When the host resolves now
    reply = host.resolve_now(table.ports, MID)

    # Then the request is stored, the reply says the machine was not woken, and nothing crashed
    assert reply["wake_pending"] is True
    assert table.match().phase.resolve_requested is True
    assert table.fakes.workflow.woken == []

    # And sending it again (Step Functions back) changes nothing more but wakes the machine
    table.fakes.workflow.wake_error = None
    again = host.resolve_now(table.ports, MID)
    assert "wake_pending" not in again
    assert table.fakes.workflow.woken == [TOKEN]
    assert [event.type for event in table.fakes.store.events(MID)].count("resolve_requested") == 1


def test_an_act_whose_notice_cannot_be_sent_still_stands() -> None:
    table = Table.open()
    table.fakes.notifier.fail_after = 0  # SNS refuses the next publish
    reply = host.extend(table.ports, MID, 600)
    assert reply["notice_sent"] is False
    assert table.deadline() == at("13:10:00")  # 13:00 + 600 s


# -- the host's decision of a tie, press, a new secret ---------------------------------------------


def finished_with_a_tie(table: Table) -> None:
    """The match as a finished one whose result left Ada and Bo tied for its one EC place."""
    match = table.match()
    result = {
        "standings": [
            {"place": 1, "player": "ada", "score": "3", "tied_with": ["bo"]},
            {"place": 1, "player": "bo", "score": "3", "tied_with": ["ada"]},
        ],
        "tol": [],
        "tol_awarded": {},
        "ec": ["ada", "bo"],
        "undecided": ["ada", "bo"],
        "tied_lines": [{"line": "ec", "players": ["ada", "bo"], "places": 1, "award": 1}],
        "garnets": {"ada": 1, "bo": 1},
        "details": {},
    }
    finished = match.model_copy(update={"status": "finished", "phase": None, "result": result, "version": 9})
    table.fakes.store.save(match, finished, host.Event("finished", T0, {}))


def test_the_hosts_decision_is_stored_exported_and_announced() -> None:
    table = Table.open(emails={"ada": "ada@example.org"})
    finished_with_a_tie(table)
    before = len(table.fakes.notifier.published)

    reply = host.decide(table.ports, MID, ["bo", "ada"])

    # Bo ranked above Ada: Ada second, the EC
    assert reply["result"]["ec"] == ["ada"] and reply["result"]["undecided"] == []
    assert table.match().result == reply["result"]
    [event] = table.events("decided")
    assert event.data == {"order": ["bo", "ada"]}
    public = table.fakes.notifier.notices()[before]
    assert public.subject == f"[{MID}] The host decided the tie: bo, ada" and public.body["result"]["ec"] == ["ada"]
    assert any("decided the tie" in mail.raw.decode() for mail in table.fakes.mailer.sent)
    from game_core.service.matches.lifecycle import export_record

    assert export_record(table.ports, MID).decision == ["bo", "ada"]


def test_a_running_match_has_no_tie_to_decide() -> None:
    table = Table.open()
    with pytest.raises(NotOpen):
        host.decide(table.ports, MID, ["ada", "bo"])


def test_press_reaches_everyone_or_one_through_every_channel() -> None:
    table = Table.open(emails={"ada": "ada@example.org", "bo": "bo@example.org"})
    sent_before, published_before = len(table.fakes.mailer.sent), len(table.fakes.notifier.published)

    assert press.from_host(table.ports, MID, "Dinner break: back at 8.")["sent_to"] == "everyone"
    press.from_host(table.ports, MID, "Bo, your crate is stuck.", to="bo")

    notices = table.fakes.notifier.notices()[published_before:]
    assert [(n.recipient, n.body["press"]) for n in notices] == [
        (None, "Dinner break: back at 8."),
        ("bo", "Bo, your crate is stuck."),
    ]
    mails = [(mail.to, mail.raw.decode()) for mail in table.fakes.mailer.sent[sent_before:]]
    assert [to for to, _raw in mails] == ["ada@example.org", "bo@example.org", "bo@example.org"]
    assert "A message from the host to everyone:" in mails[0][1] and "stuck" not in mails[0][1]
    # Bo's own says it is his alone, in its subject and its text
    assert "Subject: [m-000000000001] A private message from the host" in mails[2][1]
    assert "A private message from the host, to you alone:" in mails[2][1]


def test_press_to_a_stranger_is_refused_naming_the_participants() -> None:
    table = Table.open()
    with pytest.raises(NotFound, match=rf"'zed' is not a participant of match {MID} \(ada, bo\)"):
        press.from_host(table.ports, MID, "hello", to="zed")


def test_the_host_names_a_participant_by_id_or_by_name_in_any_case() -> None:
    table = named_table("Countess", "Robert")
    named = table.match()
    assert [named.named(word) for word in ("ada", "BO", " countess ", "Robert")] == ["ada", "bo", "ada", "bo"]

    assert press.from_host(table.ports, MID, "Your crate is stuck.", to="ROBERT")["sent_to"] == "bo"
    assert host.reissue_secret(table.ports, MID, "countess")["player"] == "ada"
    with pytest.raises(NotFound, match=r"\(Countess \(ada\), Robert \(bo\)\)"):
        press.from_host(table.ports, MID, "hello", to="Count")


def test_a_reissued_secret_works_and_the_old_one_stops() -> None:
    from game_core.errors import Unauthorized
    from game_core.service.matches.submit import authenticate_webhook

    table = Table.open()
    old = table.created["secrets"]["bo"]
    reply = host.reissue_secret(table.ports, MID, "bo")
    authenticate_webhook(table.match(), "bo", reply["secret"])
    with pytest.raises(Unauthorized):
        authenticate_webhook(table.match(), "bo", old)
    authenticate_webhook(table.match(), "ada", table.created["secrets"]["ada"])  # others keep theirs
    [event] = table.events("secret_reissued")
    assert event.data == {"player": "bo"} and reply["secret"] not in str(event.data)


def sample_event(name: str, **fields: Any) -> dict[str, Any]:
    """A console test event as events/<name>.json has it, on this match, with `fields` changed."""
    with open(f"{ROOT}/events/{name}.json") as sample:
        return json.load(sample) | {"match_id": MID} | fields


@pytest.mark.parametrize(
    ("event", "reply"),
    [
        (sample_event("host_press", to="ada LOVELACE"), {"sent_to": "ada"}),
        (sample_event("host_reissue_secret", player="  Bo   Baggins "), {"player": "bo"}),
        (sample_event("host_reissue_secret", player="BO"), {"player": "bo"}),
    ],
    ids=["press to a name with a space, any case", "reissue by name, spaces collapsed", "by id"],
)
def test_a_console_command_names_a_participant_by_a_name_with_spaces(event: dict[str, Any], reply: dict) -> None:
    table = named_table()
    assert run_host_command(table.ports, parse_host_command(event)).items() >= reply.items()


def test_a_console_command_naming_nobody_is_refused_naming_the_choices() -> None:
    table = named_table()
    event = sample_event("host_reissue_secret", player="Ada Byron")
    with pytest.raises(
        NotFound, match=r"'Ada Byron' is not a participant .*\(Ada Lovelace \(ada\), Bo Baggins \(bo\)\)"
    ):
        run_host_command(table.ports, parse_host_command(event))
    # decide takes names too: this match is running, so the refusal is the use case's, not the model's
    with pytest.raises(NotOpen):
        run_host_command(table.ports, parse_host_command(sample_event("host_decide", order=["Bo Baggins", "ada"])))


def named_table(ada_name: str = "Ada Lovelace", bo_name: str = "Bo Baggins") -> Table:
    """Ada and Bo renamed, by default "Ada Lovelace" and "Bo Baggins" (the driver seats them by id)."""
    table = Table.open()
    stored = table.match()
    ada, bo = stored.players
    renamed = (ada.model_copy(update={"name": ada_name}), bo.model_copy(update={"name": bo_name}))
    named = stored.model_copy(update={"players": renamed, "version": stored.version + 1})
    table.fakes.store.save(stored, named, Event("renamed", table.fakes.clock.now(), {}))
    return table
