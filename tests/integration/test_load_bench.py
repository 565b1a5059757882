"""`bin/bench load` at its smallest, to keep the harness working: two matches (the first two games
at their typical sizes, the first with webhooks to a local receiver), a few seconds of load with
4-second phases so deadlines fall within it, the server's mail sent through the harness's relay,
then the server stopped by SIGTERM and started again,
and killed by SIGKILL in the middle of more load and started again. Every acknowledged move must
be in the exported records exactly once, every phase the host resolves at the end must resolve,
every resolved phase's notice must have reached every subscribed webhook, every STATUS mail taken
must be answered once at the harness's mail relay and no mail reach it twice but across the kill,
and every route and channel the harness drives must have been used.

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
    outcome = run(Options(matches=2, seconds=16, rate=10, phase_seconds=4, relay=True), tmp_path)

    assert outcome.tally.acknowledged  # moves were accepted, so the check below checked something
    assert (outcome.lost, outcome.doubled) == ([], [])
    assert outcome.settled.unresolved == []  # every open phase resolved after the SIGKILL's restart
    assert outcome.settled.stuck == {}  # ...each by a machine that ran it
    assert ROUTES <= set(outcome.tally.timings), ROUTES - set(outcome.tally.timings)
    assert set(outcome.restarts) == {"SIGTERM", "SIGKILL"}
    assert outcome.lateness  # deadlines fell during the load, and their resolutions were measured
    # every resolution's notice reached each of the first match's subscriptions (@public and each
    # player); a repeat under one id is allowed (the README: a kill mid-POST), a loss is not
    assert outcome.notices.webhooks > 0 and outcome.notices.lost == []
    # every STATUS mail taken answered once at the harness's relay, and no message reached it
    # twice but one the relay took as the server was killed (docs/LOAD.md: the one case SMTP
    # cannot close); the outbox keeps a notice told again after the kill twice, nothing else
    notices = outcome.notices
    assert notices.answers and set(notices.answers.values()) == {1}
    assert notices.mails > 0 and notices.mail_twice == []
    assert notices.outbox_twice is not None and notices.outbox_twice.running == []
