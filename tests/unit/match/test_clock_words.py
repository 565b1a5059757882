"""Times as a person reads them in every reply: no ISO timestamps, no raw seconds."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from game_core.match.clock import duration_text, moment_text

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
        (datetime(2026, 12, 2, 10, 0, tzinfo=UTC), "Wed 2 Dec 10:00 UTC (in 3 hours)"),
        (datetime(2026, 12, 3, 7, 30, tzinfo=UTC), "Thu 3 Dec 07:30 UTC (in 1 day 30 minutes)"),
        (datetime(2026, 12, 2, 6, 0, tzinfo=UTC), "Wed 2 Dec 06:00 UTC (1 hour ago)"),
        (datetime(2026, 12, 2, 7, 0, 20, tzinfo=UTC), "Wed 2 Dec 07:00 UTC (in less than a minute)"),
        (NOW, "Wed 2 Dec 07:00 UTC (less than a minute ago)"),  # a deadline reached this instant has passed
    ],
)
def test_a_moment_names_the_day_the_time_in_utc_and_how_far_it_is(moment, text):
    assert moment_text(moment, NOW) == text
