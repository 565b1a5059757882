"""`season recover` reopens an EC's turn whose deadline passed while the season was stopped
(service/season/host.py: a running machine acts at the deadline, so a turn still open past it
passed in an outage): for an hour from the recover, so an act mailed meanwhile is taken before a
lot. Worked by hand from SEASONS.md's defaults: the EC's 24 hours from when the turn opened, the
host's 24 more, then the lot; the recover's hour (RECOVER_GRACE_SECONDS)."""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from season_support import domino_ended, six_player_steps
from test_season_mail import season_after
from test_season_match_secrets import MemoryLinks

sys.path.append(str(Path(__file__).resolve().parent.parent / "service"))  # the ports' fakes

from fakes import Fakes  # noqa: E402

from game_core.service.season.host import RECOVER_GRACE_SECONDS, reopen_overdue_turn  # noqa: E402

HOUR = 3600


@pytest.mark.parametrize(
    ("steps", "hours_after", "reopened_hours"),
    [
        # fay's naming opened when Domino ended; the lot was due at 48 hours; recovered at 52
        (domino_ended(), 52, 53),
        # the lot due this very instant: the machine would draw it now; reopened to 49
        (domino_ended(), 48, 49),
        # at 30 hours the EC's time has passed to the host's, which stores nothing: not reopened
        (domino_ended(), 30, None),
        # the Death Match running (fay named di): no turn to reopen
        (six_player_steps()[:4], 52, None),
    ],
    ids=["past the lot's deadline", "at the lot's deadline", "in the host's turn", "no turn open"],
)
def test_a_turn_past_its_deadline_at_recover_is_reopened_for_an_hour(
    steps: list,
    hours_after: int,
    reopened_hours: int | None,  # type: ignore[type-arg]
) -> None:
    fakes = Fakes()
    seasons = season_after(steps)
    ports = replace(fakes.ports, seasons=seasons, season_links=MemoryLinks())
    opened = seasons.season("s-1").state.opened_at
    assert opened is not None
    fakes.clock.set(opened + timedelta(hours=hours_after))
    before = [event.type for event in seasons.season_events("s-1")]

    reopened = reopen_overdue_turn(ports, "s-1")

    assert RECOVER_GRACE_SECONDS == HOUR
    if reopened_hours is None:
        assert reopened is None and [event.type for event in seasons.season_events("s-1")] == before
        return
    assert reopened == opened + timedelta(hours=reopened_hours)
    # the deadlines put off from the lot's (48 hours) to the hour after the recover
    [*_, extended] = seasons.season_events("s-1")
    put_off = (reopened_hours - 48) * HOUR
    assert (extended.type, extended.data) == ("extended", {"seconds": put_off, "recovered": True})
    assert seasons.season("s-1").state.opened_at == opened + timedelta(seconds=put_off)
    assert reopen_overdue_turn(ports, "s-1") is None  # recovered again at once: it is open, nothing more
