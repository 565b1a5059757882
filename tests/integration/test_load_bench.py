"""`bin/bench load` at its smallest, to keep the harness working: two matches (the first two games
at their typical sizes, the first with webhooks to a local receiver), a few seconds of load with
4-second phases so deadlines fall within it, then the server stopped by SIGTERM and started again,
and killed by SIGKILL in the middle of more load and started again. Every acknowledged move must
be in the exported records exactly once, every resolved phase's notice must have reached every
subscribed webhook, every STATUS mail taken must be answered once, and every route and channel
the harness drives must have been used.

This runs `bin/host-server` as a subprocess on the real clock (the benchmark measures the real
server): what is asserted is counted (moves, routes), never a time.
"""

from __future__ import annotations

import pytest

from benchmarks.load import Options, run

pytestmark = pytest.mark.statemachine

ROUTES = {
    # The routes the harness's mix drives, named by hand from the list: webhook
    # submissions and re-submissions (a retry under its key, the same move anew), page views
    # (signed in once), the public view, and the host's extend, pause, press; STATUS by SMTP.
    "GET standing",
    "POST submission",
    "POST submission (retry, same key)",
    "POST submission (again, new key)",
    "POST page session (sign-in)",
    "GET page",
    "GET /matches/{id} (public)",
    "host extend",
    "host pause",
    "host resume",
    "host press",
    "host status",
    "SMTP STATUS mail",
}


def test_a_tiny_load_run_loses_and_doubles_no_acknowledged_move_across_two_kills(tmp_path) -> None:
    outcome = run(Options(matches=2, seconds=16, rate=10, phase_seconds=4), tmp_path)

    assert outcome.tally.acknowledged  # moves were accepted, so the check below checked something
    assert (outcome.lost, outcome.doubled) == ([], [])
    assert outcome.unresolved == []  # every open phase resolved after the SIGKILL's restart
    assert ROUTES <= set(outcome.tally.timings), ROUTES - set(outcome.tally.timings)
    assert set(outcome.restarts) == {"SIGTERM", "SIGKILL"}
    assert outcome.lateness  # deadlines fell during the load, and their resolutions were measured
    # every resolution's notice reached each of the first match's subscriptions (@public and each
    # player); a repeat under one id is allowed (the README: a kill mid-POST), a loss is not
    assert outcome.notices.webhooks > 0 and outcome.notices.lost == []
    # every STATUS mail taken answered once (a notice's mail sent again after the kill keeps its
    # Message-ID, as the README allows for a crash mid-send: listed by the run, not failed here)
    assert outcome.notices.answers and set(outcome.notices.answers.values()) == {1}
