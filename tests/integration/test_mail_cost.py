"""What a 9-player Palindrome Construction (mm8) match played entirely by mail costs, counted from
one real run on the local stack (benchmarks/costs.py: the bots mail their moves, SES's receipt
rule stores and notifies each, the mail function reads and answers it), and priced at list price
against issue 19's goal of $0.03.

The counts, worked out from the rules (RULINGS, Palindrome: mm8 has a 24-hour pregame, then
rounds 1-7, each round's construction in the phase after its bidding):
- phases: Pregame, Round 1 bidding, Rounds 2-7 bidding (each with the round before's
  construction), Round 7 construction: 9. Pregame takes nothing; each of the other 8 takes a bid
  or a construction from every player (the bots send a construction, empty if they won nothing,
  wherever one is accepted), and each bot mails its phase's moves in one message:
  8 x 9 = 72 messages in, 72 stored (SES's PUTs) and 72 read (the mail function's GETs);
- one answer per message: 72; notices: "the match begins" and one per resolved phase, to each
  player: (1 + 9) x 9 = 90; reminders (12 hours and 1 hour before each deadline, to whoever owes
  a move): none, every bot mails as its phase opens: 72 + 90 + 0 = 162 messages out;
- every bot's message is under 256 KB: one chunk each, 72 chunks.
Priced: receiving 72 x $0.0001 + 72 x $0.00009 = $0.01368; sending 162 x $0.0001 = $0.0162 (and
$0.12 a GB, on a few hundred KB); so SES alone is $0.02988 of the $0.03, and the rest of the
match (Step Functions, Lambda, DynamoDB: about $0.003 by webhook) does not fit under it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cost_match import played

from benchmarks.added_costs import added_lines
from benchmarks.costs import MAIL_GOAL_DOLLARS, Bill

pytestmark = pytest.mark.statemachine


@pytest.fixture(scope="module")
def by_mail() -> Iterator[Bill]:
    yield from played("email")


def test_the_mail_of_a_9_player_mm8_match_is_counted_from_the_run(by_mail: Bill) -> None:
    assert len(by_mail.received) == 72
    assert all(size < 256 * 1024 for size in by_mail.received)
    assert len(by_mail.sent) == 72 + 90
    assert by_mail.stored_reads == 72
    assert by_mail.invocations["EmailInFunction"] == 72
    assert by_mail.invocations["SubmitWebhookFunction"] == 0


def test_ses_is_priced_at_list_price(by_mail: Bill) -> None:
    lines = {what: cost for what, _counted, cost in by_mail.lines()}
    assert lines["SES receiving"] == pytest.approx(0.01368)
    # 162 x $0.0001, and under 1 MB at $0.12 a GB: at most $0.00012 more
    assert 0.0162 <= lines["SES sending"] < 0.0162 + 0.00012
    assert lines["S3 (mail stored)"] == pytest.approx(72 * 0.000005 + 72 * 0.0000004)  # PUTs, GETs: $0.0003888
    # The inbound queue (issue 29): 72 mails sent into it by the topic, and each bot's mail comes
    # alone, so the event source receives and deletes 72 batches of one: 216 requests x $0.0000004
    assert lines["SQS (mail in)"] == pytest.approx(216 * 0.0000004)


def test_the_mail_the_issue_counts_is_over_the_goal_by_itself(by_mail: Bill) -> None:
    """Why the goal is out of reach, whatever the match's own compute costs: the mail the issue
    counts (one answer per move, the notices each player needs) at SES's list price, with the
    bucket SES stores each message in (issue 19 item 5) and its notification, by hand:
    in 72 x ($0.0001 + $0.00009) = $0.01368; out 162 x $0.0001 = $0.0162 (+ under $0.00012 by
    the GB); bucket 72 x $0.000005 + 72 x $0.0000004 = $0.0003888; SNS 72 x $0.0000005 = $0.000036:
    $0.0303048 at least, over $0.03 with nothing else counted. Every notice is needed: the match's
    start, Pregame's end (it deals Round 1's packs, seed 000: "You will not receive the Round 1
    item and digit packs during this phase"), and each round's reveal to its end."""
    assert 0.0303048 <= by_mail.mail_total() < 0.0303048 + 0.00012
    assert by_mail.mail_total() > MAIL_GOAL_DOLLARS


@pytest.mark.xfail(
    strict=True,
    reason="SES alone is $0.02988 (72 messages in, 162 out: one answer per move and 10 notices a "
    "player); with the match's other AWS costs (about $0.003) the figure is about $0.033",
)
def test_the_match_by_mail_costs_at_most_the_goal(by_mail: Bill) -> None:
    assert by_mail.total() <= MAIL_GOAL_DOLLARS


def test_the_mail_match_adds_its_queue_and_kms_requests(by_mail: Bill) -> None:
    """Issue 29's key by mail, by hand: 90 private notices (the start and 9 resolved phases, to 9
    players) and, for each of the 72 mails, SES's notice to the encrypted mail topic, SES's PUT
    and the mail function's GET: 90 + 3 x 72 = 306 requests x $0.000003 = $0.000918."""
    lines = {what: cost for what, _counted, cost in added_lines(by_mail)}
    assert lines["KMS requests"] == pytest.approx(0.000918)
    assert lines["SQS (mail in)"] == pytest.approx(216 * 0.0000004)
