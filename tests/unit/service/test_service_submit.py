"""submit on the in-memory fakes (Pushing Crates): accepted, late, refused, garnet holds."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from conftest import texts
from crates_driver import Table, push
from fakes import Fakes, MemoryStore

from game_core.errors import Conflict, GameCoreError, Illegal, Late, Malformed, NotFound, NotOpen
from game_core.service.host import powers as host
from game_core.service.matches import phases
from game_core.service.matches.submit import WAKE_PENDING, SubmissionRequest, submit

MID = "m-000000000001"
MULTIPLIERS = {"multipliers": [2, 1, 1, 0, -1, -1]}


class HookedStore(MemoryStore):
    """A store that runs `before_put` once, just before the next submission is written: another
    request lands between the use case's reads and its write."""

    def __init__(self) -> None:
        super().__init__()
        self.before_put: Callable[[], Any] | None = None

    def put_submission(self, *args: Any, **kwargs: Any) -> None:
        hook, self.before_put = self.before_put, None
        if hook is not None:
            hook()
        super().put_submission(*args, **kwargs)


def test_an_accepted_submission_is_stored_and_logged_without_its_contents() -> None:
    table = Table.open()
    table.fakes.clock.advance(90)
    reply = table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)

    sealed = reply.pop("receipt")["commitment"]  # what a receipt holds: test_service_receipts.py
    assert reply == {
        "accepted": True,
        "match_id": MID,
        "phase": "Pregame",
        "kind": "multipliers",
        "submission": MULTIPLIERS,
        "garnet_cost": 0,
    }
    assert table.fakes.store.submissions(MID, 1) == {"ada": {"multipliers": MULTIPLIERS}}
    [event] = table.events("submission_accepted")
    # the move's commitment (its receipt's, which shows nothing of it), never the move nor its salt
    logged = {"player": "ada", "phase": "Pregame", "number": 1, "kind": "multipliers", "channel": "test"}
    assert event.data == logged | {"commitment": sealed}


# Seconds after the Pregame opened (12:00; deadline 13:00 = 3600 s): accepted, or the Late message.
DEADLINES = [
    pytest.param(0, None, id="at the opening"),
    pytest.param(3599, None, id="one second before the deadline"),
    pytest.param(
        3600,
        "'Pregame' closed Tuesday 1 December, 13:00 UTC, less than a minute ago; it is being resolved",
        id="at the deadline",
    ),
    pytest.param(
        7200, "'Pregame' closed Tuesday 1 December, 13:00 UTC, 1 hour ago; it is being resolved", id="an hour late"
    ),
]


@pytest.mark.parametrize(("seconds", "late"), DEADLINES)
def test_a_submission_after_the_deadline_is_late(seconds: int, late: str | None) -> None:
    table = Table.open()
    table.fakes.clock.advance(seconds)
    if late is None:
        table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)
        assert table.fakes.store.submissions(MID, 1) == {"ada": {"multipliers": MULTIPLIERS}}
    else:
        with pytest.raises(Late) as refused:
            table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)
        assert refused.value.message == late
        assert table.fakes.store.submissions(MID, 1) == {}


def test_a_paused_phase_takes_submissions_past_its_old_deadline() -> None:
    table = Table.open()
    table.fakes.clock.advance(1000)
    host.pause(table.ports, MID)
    table.fakes.clock.advance(5000)  # 6000 s after the opening: past 3600, but the clock is paused
    table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)
    assert table.fakes.store.submissions(MID, 1) == {"ada": {"multipliers": MULTIPLIERS}}


@pytest.mark.parametrize(
    ("earlier", "message"),
    [
        # ada's first multipliers would make her done: the header moved, so it is read and judged again
        pytest.param(
            False,
            "'Pregame' closed Tuesday 1 December, 12:00 UTC, less than a minute ago; it is being resolved",
            id="first",
        ),
        # a replacement changes nothing on the header: the store's condition refuses it
        pytest.param(True, "'Pregame' closed before the submission arrived", id="replacing"),
    ],
)
def test_a_submission_read_before_the_phase_closed_is_refused_as_late(earlier: bool, message: str) -> None:
    table = Table.open()
    if earlier:
        table.submit("ada", "Pregame", "multipliers", {"multipliers": [1, 2, 1, 0, -1, -1]})
    stale = table.fakes.store.submission_view(MID, "ada", None)  # read by the webhook ...
    host.resolve_now(table.ports, MID)  # ... then the host closes the phase
    with pytest.raises(Late, match=re.escape(message)):
        submit(table.ports, SubmissionRequest(MID, "ada", "Pregame", "multipliers", MULTIPLIERS, "test"), stale)
    stored = table.fakes.store.submissions(MID, 1)
    assert stored == ({"ada": {"multipliers": {"multipliers": [1, 2, 1, 0, -1, -1]}}} if earlier else {})


# A valid Round 1 turn stands; each of these after it is refused, and it still stands.
# ada has no garnets: 4 pushes need 4 - 3 = 1.
REFUSALS: list[Any] = [
    pytest.param(
        "round",
        {"pushes": push("zed")},
        Illegal,
        ["push 1 names crate 'zed', which is not a player of this match"],
        id="a crate that is no player",
    ),
    pytest.param(
        "round",
        {"pushes": push("bo", 4)},
        Illegal,
        ["4 pushes need 1 garnet (one per push beyond the free 3), but your balance is 0"],
        id="a push beyond three without a garnet",
    ),
    pytest.param("round", {"pushes": [], "ground": "lava"}, Malformed, None, id="a ground that is none"),
    pytest.param(
        "bid",
        {},
        Illegal,
        ["'Round 1' does not accept a 'bid' submission; it accepts round, multipliers"],
        id="a kind the phase does not take",
    ),
]


@pytest.mark.parametrize(("kind", "body", "error", "reasons"), REFUSALS)
def test_a_refused_submission_keeps_the_earlier_one(
    kind: str, body: dict[str, Any], error: type[GameCoreError], reasons: list[str] | None
) -> None:
    table = Table.open()
    table.resolve_at_deadline()  # Round 1 (phase 2) opens
    pushes = push("bo", 2)
    table.turn("ada", "Round 1", pushes, "ice")
    first = {"pushes": pushes, "ground": "ice"}
    with pytest.raises(error) as refused:
        table.submit("ada", "Round 1", kind, body)
    if reasons is not None:
        assert texts(refused.value.reasons) == reasons
    assert table.fakes.store.submissions(MID, 2) == {"ada": {"round": first}}
    assert len(table.events("submission_accepted")) == 1


def test_a_ground_over_its_limit_is_refused_naming_the_round_it_was_used() -> None:
    table = Table.open()
    table.resolve_at_deadline()
    table.turn("ada", "Round 1", [], "rubber")
    table.resolve_at_deadline()
    with pytest.raises(Illegal) as refused:
        table.turn("ada", "Round 2", [], "rubber")
    assert texts(refused.value.reasons) == [
        "rubber may be chosen at most once a match, and you already chose it in round 1"
    ]


# ada holds 3 garnets; her Round 1 turns one after another, each with `pushes` pushes: a turn of
# p > 3 pushes costs p - 3. What she has available after it (the balance stays 3 until the round
# resolves), and what the phase's submissions hold.
HOLDS = [
    # pushes, accepted, available, held
    (5, True, 1, 2),  # cost 2: 3 - 2 = 1 available
    (4, True, 2, 1),  # cost 1 replaces the hold of 2: 1 + 2 - 1 = 2
    (3, True, 3, 0),  # free: the hold of 1 is released, 3 available, nothing held
    (6, True, 0, 3),  # cost 3: all of it
    (7, False, 0, 3),  # cost 4 > 0 available + 3 held: refused, the 6-push turn still holds 3
    (2, True, 3, 0),  # free again: everything back
]


def test_garnets_are_held_on_acceptance_and_released_on_replacement() -> None:
    table = Table.open(garnets={"ada": 3})
    table.resolve_at_deadline()
    store = table.fakes.store
    for pushes, accepted, available, held in HOLDS:
        if accepted:
            assert table.turn("ada", "Round 1", push("ada", pushes))["garnet_cost"] == max(0, pushes - 3)
        else:
            with pytest.raises(Illegal):
                table.turn("ada", "Round 1", push("ada", pushes))
        assert store.garnets("ada") == (3, available), pushes
        assert store.holds(MID, 2) == ({"ada": held} if held else {}), pushes
        view = store.submission_view(MID, "ada", None)
        assert (view.available, view.held("round")) == (available, held)
    # A free kind in the same phase holds nothing and leaves the round's hold alone.
    table.submit("ada", "Round 1", "multipliers", MULTIPLIERS)
    assert store.garnets("ada") == (3, 3)
    assert store.submissions(MID, 2)["ada"]["round"]["pushes"] == push("ada", 2)


def test_two_matches_cannot_both_hold_one_garnet() -> None:
    fakes = Fakes()
    first = Table.open(fakes, players=("ada", "bo"), garnets={"ada": 1})
    second = Table.open(fakes, players=("ada", "cy"), garnets={"ada": 5})  # known: keeps 1
    first.resolve_at_deadline()  # both Pregames end at 13:00
    second.resolve_at_deadline()
    first.turn("ada", "Round 1", push("bo", 4))  # 4 pushes: holds 1
    assert fakes.store.garnets("ada") == (1, 0)
    with pytest.raises(Illegal) as refused:
        second.turn("ada", "Round 1", push("cy", 4))
    assert texts(refused.value.reasons) == [
        "4 pushes need 1 garnet (one per push beyond the free 3), but your balance is 0"
    ]
    assert fakes.store.submissions(second.match_id, 2) == {}


def test_two_matches_racing_for_one_garnet_the_store_refuses_the_second() -> None:
    store = HookedStore()
    fakes = Fakes(store=store)
    first = Table.open(fakes, players=("ada", "bo"), garnets={"ada": 1})
    second = Table.open(fakes, players=("ada", "cy"))
    first.resolve_at_deadline()
    second.resolve_at_deadline()
    # The second match's webhook read 1 available; the first match's submission lands before it writes.
    store.before_put = lambda: first.turn("ada", "Round 1", push("bo", 4))
    with pytest.raises(Illegal) as refused:
        second.turn("ada", "Round 1", push("cy", 4))
    assert texts(refused.value.reasons) == ["it spends 1 garnets, more than your balance has free now"]
    assert fakes.store.garnets("ada") == (1, 0)
    assert fakes.store.holds(first.match_id, 2) == {"ada": 1}
    assert fakes.store.submissions(second.match_id, 2) == {}


def test_two_turns_of_one_player_racing_the_second_is_a_conflict_and_the_first_stands() -> None:
    store = HookedStore()
    table = Table.open(Fakes(store=store), garnets={"ada": 3})
    table.resolve_at_deadline()
    store.before_put = lambda: table.turn("ada", "Round 1", push("bo", 4))  # holds 1
    with pytest.raises(Conflict, match="another submission of yours"):
        table.turn("ada", "Round 1", push("bo", 5))  # read "nothing held" before the other landed
    assert store.garnets("ada") == (3, 2)  # only the first turn's 1 is held
    assert store.submissions(MID, 2)["ada"]["round"]["pushes"] == push("bo", 4)


@pytest.mark.parametrize(
    ("match_id", "player", "message"),
    [(MID, "zed", f"zed is not a player of match {MID}"), ("m-nope", "ada", "no match 'm-nope'")],
)
def test_an_unknown_player_or_match_is_not_found(match_id: str, player: str, message: str) -> None:
    table = Table.open()
    with pytest.raises(NotFound, match=message):
        submit(table.ports, SubmissionRequest(match_id, player, "Pregame", "multipliers", MULTIPLIERS, "test"))


def test_a_cancelled_match_takes_nothing() -> None:
    table = Table.open()
    host.cancel(table.ports, MID)
    with pytest.raises(NotOpen, match="the match is cancelled; nothing can be submitted"):
        table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)


def test_early_close_the_last_awaited_submission_closes_the_phase_and_wakes_the_machine() -> None:
    table = Table.open(early_close=True)
    phases.wait(table.ports, MID, 1, 0, "tok-1")
    assert "wake_pending" not in table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)
    assert table.fakes.workflow.woken == []

    table.fakes.clock.advance(120)
    reply = table.submit("bo", "Pregame", "multipliers", MULTIPLIERS)
    assert "wake_pending" not in reply
    assert table.fakes.workflow.woken == ["tok-1"]  # bo's completed the phase: the machine is woken
    clock = table.match().phase
    assert clock is not None and clock.resolve_requested and clock.version == 1
    [event] = table.events("resolve_requested")
    assert event.data == {"reason": "every participant who can act has submitted"}

    # The machine, woken 5 s later, finds the phase due: it closed at bo's submission (12:02:00),
    # 120 s after it opened, not timed out.
    table.fakes.clock.advance(5)
    assert phases.current(table.ports, MID)["due"] is True
    phases.resolve(table.ports, MID, 1)
    [record] = table.fakes.store.phase_records(MID)
    assert (record.elapsed_seconds, record.timed_out) == (120, False)


def test_early_close_a_failed_wake_still_stores_the_submission_and_says_so() -> None:
    table = Table.open(early_close=True)
    phases.wait(table.ports, MID, 1, 0, "tok-1")
    table.fakes.workflow.wake_error = RuntimeError("ThrottlingException")
    table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)
    reply = table.submit("bo", "Pregame", "multipliers", MULTIPLIERS)
    assert reply["wake_pending"] is True and reply["message"] == WAKE_PENDING
    assert sorted(table.fakes.store.submissions(MID, 1)) == ["ada", "bo"]
    # The request itself was stored before the wake failed: the next clock check resolves.
    assert phases.current(table.ports, MID)["due"] is True


def test_early_close_wakes_the_wait_of_the_moment_not_the_one_read_with_the_match() -> None:
    # The machine was woken meanwhile (a host act) and waits on a newer token than the one it had
    table = Table.open(early_close=True)
    phases.wait(table.ports, MID, 1, 0, "tok-1")
    table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)
    view = table.fakes.store.submission_view(MID, "bo", None)  # bo's submission reads tok-1 ...
    host.extend(table.ports, MID, 60)  # ... the host's act wakes tok-1; the machine waits on tok-2
    phases.wait(table.ports, MID, 1, 1, "tok-2")
    reply = submit(table.ports, SubmissionRequest(MID, "bo", "Pregame", "multipliers", MULTIPLIERS, "test"), view)
    assert "wake_pending" not in reply
    assert table.fakes.workflow.woken == ["tok-1", "tok-2"]  # the host's wake, then bo's


def test_early_close_of_two_last_submitters_racing_the_one_stored_second_closes_the_phase() -> None:
    # bo reads the header (nobody done yet); ada's submission lands before bo's is written. Both
    # finish their part, and only together do they close: bo's write, conditional on `done` as
    # read, is refused, read again, and now closes the phase. Asked once, woken once.
    store = HookedStore()
    table = Table.open(Fakes(store=store), early_close=True)
    phases.wait(table.ports, MID, 1, 0, "tok-1")
    store.before_put = lambda: table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)
    reply = table.submit("bo", "Pregame", "multipliers", MULTIPLIERS)
    assert "wake_pending" not in reply
    assert sorted(store.submissions(MID, 1)) == ["ada", "bo"]
    clock = table.match().phase
    assert clock is not None and clock.resolve_requested
    assert len(table.events("resolve_requested")) == 1
    assert table.fakes.workflow.woken == ["tok-1"]


def test_early_close_wakes_a_wait_begun_after_the_closing_submission_read_the_header() -> None:
    # bo reads no token (the machine has not waited yet); the machine then stores tok-1 and waits.
    # bo's closing write is conditional on the token read: refused, read again, tok-1 woken.
    store = HookedStore()
    table = Table.open(Fakes(store=store), early_close=True)
    table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)
    store.before_put = lambda: phases.wait(table.ports, MID, 1, 0, "tok-1")
    table.submit("bo", "Pregame", "multipliers", MULTIPLIERS)
    assert table.fakes.workflow.woken == ["tok-1"]
    assert len(table.events("resolve_requested")) == 1


def test_early_close_before_the_first_wait_needs_no_wake_the_wait_finds_the_clock_changed() -> None:
    # The machine computed its wait for clock version 0, then bo closed the phase (version 1):
    # the wait does not keep its token for a clock that moved; it wakes itself at once.
    table = Table.open(early_close=True)
    table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)
    table.submit("bo", "Pregame", "multipliers", MULTIPLIERS)
    assert table.fakes.workflow.woken == []
    phases.wait(table.ports, MID, 1, 0, "tok-1")
    assert table.fakes.workflow.woken == ["tok-1"]
