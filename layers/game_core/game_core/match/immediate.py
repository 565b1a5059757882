"""Immediate actions (a game that `ActsAtOnce`): each applied when it arrives inside the open phase,
in arrival order, answered to its sender alone, and recorded with its arrival on the match clock
so a replay applies it exactly as it happened (`apply_action`, live and in replay).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError

from game_core.errors import Illegal, Malformed, NotOpen, Reason, validation_reasons
from game_core.games.capabilities import Acted, ActsAtOnce
from game_core.games.protocol import PLAYERS, AnyGame, Model
from game_core.match.engine import EPOCH, game_state, late_refusal, reader_zone
from game_core.match.model import ActionRecord, Match


def at_ms(moment: datetime) -> int:
    """A moment as the games see it: whole milliseconds since the epoch (exact, no float)."""
    return (moment - EPOCH) // timedelta(milliseconds=1)


def acting(game: AnyGame) -> ActsAtOnce:
    if not isinstance(game, ActsAtOnce):
        raise Malformed(f"{game.title} takes no immediate actions")
    return game


@dataclass(frozen=True)
class ActedMatch:
    """An immediate action applied: the match after it, its record, the answer to its sender and
    the garnets it moves."""

    match: Match
    record: ActionRecord
    answer: dict[str, Any]
    garnets: dict[str, int]


def act(
    match: Match, game: AnyGame, actor: str | None, kind: str, payload: Any, garnets: int, now: datetime
) -> ActedMatch:
    """Apply one immediate action of `actor` (None: the host) to the open phase, or raise why not:
    the phase must be open and not closing, a participant must be one of its actors and the kind
    one it allows now, and the sender must hold what it takes from them (`garnets`)."""
    acts = acting(game)
    if match.status != "running" or match.phase is None:
        raise NotOpen(f"the match is {match.status}; nothing can be done")
    phase = match.phase
    if phase.is_past_deadline(now) or phase.resolve_requested:
        raise late_refusal(phase, now, reader_zone(match, actor))
    model = acts.actions.get(kind)
    if model is None:
        raise Malformed(f"unknown action {kind!r}; this game knows {', '.join(acts.actions)}")
    state = game_state(game, match)
    opening = game.open_phase(state)
    if actor is not None and (opening is None or actor not in opening.actors):
        raise Illegal(f"{actor} cannot act now", [Reason("not_an_actor", f"{actor} cannot act in {phase.name!r}")])
    if actor is not None and opening is not None and kind not in opening.actions:
        allowed = ", ".join(opening.actions) or "no action"
        text = f"{phase.name!r} allows {allowed}, not {kind!r}"
        raise Illegal(text, [Reason("kind_not_accepted", text)])
    try:
        action = model.model_validate(payload, context={PLAYERS: match.roster()})
    except ValidationError as error:
        raise Malformed(f"the {kind} action is malformed", validation_reasons(error, kind)) from None
    record = ActionRecord(actor=actor, kind=kind, action=action.model_dump(mode="json"), at=now)
    acted = apply_action(game, state, record)
    taken = -acted.garnets.get(actor or "", 0)
    if taken > garnets:
        text = f"the {kind} takes {taken} garnet(s), but you hold {garnets}"
        raise Illegal(f"the {kind} is not allowed", [Reason("garnets_short", text)])
    after = match.model_copy(update={"state": acted.state.model_dump(mode="json"), "version": match.version + 1})
    return ActedMatch(after, record, acted.answer, dict(acted.garnets))


def apply_action(game: AnyGame, state: Model, record: ActionRecord) -> Acted:
    """One immediate action from its record: the same inputs live and in replay."""
    acts = acting(game)
    action = acts.actions[record.kind].model_validate(record.action)
    acted = acts.act(state, record.actor, record.kind, action, at_ms(record.at))
    moved_by_others = [who for who, change in acted.garnets.items() if change < 0 and who != record.actor]
    assert not moved_by_others, f"an action takes garnets only from its sender, not {moved_by_others}"
    return acted
