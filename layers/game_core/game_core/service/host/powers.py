"""Host powers over the open phase's clock (extend, pause, resume, resolve now, cancel), over the
match's state machine (recover), and over the match itself (decide a tie, reissue a secret). The
host's messages are `service.matches.press`'s.

Each act changes the clock's version and wakes the waiting state machine, which re-reads the
clock and waits again, resolves, or stops. An act whose notice failed is kept as untold
(`notices.Untold`): the same act sent again is not applied twice, and tells the rest.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from game_core.errors import Conflict, Illegal, Late, NotOpen
from game_core.games import registry
from game_core.match import engine, ties
from game_core.match.clock import PhaseClock, duration_text
from game_core.match.model import Match, secret_hash
from game_core.service.matches import handover
from game_core.service.matches.lifecycle import with_log_head
from game_core.service.ports import Event, Ports
from game_core.service.retries import until_stored
from game_core.service.telling import links
from game_core.service.telling.letters import names
from game_core.service.telling.notices import (
    Untold,
    act_at,
    clock_notice,
    open_phase_summary,
    progress_notices,
    untold,
)
from game_core.service.telling.stored import kept, tell_stored

logger = logging.getLogger(__name__)

SEND_AGAIN = "send the same command again to wake it (it is not applied twice)"
"""What the host is told to do when a stored act could not wake the machine, and a repeat is harmless."""
DECIDED = "decided"
"""The log entry of the host's decision of a tie."""


def _running(match: Match) -> PhaseClock:
    if match.status != "running" or match.phase is None:
        raise NotOpen(f"the match is {match.status}")
    return match.phase


def _with_clock(match: Match, clock: PhaseClock | None, **changes: Any) -> Match:
    return match.model_copy(update={"phase": clock, "version": match.version + 1} | changes)


def _change_clock(
    ports: Ports,
    match_id: str,
    event_type: str,
    change: Callable[[PhaseClock, datetime], PhaseClock],
    data: dict[str, Any],
    headline: str,
) -> dict[str, Any]:
    """Apply a host act to the open phase's clock; the act and its log entry share one instant.

    Stored only if the match is still the one read: an act that loses to the phase's resolution
    is refused (the phase it meant is gone), one that loses to anything else is tried again. The
    same act sent again after its notice failed (`_repeated`) changes nothing and tells the rest."""
    first = ports.store.get(match_id)
    meant = _running(first).number
    if (repeated := _repeated(ports, first, event_type, data, change)) is not None:
        return _acted(ports, first, headline, repeated) | {"changed": False}

    def attempt(match: Match) -> Match:
        if match.status != "running" or match.phase is None or match.phase.number != meant:
            raise Late(f"phase {meant} has already resolved; the {event_type} act was not applied")
        now = ports.clock.now()
        saved = _with_clock(match, change(match.phase, now))
        ports.store.save(match, saved, Event(event_type, now, data))
        return saved

    what = f"the {event_type} act was not applied"
    saved = until_stored(lambda: ports.store.get(match_id), attempt, match_id=match_id, what=what, seen=first)
    return _acted(ports, saved, headline, Untold(saved.version, event_type, data))


def _repeated(
    ports: Ports,
    match: Match,
    event_type: str,
    data: dict[str, Any],
    change: Callable[[PhaseClock, datetime], PhaseClock],
) -> Untold | None:
    """The act this one repeats, when that one's notice failed: the same act (type and data) with
    nothing stored since, or one the clock now refuses as done already (a second pause). Without a
    failed notice an act is a new one: an extend sent again extends again."""
    act = untold(match, event_type, data)
    if act is None or act.version == match.version:
        return act
    assert match.phase is not None  # _running
    try:
        change(match.phase, ports.clock.now())
    except Illegal:
        return act
    return None


def _acted(ports: Ports, saved: Match, headline: str | None = None, act: Untold | None = None) -> dict[str, Any]:
    """Once a host act is stored: wake the machine, tell everyone, and reply. The act stands
    whatever fails here; the reply says what did (a stalled match takes an act, but only
    `recover` will run it). `act` is what the notice tells (see `tell_stored`)."""
    reply: dict[str, Any] = {"match_id": saved.match_id, "status": saved.status, "open": open_phase_summary(saved)}
    if not wake_machine(ports, saved.match_id):
        # Sending the act again wakes it, when that is harmless: with no `act`, asking again
        # changes nothing; else the act is kept as untold, so its repeat is known and only wakes
        # (and its tell below marks all told, so the repeat tells nothing twice).
        if act is not None and not act.repeat and kept(ports, saved.match_id, act):
            act = dataclasses.replace(act, repeat=True)
        again = act is None or act.repeat
        later = f"it acts on this at its next look, within {duration_text(saved.recheck_seconds)}"
        reply["wake_pending"] = True
        reply["warning"] = "stored, but the state machine could not be woken: " + (SEND_AGAIN if again else later)
    if saved.stalled is not None:
        reply["warning"] = "the match's state machine has stopped; run `recover` to act on this"
    if headline:
        assert act is not None  # an act with a headline is told as itself (`_change_clock`, `cancel`)
        reply |= tell_stored(ports, saved, [clock_notice(saved, headline, act.version)], act, "command")
    return reply


def wake_machine(ports: Ports, match_id: str) -> bool:
    """Complete the waiting machine's task so it reads the clock again (after a stored host act,
    a replacement's extension); False if that failed, the read of its token included."""
    try:
        token = ports.store.task_token(match_id)
        if token:
            ports.workflow.wake(token)
    except Exception as error:  # a throttle, Step Functions unavailable: the act is stored anyway
        logger.warning("state machine not woken", extra={"match_id": match_id, "error": type(error).__name__})
        return False
    return True


def extend(ports: Ports, match_id: str, seconds: int) -> dict[str, Any]:
    return _change_clock(
        ports,
        match_id,
        "extended",
        lambda clock, _now: clock.extend(seconds),
        {"seconds": seconds},
        f"the deadline is extended by {duration_text(seconds)}",
    )


def pause(ports: Ports, match_id: str) -> dict[str, Any]:
    return _change_clock(ports, match_id, "paused", PhaseClock.pause, {}, "the match is paused")


def resume(ports: Ports, match_id: str) -> dict[str, Any]:
    return _change_clock(ports, match_id, "resumed", PhaseClock.resume, {}, "the match resumes")


def request_resolution(
    ports: Ports, match_id: str, reason: str, phase_number: int | None = None, at: datetime | None = None
) -> dict[str, Any]:
    """Resolve the open phase now (host) or at once because everyone has submitted (early close).

    `phase_number` (early close) asks only for that phase: if it has resolved meanwhile, the phase
    open now is not touched, and `at` is when it closed (its last submission). The host asks for
    the phase open when the request is read: if it
    resolves before the request is stored, the request is refused as too late. Any other
    concurrent change (another submitter's request, a host act) is read again."""
    first = ports.store.get(match_id)
    host_act = phase_number is None
    wanted = _running(first).number if phase_number is None else phase_number

    def attempt(match: Match) -> dict[str, Any]:
        phase = match.phase
        if match.status != "running" or phase is None or phase.number != wanted:
            if host_act:
                raise Late(f"phase {wanted} has already resolved; the resolve_now act was not applied")
            # That phase is over (resolved, or the match ended or was cancelled).
            return {"match_id": match_id, "status": match.status, "open": open_phase_summary(match)}
        if phase.resolve_requested:  # asking twice changes nothing, but wakes the machine again
            return _acted(ports, match)
        now = ports.clock.now()
        saved = engine.with_resolution_requested(match, min(at or now, now))
        ports.store.save(match, saved, Event("resolve_requested", now, {"reason": reason}))
        return _acted(ports, saved)

    what = f"the resolution of phase {wanted} was not requested"
    return until_stored(lambda: ports.store.get(match_id), attempt, match_id=match_id, what=what, seen=first)


def resolve_now(ports: Ports, match_id: str) -> dict[str, Any]:
    return request_resolution(ports, match_id, reason="the host resolved the phase now")


def cancel(ports: Ports, match_id: str) -> dict[str, Any]:
    """Stop the match for good; the garnets held by the open phase's submissions are given back,
    and what each guest holds goes back to their player (as when a match ends)."""

    def attempt(match: Match) -> Match:
        if match.status != "running":
            raise NotOpen(f"the match is {match.status}")
        # The save stands only if these are still every submission to the phase (a submission
        # stored after this read would keep its hold for good): nothing is closed meanwhile, so a
        # save that fails leaves the phase as it was, taking moves.
        sheets = ports.store.sheets(match_id, match.phase.number) if match.phase else None
        # Read at this version: an action moving a purse meanwhile moves the version, and the save fails.
        purses = ports.store.purses(match_id) if match.guests else {}
        returned = {guest: amount for guest, amount in purses.items() if amount}
        saved = _with_clock(match, match.phase, status="cancelled")
        ports.store.save(match, saved, Event("cancelled", ports.clock.now()), releases=sheets, returned=returned)
        return saved

    headline = "the match is cancelled"
    first = ports.store.get(match_id)
    if first.status == "cancelled" and (repeated := untold(first, "cancelled", {})) is not None:
        reply = _acted(ports, first, headline, repeated) | {"changed": False}  # its notice had failed
    else:
        # A resolution, another act or a submission that lands first: cancel the match as it is then.
        what = "the match was not cancelled"
        saved = until_stored(lambda: ports.store.get(match_id), attempt, match_id=match_id, what=what, seen=first)
        reply = _acted(ports, saved, headline, Untold(saved.version, "cancelled", {}))
    return {key: value for key, value in reply.items() if key != "open"}


def recover(ports: Ports, match_id: str) -> dict[str, Any]:
    """Start a new execution of the match's state machine after the last one stopped (stalled, or
    never started). It continues from the stored match: a phase resolved is not resolved again,
    and a resolution stored but not announced is announced first."""
    match = ports.store.get(match_id)
    unfinished = match.status == "running" or match.announced < match.phases_resolved
    if not unfinished:
        raise NotOpen(f"the match is {match.status} and everything is announced; there is nothing to recover")
    if handover.is_running(ports, match):
        raise Conflict(f"the state machine of match {match_id} is running; there is nothing to recover")
    now = ports.clock.now()
    after = match.model_copy(update={"attempt": match.attempt + 1, "stalled": None, "version": match.version + 1})
    ports.store.save(match, after, Event("recovered", now, {"execution": after.execution_name}))
    execution = ports.workflow.start(after)
    return {"match_id": match_id, "status": after.status, "execution": execution, "open": open_phase_summary(after)}


def decide(ports: Ports, match_id: str, order: list[str]) -> dict[str, Any]:
    """Record the host's decision of a tie the result left undecided (the tied players ranked,
    best first): the standings, ToL and EC as decided, in the record, and announced. The same
    decision sent again after its notice failed changes nothing and tells the rest."""
    match = ports.store.get(match_id)
    if match.status != "finished" or match.result is None:
        raise NotOpen(f"the match is {match.status}: only a finished match's result has ties to decide")
    order = [match.named(player) for player in order]  # by id or by name
    data = {"order": order}
    act = untold(match, DECIDED, data) if match.result.get("decision") == order else None
    decided = match
    if act is None:  # a new decision (one told already, sent again, finds no tie left: Illegal)
        decided = match.model_copy(update={"result": ties.decide(match.result, order), "version": match.version + 1})
        ports.store.save(match, decided, Event(DECIDED, ports.clock.now(), data))
        act = Untold(decided.version, DECIDED, data)
    shown = names(match)
    headline = "The host decided the tie: " + ", ".join(shown.get(player, player) for player in order)
    reply: dict[str, Any] = {"match_id": match_id, "status": decided.status, "result": decided.result}
    if act.repeat:
        reply["changed"] = False
    notices = progress_notices(decided, registry.load(match.game), headline, act_at(act.version))
    return reply | tell_stored(ports, decided, lambda: with_log_head(ports, match_id, notices), act, "command")


def reissue_secret(ports: Ports, match_id: str, player: str) -> dict[str, Any]:
    """A new webhook secret for the participant (lost, or leaked): the old one stops working at
    once. The new one is in the reply, once, with the link to their page it makes (`links`); only
    its hash is kept."""
    match = ports.store.get(match_id)
    player = match.named(player)  # by id or by name
    secret = ports.ids.secret()
    players = tuple(
        p.model_copy(update={"secret_hash": secret_hash(secret)}) if p.id == player else p for p in match.players
    )
    reissued = match.model_copy(update={"players": players, "version": match.version + 1})
    ports.store.save(match, reissued, Event("secret_reissued", ports.clock.now(), {"player": player}))
    return {"match_id": match_id, "player": player, "secret": secret, "links": links.paths(match_id, {player: secret})}
