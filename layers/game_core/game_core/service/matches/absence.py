"""Announced absences: a participant declares when they will be away (mail ABSENT, the webhook's
absence action, the player's page), or withdraws what they declared; the host refuses one or
cuts it short. The rules are `match.absence`'s; this module reads, stores and tells.

A declaration that holds the open phase's deadline (it waits for a move from them, and falls
while they are away or within the margin after) moves it as the host's EXTEND does: a new clock
version, the waiting machine woken, and everyone told why (who is away, until when; no reason is
kept). A phase that opens later is held when it opens (`engine.open_next`). A deadline once moved
stands when the absence is withdrawn, refused or cut, as a host's extension does.

Each change is stored with its log entry, conditional on the match as read. Declared again (a
retried webhook call, a mail delivered twice), an absence that stands already changes nothing;
withdrawn again, nothing is left to withdraw; a host's cut again ends it where it ends already.
Whose notice failed, a declaration, cut or refusal sent again tells what it had not
(`telling.stored`), once.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from game_core.errors import Illegal, Malformed, NotOpen, Reason
from game_core.match import absence
from game_core.match.clock import day_text, iso
from game_core.match.model import Match, Participant
from game_core.service.matches.sheets import SubmissionView
from game_core.service.matches.submit import wake
from game_core.service.ports import Event, Notice, Ports
from game_core.service.retries import until_stored
from game_core.service.telling.notices import Untold, act_at, clock_notice, notice_id, open_phase_summary, untold
from game_core.service.telling.stored import tell_stored

DECLARED = "absence_declared"
"""The log entry of a declaration."""
ABSENCE_KIND = "absence"
"""The webhook action's kind: `{"kind": "absence", "action": {"from": "2026-12-24", "to": "2026-12-27"}}`,
or `{"kind": "absence", "action": {"cancel": true}}` to withdraw."""


class AbsenceDeclaration(BaseModel):
    """Away from `from` until `to`, both included when dates (`match-schemas`: absence_action_schema)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    start: str = Field(alias="from", min_length=10, max_length=40, description=absence.MOMENT_TEXT)
    end: str = Field(alias="to", min_length=10, max_length=40, description=absence.MOMENT_TEXT)


class AbsenceWithdrawal(BaseModel):
    """Withdraw every absence of yours not over yet (one under way ends now)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    cancel: Literal[True]


ABSENCE_ACTION: TypeAdapter[AbsenceDeclaration | AbsenceWithdrawal] = TypeAdapter(
    AbsenceDeclaration | AbsenceWithdrawal
)


def absence_action(
    ports: Ports, match_id: str, participant: str, action: Any, channel: str, view: SubmissionView | None = None
) -> dict[str, Any]:
    """The webhook's (or the page's) absence action: a declaration, or withdrawing; `view` is what
    the sender's channel read already (one read fewer)."""
    try:
        said = ABSENCE_ACTION.validate_python(action)
    except ValidationError:
        text = 'an absence is {"from": "2026-12-24", "to": "2026-12-27"} (dates or date-times), or {"cancel": true}'
        raise Malformed("the absence action is malformed", [Reason("absence_action", text)]) from None
    if isinstance(said, AbsenceWithdrawal):
        return withdraw(ports, match_id, participant, channel, view.match if view is not None else None)
    return declare(ports, match_id, participant, said.start, said.end, channel, view)


CHANNEL = "email"
_MOMENT = r"\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2})?"
_NUMERIC = r"\d{1,2}[/.]\d{1,2}(?:[/.](?:\d{4})?)?"
_NAMED = r"(?:[A-Z]{3,9}\.? \d{1,2}(?:ST|ND|RD|TH)?|\d{1,2}(?:ST|ND|RD|TH)?\.? [A-Z]{3,9}\.?)(?:,? \d{4})?"
_DAY = rf"{_MOMENT}|{_NUMERIC}|{_NAMED}"
_DAY_ALONE = r"\d{1,2}(?:ST|ND|RD|TH)?"
_ABSENT = re.compile(
    rf"(?:FROM )?({_DAY}|{_DAY_ALONE})"
    rf"(?:\s*(?:\s(?:TO|UNTIL|TILL|THROUGH|THRU)\s|[-\u2010-\u2015\u2212]+|\s)\s*({_DAY}|{_DAY_ALONE}))?"
)
"""ABSENT's days: the first alone (that one day), or the first and the last, as people write them:
"from" before them and "to" or a dash (a phone's en or em dash too) between them, if they like;
2026-12-24, 24/12/2026, 24 Dec or Dec 24th (a year when given, else the next such day), and a day
alone in the month the other names ("Dec 24-27", "Dec 24th to 27th", "24-27 Dec")."""
_MONTHS = {
    name[:length]: number
    for number, name in enumerate(
        "JANUARY FEBRUARY MARCH APRIL MAY JUNE JULY AUGUST SEPTEMBER OCTOBER NOVEMBER DECEMBER".split(), start=1
    )
    for length in (3, len(name))
} | {"SEPT": 9}
"""English months' names, whole or cut to three letters, each to its number."""
ABSENT_USAGE = "ABSENT 2026-12-24 2026-12-27 (your first and last days away, or date-times: 2026-12-24T18:00)"


def absent_by_mail(ports: Ports, match_id: str, participant: str, argument: str) -> dict[str, Any]:
    """ABSENT <first day> [<last day>] declares an absence; ABSENT CANCEL withdraws it."""
    if argument == "CANCEL":
        return withdraw(ports, match_id, participant, CHANNEL)
    # A year left out is the next such day from the sender's today: somewhere on Earth it is
    # still yesterday, so no day the sender may call today is taken for next year's
    start, end = absent_days(argument, (ports.clock.now() - timedelta(days=1)).date())
    return declare(ports, match_id, participant, start, end, CHANNEL)


def absent_days(argument: str, today: date) -> tuple[str, str]:
    """The first and last day (or date-time) ABSENT's `argument` (upper case) names, as the absence
    action takes them (2026-12-24); a day without its year is the first such on or after `today`
    (the last day: on or after the first). Malformed naming what could not be read: a line in no
    form above, a day that is none (31 April), a day written 05/12/2026 (5 December or 12 May?)."""
    days = _ABSENT.fullmatch(argument)
    if days is None:
        text = f"write {ABSENT_USAGE}, or ABSENT CANCEL to withdraw it"
        raise Malformed("the ABSENT command is malformed", [Reason("absent_line", text)])
    begins, ends = days[1], days[2]
    alone = "a day's number alone goes with a month's name (Dec 24-27, 24-27 Dec)"
    if re.fullmatch(_DAY_ALONE, begins):  # "24-27 DEC": the first day in the last's month
        if ends is None or not re.search("[A-Z]", ends):
            raise _not_a_day(begins, alone)
        last = _written_day(ends, today)
        return _in_month_of(begins, last), last
    first = _written_day(begins, today)
    if ends is None:
        return first, first
    if not re.fullmatch(_DAY_ALONE, ends):
        return first, _written_day(ends, date.fromisoformat(first[:10]))
    if not re.search("[A-Z]", begins):
        raise _not_a_day(ends, alone)
    return first, _in_month_of(ends, first)  # "DEC 24-27": the last day in the first's month


def _in_month_of(day: str, dated: str) -> str:
    """The day numbered `day` ("27", "27TH") in the month of `dated` (2026-12-24)."""
    try:
        return date.fromisoformat(dated).replace(day=int(day.rstrip("STNDRH"))).isoformat()
    except ValueError:
        raise _not_a_day(day, "it is no day of that month") from None


def _written_day(written: str, after: date) -> str:
    """One day of ABSENT as the absence action takes it (a date-time as written)."""
    if re.fullmatch(_MOMENT, written):
        return written
    year = next((int(found) for found in re.findall(r"\d{4}", written)), None)
    numbers = [int(found) for found in re.findall(r"(?<!\d)\d{1,2}(?!\d)", written)]
    word = next((word for word in re.findall(r"[A-Z]+", written) if word not in ("ST", "ND", "RD", "TH")), None)
    if word is None:  # day and month, or month and day: whichever is a date
        readings = {(numbers[0], numbers[1]), (numbers[1], numbers[0])}
    elif word in _MONTHS:
        readings = {(numbers[0], _MONTHS[word])}
    else:
        raise _not_a_day(written, f"{word} is no month's name in English (Dec, December)")
    found = sorted({day for reading in readings if (day := _dated(*reading, year, after)) is not None})
    if not found:
        raise _not_a_day(written, "it is no day of the calendar")
    if len(found) > 1:
        first, second = found
        said = f"it may be {first.day} {first:%B} or {second.day} {second:%B}: write {first} or {second}"
        raise _not_a_day(written, said)
    return found[0].isoformat()


def _dated(day: int, month: int, year: int | None, after: date) -> date | None:
    """The date in `year`, or without one the first on or after `after`; None when there is none."""
    for candidate in (year,) if year is not None else (after.year, after.year + 1):
        try:
            dated = date(candidate, month, day)
        except ValueError:
            continue
        if year is not None or dated >= after:
            return dated
    return None


def _not_a_day(written: str, why: str) -> Malformed:
    text = f"{written!r} is not read as a day: {why}"
    return Malformed("the ABSENT command is malformed", [Reason("absent_day", text)])


def _participant(match: Match, participant: str) -> Participant:
    found = match.member(participant)
    if match.status != "running":
        raise NotOpen(f"the match is {match.status}; absences no longer matter")
    return found


def declare(
    ports: Ports,
    match_id: str,
    participant: str,
    start: str,
    end: str,
    channel: str,
    view: SubmissionView | None = None,
) -> dict[str, Any]:
    """Declare `participant` away from `start` until `end` (read in their time zone: a date is the
    whole day); the answer says whether it held the open phase's deadline, and to when."""

    def attempt(seen: SubmissionView) -> tuple[dict[str, Any], Match | None, Untold | None]:
        match = seen.match
        who = _participant(match, participant)
        now = ports.clock.now()
        away = (absence.moment(start, who.zone, ending=False), absence.moment(end, who.zone, ending=True))
        reply: dict[str, Any] = {"accepted": True, "match_id": match_id, "from": iso(away[0]), "until": iso(away[1])}
        data: dict[str, Any] = {"actor": participant, "from": iso(away[0]), "until": iso(away[1])}
        absences = absence.declared(match.absences, match.absence_rules, participant, *away, now, who.zone)
        if absences is None:  # declared again: the first's notice, if it failed, is told now
            repeated = untold(match, DECLARED, data)
            reply |= {"changed": False, "answer": "That absence stands already; nothing changed."}
            return reply, match if repeated is not None else None, repeated
        assert match.phase is not None  # a running match has a phase open
        clock = absence.hold_for_absences(match.phase, absences, match.absence_rules, now)
        moved = clock.deadline != match.phase.deadline
        after = match.model_copy(update={"absences": absences, "phase": clock, "version": match.version + 1})
        data |= {"channel": channel, "deadline_held": moved}
        ports.store.save(match, after, Event(DECLARED, now, data))
        reply |= {"changed": True, "deadline_held": moved, "answer": _declared(after, moved, who.zone)}
        if moved and not wake(ports, after, seen.task_token):
            reply["wake_pending"] = True
        return reply, after if moved else None, Untold(after.version, DECLARED, data)

    reply, held, act = until_stored(
        lambda: ports.store.submission_view(match_id, participant, None),
        attempt,
        match_id=match_id,
        what="the absence was not declared",
        seen=view,
    )
    if held is not None:
        away = held.participant(participant)
        shown = away.name if away is not None else participant
        assert held.phase is not None and act is not None
        when = day_text(held.phase.deadline)
        notice = clock_notice(held, f"The deadline moves to {when}: {shown} is away", act.version)
        # The one away reads of it as theirs, under a subject of their own
        own = Notice(
            participant,
            f"[{match_id}] The deadline moves to {when}: you are away",
            notice.body | {"you": participant},
            notice_id(match_id, act_at(act.version), participant),
        )
        reply |= tell_stored(ports, held, [notice, own], act, "declaration")
    return reply


def _declared(match: Match, moved: bool, zone: str | None) -> str:
    if moved:
        assert match.phase is not None
        return (
            f"You are away as declared. {match.phase.name} waits for you: its deadline moves to "
            f"{day_text(match.phase.deadline, zone)}, and everyone is told why."
        )
    margin = f"{match.absence_rules.margin_hours} hours"
    return (
        "You are away as declared: a phase that waits for your move and would close while you are away, "
        f"or within {margin} of your return, waits until {margin} after it."
    )


def withdraw(ports: Ports, match_id: str, participant: str, channel: str, seen: Match | None = None) -> dict[str, Any]:
    """Withdraw every absence of `participant` not over yet (one under way ends now); a deadline
    it moved stays where it is."""

    def attempt(match: Match) -> dict[str, Any]:
        _participant(match, participant)
        now = ports.clock.now()
        reply: dict[str, Any] = {"accepted": True, "match_id": match_id}
        absences = absence.withdrawn(match.absences, participant, now)
        if absences is None:
            return reply | {"changed": False, "answer": "You have no absence to withdraw; nothing changed."}
        after = match.model_copy(update={"absences": absences, "version": match.version + 1})
        ports.store.save(match, after, Event("absence_withdrawn", now, {"actor": participant, "channel": channel}))
        return reply | {"changed": True, "answer": "Your absence is withdrawn: deadlines no longer wait for it."}

    return until_stored(
        lambda: ports.store.get(match_id), attempt, match_id=match_id, what="the absence was not withdrawn", seen=seen
    )


def refuse_or_cut(
    ports: Ports, match_id: str, player: str, act: Literal["refuse", "cut"], to: str | None, start: str | None
) -> dict[str, Any]:
    """The host refuses a participant's absence (it counts for nothing) or cuts it short to end at
    `to`: their absence under way, else their next; `start` (its first day, or moment) picks one
    when they have several. The participant is told; a deadline it moved stays. A cut to where
    the absence ends already changes nothing (a retried command); a refusal retried finds none."""

    def attempt(match: Match) -> tuple[Match | None, dict[str, str], Untold | None]:
        seat = match.named(player)
        who = _participant(match, seat)
        now = ports.clock.now()
        whose = f"{who.name}'s"
        begins = absence.moment(start, who.zone, ending=False, whose=whose) if start is not None else None
        try:
            target = absence.host_target(match.absences, seat, who.name, now, begins)
        except Illegal:  # a refusal sent again finds none: the first's notice, if it failed, is told now
            same = {"who": seat} | ({"from": iso(begins)} if begins is not None else {})
            if act == "refuse" and (repeated := untold(match, "absence_refused", same)) is not None:
                return match, repeated.data, repeated
            raise
        told = {"act": "refused" if act == "refuse" else "cut", "who": seat, "from": iso(target.start)}
        if act == "refuse":
            absences, ends = absence.refused(match.absences, target), target.end
        elif to is None:
            said = "a cut says the absence's new last day: --to 2026-12-25 (the console's to)"
            raise Malformed("the cut is malformed", [Reason("cut_to", said)])
        else:
            ends = absence.moment(to, who.zone, ending=True, whose=whose)
            if ends == target.end:  # cut again: the first's notice, if it failed, is told now
                told["until"] = iso(ends)
                repeated = untold(match, "absence_cut", told)
                return (match if repeated is not None else None), told, repeated
            absences = absence.cut(match.absences, target, ends, now)
        told["until"] = iso(ends)
        after = match.model_copy(update={"absences": absences, "version": match.version + 1})
        event = f"absence_{told['act']}"
        ports.store.save(match, after, Event(event, now, told))
        return after, told, Untold(after.version, event, told)

    saved, told, stored = until_stored(
        lambda: ports.store.get(match_id), attempt, match_id=match_id, what=f"the absence was not {act}"
    )
    changed = stored is not None and not stored.repeat
    reply = {"match_id": match_id, "player": told["who"], "absence": told, "changed": changed}
    if saved is None or stored is None:
        return reply
    subject = f"[{match_id}] The host {told['act']} your absence"
    body = {"match_id": match_id, "status": saved.status, "open": open_phase_summary(saved), "absence": told}
    notice = Notice(told["who"], subject, body, notice_id(match_id, act_at(stored.version), told["who"]))
    return reply | tell_stored(ports, saved, [notice], stored, f"{act} command")
