"""Abstrac's clocks on the real ASL executed by moto, through the real handlers.

Every match here is a two-player Abstrac match with clocks of a few seconds. The players move by
webhook, the host acts through the host-commands handler, and what the clocks show is read from
the public announcements (the public view). Expectations are computed from the rules and the
match settings.

Timing: the stack runs on a virtual clock that moves only when a test advances it (the state
machine's waits and the handlers' `now` together), so every act happens at an instant the test
chose, to the second: a move made 3 s into its clock counted exactly 3 s, however slow the
machine. A test reads when a move's clock started (`Opened`, from the service's store, checked
against the instant it must have started), then advances the clock from there.
"""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pytest

from game_core.aws.wiring import ports_from_environment
from local_stack.aws.stack import Inbox, LocalStack

pytestmark = [pytest.mark.statemachine, pytest.mark.games("abstrac")]

A, B = "ana", "ben"
"""ana is listed first, so she is the protected player (row) and the first starter (deal)."""

STARTER, LAYING, MOVE = "Choose starter", "Laying move", "Move"


# -- time ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Opened:
    """A move's clock as the service started it (epoch seconds; the service counts whole seconds)."""

    at: int
    deadline: int
    paused_seconds: int


def counted(opened: Opened, end: int, paused: int = 0) -> int:
    """The seconds the service counts for a move that opened at `opened.at` and was resolved at
    `end` (both instants of the virtual clock), less the seconds it counted as paused."""
    return max(0, end - opened.at - paused)


def parse(moment: str) -> datetime:
    return datetime.fromisoformat(moment.replace("Z", "+00:00"))


# -- a match as its host and players see it ---------------------------------------------------------


@dataclass
class Match:
    stack: LocalStack
    match_id: str
    secrets: dict[str, str]
    inbox: Inbox
    created: int
    """When the match was created: its first move's clock started then."""
    views: list[dict[str, Any]] = field(default_factory=list)
    """Every public view announced so far."""

    def send(self, player: str, phase: str, kind: str, submission: dict[str, Any]) -> tuple[int, dict]:
        body = {"phase": phase, "kind": kind, "submission": submission}
        return self.stack.submit(self.match_id, player, self.secrets[player], body, uuid.uuid4().hex)

    def host(self, command: str, **fields: Any) -> dict[str, Any]:
        """A host command that must succeed; one that acts returns once the machine it woke has
        settled (no time passes meanwhile)."""
        reply = self.stack.host({"command": command, "match_id": self.match_id, **fields})
        assert reply["ok"], reply
        if command not in ("status", "export"):
            self.stack.settle()
        return reply

    def host_act(self, command: str, **fields: Any) -> tuple[int, dict[str, Any]]:
        """A host act; the instant it was made, and the reply."""
        at = self.now()
        reply = self.host(command, **fields)
        return at, reply

    def now(self) -> int:
        """The service's now, in epoch seconds (whole: the clock has not moved by less)."""
        return int(self.stack.now().timestamp())

    def advance_to(self, moment: int) -> None:
        """Let the clock run to `moment` (epoch seconds); every wait due meanwhile wakes in order."""
        assert moment >= self.now(), (moment, self.now())
        self.stack.advance(moment - self.now())

    def status(self) -> dict[str, Any]:
        return self.host("status")

    def wait_resolved(self, count: int) -> dict[str, Any]:
        """The status once the machine has settled, which must show `count` phases resolved (or
        the match ended)."""
        self.stack.settle()
        status = self.status()
        assert status["phases_resolved"] >= count or status["status"] != "running", (count, status)
        return status

    def move(self, player: str, phase: str, kind: str, submission: dict[str, Any]) -> int:
        """Make a move that must be accepted; returns the instant it was resolved (a move closes
        its phase at once, and no time passes meanwhile), which is also when the next move's
        clock started."""
        before = self.status()["phases_resolved"]
        at = self.now()
        status, reply = self.send(player, phase, kind, submission)
        assert status == 200, reply
        self.wait_resolved(before + 1)
        assert self.now() == at
        return at

    def opened(self, at: int) -> Opened:
        """The open move's clock as the service keeps it; it must have started at `at`."""
        clock = ports_from_environment().store.get(self.match_id).phase
        assert clock is not None
        opened = Opened(int(clock.opened_at.timestamp()), int(clock.deadline.timestamp()), clock.paused_seconds)
        assert opened.at == at, (at, opened)
        return opened

    def view_after(self, moves: int) -> dict[str, Any]:
        """The public view announced once `moves` moves have been recorded."""
        self.stack.settle()
        self.views += [message["view"]["public"] for message in self.inbox.receive(None) if "view" in message]
        for view in self.views:
            if len(view["moves"]) == moves:
                return view
        raise AssertionError(f"no announcement with {moves} moves")

    def phases(self) -> list[dict[str, Any]]:
        """The exported record's phases: what each resolution was given (elapsed, timed out)."""
        phases: list[dict[str, Any]] = self.host("export")["phases"]
        return phases


def create(stack: LocalStack, settings: dict[str, Any]) -> Match:
    inbox = stack.subscribe([A, B])
    at = int(stack.now().timestamp())
    created = stack.host(
        {
            "command": "create",
            "match": {"game": "abstrac", "settings": settings, "players": [{"id": A}, {"id": B}], "seed": 12},
        }
    )
    assert created["ok"], created
    return Match(stack, created["match_id"], created["secrets"], inbox, at)


def row(move_seconds: int, reserve_seconds: int, **more: Any) -> dict[str, Any]:
    return {"rule_set": "row", "move_seconds": move_seconds, "reserve_seconds": reserve_seconds, **more}


def deal(period_seconds: int, start_periods: int) -> dict[str, Any]:
    return {
        "rule_set": "deal",
        "period_seconds": period_seconds,
        "start_periods": start_periods,
        "first_starter": A,
    }


def reserve_after(reserve: int, move_seconds: int, elapsed: int, extension: int = 0) -> int:
    """The row rule: time used beyond the move's own seconds comes out of the reserve; the host's
    extension is not time used."""
    return max(0, reserve - max(0, max(0, elapsed - extension) - move_seconds))


def periods_after(periods: int, period_seconds: int, elapsed: int) -> int:
    """The deal rule (byo-yomi): a move's time is all the periods left; one made within its first
    period uses none up, and each further period it starts uses one up."""
    return periods - min(periods, max(0, math.ceil(elapsed / period_seconds) - 1))


# -- row: the reserve --------------------------------------------------------------------------------


def test_overtime_eats_the_movers_reserve_and_only_the_movers(stack):
    # Given a row match with 1 s a move and a 6 s reserve each; ana (protected) names the starter
    move_seconds, reserve = 1, 6
    match = create(stack, row(move_seconds, reserve))
    opened = match.opened(match.created)
    assert opened.deadline - opened.at == move_seconds + reserve

    # When ana names ben 3 s into her move
    match.advance_to(opened.at + 3)
    named = match.move(A, STARTER, "starter", {"starter": B})

    # Then the public view shows her reserve less the overtime, and ben's untouched
    view = match.view_after(1)
    elapsed = counted(opened, named)
    assert elapsed == 3
    assert reserve_after(reserve, move_seconds, elapsed) < reserve  # she was in overtime
    assert view["clocks"][A]["reserve_left"] == reserve_after(reserve, move_seconds, elapsed)
    assert view["clocks"][B]["reserve_left"] == reserve
    # ... and the move's record agrees with the rule to the second
    record = view["moves"][0]
    assert record["elapsed"] == elapsed
    assert record["overtime"] == record["elapsed"] - move_seconds
    assert record["reserve_after"] == view["clocks"][A]["reserve_left"] == reserve - record["overtime"]

    # When ben lays at once
    bens = match.opened(named)
    assert bens.deadline - bens.at == move_seconds + reserve
    laid = match.move(B, LAYING, "lay", {"cards": ["2G", "4B", "3R"]})

    # Then ana's reserve is not charged again, and ben's is charged only for time over his second
    after = match.view_after(2)
    assert after["clocks"][B]["reserve_left"] == reserve_after(reserve, move_seconds, counted(bens, laid)) == reserve
    assert after["clocks"][B]["reserve_left"] == reserve_after(reserve, move_seconds, after["moves"][1]["elapsed"])
    assert after["clocks"][A]["reserve_left"] == view["clocks"][A]["reserve_left"]
    # ... and ana's next move has her second plus what is left of her reserve
    anas = match.opened(laid)
    assert anas.deadline - anas.at == move_seconds + view["clocks"][A]["reserve_left"]


def test_an_empty_reserve_loses_when_the_settings_say_lose(stack):
    # Given a row match with 1 s a move and a 2 s reserve, "lose"; ana names ben to lay first
    move_seconds, reserve = 1, 2
    match = create(stack, row(move_seconds, reserve, on_empty_reserve="lose"))
    anas = match.opened(match.created)
    named = match.move(A, STARTER, "starter", {"starter": B})
    opened = match.opened(named)
    assert opened.deadline - opened.at == move_seconds + reserve

    # When ben never lays
    # Then past his move's own second he is still to move, on his reserve, up to his last second
    match.advance_to(opened.at + move_seconds + 1)
    early_status = match.status()
    assert early_status["status"] == "running"
    assert early_status["open"]["phase"] == LAYING and early_status["open"]["actors"] == [B]
    match.advance_to(opened.deadline - 1)
    assert match.status()["status"] == "running"

    # ... and once move + reserve have passed, the match is over and ben has lost on the clock
    match.advance_to(opened.deadline)
    finished = match.stack.wait_for_execution(match.match_id, "abstrac")
    ended = match.now()
    assert finished == "SUCCEEDED"
    status = match.status()
    assert status["status"] == "finished"
    result = status["result"]
    assert result["ec"] == [B]
    assert [(s["place"], s["player"]) for s in result["standings"]] == [(1, A), (2, B)]
    details = result["details"]
    assert details["ended_by"] == "clock"
    assert details["lost_on_time"] == details["loser"] == B and details["winner"] == A

    # ... at his deadline: the resolution counted his whole allowance, and it timed out
    timed_out = match.phases()[-1]
    assert timed_out["timed_out"] is True and timed_out["submissions"] == {}
    assert timed_out["elapsed_seconds"] == move_seconds + reserve == counted(opened, ended)
    final = match.view_after(2)
    assert final["clocks"][B]["reserve_left"] == 0
    assert final["clocks"][A]["reserve_left"] == reserve_after(reserve, move_seconds, counted(anas, named))
    assert final["lost_on_time"] == B


def test_an_empty_reserve_plays_the_smallest_move_when_the_settings_say_so(stack):
    # Given a row match with 2 s a move and a 1 s reserve, "smallest_move"; ana names ben to lay
    move_seconds, reserve = 2, 1
    match = create(stack, row(move_seconds, reserve, on_empty_reserve="smallest_move"))
    named = match.move(A, STARTER, "starter", {"starter": B})
    opened = match.opened(named)

    # When ben never lays: nothing happens a second before his move and reserve are gone
    match.advance_to(opened.deadline - 1)
    assert match.status()["phases_resolved"] == 1
    match.advance_to(opened.deadline)
    status = match.wait_resolved(2)

    # Then once his move and reserve are gone the service lays the smallest unused card for him
    # (every card is unused: the lowest number, 1, in the first colour, red), and play goes on
    # with ana to lay
    assert status["status"] == "running"
    assert status["open"]["phase"] == LAYING and status["open"]["actors"] == [A]
    view = match.view_after(2)
    assert view["laid"] == ["1R"]
    assert view["to_move"] == A and view["lost_on_time"] is None
    service_move = view["moves"][1]
    assert service_move["player"] == B and service_move["by_service"] is True
    assert service_move["cards"] == ["1R"]
    assert service_move["elapsed"] == opened.deadline - opened.at == move_seconds + reserve
    assert view["clocks"][B]["reserve_left"] == 0
    assert match.phases()[1]["timed_out"] is True

    # ... and ana's move is taken as usual
    status, reply = match.send(A, LAYING, "lay", {"cards": ["1Y"]})
    assert status == 200, reply


# -- deal: periods -----------------------------------------------------------------------------------


def test_deal_a_mover_whose_last_period_runs_out_loses(stack):
    # Given a deal match with 1 s periods and 2 periods to start with (a move may take 2 s); ana starts
    period, periods = 1, 2
    match = create(stack, deal(period, periods))
    opened = match.opened(match.created)
    assert opened.deadline - opened.at == period * periods

    # When ana never takes
    # Then she still has her move after her first period has passed (it is used up, one is left)
    match.advance_to(opened.at + period)
    early_status = match.status()
    assert match.now() < opened.deadline
    assert early_status["status"] == "running" and early_status["phases_resolved"] == 0

    # ... and when her last period runs out she loses on the clock
    match.advance_to(opened.deadline)
    finished = match.stack.wait_for_execution(match.match_id, "abstrac")
    assert finished == "SUCCEEDED"
    result = match.status()["result"]
    assert result["ec"] == [A]
    assert result["details"]["ended_by"] == "clock"
    assert result["details"]["lost_on_time"] == A and result["details"]["winner"] == B
    phase = match.phases()[0]
    assert phase["timed_out"] is True and phase["elapsed_seconds"] == period * periods
    final = match.view_after(1)
    assert final["clocks"][A]["periods_left"] == 0
    assert final["clocks"][B]["periods_left"] == periods


def test_deal_a_move_longer_than_one_period_uses_periods_up(stack):
    # Given a deal match with 1 s periods and 3 periods each; ana starts
    period, periods = 1, 3
    match = create(stack, deal(period, periods))
    opened = match.opened(match.created)

    # When ana takes one card 2 s into her move
    match.advance_to(opened.at + 2)
    taken = match.move(A, MOVE, "take", {"count": 1})

    # Then the periods her move started after its first are gone, and ben's are untouched
    view = match.view_after(1)
    left = periods_after(periods, period, counted(opened, taken))
    assert left == periods - 1
    assert view["clocks"][A]["periods_left"] == left
    record = view["moves"][0]
    assert view["clocks"][A]["periods_left"] == periods_after(periods, period, record["elapsed"])
    assert record["periods_used"] == periods - view["clocks"][A]["periods_left"]
    assert view["clocks"][B]["periods_left"] == periods

    # When ben takes at once
    bens = match.opened(taken)
    assert bens.deadline - bens.at == period * periods
    answered = match.move(B, MOVE, "take", {"count": 2})

    # Then he uses a period only if his move started a second one (in time, he uses none)
    after = match.view_after(2)
    assert after["clocks"][B]["periods_left"] == periods_after(periods, period, counted(bens, answered)) == periods
    assert after["clocks"][B]["periods_left"] == periods_after(periods, period, after["moves"][1]["elapsed"])
    assert after["clocks"][A]["periods_left"] == view["clocks"][A]["periods_left"]
    # ... and ana's next move has the periods she has left
    anas = match.opened(answered)
    assert anas.deadline - anas.at == period * view["clocks"][A]["periods_left"]


# -- host acts -----------------------------------------------------------------------------------------


def test_a_host_extension_is_honoured_mid_move_and_not_charged(stack):
    # Given a row match with 2 s a move and no reserve: ana's move ends the match at 2 s
    move_seconds, extension = 2, 4
    match = create(stack, row(move_seconds, 0))
    opened = match.opened(match.created)
    assert opened.deadline - opened.at == move_seconds

    # When the host extends her move by 4 s at 1 s
    match.advance_to(opened.at + 1)
    _, extended = match.host_act("extend", seconds=extension)
    assert parse(extended["open"]["deadline"]).timestamp() == opened.deadline + extension

    # Then a second past her unextended deadline she is still to move
    match.advance_to(opened.deadline + 1)
    status = match.status()
    assert status["status"] == "running" and status["phases_resolved"] == 0
    assert status["open"]["phase"] == STARTER

    # When she moves at 4 s
    match.advance_to(opened.at + 4)
    moved = match.move(A, STARTER, "starter", {"starter": B})

    # Then the move is taken and play goes on; it took longer than her move's seconds, but the
    # extension is not overtime, so nothing is taken from her reserve
    view = match.view_after(1)
    record = view["moves"][0]
    assert record["elapsed"] == counted(opened, moved) == 4
    assert record["elapsed"] > move_seconds
    assert record["extension"] == extension
    assert record["overtime"] == reserve_after(0, move_seconds, record["elapsed"], extension) == 0
    assert view["clocks"][A]["reserve_left"] == 0
    assert view["lost_on_time"] is None and view["to_move"] == B
    assert match.status()["open"]["actors"] == [B]
    # ... and the extension lengthened that move only: ben's move has his own 2 s
    bens = match.opened(moved)
    assert bens.deadline - bens.at == move_seconds


def test_pause_and_resume_during_a_move_do_not_charge_the_paused_time(stack):
    # Given a row match with 1 s a move and a 2 s reserve: ana's move may last 3 s
    move_seconds, reserve = 1, 2
    match = create(stack, row(move_seconds, reserve))
    opened = match.opened(match.created)

    # When the host pauses her move at once and resumes it 4 s later, and she moves 1 s after that
    paused_at, _ = match.host_act("pause")
    assert match.status()["open"]["paused"] is True
    match.advance_to(paused_at + 4)
    resumed_at, resumed = match.host_act("resume")
    assert resumed["open"]["paused"] is False
    clock = match.opened(match.created)
    match.advance_to(resumed_at + 1)
    moved = match.move(A, STARTER, "starter", {"starter": B})

    # Then the service counted the pause (whole seconds) and moved her deadline by it
    paused = clock.paused_seconds
    assert paused == resumed_at - paused_at == 4
    assert clock.deadline == opened.deadline + paused
    # ... her move is taken although more time than her whole allowance has passed
    assert moved - match.created > move_seconds + reserve
    view = match.view_after(1)
    assert view["lost_on_time"] is None and view["to_move"] == B
    # ... and only the time outside the pause was charged
    assert paused >= 3
    assert view["moves"][0]["elapsed"] == counted(opened, moved, paused) == 1
    assert view["clocks"][A]["reserve_left"] == reserve_after(reserve, move_seconds, 1) == reserve


# -- refusals ------------------------------------------------------------------------------------------


def test_a_move_out_of_turn_is_refused_and_a_move_for_a_closed_phase_is_late(stack):
    # Given a row match with long clocks; ana (protected) is to name the starter
    match = create(stack, row(60, 60))

    # When ben tries to name the starter
    status, reply = match.send(B, STARTER, "starter", {"starter": B})

    # Then he is refused as illegal, told whose move it is, and nothing is recorded
    assert status == 422, reply
    assert reply["accepted"] is False and reply["error"] == "Illegal"
    assert A in reply["message"]
    assert match.status()["submitted"] == []

    # When ana names ben, the move is taken
    match.move(A, STARTER, "starter", {"starter": B})

    # When ana then lays, although it is ben's move
    status, reply = match.send(A, LAYING, "lay", {"cards": ["1R"]})
    # Then she is refused, told it is ben's move
    assert status == 422, reply
    assert B in reply["message"]

    # When ana sends another starter choice for the phase that has closed
    status, reply = match.send(A, STARTER, "starter", {"starter": A})
    # Then it is refused as late, and ben's move is still the open one
    assert status == 409, reply
    assert reply["error"] == "Late"
    assert STARTER in reply["message"]

    # ... and ben's own lay is taken
    match.move(B, LAYING, "lay", {"cards": ["1R", "2R"]})
    view = match.view_after(2)
    assert view["laid"] == ["1R", "2R"]
    assert view["starter"] == B
    assert view["to_move"] == A


def test_a_move_made_while_paused_leaves_the_match_paused(stack):
    # Given a row match with 1 s a move and a 1 s reserve, paused by the host during ana's move
    move_seconds, reserve = 1, 1
    match = create(stack, row(move_seconds, reserve))
    match.host("pause")

    # When ana names ben while the match is paused (a move is taken during a pause)
    named = match.move(A, STARTER, "starter", {"starter": B})

    # Then ben's move opens paused: his clock does not run until the host resumes
    status = match.status()
    assert status["open"]["phase"] == LAYING and status["open"]["actors"] == [B]
    assert status["open"]["paused"] is True
    bens = match.opened(named)
    match.advance_to(named + move_seconds + reserve + 1)
    status = match.status()
    assert status["status"] == "running" and status["phases_resolved"] == 1
    assert status["open"]["paused"] is True

    # When the host resumes and ben lays at once
    match.host("resume")
    clock = match.opened(named)
    assert clock.paused_seconds == move_seconds + reserve + 1
    assert clock.deadline == bens.deadline + clock.paused_seconds
    laid = match.move(B, LAYING, "lay", {"cards": ["1R"]})

    # Then his move is taken and only the unpaused time counted against him
    view = match.view_after(2)
    assert view["lost_on_time"] is None and view["to_move"] == A
    assert view["moves"][1]["elapsed"] == counted(bens, laid, clock.paused_seconds) == 0
    assert view["clocks"][B]["reserve_left"] == reserve_after(reserve, move_seconds, view["moves"][1]["elapsed"])
