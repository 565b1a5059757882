"""What issue 29's queues, logs and key add to a match's bill, worked by hand for a small bill."""

from __future__ import annotations

from collections import Counter

import pytest

from benchmarks.added_costs import access_log_line, added_lines, fixed_lines
from benchmarks.costs import Bill


def test_the_access_log_line_is_the_templates_format_filled_in() -> None:
    # template.yaml's Format (a folded YAML scalar: each line break is a space), written out by
    # hand with a submission's values: 362 bytes, every character ASCII.
    expected = (
        '{"requestId":"Jv5IxgL0oAMEb5A=","time":"07/Dec/2026:16:49:52 +0000","sourceIp":"203.0.113.45",'
        ' "method":"POST","routeKey":"POST /matches/{match_id}/players/{player_id}/submissions",'
        '"path":"/matches/m-3f9a1c2b7d4e/players/p1/submissions",'
        ' "status":"200","responseLength":"412",'
        ' "responseLatency":"87","integrationStatus":"200",'
        ' "integrationError":"-","error":"-"}'
    )
    assert access_log_line() == expected
    assert len(expected) == 362


def test_a_small_webhook_match_is_priced_item_by_item() -> None:
    """By hand, for 10 submissions, 4 private notices and 3 public ones, 2 ERROR-level events,
    5 SQS requests by the functions:
    - access log: 10 x (362 + 26) = 3,880 bytes, x ($0.50 ingested + $0.03 a month stored) a GB
      (2^30 bytes) = $0.0000019152;
    - Step Functions log: 2 x (1024 + 26) = 2,100 bytes x $0.53 a GB = $0.0000010366;
    - KMS: 4 publishes to the encrypted private topic (not the public one's 3) x $0.000003 = $0.000012;
    - SQS: 5 x $0.0000004 = $0.000002."""
    bill = Bill(
        invocations=Counter({"SubmitWebhookFunction": 10, "PhaseStepFunction": 9}),
        topic_publishes=Counter({"private-notices": 4, "public-notices": 3}),
        failed_events=2,
        calls=Counter({("sqs", "SendMessageBatch"): 5, ("dynamodb", "Query"): 40}),
    )
    lines = {what: cost for what, _counted, cost in added_lines(bill)}
    assert lines == pytest.approx(
        {
            "API access log": 3880 / 2**30 * 0.53,
            "Step Functions log": 2100 / 2**30 * 0.53,
            "KMS requests": 0.000012,
            "SQS (functions)": 0.000002,
        }
    )
    assert 3880 / 2**30 * 0.53 == pytest.approx(0.0000019152, rel=1e-4)


def test_a_small_mail_match_adds_its_queue_and_the_mails_kms_requests() -> None:
    """By hand, 3 mails received (one notice to the encrypted mail topic and one PUT each, by
    SES) and read (3 GETs), 2 batches, no publish by the functions: KMS 3 + 3 + 3 = 9 requests x
    $0.000003 = $0.000027; the inbound queue 3 sends + 2 receives + 2 deletes = 7 x $0.0000004 =
    $0.0000028."""
    bill = Bill(received=[2000, 3000, 4000], sent=[1000], stored_reads=3, mail_batches=2)
    lines = {what: cost for what, _counted, cost in added_lines(bill)}
    assert lines["KMS requests"] == pytest.approx(0.000027)
    assert lines["SQS (mail in)"] == pytest.approx(0.0000028)
    assert set(lines) == {"API access log", "Step Functions log", "KMS requests", "SQS (functions)", "SQS (mail in)"}


def test_the_stack_pays_for_its_key_and_each_polled_queue_a_month() -> None:
    """$1 for the key; each queue an event source polls (webhooks out, mail in; not the dead
    letters): 5 pollers x 3 long polls a minute x 60 x 24 x 30 = 648,000 requests x $0.40 a
    million = $0.2592. In all $1.5184 a month."""
    fixed = fixed_lines()
    assert [what for what, _counted, _cost in fixed] == ["KMS key", "SQS idle polls", "SQS idle polls"]
    assert sum(cost for *_, cost in fixed) == pytest.approx(1.5184)
