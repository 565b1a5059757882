"""The match lifecycle as pure functions: start, accept a submission, resolve the open phase.

The game decides what is legal in a position and what happens; this module owns everything
generic: how many players a match seats (each once), which phase is open, whether a submission is
late, who may act and with which kinds, whether the sender's garnet balance covers what the game
says a submission costs, turning submissions into the game's models (once, here), and which
randomness and clock readings a resolution gets (all recorded, so a replay is exact).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from game_core.errors import GameCoreError, Illegal, Late, Malformed, NotOpen, Reason, validation_reasons
from game_core.games.capabilities import HostsGuests
from game_core.games.plain_text import Roster
from game_core.games.protocol import PLAYERS, AnyGame, GameSettings, Model, Resolution
from game_core.match.absence import hold_for_absences
from game_core.match.clock import PhaseClock, moment_text, open_clock
from game_core.match.model import ActionRecord, Match, PhaseRecord

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
"""Where the games' millisecond clock starts (`immediate.at_ms`)."""


def setup_rng(seed: int) -> random.Random:
    return random.Random(f"{seed}:setup")


def phase_rng(seed: int, number: int) -> random.Random:
    return random.Random(f"{seed}:phase:{number}")


def game_state(game: AnyGame, match: Match) -> Model:
    return game.State.model_validate(match.state)


def guests_per_player(game: AnyGame) -> int:
    return game.guests_per_player if isinstance(game, HostsGuests) else 0


def seat(
    game: AnyGame, player_ids: list[str], settings: dict[str, Any], guests: dict[str, list[str]] | None = None
) -> GameSettings:
    """Check a new match's players (and the guests each brings) against the game (how many, each
    once) and read its settings; raise why the match cannot be created. Games never check these."""
    reasons = []
    guests = guests or {}
    everyone = player_ids + [guest for player in player_ids for guest in guests.get(player, [])]
    if len(set(everyone)) != len(everyone):
        reasons.append(Reason("players_repeated", "player ids must be unique"))
    wanted = guests_per_player(game)
    for player in player_ids:
        if len(guests.get(player, [])) != wanted:
            brought = len(guests.get(player, []))
            text = f"in {game.title} each player brings {wanted} guest(s); {player} brings {brought}"
            reasons.append(Reason("guest_count", text))
    if not game.min_players <= len(player_ids) <= game.max_players:
        reasons.append(
            Reason(
                "player_count",
                f"{game.title} takes {game.min_players} to {game.max_players} players, not {len(player_ids)}",
            )
        )
    if reasons:
        raise Illegal("the match cannot be created", reasons)
    try:
        return game.Settings.model_validate(settings)
    except ValidationError as error:
        reasons = validation_reasons(error, "settings", prefix="settings.")
        raise Malformed(f"the {game.title} settings are malformed", reasons) from None


def start(match: Match, game: AnyGame, now: datetime) -> Match:
    settings = game.Settings.model_validate(match.settings)
    state = game.setup(settings, match.player_ids, setup_rng(match.seed))
    return open_next(match, game, state, now)


def open_next(match: Match, game: AnyGame, state: Model, now: datetime) -> Match:
    """Store the new state and open the phase it waits on, or finish the match."""
    opening = game.open_phase(state)
    update: dict[str, Any] = {"state": state.model_dump(mode="json"), "version": match.version + 1, "done": frozenset()}
    if opening is None:
        update |= {"phase": None, "status": "finished", "result": game.result(state).to_json()}
    else:
        clock = open_clock(opening, match.phases_resolved + 1, now, opening.seconds or match.phase_seconds)
        update["phase"] = hold_for_absences(clock, match.absences, match.absence_rules, now)
    return match.model_copy(update=update)


@dataclass(frozen=True)
class Accepted:
    kind: str
    submission: dict[str, Any]
    garnet_cost: int
    salt: str = ""
    """The salt of its sealed receipt (hex, `match.receipts`), drawn when it is stored."""


def parse_submission(game: AnyGame, kind: str, payload: Any, players: Roster | None = None) -> Model:
    """The submission as its model reads it; a participant in it may be named by name where
    `players` (`Match.roster`) is given."""
    model = game.submissions.get(kind)
    if model is None:
        raise Malformed(f"unknown submission kind {kind!r}; this game knows {', '.join(game.submissions)}")
    try:
        return model.model_validate(payload, context={PLAYERS: players} if players else None)
    except ValidationError as error:
        raise Malformed(f"the {kind} submission is malformed", validation_reasons(error, kind)) from None


def refusals(game: AnyGame, state: Model, player: str, kind: str, submission: Model, garnets: int) -> list[Reason]:
    """Every reason an actor's parsed submission of a kind the open phase accepts is refused: the
    game's (`check`, in its order), then `garnets_short` when it spends more than the balance."""
    reasons = game.check(state, player, kind, submission)
    if game.garnet_cost(kind, submission) > garnets:
        short = f"{game.cost_text(kind, submission)}, but your balance is {garnets}"
        reasons = [*reasons, Reason("garnets_short", short)]
    return reasons


def reader_zone(match: Match, participant: str | None) -> str | None:
    """Where the participant reads times (a refusal's deadline is theirs too, UTC beside it)."""
    found = match.participant(participant) if participant is not None else None
    return found.zone if found is not None else None


def _open_until(phase: PhaseClock, now: datetime, zone: str | None) -> str:
    if phase.paused:
        return f"{phase.name!r} is open, paused by the host"
    return f"{phase.name!r} is open until {moment_text(phase.deadline, now, zone)}"


def late_refusal(phase: PhaseClock, now: datetime, zone: str | None) -> Late:
    """The open phase's deadline passed, or its resolution was requested: it takes nothing more."""
    return Late(f"{phase.name!r} closed {moment_text(min(phase.deadline, now), now, zone)}; it is being resolved")


def _not_the_open_phase(
    game: AnyGame, match: Match, named: str, number: int | None, now: datetime, zone: str | None
) -> GameCoreError:
    """Why a submission naming another phase (or another opening of this one) is refused: Late
    for one that has closed, NotOpen for one still to come (saying when it opens, as far as is
    known), Malformed for a name the game's timeline does not have. Names compare without regard
    to case."""
    phase = match.phase
    assert phase is not None
    settings = game.Settings.model_validate(match.settings)
    names = list(dict.fromkeys(kind.name for kind in game.timeline(settings)))
    found = next((name for name in names if name.casefold() == named.strip().casefold()), None)
    if found is None:
        text = f"{game.title} has no phase {named!r}; {_open_until(phase, now, zone)}"
        return Malformed(text, [Reason("unknown_phase", text)])
    if number is not None:  # the sender's number says which opening they mean
        ahead = number - phase.number
    else:  # a phase of the timeline before or after the open one (which is in it too)
        ahead = names.index(found) - names.index(phase.name) if phase.name in names else 0
    opening = f" (phase {number})" if number is not None else ""
    if ahead <= 0:
        return Late(f"{found!r}{opening} is not the open phase; {_open_until(phase, now, zone)}")
    if ahead == 1 and not phase.paused:
        when = f"it opens when {phase.name!r} closes, by {moment_text(phase.deadline, now, zone)}"
    else:
        when = f"it opens after {phase.name!r}, the open phase"
    return NotOpen(f"{found!r}{opening} is not open yet; {when}")


def accept(
    match: Match,
    game: AnyGame,
    player: str,
    phase_name: str,
    kind: str,
    payload: Any,
    garnets: int,
    now: datetime,
    phase_number: int | None = None,
) -> Accepted:
    """Validate one submission against the open phase; raise the error type that says why not.

    `phase_number`, when the sender gives it, pins the submission to one opening of the phase:
    in a move loop ("Laying move" again and again) a late move is then refused as late."""
    if match.status != "running" or match.phase is None:
        raise NotOpen(f"the match is {match.status}; nothing can be submitted")
    phase = match.phase
    same_name = phase_name.strip().casefold() == phase.name.casefold()
    if not same_name or (phase_number is not None and phase_number != phase.number):
        raise _not_the_open_phase(game, match, phase_name, phase_number, now, reader_zone(match, player))
    if phase.is_past_deadline(now) or phase.resolve_requested:
        raise late_refusal(phase, now, reader_zone(match, player))
    if player not in phase.actors:
        names = {participant.id: participant.name or participant.id for participant in match.players}
        waiting = ", ".join(names.get(actor, actor) for actor in phase.actors)
        text = f"{names.get(player, player)} cannot act in {phase.name!r}; it waits for {waiting}"
        raise Illegal(text, [Reason("not_an_actor", text)])
    if kind not in phase.accepts:
        accepted = ", ".join(phase.accepts) or "nothing"
        text = f"{phase.name!r} does not accept a {kind!r} submission; it accepts {accepted}"
        raise Illegal(text, [Reason("kind_not_accepted", text)])
    submission = parse_submission(game, kind, payload, match.roster())
    reasons = refusals(game, game_state(game, match), player, kind, submission, garnets)
    if reasons:
        raise Illegal(f"the {kind} submission is not allowed", reasons)
    cost = game.garnet_cost(kind, submission)
    return Accepted(kind, submission.model_dump(mode="json"), cost)


def with_resolution_requested(match: Match, at: datetime) -> Match:
    """The match with its open phase's resolution requested as of `at` (a new clock version)."""
    if match.status != "running" or match.phase is None:
        raise NotOpen(f"the match is {match.status}")
    return match.model_copy(update={"phase": match.phase.request_resolution(at), "version": match.version + 1})


def still_owed(phase: PhaseClock | None, sent: Mapping[str, Collection[str]]) -> dict[str, tuple[str, ...]]:
    """Who still owes the open phase what: each participant who owes it a kind (`OpenPhase.owes`)
    they have not sent, with those kinds. `sent` is participant -> the kinds they have sent to it.
    The one answer to "who still owes a move": early close, reminders, "No submission from",
    `status` and every participant's standing read it (through `has_done` or directly)."""
    if phase is None:
        return {}
    owed = {who: tuple(kind for kind in kinds if kind not in sent.get(who, ())) for who, kinds in phase.owes.items()}
    return {who: kinds for who, kinds in owed.items() if kinds}


def has_done(match: Match, player: str, kinds: Collection[str]) -> bool:
    """Whether a participant who has sent these kinds to the open phase is done with it: they owed
    it something and owe nothing more (the match header keeps who is, for early close)."""
    phase = match.phase
    return phase is not None and player in phase.owes and player not in still_owed(phase, {player: kinds})


def sent_last(phase: PhaseClock | None, player: str, kind: str) -> bool:
    """Whether, of one participant's several kinds sent together, this one goes last: a kind they
    owe does, so that the submission completing what they owe (which may close the phase early)
    does not shut out what else they meant to send (sort by this: what they may send goes first)."""
    return phase is not None and kind in phase.owes.get(player, ())


def waiting_for(match: Match) -> tuple[str, ...]:
    """Who still owes the open phase a move, from the header's done set (`has_done` filled it as
    their submissions arrived): the participants `still_owed` names, without reading a sheet."""
    phase = match.phase
    if phase is None or match.status != "running":
        return ()
    return tuple(who for who in phase.owes if who not in match.done)


def sent_nothing(match: Match, submissions: Mapping[str, Mapping[str, Any]]) -> tuple[str, ...]:
    """Who owed the open phase something and sent it nothing at all (named when it resolves)."""
    phase = match.phase
    return () if phase is None else tuple(who for who in phase.owes if not submissions.get(who))


def closes_early(match: Match, done: Collection[str]) -> bool:
    """Early close (the match setting, or a phase that closes on its actors' submissions): everyone
    who owes the phase something is done (`has_done`). A phase nobody owes anything (a reading
    phase) runs its time. A phase held past its deadline for graces (`match.grace`) closes once
    those who used one are done: whoever had none holds nothing."""
    phase = match.phase
    if phase is not None and phase.grace_held:
        return set(phase.grace_held) <= set(done)
    if phase is None or not (match.early_close or phase.closes_on_submit):
        return False
    return bool(phase.owes) and set(phase.owes) <= set(done)


def vote_ready(match: Match, player: str, ready: bool, now: datetime) -> Match | None:
    """The match with `player`'s ready vote cast (or taken back), and the phase's resolution
    requested when it leaves everyone who owes the phase something ready; None when the vote
    changes nothing (cast twice, or early close is on: the phase closes once every move is in).

    Only who owes the phase something votes, and only once they have sent it all (`has_done`):
    so the last vote, never a move, is what completes the count, and a move replaced after the
    vote still stands. Raises why a vote is refused."""
    if match.status != "running" or match.phase is None:
        raise NotOpen(f"the match is {match.status}; there is no phase to vote on")
    phase = match.phase
    if phase.resolve_requested or phase.is_past_deadline(now):
        raise late_refusal(phase, now, reader_zone(match, player))
    if player not in phase.owes:
        text = f"{phase.name!r} waits for nothing from you, so it is not yours to vote ready"
        raise Illegal(text, [Reason("owes_nothing", text)])
    if ready and player not in match.done:
        owed = ", ".join(phase.owes[player])
        text = f"send your {owed} for {phase.name!r} first; READY says you have sent all you owe"
        raise Illegal(text, [Reason("not_sent", text)])
    if match.early_close or phase.closes_on_submit or (player in phase.ready) == ready:
        return None
    votes = tuple(who for who in phase.owes if (who == player and ready) or (who != player and who in phase.ready))
    clock = phase.model_copy(update={"ready": votes})  # a vote moves no deadline: the wait stands
    if set(phase.owes) <= set(votes):
        clock = clock.request_resolution(now)
    return match.model_copy(update={"phase": clock, "version": match.version + 1})


@dataclass(frozen=True)
class Resolved:
    match: Match
    record: PhaseRecord
    spending: dict[str, int]


def resolve(
    match: Match,
    game: AnyGame,
    submissions: dict[str, dict[str, Any]],
    now: datetime,
    actions: tuple[ActionRecord, ...] = (),
) -> Resolved:
    """Resolve the open phase with every actor's last valid submissions, then open the next one.
    `actions` are the immediate actions taken in the phase (already in the match's state): the
    record keeps them for replay."""
    phase = match.phase
    if phase is None:
        raise NotOpen(f"the match is {match.status}; there is no phase to resolve")
    record = PhaseRecord(
        number=phase.number,
        name=phase.name,
        actions=list(actions),
        submissions={player: submissions[player] for player in sorted(submissions)},
        elapsed_seconds=phase.elapsed_seconds(now),
        extension_seconds=phase.extension_seconds,
        timed_out=not phase.resolve_requested,
        missing=sent_nothing(match, submissions),
        graced=phase.grace_held,
    )
    parsed = parsed_submissions(game, record)
    state = apply_record(game, game_state(game, match), match.seed, record, parsed)
    spending = {
        player: cost
        for player, kinds in parsed.items()
        if (cost := sum(game.garnet_cost(kind, submission) for kind, submission in kinds.items()))
    }
    advanced = open_next(match.model_copy(update={"phases_resolved": phase.number}), game, state, now)
    if phase.paused and advanced.phase is not None:
        # A phase resolved during the host's pause (a move taken while paused, resolve now):
        # the match clock stays paused, so the next phase's clock waits for the resume too.
        advanced = advanced.model_copy(update={"phase": advanced.phase.pause(now)})
    return Resolved(advanced, record, spending)


def parsed_submissions(game: AnyGame, record: PhaseRecord) -> dict[str, dict[str, Model]]:
    """A phase record's stored submissions as the game's models (the one place they are parsed)."""
    return {
        player: {kind: parse_submission(game, kind, body) for kind, body in kinds.items()}
        for player, kinds in record.submissions.items()
    }


def apply_record(
    game: AnyGame, state: Model, seed: int, record: PhaseRecord, parsed: dict[str, dict[str, Model]] | None = None
) -> Model:
    """One phase's resolution from its record: the same inputs live and in replay.

    Every submission is checked again in the position it resolves in; each was accepted in that
    same position, so one found illegal here is a fault (a record not made by this engine, or a
    game whose check and resolve disagree), raised as `Illegal` before the game resolves."""
    submissions = parsed if parsed is not None else parsed_submissions(game, record)
    for player, kinds in submissions.items():
        for kind, submission in kinds.items():
            if reasons := game.check(state, player, kind, submission):
                raise Illegal(f"phase {record.number}: {player}'s {kind} submission is illegal at resolution", reasons)
    return game.resolve(
        state,
        Resolution(
            submissions=submissions,
            rng=phase_rng(seed, record.number),
            elapsed_seconds=record.elapsed_seconds,
            extension_seconds=record.extension_seconds,
            timed_out=record.timed_out,
        ),
    )
