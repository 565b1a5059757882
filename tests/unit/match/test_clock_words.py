"""Times as a person reads them in every reply: no ISO timestamps, no raw seconds."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from game_core.match.clock import day_text, duration_text, known_zone, moment_text

NOW = datetime(2026, 12, 2, 7, 0, tzinfo=UTC)  # a Wednesday


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "less than a minute"),
        (59, "less than a minute"),
        (60, "1 minute"),
        (5400, "90 minutes"),  # under two hours: minutes read better than "1 hour 30 minutes"
        (7200, "2 hours"),
        (43_200, "12 hours"),
        (86_400 + 6 * 3600, "1 day 6 hours"),
        (2 * 86_400 + 60, "2 days 1 minute"),
    ],
)
def test_a_duration_in_whole_units(seconds, text):
    assert duration_text(seconds) == text


@pytest.mark.parametrize(
    ("moment", "text"),
    [
        (datetime(2026, 12, 2, 10, 0, tzinfo=UTC), "Wednesday 2 December, 10:00 UTC, in 3 hours"),
        (datetime(2026, 12, 3, 7, 30, tzinfo=UTC), "Thursday 3 December, 07:30 UTC, in 1 day 30 minutes"),
        (datetime(2026, 12, 2, 6, 0, tzinfo=UTC), "Wednesday 2 December, 06:00 UTC, 1 hour ago"),
        (datetime(2026, 12, 2, 7, 0, 20, tzinfo=UTC), "Wednesday 2 December, 07:00 UTC, in less than a minute"),
        (NOW, "Wednesday 2 December, 07:00 UTC, less than a minute ago"),  # a deadline reached this instant has passed
    ],
)
def test_a_moment_names_the_day_the_time_in_utc_and_how_far_it_is(moment, text):
    assert moment_text(moment, NOW) == text


DEADLINE = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)  # Thursday noon UTC, 29 hours after NOW


@pytest.mark.parametrize(
    ("zone", "text"),
    [
        # Paris is UTC+1 in December (no summer time): 13:00 the same day
        ("Europe/Paris", "Thursday 3 December, 13:00 (Europe/Paris) - 12:00 UTC, in 1 day 5 hours"),
        # Auckland is UTC+13 in December (its summer): already 01:00 on Friday, so UTC's day is named too
        (
            "Pacific/Auckland",
            "Friday 4 December, 01:00 (Pacific/Auckland) - Thursday 3 December, 12:00 UTC, in 1 day 5 hours",
        ),
        # New York is UTC-5 in December: 07:00 the same day
        ("America/New_York", "Thursday 3 December, 07:00 (America/New_York) - 12:00 UTC, in 1 day 5 hours"),
        # Kolkata is UTC+5:30: the half hour shows
        ("Asia/Kolkata", "Thursday 3 December, 17:30 (Asia/Kolkata) - 12:00 UTC, in 1 day 5 hours"),
        ("UTC", "Thursday 3 December, 12:00 UTC, in 1 day 5 hours"),  # UTC once, not beside itself
        (None, "Thursday 3 December, 12:00 UTC, in 1 day 5 hours"),
    ],
)
def test_a_moment_in_the_readers_time_zone_has_utc_beside_it(zone, text):
    assert moment_text(DEADLINE, NOW, zone) == text


def test_summer_time_is_the_zones_own():
    # Paris is UTC+2 from the last Sunday of March (29 March 2026) to the last of October
    july = datetime(2026, 7, 14, 10, 0, tzinfo=UTC)
    assert day_text(july, "Europe/Paris") == "Tuesday 14 July, 12:00 (Europe/Paris) - 10:00 UTC"


@pytest.mark.parametrize(
    ("written", "zone"),
    [("Europe/Paris", "Europe/Paris"), ("europe/paris", "Europe/Paris"), ("America/New York", "America/New_York")],
)
def test_a_zone_is_read_in_any_case_with_spaces_for_underscores(written, zone):
    assert known_zone(written) == zone


@pytest.mark.parametrize(
    ("written", "suggested"),
    [
        ("Paris", "did you mean Europe/Paris?"),  # the city alone
        ("Europe/Pariss", "did you mean Europe/Paris"),  # a typo
        ("new york", "did you mean America/New_York?"),
        ("Mars/Olympus", '(e.g. "Europe/Paris")'),  # nothing close: an example instead
    ],
)
def test_an_unknown_zone_is_refused_naming_it_and_the_closest_names(written, suggested):
    with pytest.raises(ValueError, match=r"is not a time zone") as refused:
        known_zone(written)
    assert f"{written!r} is not a time zone" in str(refused.value)
    assert suggested in str(refused.value)
