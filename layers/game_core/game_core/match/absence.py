"""Announced absences, as play-by-mail judges keep them: a participant says when they will be
away, and a deadline of a phase that waits for a move from them, falling while they are away or
within the match's margin after they are back, moves to the end of the absence plus the margin,
for everyone (one deadline per phase).

Pure: every function takes `now`. An absence is kept on the match (public: who is away when, never
why: no reason is kept) until the match ends, so the cap counts each participant's absences
together. A moment is read in the participant's own time zone: a date alone is that whole day
there ("from 2026-12-24 to 2026-12-27" is four days), a date and time is that minute there.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import Field, model_validator

from game_core.errors import Illegal, Malformed, Reason
from game_core.games.protocol import Model
from game_core.games.text_layout import prose
from game_core.match.clock import PhaseClock, day_text, iso

DAY = 86_400
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
MOMENT_FORMS = "a date (2026-12-24: the whole day) or a date and time (2026-12-24T18:00)"
MOMENT_TEXT = f"{MOMENT_FORMS}, in your time zone"


DEFAULT_LONGEST_DAYS = 4
"""One absence at most, unless the host says (or allows fewer days in all)."""


class AbsenceRules(Model):
    """The host's limits on absences in a match (the settings file's `absence_rules`)."""

    days: int = Field(default=7, ge=0, le=366)
    """The most days each participant may be away in the match, all their absences together
    (counted from when each was declared, or began); 0: no absences in this match."""
    longest_days: int = Field(default=DEFAULT_LONGEST_DAYS, ge=1, le=366)
    """The most days one absence may last (counted likewise)."""
    margin_hours: int = Field(default=24, ge=0, le=720)
    """Hours after an absence ends before a held deadline falls: time to read in and move."""

    @model_validator(mode="before")
    @classmethod
    def _longest_within_all(cls, given: Any) -> Any:
        """`{"days": 2}` alone: one absence may last all 2 (the default 4 would not fit)."""
        days = given.get("days") if isinstance(given, dict) else None
        if isinstance(days, int) and days > 0 and "longest_days" not in given:
            return given | {"longest_days": min(DEFAULT_LONGEST_DAYS, days)}
        return given

    @model_validator(mode="after")
    def _one_fits_in_all(self) -> AbsenceRules:
        if self.days and self.longest_days > self.days:
            raise ValueError(
                f"longest_days ({self.longest_days}) is more than days ({self.days}), all of a participant's "
                f"absences together: make longest_days at most {self.days}"
            )
        return self

    @property
    def margin(self) -> timedelta:
        return timedelta(hours=self.margin_hours)


class Absence(Model):
    """One participant's announced absence: away from `start` until `end` (UTC)."""

    participant: str
    start: datetime
    end: datetime
    declared_at: datetime
    zone: str | None = None
    """The zone it was declared in: its days are counted as days there (summer time and all)."""

    def counted(self) -> timedelta:
        """How long it counts against the caps: from when it was declared, or began if later,
        to its end, as the wall clock of its zone runs (a day is a day across summer time)."""
        return _wall(self.end, self.zone) - _wall(max(self.start, self.declared_at), self.zone)

    def overlaps(self, start: datetime, end: datetime) -> bool:
        return self.start < end and start < self.end

    def public(self) -> dict[str, str]:
        """What everyone may know of it: who, from when, until when."""
        return {"who": self.participant, "from": iso(self.start), "until": iso(self.end)}


def _wall(moment: datetime, zone: str | None) -> datetime:
    return moment.astimezone(ZoneInfo(zone or "UTC")).replace(tzinfo=None)


def moment(text: str, zone: str | None, *, ending: bool, whose: str = "your") -> datetime:
    """The moment `text` names in `zone` (UTC when None): a date alone is the start of that day
    there, or, `ending`, the start of the next (the day is included); a date and time is that
    minute there unless it carries its own offset ("Z", "+01:00"). Raises Malformed naming it and
    the forms, in `whose` time zone (the host's refusal names the participant's)."""
    written = text.strip()
    where = ZoneInfo(zone or "UTC")
    if _DATE.fullmatch(written):
        try:
            day = date.fromisoformat(written)
        except ValueError:
            raise _unreadable(text, whose) from None
        return datetime.combine(day + timedelta(days=int(ending)), time(), where).astimezone(UTC)
    try:
        read = datetime.fromisoformat(written)
    except ValueError:
        raise _unreadable(text, whose) from None
    if not _DATE.match(written):
        raise _unreadable(text, whose)
    return (read if read.tzinfo is not None else read.replace(tzinfo=where)).astimezone(UTC)


def _unreadable(text: str, whose: str) -> Malformed:
    said = f"{text.strip()!r} is not {MOMENT_FORMS}, in {whose} time zone"
    return Malformed("the absence is malformed", [Reason("absence_moment", said[:200])])


def _refused(code: str, text: str) -> Illegal:
    return Illegal("the absence is refused", [Reason(code, text)])


def _not_acted(code: str, text: str) -> Illegal:
    """A host's refusal or cut that does not apply: said so ("the absence is refused" reads as done)."""
    return Illegal("the absence was neither refused nor cut", [Reason(code, text)])


def _days(span: timedelta) -> str:
    days = span.total_seconds() / DAY
    shown = f"{days:.1f}".removesuffix(".0")
    return f"{shown} day{'' if shown == '1' else 's'}"


def standing(absences: Collection[Absence], participant: str, now: datetime) -> list[Absence]:
    """The participant's absences not over yet, earliest first."""
    return sorted((a for a in absences if a.participant == participant and a.end > now), key=lambda a: a.start)


def declared(
    absences: tuple[Absence, ...],
    rules: AbsenceRules,
    participant: str,
    start: datetime,
    end: datetime,
    now: datetime,
    zone: str | None,
) -> tuple[Absence, ...] | None:
    """The absences with the participant's new one added; None when that very absence stands
    already (declared again: nothing changes). Raises why it is refused: absences off, ending
    before it begins or already over, overlapping one of theirs, longer than one may be, or
    over what they have left."""
    if rules.days == 0:
        raise _refused("absences_off", "the host allows no absences in this match")
    if end <= start:
        raise _refused("ends_before_it_begins", "the absence ends before it begins: give its first day, then its last")
    if end <= now:
        raise _refused("in_the_past", "the absence is over already: give days from today on")
    theirs = standing(absences, participant, now)
    if any(a.start == start and a.end == end for a in theirs):
        return None
    absence = Absence(participant=participant, start=start, end=end, declared_at=now, zone=zone)
    for other in theirs:
        if other.overlaps(start, end):
            text = (
                f"it overlaps your absence from {day_text(other.start, zone)} until {day_text(other.end, zone)}; "
                "ABSENT CANCEL withdraws yours, then declare the whole of it again"
            )
            raise _refused("overlaps", text)
    if absence.counted() > timedelta(days=rules.longest_days):
        text = f"it lasts {_days(absence.counted())}; an absence lasts at most {rules.longest_days} days here"
        raise _refused("too_long", text)
    used = sum((a.counted() for a in absences if a.participant == participant), timedelta())
    left = timedelta(days=rules.days) - used
    if absence.counted() > left:
        text = f"it lasts {_days(absence.counted())}, and you have {_days(left)} of absence left of {rules.days}"
        raise _refused("over_the_cap", text)
    return (*absences, absence)


def withdrawn(absences: tuple[Absence, ...], participant: str, now: datetime) -> tuple[Absence, ...] | None:
    """The absences with the participant's not over yet withdrawn (one under way ends now, one
    to come is gone); None when they have none to withdraw."""
    if not standing(absences, participant, now):
        return None
    return _replaced(absences, participant, now, lambda a: a.model_copy(update={"end": now}) if a.start < now else None)


def _replaced(absences: tuple[Absence, ...], participant: str, now: datetime, change: Any) -> tuple[Absence, ...]:
    kept = []
    for absence in absences:
        if absence.participant != participant or absence.end <= now:
            kept.append(absence)
        elif (changed := change(absence)) is not None:
            kept.append(changed)
    return tuple(kept)


def host_target(
    absences: tuple[Absence, ...], participant: str, shown: str, now: datetime, begins: datetime | None
) -> Absence:
    """The absence a host's refusal or cut acts on: the participant's beginning at `begins`, or,
    with none given, their one under way or to come (they must have one, and only one)."""
    theirs = standing(absences, participant, now)
    if begins is not None:
        theirs = [a for a in theirs if a.start == begins]
        if not theirs:
            raise _not_acted("no_absence", f"{shown} has no absence under way or to come beginning {day_text(begins)}")
    if not theirs:
        raise _not_acted("no_absence", f"{shown} has no absence under way or to come")
    if len(theirs) > 1:
        raise _not_acted(
            "which_absence", f"{shown} has {len(theirs)} absences to come: say which by its first day (--from)"
        )
    return theirs[0]


def refused(absences: tuple[Absence, ...], target: Absence) -> tuple[Absence, ...]:
    """The absences without the one the host refused (it counts for nothing)."""
    return tuple(a for a in absences if a != target)


def cut(absences: tuple[Absence, ...], target: Absence, to: datetime, now: datetime) -> tuple[Absence, ...]:
    """The absences with the host's cut: `target` ends at `to` instead (earlier than it did, not
    before it began, nor before now)."""
    if not max(target.start, now) < to < target.end:
        zone = target.zone
        text = (
            f"a cut ends the absence after {day_text(max(target.start, now), zone)} "
            f"and before {day_text(target.end, zone)}, its end now"
        )
        raise _not_acted("cut_out_of_range", text)
    return tuple(a.model_copy(update={"end": to}) if a == target else a for a in absences)


def held(
    deadline: datetime, owing: Collection[str], absences: Collection[Absence], margin: timedelta
) -> tuple[datetime, tuple[str, ...]]:
    """The deadline moved past every absence of someone in `owing` that it falls in (from its
    start until its end plus the margin), again as long as the moved one falls in another; and
    whose absences moved it, in the order they did."""
    away: list[str] = []
    while True:
        holding = [a for a in absences if a.participant in owing and a.start <= deadline < a.end + margin]
        if not holding:
            return deadline, tuple(away)
        deadline = max(a.end for a in holding) + margin
        away += [a.participant for a in holding if a.participant not in away]


def hold_for_absences(
    clock: PhaseClock, absences: Collection[Absence], rules: AbsenceRules, now: datetime
) -> PhaseClock:
    """The open phase's clock with its deadline held past the absences it falls in (an extension,
    as the host's: the games count it so), naming whose; the same clock when none holds it, or
    it is closing or closed."""
    if clock.resolve_requested or clock.is_past_deadline(now):
        return clock
    deadline, away = held(clock.deadline, clock.owes, absences, rules.margin)
    if not away:
        return clock
    extended = clock.extend(math.ceil((deadline - clock.deadline).total_seconds()))
    return extended.model_copy(update={"held_for": tuple(dict.fromkeys((*clock.held_for, *away)))})


def away_summary(clock: PhaseClock, absences: Collection[Absence]) -> dict[str, Any]:
    """For the open phase's public summary: who is away during it (from, until) and whose
    absences hold its deadline; nothing when there is neither."""
    away = [a.public() for a in sorted(absences, key=lambda a: a.start) if a.end > clock.opened_at]
    shown: dict[str, Any] = {"away": away} if away else {}
    return shown | ({"held_for": list(clock.held_for)} if clock.held_for else {})


def away_lines(
    body: Mapping[str, Any], names: Mapping[str, str], zone: str | None, reader: str | None = None
) -> list[str]:
    """What a notice (its `body`) says of absences, in the reader's zone: the host's refusal or
    cut it tells, whose absence holds the open phase's deadline, and who is away when; to the
    `reader` (a participant's id), of their own absence as theirs."""
    said: list[str] = []

    def whose(who: str) -> str:
        return "your" if who == reader else f"{names.get(who, who)}'s"

    act = body.get("absence")
    if act is not None:
        begins, ends = (day_text(datetime.fromisoformat(act[key]), zone) for key in ("from", "until"))
        if act["act"] == "refused":
            said += prose(f"The host refused {whose(act['who'])} absence from {begins} until {ends}.")
        else:
            said += prose(f"The host cut {whose(act['who'])} absence short: away from {begins} until {ends}.")
    summary = body.get("open") or {}
    held_for = summary.get("held_for") or []
    if held_for == [reader]:
        said += prose("The deadline is held for your announced absence.")
    elif held_for:
        shown = ", ".join("you" if who == reader else names.get(who, who) for who in held_for)
        said += prose(f"The deadline is held for an announced absence: {shown}.")
    for away in summary.get("away", ()):
        begins, ends = (day_text(datetime.fromisoformat(away[key]), zone) for key in ("from", "until"))
        who = "You are" if away["who"] == reader else f"{names.get(away['who'], away['who'])} is"
        said += prose(f"{who} away from {begins} until {ends}.")
    return said
