"""Grace periods, as pure functions: at a deadline that finds someone still owing the phase a
move, each of them with a grace left uses one and the phase is held `grace_seconds` past the
deadline, once; it closes as soon as they have all sent what they owe, else when the hold ends,
as the rules say for a missing move (the timeout every game already handles).

A late participant with no grace left holds nothing, but the phase is open while it is held for
others: their move is taken until it closes, as anyone's is. The hold is an extension of the
clock (`PhaseClock.hold_for_grace`), so the record's `extension_seconds` replays it exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from game_core.games.text_layout import prose
from game_core.match import engine
from game_core.match.clock import duration_text
from game_core.match.model import Match

CLOSED = "everyone who used a grace on the deadline has sent their moves"
"""Why a held phase closed before the hold's end (its `resolve_requested` event)."""


@dataclass(frozen=True)
class Hold:
    """A deadline held: the match with its clock moved and the graces counted; who was late (owed
    the phase a move at the deadline) and, of them, who used a grace."""

    match: Match
    late: tuple[str, ...]
    graced: tuple[str, ...]


def hold(match: Match, now: datetime) -> Hold | None:
    """The hold the open phase's deadline calls for now, or None: the phase timed out (no early
    close or "resolve now"), was not held before, someone who owes it a move has a grace left, and
    the hold would still run (a machine that looks only after the grace would have ended resolves)."""
    phase = match.phase
    if match.status != "running" or phase is None or not match.grace_seconds or phase.grace_held:
        return None
    if phase.resolve_requested or not phase.is_past_deadline(now):
        return None
    if now >= phase.deadline + timedelta(seconds=match.grace_seconds):
        return None
    late = engine.waiting_for(match)
    graced = tuple(who for who in late if match.graces_left.get(who, 0) > 0)
    if not graced:
        return None
    clock = phase.hold_for_grace(match.grace_seconds, graced, now, match.reminders_due)
    left = match.graces_left | {who: match.graces_left[who] - 1 for who in graced}
    held = match.model_copy(update={"phase": clock, "graces_left": left, "version": match.version + 1})
    return Hold(held, late, graced)


def notice_lines(public: Mapping[str, Any], own: Mapping[str, Any], shown: Mapping[str, str]) -> list[str]:
    """A hold in words, for one reader: who the phase is held for (public), and how many graces
    the reader has left or that they have none (their own notice); or the host's change of the
    reader's graces."""
    if "graces_set" in own:  # the host's change, told to its reader alone
        each = f", each holding a deadline {duration_text(own['graces_set'])} for you" if own["graces_left"] else ""
        return prose(f"The host set your graces: you have {graces_count(own['graces_left'])}{each}.")
    held = public.get("grace_hold") or own.get("grace_hold")
    if held is None:
        return []
    late = ", ".join(shown.get(who, who) for who in held["late"])
    graced = ", ".join(shown.get(who, who) for who in held["graced"])
    lines = prose(
        f"{held['phase']} passed its deadline still waiting for a move from {late}. A grace is used for "
        f"{graced}: the phase is held {duration_text(held['seconds'])} more, and resolves once the moves "
        f"owed by {graced} are in, or when the grace ends."
    )
    if "graces_left" in own:
        left = graces_count(own["graces_left"])
        if own.get("used_grace"):
            said = f"You used a grace: you have {left}."
        else:
            said = f"You have {left}. The phase is open while it is held: your move is taken until it closes."
        lines += ["", *prose(said)]
    return lines


def graces_count(left: int) -> str:
    """ "1 grace left", "2 graces left", "no grace left"."""
    return f"{left} grace{'' if left == 1 else 's'} left" if left else "no grace left"


def graces_text(left: int) -> str:
    """ "You have 1 grace left.": what STATUS says of the reader's graces."""
    return f"You have {graces_count(left)}."


def help_lines(seconds: int) -> list[str]:
    """What HELP says of graces, in a match that has them."""
    return prose(
        f"A deadline that finds your move missing is held {duration_text(seconds)} for you while you have "
        "a grace left (STATUS says how many)."
    )
