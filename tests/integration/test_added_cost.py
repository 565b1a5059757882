"""Issue 29's goal: what its queues, logs and key add to the 9-player mm8 match played by webhook
stays under $0.004, counted from one run on the local stack (benchmarks/costs.py's bill).

The counts, from the rules (RULINGS, Palindrome mm8: 9 phases, Pregame taking nothing, each of
the other 8 a bid or construction from every player, whichever the phase accepts): the bots
submit what each phase takes through the HTTP API, each submission one request, and one more of
a phase's kinds where two are accepted at once (Rounds 2-7: 6 x 9); 8 x 9 + 6 x 9 = 126 requests.
The private notices: the match's start and each resolved phase, to each player: (1 + 9) x 9 = 90
publishes to the encrypted topic. By hand, the most KMS and the log can add:
KMS 90 x $0.000003 = $0.00027; the log 126 x (362 + 26) bytes x $0.53 a GB = $0.0000241;
far under $0.004 even with every ERROR-level state machine event (at most 1 KB each) and SQS call.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cost_match import played

from benchmarks.added_costs import GOAL_DOLLARS, added_lines, api_requests
from benchmarks.costs import Bill

pytestmark = pytest.mark.statemachine


@pytest.fixture(scope="module")
def by_webhook() -> Iterator[Bill]:
    yield from played("webhook")


def test_the_added_costs_are_counted_from_the_run(by_webhook: Bill) -> None:
    assert api_requests(by_webhook) == 126
    assert by_webhook.topic_publishes["private-notices"] == 90
    lines = {what: cost for what, _counted, cost in added_lines(by_webhook)}
    assert lines["KMS requests"] == pytest.approx(90 * 0.000003)
    assert lines["API access log"] == pytest.approx(126 * (362 + 26) / 2**30 * 0.53)


def test_the_webhook_match_adds_less_than_the_goal(by_webhook: Bill) -> None:
    added = sum(cost for _what, _counted, cost in added_lines(by_webhook))
    assert 90 * 0.000003 < added < GOAL_DOLLARS == 0.004
