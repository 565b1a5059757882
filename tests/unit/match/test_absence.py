"""Announced absences, the pure rules (`match.absence`): moments read in the declarer's zone, the
refusals, and which deadlines an absence holds and to when. Every expected moment is worked out by
hand from the calendar (1 December 2026 is a Tuesday) and the rules' text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from conftest import texts

from game_core.errors import Illegal, Malformed
from game_core.match.absence import Absence, AbsenceRules, declared, held, host_target, moment, withdrawn

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
RULES = AbsenceRules(days=3, longest_days=2, margin_hours=24)


def at(day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "zone", "ending", "expected"),
    [
        # A date alone is the whole day where the reader lives: its start, or for an end the next day's start.
        ("2026-12-24", None, False, at(24)),
        ("2026-12-24", None, True, at(25)),
        ("2026-12-24", "Europe/Paris", False, at(23, 23)),  # Paris is UTC+1 in winter
        ("2026-12-24", "Europe/Paris", True, at(24, 23)),
        ("2026-12-24", "America/New_York", True, at(25, 5)),  # New York is UTC-5 in winter
        # A date and time is that minute there, or as its own offset says.
        ("2026-12-24T18:00", "Europe/Paris", True, at(24, 17)),
        ("2026-12-24 18:00", None, False, at(24, 18)),
        ("2026-12-24T18:00Z", "Europe/Paris", False, at(24, 18)),
        ("2026-12-24T18:00+05:30", None, False, at(24, 12, 30)),
    ],
)
def test_a_moment_is_read_in_the_declarers_zone(text: str, zone: str | None, ending: bool, expected: datetime) -> None:
    assert moment(text, zone, ending=ending) == expected


@pytest.mark.parametrize("text", ["24/12/2026", "2026-13-01", "tomorrow", "20261224", "2026-12-24T25:00"])
def test_a_moment_that_is_no_date_is_malformed_naming_it(text: str) -> None:
    with pytest.raises(Malformed) as refused:
        moment(text, None, ending=False)
    [reason] = refused.value.reasons
    assert reason.code == "absence_moment" and repr(text) in reason.text


ADA_5_TO_6 = Absence(participant="ada", start=at(5), end=at(7), declared_at=NOW)
"""Ada away Saturday 5 and Sunday 6 December: 2 days."""


@pytest.mark.parametrize(
    ("rules", "start", "end", "code", "text"),
    [
        (AbsenceRules(days=0), at(10), at(11), "absences_off", "the host allows no absences in this match"),
        (RULES, at(11), at(10), "ends_before_it_begins", "the absence ends before it begins"),
        (RULES, at(10), at(10), "ends_before_it_begins", "the absence ends before it begins"),
        (RULES, at(1, 0), at(1, 12), "in_the_past", "the absence is over already"),
        # 3 whole days (the 10th to the 12th) against a longest of 2
        (RULES, at(10), at(13), "too_long", "it lasts 3 days; an absence lasts at most 2 days here"),
        # Ada has 2 of her 3 days declared already (the 5th and 6th): 2 more is over, by 1
        (RULES, at(10), at(12), "over_the_cap", "it lasts 2 days, and you have 1 day of absence left of 3"),
        # From noon on the 10th to the 12th: 1.5 days, over her 1 left
        (RULES, at(10, 12), at(12), "over_the_cap", "it lasts 1.5 days, and you have 1 day of absence left of 3"),
        (
            RULES,
            at(6),
            at(8),
            "overlaps",
            "it overlaps your absence from Saturday 5 December, 00:00 UTC until Monday 7 December, 00:00 UTC",
        ),
    ],
)
def test_an_absence_is_refused_saying_why(
    rules: AbsenceRules, start: datetime, end: datetime, code: str, text: str
) -> None:
    with pytest.raises(Illegal) as refused:
        declared((ADA_5_TO_6,), rules, "ada", start, end, NOW, None)
    [reason] = refused.value.reasons
    assert reason.code == code and reason.text.startswith(text)


def test_within_the_caps_it_is_added_and_the_same_one_again_changes_nothing() -> None:
    # 1 day left of 3: the 10th alone fits; Bo's own absences are his, not hers.
    bo = Absence(participant="bo", start=at(2), end=at(4), declared_at=NOW)
    added = declared((ADA_5_TO_6, bo), RULES, "ada", at(10), at(11), NOW, None)
    assert added is not None and added[-1] == Absence(participant="ada", start=at(10), end=at(11), declared_at=NOW)
    assert declared(added, RULES, "ada", at(10), at(11), NOW + timedelta(hours=1), None) is None


def test_an_absence_under_way_counts_from_its_declaration() -> None:
    # Declared at noon on the 1st for the 1st and 2nd: 1.5 days counted (noon to midnight of the 2nd), within 2.
    added = declared((), RULES, "ada", at(1), at(3), NOW, None)
    assert added is not None and added[0].counted() == timedelta(days=1, hours=12)


def test_a_day_counts_as_a_day_across_the_change_from_summer_time() -> None:
    # Paris leaves summer time on 25 October 2026: the 24th to the 26th there is 73 hours, and 3 days.
    start, end = moment("2026-10-24", "Europe/Paris", ending=False), moment("2026-10-26", "Europe/Paris", ending=True)
    assert end - start == timedelta(hours=73)
    early = datetime(2026, 10, 1, tzinfo=UTC)
    [absence] = declared((), AbsenceRules(days=3, longest_days=3), "ada", start, end, early, "Europe/Paris") or ()
    assert absence.counted() == timedelta(days=3)


def test_withdrawing_ends_one_under_way_now_and_drops_one_to_come() -> None:
    under_way = Absence(participant="ada", start=at(1), end=at(3), declared_at=at(1))
    over = Absence(participant="ada", start=at(1), end=at(1, 6), declared_at=at(1))
    kept = withdrawn((over, under_way, ADA_5_TO_6), "ada", NOW)
    assert kept == (over, under_way.model_copy(update={"end": NOW}))
    assert withdrawn(kept, "ada", NOW) is None  # nothing left to withdraw


def test_the_host_names_the_absence_when_there_are_several() -> None:
    later = Absence(participant="ada", start=at(20), end=at(21), declared_at=NOW)
    with pytest.raises(Illegal) as several:
        host_target((ADA_5_TO_6, later), "ada", "Ada", NOW, None)
    assert texts(several.value.reasons) == ["Ada has 2 absences to come: say which by its first day (--from)"]
    assert host_target((ADA_5_TO_6, later), "ada", "Ada", NOW, at(20)) == later
    with pytest.raises(Illegal) as none:
        host_target((ADA_5_TO_6, later), "ada", "Ada", NOW, at(8))
    assert texts(none.value.reasons) == [
        "Ada has no absence under way or to come beginning Tuesday 8 December, 00:00 UTC"
    ]


MARGIN = timedelta(hours=24)


@pytest.mark.parametrize(
    ("deadline", "owing", "expected", "away"),
    [
        # Inside Ada's absence (5th-6th): to its end, midnight of the 7th, plus the 24-hour margin.
        (at(5, 12), ("ada",), at(8), ("ada",)),
        # Just after it ends, within the margin: the returning player still gets the margin.
        (at(7, 6), ("ada",), at(8), ("ada",)),
        # At its very start: held; at the margin's end, or before the absence: not.
        (at(5), ("ada",), at(8), ("ada",)),
        (at(8), ("ada",), at(8), ()),
        (at(4, 23), ("ada",), at(4, 23), ()),
        # A phase that waits for nothing from Ada is not held for her.
        (at(5, 12), ("bo",), at(5, 12), ()),
        # Moved to the 8th, it falls in Bo's absence (7th noon to 9th): moved again, to the 10th.
        (at(6), ("ada", "bo"), at(10), ("ada", "bo")),
    ],
)
def test_a_deadline_in_an_absence_of_one_it_waits_for_moves_to_its_end_plus_the_margin(
    deadline: datetime, owing: tuple[str, ...], expected: datetime, away: tuple[str, ...]
) -> None:
    bo = Absence(participant="bo", start=at(7, 12), end=at(9), declared_at=NOW)
    assert held(deadline, owing, (ADA_5_TO_6, bo), MARGIN) == (expected, away)


@pytest.mark.parametrize(
    ("settings", "longest"),
    [
        ({}, 4),  # the defaults: 7 days in all, 4 at once
        ({"days": 2}, 2),  # 2 in all: one absence may take both (the default 4 would never fit)
        ({"days": 10}, 4),
        ({"days": 0}, 4),  # no absences: the length is moot
        ({"days": 5, "longest_days": 5}, 5),
    ],
)
def test_the_longest_absence_defaults_to_what_fits_in_all(settings: dict[str, int], longest: int) -> None:
    assert AbsenceRules.model_validate(settings).longest_days == longest


def test_a_longest_absence_longer_than_all_of_them_is_refused_naming_both() -> None:
    with pytest.raises(ValueError, match=r"longest_days \(5\) is more than days \(3\).*at most 3"):
        AbsenceRules.model_validate({"days": 3, "longest_days": 5})
