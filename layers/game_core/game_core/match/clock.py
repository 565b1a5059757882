"""The open phase's clock: deadline, host extensions, pauses, and "resolve now".

Pure: every function takes `now` and returns a new clock. All times are UTC.
`version` changes on every host act, so a waiting state machine can tell that the deadline it
was waiting for is stale (see service.matches.phases).
"""

from __future__ import annotations

import difflib
import math
import re
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any
from zoneinfo import ZoneInfo, available_timezones

from pydantic import Field, ValidationError, ValidatorFunctionWrapHandler, WrapValidator, model_validator

from game_core.errors import Illegal
from game_core.games.protocol import Model, OpenPhase

MIN_RECHECK_SECONDS = 300
"""The shortest `recheck_seconds` a match may have (5 minutes). One look of a waiting machine is a
loop of 13 history events and 3 billed transitions (service/matches/handover.py): at 1 second a paused
match loops 86,400 times a day and fills an execution's 25,000-event history in 32 minutes. At 5
minutes it loops 288 times a day, fewer than the 300 after which an execution hands the match on
(`handover.LOOPS_PER_EXECUTION`): at most about one hand-over a day, and nothing polls."""


def _no_shorter_recheck(seconds: Any, check: ValidatorFunctionWrapHandler) -> int:
    """The floor refused in words that say why (pydantic's would give only the number)."""
    try:
        checked: int = check(seconds)
    except ValidationError as error:
        if any(problem["type"] == "greater_than_equal" for problem in error.errors()):
            raise ValueError(
                f"at least {MIN_RECHECK_SECONDS} seconds (5 minutes), not {seconds}: host acts and submissions "
                "wake the waiting machine at once, the recheck only backs them up, and a shorter one polls "
                "(each look is billed and written into the execution's history)"
            ) from None
        raise
    return checked


RecheckSeconds = Annotated[int, Field(ge=MIN_RECHECK_SECONDS), WrapValidator(_no_shorter_recheck)]
"""The longest a waiting state machine sleeps before it reads the clock again, at least the floor."""


def utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


def iso(moment: datetime) -> str:
    return utc(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


def duration_text(seconds: int) -> str:
    """ "12 hours", "1 hour", "90 minutes", "1 day 6 hours": whole units a person reads at a glance."""
    if seconds < 60:
        return "less than a minute"
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes = rest // 60
    if not days and hours < 2 and minutes:
        minutes, hours = minutes + 60 * hours, 0
    parts = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    words = [f"{count} {unit}{'' if count == 1 else 's'}" for count, unit in parts if count]
    return " ".join(words)


def day_text(moment: datetime, zone: str | None = None) -> str:
    """ "Thursday 3 December, 13:00 (Europe/Paris) - 12:00 UTC": a moment's day and time to the
    minute where the reader lives (`zone`, an IANA name) with UTC beside it; the UTC day is
    named too when it is another day there; "Thursday 3 December, 12:00 UTC" with no zone."""
    moment = utc(moment)
    in_utc = f"{moment:%A} {moment.day} {moment:%B}, {moment:%H:%M} UTC"
    if zone is None or zone == "UTC":
        return in_utc
    local = moment.astimezone(ZoneInfo(zone))
    there = f"{local:%A} {local.day} {local:%B}, {local:%H:%M} ({zone})"
    return f"{there} - {in_utc if local.date() != moment.date() else f'{moment:%H:%M} UTC'}"


def moment_text(moment: datetime, now: datetime, zone: str | None = None) -> str:
    """ "Thursday 3 December, 13:00 (Europe/Paris) - 12:00 UTC, in 3 hours", or ", 2 hours ago"
    (now itself is "less than a minute ago"): `day_text` and how far it is."""
    ahead = (utc(moment) - now).total_seconds()
    minutes = 60 * round(abs(ahead) / 60)
    when = day_text(moment, zone)
    return f"{when}, in {duration_text(minutes)}" if ahead > 0 else f"{when}, {duration_text(minutes)} ago"


def known_zone(name: str) -> str:
    """The IANA time zone `name` names, in its own spelling ("europe/paris" is "Europe/Paris");
    raises ValueError naming it and the closest valid names when there is none."""
    zones = {zone.lower(): zone for zone in available_timezones() | {"UTC"}}
    wanted = name.strip().replace(" ", "_")
    if wanted.lower() in zones:
        return zones[wanted.lower()]
    if re.fullmatch(r"(?i)(utc|gmt)?_*[+\-\u2212]_*\d{1,2}(:?\d{2})?", wanted):
        raise ValueError(
            f"{name!r} is not a time zone but an offset from UTC, which summer time may change: write"
            ' the zone of a city near you (e.g. "Europe/Paris")'
        )
    # Close in whole ("Europe/Pari") or in the city alone ("Paris", "new york"); never Etc/GMT+1
    # for "GMT+1": its sign is POSIX's, the other way round (it is UTC-1)
    offered = [zone for zone in zones if not zone.startswith("etc/gmt")]
    city = wanted.lower().rsplit("/", 1)[-1]
    cities = sorted(
        zone for zone in offered if difflib.SequenceMatcher(None, zone.rsplit("/", 1)[-1], city).ratio() > 0.8
    )
    close = list(dict.fromkeys(difflib.get_close_matches(wanted.lower(), offered, n=3, cutoff=0.6) + cities))[:3]
    hint = f"; did you mean {' or '.join(zones[zone] for zone in close)}?" if close else ' (e.g. "Europe/Paris")'
    raise ValueError(f"{name!r} is not a time zone{hint}")


class PhaseClock(Model):
    name: str
    number: int
    """1 for the first phase opened in the match, then 2, 3, ...: names repeat in move loops."""
    accepts: tuple[str, ...]
    actors: tuple[str, ...]
    owes: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """What the phase waits for: each participant who owes something, with the kinds they owe
    (`OpenPhase.owed`). The one record of who owes what; `match.engine.still_owed` reads it."""
    opened_at: datetime
    deadline: datetime
    closes_on_submit: bool = False
    paused_at: datetime | None = None
    paused_seconds: int = 0
    extension_seconds: int = 0
    resolve_requested: bool = False
    closed_at: datetime | None = None
    """When early close or the host's "resolve now" closed the phase: its time stops there."""
    version: int = 0
    reminded: tuple[int, ...] = ()
    """The reminders (seconds before the deadline) already sent, or passed, in this phase."""
    ready: tuple[str, ...] = ()
    """Who voted this phase ready to resolve (`engine.vote_ready`, early close off): a new phase
    opens with a new clock, so the votes go with the phase they were cast in."""
    held_for: tuple[str, ...] = ()
    """Whose announced absences moved this deadline (`match.absence.hold`), in the order they did."""
    grace_held: tuple[str, ...] = ()
    """Who used a grace on this phase's deadline (`match.grace`): the phase is held for them past
    it, once; it closes as soon as they have all sent what they owe."""

    @model_validator(mode="before")
    @classmethod
    def _owes_from_expects(cls, stored: Any) -> Any:
        """A clock stored before `owes` had every actor owe the same `expects` kinds."""
        if isinstance(stored, dict) and "expects" in stored:
            stored = dict(stored)
            expects = stored.pop("expects")
            stored.setdefault("owes", {actor: expects for actor in stored.get("actors", ())} if expects else {})
        return stored

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def is_past_deadline(self, now: datetime) -> bool:
        return not self.paused and now >= self.deadline

    def is_due(self, now: datetime) -> bool:
        return self.resolve_requested or self.is_past_deadline(now)

    def _reminders_ahead(self, reminders: tuple[int, ...]) -> list[tuple[datetime, int]]:
        """(moment, seconds before the deadline) of each reminder not yet sent, in a running phase
        that was open at that moment (a phase shorter than a reminder's lead never gets it)."""
        if self.paused or self.resolve_requested:
            return []
        moments = [(self.deadline - timedelta(seconds=lead), lead) for lead in reminders if lead not in self.reminded]
        return sorted((moment, lead) for moment, lead in moments if moment > self.opened_at)

    def reminder_due(self, now: datetime, reminders: tuple[int, ...]) -> int | None:
        """The reminder to send now (the latest whose moment has come), None if none is due."""
        passed = [lead for moment, lead in self._reminders_ahead(reminders) if moment <= now]
        return min(passed) if passed and not self.is_due(now) else None

    def remind(self, now: datetime, reminders: tuple[int, ...]) -> PhaseClock:
        """The clock with every reminder whose moment has come marked sent (a machine that was
        down sends only the latest of them)."""
        passed = tuple(lead for moment, lead in self._reminders_ahead(reminders) if moment <= now)
        return self.model_copy(update={"reminded": self.reminded + passed})

    def seconds_to_wait(self, now: datetime, at_most: int, reminders: tuple[int, ...] = ()) -> int:
        """Whole seconds a waiting state machine should sleep before looking again (1..at_most):
        until the deadline or the next reminder, whichever comes first."""
        if self.paused:
            return at_most
        next_moment = min([self.deadline, *(moment for moment, _lead in self._reminders_ahead(reminders))])
        return max(1, min(at_most, math.ceil((next_moment - now).total_seconds())))

    def elapsed_seconds(self, now: datetime) -> int:
        end = min(now, self.closed_at) if self.closed_at else now
        paused_now = (end - self.paused_at).total_seconds() if self.paused_at and self.paused_at < end else 0
        return int((end - self.opened_at).total_seconds() - self.paused_seconds - paused_now)

    def extend(self, seconds: int) -> PhaseClock:
        if seconds <= 0:
            raise Illegal(f"an extension must be a positive number of seconds, not {seconds}")
        return self.model_copy(
            update={
                "deadline": self.deadline + timedelta(seconds=seconds),
                "extension_seconds": self.extension_seconds + seconds,
                "version": self.version + 1,
            }
        )

    def hold_for_grace(
        self, seconds: int, graced: tuple[str, ...], now: datetime, reminders: tuple[int, ...]
    ) -> PhaseClock:
        """The clock held `seconds` past its deadline for `graced`, as an extension (games that
        keep time, Abstrac's, charge a move no more for it than for a host's); a reminder whose
        moment the hold brings into the past is marked passed, not sent late."""
        return self.extend(seconds).model_copy(update={"grace_held": graced}).remind(now, reminders)

    def pause(self, now: datetime) -> PhaseClock:
        if self.paused:
            raise Illegal("the match is already paused")
        return self.model_copy(update={"paused_at": now, "version": self.version + 1})

    def resume(self, now: datetime) -> PhaseClock:
        if self.paused_at is None:
            raise Illegal("the match is not paused")
        paused_for = now - self.paused_at
        return self.model_copy(
            update={
                "paused_at": None,
                "deadline": self.deadline + paused_for,
                "paused_seconds": self.paused_seconds + int(paused_for.total_seconds()),
                "version": self.version + 1,
            }
        )

    def request_resolution(self, now: datetime) -> PhaseClock:
        return self.model_copy(update={"resolve_requested": True, "closed_at": now, "version": self.version + 1})


def open_clock(opening: OpenPhase, number: int, now: datetime, seconds: int) -> PhaseClock:
    return PhaseClock(
        name=opening.name,
        number=number,
        accepts=opening.accepts,
        actors=opening.actors,
        owes=opening.owed,
        opened_at=now,
        deadline=now + timedelta(seconds=seconds),
        closes_on_submit=opening.closes_on_submit,
    )
