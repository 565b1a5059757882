"""A host act and a resolution racing for the same phase, on the real store (moto). Whichever is
stored first wins and the other learns it cleanly: the phase ends either resolved (its record
kept, the next phase open) or open on the host's clock and taking moves, never "running but
shut". Each race is staged (staging.py): the act lands just before one store call of the
resolution, or the act's own save fails once. The state machine stays parked while a race is
staged; the host's commands through the stack wake it afterwards. The matches send no reminders:
a reminder is a save, which would open a phase left shut and hide the defect."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

import pytest
from botocore.exceptions import ClientError
from clubs_match import ClubsMatch, clubs_request
from conftest import push
from staging import FailingOnce, FixedClock, StagedStore, Unwoken

from game_core.aws.store import DynamoMatchStore
from game_core.errors import Late, NotOpen
from game_core.games.clubs.rules import PHASES as CLUBS_PHASES
from game_core.service.host import powers as host
from game_core.service.matches import phases, press
from game_core.service.ports import Ports

pytestmark = pytest.mark.games("crates", "clubs")

EXTENSION = 600
ORDER = {"multipliers": [2, 1, 1, 0, -1, -1]}
CRATES_MOVE = {"Pregame": ("multipliers", ORDER), "Round 1": ("round", {"pushes": [], "ground": "ice"})}
CLUBS_GUESS = ("guess", {"guesses": [{"participant": "p1", "cards": ["AS"]}]})


@dataclass
class Race:
    """A match whose open phase `number` is due: the host and the resolution both read its
    deadline as now, and what they do wakes no state machine. `sender` has sent nothing yet:
    their move, sent after the race, shows whether the phase still takes moves."""

    stack: Any
    match_id: str
    secrets: dict[str, str]
    number: int
    deadline: datetime
    ports: Any
    sender: str
    move: Callable[[str], tuple[str, Any]]
    """The sender's move to the phase of that name: (kind, submission)."""

    def send_now(self, phase: str) -> tuple[int, dict[str, Any]]:
        """The sender's move through the webhook, at the stack's now."""
        kind, submission = self.move(phase)
        body = {"phase": phase, "kind": kind, "submission": submission}
        return self.stack.submit(self.match_id, self.sender, self.secrets[self.sender], body)


def unwoken(stack: Any, **changed: Any) -> Ports:
    """The stack's ports with a workflow that wakes no state machine (and any other port changed)."""
    ports = stack.ports()
    return replace(ports, workflow=Unwoken(ports.workflow), **changed)


def _due(stack: Any, match_id: str, secrets: dict[str, str], sender: str, move: Any) -> Race:
    phase = stack.ports().store.get(match_id).phase
    ports = unwoken(stack, clock=FixedClock(phase.deadline))
    return Race(stack, match_id, secrets, phase.number, phase.deadline, ports, sender, move)


def crates_pregame(stack: Any, crates_match: Any) -> Race:
    """Pushing Crates' Pregame at its deadline, p1's multipliers in: its resolution closes the
    phase, reads the sheets and commits (a game without actions or guests reads no more)."""
    match = crates_match(2, reminders=[])
    assert match.multipliers("p1", ORDER["multipliers"])[0] == 200
    return _due(stack, match.match_id, match.secrets, "p2", CRATES_MOVE.__getitem__)


def clubs_last_phase(stack: Any, _crates_match: Any) -> Race:
    """Puzzler's Clubs' last phase (7B) at its deadline: its resolution also reads the immediate
    actions and, as the match ends, the guests' purses."""
    created = stack.host({"command": "create", "match": clubs_request() | {"reminders": []}})
    match = ClubsMatch(stack, created["match_id"], created["secrets"])
    stack.settle()
    ports = unwoken(stack)
    for number in range(1, CLUBS_PHASES):  # 1A .. 7A+6B, each resolved at the host's request
        host.resolve_now(ports, match.match_id)
        phases.resolve(ports, match.match_id, number)
    return _due(stack, match.match_id, match.secrets, "p2", lambda _phase: CLUBS_GUESS)


SCENARIOS = {
    "stop_accepting": crates_pregame,
    "sheets": crates_pregame,
    "commit_resolution": crates_pregame,
    "actions": clubs_last_phase,
    "purses": clubs_last_phase,
}
"""Each store call of a resolution, and a match whose resolution makes it."""


def _paused_and_requested(race: Race) -> None:
    """The host paused the phase, then asked for its resolution: it is due though paused."""
    host.pause(race.ports, race.match_id)
    host.resolve_now(race.ports, race.match_id)


@dataclass(frozen=True)
class Act:
    run: Callable[[Race], Any]
    ends: str
    """What the phase ends as when the act lands during the resolution (worked out from the
    clock's rules): "open" (not due any more: the resolution backs off), "resolved", "cancelled"."""
    refused: type[Exception] | None = None
    before: Callable[[Race], None] | None = None


ACTS = {
    # 600 s past the deadline the resolution read: not due.
    "extend": Act(lambda race: host.extend(race.ports, race.match_id, EXTENSION), "open"),
    # A paused phase is not due.
    "pause": Act(lambda race: host.pause(race.ports, race.match_id), "open"),
    # The resolution requested while paused still stands once resumed: due.
    "resume": Act(lambda race: host.resume(race.ports, race.match_id), "resolved", before=_paused_and_requested),
    "resolve_now": Act(lambda race: host.resolve_now(race.ports, race.match_id), "resolved"),
    "cancel": Act(lambda race: host.cancel(race.ports, race.match_id), "cancelled"),
    # Moves the match's version (its log entry), not its clock: the resolution reads again, still due.
    "press": Act(lambda race: press.from_host(race.ports, race.match_id, "Back at 8 tonight"), "resolved"),
    # Moves the match's version, not its clock: the resolution reads again, still due.
    "reissue_secret": Act(lambda race: host.reissue_secret(race.ports, race.match_id, "p1"), "resolved"),
    # Only a finished match's ties are decided: refused, the match untouched.
    "decide": Act(lambda race: host.decide(race.ports, race.match_id, ["p1", "p2"]), "resolved", NotOpen),
}


def _run(act: Act, race: Race) -> Exception | None:
    """The act as the host runs it; the refusal, if it was refused."""
    try:
        act.run(race)
    except Exception as error:  # compared with what the act expects below
        return error
    return None


def _assert_the_phase_ends_resolved_or_open(race: Race, act: str) -> None:
    """The phase resolved (its record, the next phase open or the match over), or open on the
    host's clock; then a move sent now is accepted and counted when the phase it went to resolves;
    a cancelled match refuses it as cancelled."""
    match = race.ports.store.get(race.match_id)
    records = race.ports.store.phase_records(race.match_id, race.number)
    ends = ACTS[act].ends
    if ends == "cancelled":
        assert (match.status, records) == ("cancelled", [])
    elif ends == "open":
        assert (match.status, records, match.phase.number) == ("running", [], race.number)
        assert not match.phase.resolve_requested
        if act == "extend":
            assert (match.phase.deadline, match.phase.paused) == (race.deadline + timedelta(seconds=EXTENSION), False)
        else:
            assert (match.phase.deadline, match.phase.paused) == (race.deadline, True)
    else:
        assert len(records) == 1 and match.phases_resolved == race.number
        assert match.status == "finished" if match.phase is None else match.phase.number == race.number + 1
    # Every deadline the race left stands at or after the one the resolution read: at that
    # instant a phase left open takes moves (the phases a resolution opens last longer).
    race.stack.advance((race.deadline - race.stack.now()).total_seconds())
    playing = race.ports.store.get(race.match_id).phase
    code, reply = race.send_now(playing.name if playing else "7B")
    if match.status != "running" or playing is None:
        assert (code, reply["error"]) == (409, "NotOpen"), reply
        assert match.status in reply["message"]
        return
    assert code == 200, reply
    assert race.stack.host({"command": "resolve_now", "match_id": race.match_id})["ok"]
    race.stack.settle()
    (record,) = race.ports.store.phase_records(race.match_id, playing.number)
    assert race.sender in record.submissions


@pytest.mark.parametrize("call", list(SCENARIOS))
@pytest.mark.parametrize("act", list(ACTS))
def test_a_host_act_landing_during_a_resolution_leaves_the_phase_resolved_or_open(
    stack, crates_match, act, call
) -> None:
    # Given a phase due at its deadline (and, for resume, paused with its resolution requested)
    race = SCENARIOS[call](stack, crates_match)
    if ACTS[act].before is not None:
        ACTS[act].before(race)
    refusals: list[Exception | None] = []

    # When the host's act lands just before the resolution's `call`
    staged = StagedStore(race.ports.store, call, lambda: refusals.append(_run(ACTS[act], race)))
    phases.resolve(replace(race.ports, store=staged), race.match_id, race.number)

    # Then the act ran there, was refused only if it never applies to a running match, and the
    # phase is resolved or open and taking moves
    assert len(refusals) == 1, f"the resolution never called {call}"
    refused = refusals[0]
    assert type(refused) is ACTS[act].refused if refused else ACTS[act].refused is None, refused
    _assert_the_phase_ends_resolved_or_open(race, act)


def test_a_host_act_that_lands_after_the_resolution_is_refused_as_late(stack, crates_match) -> None:
    # Given the pregame is due, and the host's extension has read the match
    race = crates_pregame(stack, crates_match)

    # When the pregame's resolution is stored before the act is
    resolution = lambda: phases.resolve(race.ports, race.match_id, 1)  # noqa: E731
    late = replace(race, ports=replace(race.ports, store=StagedStore(race.ports.store, "save", resolution)))

    # Then the act is refused, naming the phase that resolved, and Round 1 is open untouched
    with pytest.raises(Late, match="phase 1 has already resolved"):
        host.extend(late.ports, race.match_id, EXTENSION)
    clock = race.ports.store.get(race.match_id).phase
    assert (clock.name, clock.number, clock.paused, clock.extension_seconds) == ("Round 1", 2, False, 0)


THROTTLED = ClientError({"Error": {"Code": "ThrottlingException", "Message": "injected"}}, "TransactWriteItems")
"""A save refused before it reached the table: nothing of it is stored."""


def _cancelled_for(code: str) -> ClientError:
    """A save's transaction cancelled, its header item (the first) for `code`."""
    reasons = [{"Code": code}, {"Code": "None"}]
    return ClientError(
        {"Error": {"Code": "TransactionCanceledException", "Message": "injected"}, "CancellationReasons": reasons},
        "TransactWriteItems",
    )


FAILURES = {
    "throttled": THROTTLED,
    # As if another write had moved the match just before: the act reads it again.
    "condition failed": _cancelled_for("ConditionalCheckFailed"),
    # As if another transaction wrote the same items at that moment: the act reads it again.
    "collided": _cancelled_for("TransactionConflict"),
}
SAVING_ACTS = {
    "extend": lambda ports, match_id: host.extend(ports, match_id, EXTENSION),
    "pause": lambda ports, match_id: host.pause(ports, match_id),
    "resume": lambda ports, match_id: host.resume(ports, match_id),
    "resolve_now": lambda ports, match_id: host.resolve_now(ports, match_id),
    "cancel": lambda ports, match_id: host.cancel(ports, match_id),
    "reissue_secret": lambda ports, match_id: host.reissue_secret(ports, match_id, "p1"),
}
"""The host acts that store something on a running match (the host's message is tried in
test_press_recorded_first; decide acts only on a finished match). Each but reissue_secret reads
the match again when its save loses a race; a new secret is only ever made for the host who
asked, so that act tells them to ask again."""


@pytest.mark.parametrize("failure", list(FAILURES))
@pytest.mark.parametrize("act", list(SAVING_ACTS))
def test_a_host_act_whose_save_fails_once_leaves_the_phase_open_and_its_retry_applies(
    stack, crates_match, act, failure
) -> None:
    # Given an open Pregame (paused, for resume) that p1 has played
    match = crates_match(2, reminders=[])
    assert match.multipliers("p1", ORDER["multipliers"])[0] == 200
    ports = unwoken(stack)
    if act == "resume":
        host.pause(ports, match.match_id)
    before = ports.store.get(match.match_id)
    client = FailingOnce(ports.store.client, "transact_write_items", FAILURES[failure])
    failing = replace(ports, store=DynamoMatchStore(client, ports.store.table))

    # When the act's save fails once: the act tries again by itself, or the host is told and
    # sends the act again
    try:
        SAVING_ACTS[act](failing, match.match_id)
    except Exception as error:
        assert failure == "throttled" or act == "reissue_secret", error
        assert client.failed == 1, error
        # Nothing is left half done: the match is as it was, and its phase still takes moves
        assert ports.store.get(match.match_id) == before
        assert match.multipliers("p2", ORDER["multipliers"])[0] == 200
        SAVING_ACTS[act](failing, match.match_id)
    assert client.failed == 1

    # Then the act applied once, and the phase takes moves, or is closed for resolution, or the
    # match is cancelled and refuses them as cancelled
    after = ports.store.get(match.match_id)
    applied = {
        "extend": after.phase.deadline == before.phase.deadline + timedelta(seconds=EXTENSION),
        "pause": after.phase.paused,
        "resume": not after.phase.paused,
        "resolve_now": after.phase.resolve_requested,
        "cancel": after.status == "cancelled",
        "reissue_secret": after.players[0].secret_hash != before.players[0].secret_hash,
    }
    assert applied[act], after
    code, reply = match.multipliers("p2", [-1, 2, 1, 0, 1, -1])
    if act == "cancel":
        assert (code, reply["error"]) == (409, "NotOpen") and "cancelled" in reply["message"], reply
    elif act == "resolve_now":
        assert (code, reply["error"]) == (409, "Late"), reply  # the host closed it for resolution
    else:
        assert code == 200, reply


def test_a_turn_stored_while_the_host_cancels_is_given_back_its_garnets(stack, crates_match) -> None:
    # Given Round 1 is open and p1 holds 3 garnets
    match = crates_match(2, garnets={"p1": 3}, reminders=[])
    match.resolve_now()
    ports = unwoken(stack)

    # When p1's 5-push turn (2 garnets held) is stored after the cancel read the submissions,
    # before its save
    turns: list[int] = []
    turn = lambda: turns.append(match.turn("p1", "Round 1", push("p2", "right", 5), "ice")[0])  # noqa: E731
    host.cancel(replace(ports, store=StagedStore(ports.store, "save", turn)), match.match_id)

    # Then the turn was taken (nothing was closed before the save) and the cancel, read again,
    # gave its hold back: p1 has all 3 garnets free
    assert turns == [200]
    assert ports.store.get(match.match_id).status == "cancelled"
    view = ports.store.submission_view(match.match_id, "p1", None)
    assert (view.balance, view.available) == (3, 3)
