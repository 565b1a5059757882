"""What the queues, logs and key of issue 29 add to a 9-player mm8 match's bill, and to the stack's.

Issue 29 brought: the inbound mail queue (SNS -> SQS -> the mail function, with a dead-letter
queue), the HTTP API's access log (one JSON line a request), and a customer-managed KMS key that
encrypts the private and alerts topics, the received mail's topic and bucket, and every log group.
Webhooks out already went through their SQS queue; the state machines already logged at ERROR
level (template.yaml, since c5a8622), to log groups the key now encrypts. Each quantity below is
counted on the local-stack run of benchmarks/costs.py (its `Bill`), never assumed; only the prices
and the size of one access-log line's values are written here.

Prices: AWS list prices, us-east-1, as of 2026:
- KMS (aws.amazon.com/kms/pricing): $1 a month per customer-managed key (its automatic yearly
  rotation adds $1 a month for each of the first two rotated versions: not counted here, it comes
  a year on); $0.03 per 10,000 requests (GenerateDataKey, Decrypt).
- CloudWatch Logs (aws.amazon.com/cloudwatch/pricing): $0.50 per GB ingested (standard class),
  $0.03 per GB-month stored.
- SQS (aws.amazon.com/sqs/pricing): $0.40 a million requests (benchmarks/costs.py's PRICES).

KMS requests, an upper bound: one per publish to an encrypted topic (SNS asks KMS for a data key
to encrypt a message; SNS reuses a data key for a while, as SQS does by default for 300 s, so a
phase's burst of notices to one topic takes a few requests, not one each: we count one each, the
most it can be), and one per PUT (by SES) and GET (by the mail function) of a received mail (the
bucket has an S3 Bucket Key, which makes most of those free: again counted one each). CloudWatch
Logs' own data keys for the encrypted log groups are few a day whatever the traffic: not counted.
"""

from __future__ import annotations

import json
import re
from typing import Any

from benchmarks.costs import GB, IDLE_POLLS_A_MONTH, PRICES, Bill
from benchmarks.costs import report as print_bills
from local_stack.aws.template import ROOT, parsed_template, template_routes

ADDED_PRICES = {
    "kms_key_month": 1.00,  # KMS, per customer-managed key a month
    "kms_request": 0.03 / 10_000,  # KMS, per request (GenerateDataKey, Decrypt)
    "log_ingested_gb": 0.50,  # CloudWatch Logs, per GB ingested
    "log_stored_gb_month": 0.03,  # CloudWatch Logs, per GB-month stored
}
GOAL_DOLLARS = 0.004
"""Issue 29's goal: what it adds to the 9-player mm8 match played by webhook stays under this."""
EVENT_OVERHEAD = 26
"""CloudWatch Logs counts each event's message bytes plus 26 bytes (PutLogEvents' size rule): an
upper bound of what it bills as ingested."""
STORED_MONTHS = 1
"""A line is kept LogRetentionDays (template.yaml, 30 by default): one month stored, uncompressed
(CloudWatch Logs bills storage compressed: an upper bound)."""
FAILED_EVENT_BYTES = 1024
"""One ERROR-level state machine log line (a failure's event, execution data excluded): at most
1 KB, its error name and cause."""
ENCRYPTED_TOPICS = {"private-notices": "PrivateNotices", "host-alerts": "HostAlertsTopic"}
"""The functions' topics on the local stack (by name) that template.yaml encrypts with the key."""
ACCESS_LOG_VALUES = {
    "requestId": "Jv5IxgL0oAMEb5A=",
    "requestTime": "07/Dec/2026:16:49:52 +0000",
    "identity.sourceIp": "203.0.113.45",
    "httpMethod": "POST",
    "routeKey": "POST /matches/{match_id}/players/{player_id}/submissions",
    "path": "/matches/m-3f9a1c2b7d4e/players/p1/submissions",
    "status": "200",
    "responseLength": "412",
    "responseLatency": "87",
    "integrationStatus": "200",
    "integrationErrorMessage": "-",
    "error.message": "-",
}
"""A submission's values of the access log's variables, as API Gateway writes them (`-` when a
variable has none): a match id as RandomIds makes them, a player id as the bots have."""


def access_log_line() -> str:
    """The HTTP API's access-log line of one submission: template.yaml's Format, filled in."""
    access = _resource("WebhookApi")["AccessLogSettings"]
    line = re.sub(r"\$context\.([\w.]+)", lambda found: ACCESS_LOG_VALUES[found.group(1)], access["Format"])
    json.loads(line)  # one JSON object a line, as the Format means it
    return line


def _resource(name: str) -> dict[str, Any]:
    properties: dict[str, Any] = parsed_template(ROOT)["Resources"][name]["Properties"]
    return properties


def api_requests(bill: Bill) -> int:
    """The HTTP API's requests in the run: the invocations of the functions its routes serve."""
    served = set(template_routes().values())
    return sum(count for function, count in bill.invocations.items() if function in served)


def queue_pollers() -> list[str]:
    """The functions an SQS event source feeds (template.yaml): each polls its queue all month."""
    functions = parsed_template(ROOT)["Resources"]
    return [
        name
        for name, resource in functions.items()
        if resource.get("Type") == "AWS::Serverless::Function"
        and any(event.get("Type") == "SQS" for event in (resource["Properties"].get("Events") or {}).values())
    ]


def _log_cost(events: int, event_bytes: int) -> float:
    """Ingested once, stored STORED_MONTHS: (bytes + 26 a event) / GB x ($0.50 + $0.03 x months)."""
    gb = events * (event_bytes + EVENT_OVERHEAD) / GB
    return gb * (ADDED_PRICES["log_ingested_gb"] + STORED_MONTHS * ADDED_PRICES["log_stored_gb_month"])


def added_lines(bill: Bill) -> list[tuple[str, str, float]]:
    """(what, counted, dollars) that issue 29 added to this match's bill."""
    requests, line = api_requests(bill), len(access_log_line().encode())
    published = sum(bill.topic_publishes[topic] for topic in ENCRYPTED_TOPICS)
    received, reads = len(bill.received), bill.stored_reads
    kms = published + received + received + reads
    sqs = sum(count for (service, _operation), count in bill.calls.items() if service == "sqs")
    lines = [
        (
            "API access log",
            f"{requests} requests x {line} + {EVENT_OVERHEAD} bytes, kept a month",
            _log_cost(requests, line),
        ),
        (
            "Step Functions log",
            f"{bill.failed_events} ERROR-level events x at most 1 KB",
            _log_cost(bill.failed_events, FAILED_EVENT_BYTES),
        ),
        (
            "KMS requests",
            f"{published} encrypted publishes, {received} mail notices, {received} PUTs, {reads} GETs",
            kms * ADDED_PRICES["kms_request"],
        ),
        ("SQS (functions)", f"{sqs} requests by the functions (webhooks out, redrive)", sqs * PRICES["sqs_request"]),
    ]
    return [*lines, bill.mail_queue_line()] if bill.received else lines


def fixed_lines() -> list[tuple[str, str, float]]:
    """(what, counted, dollars a month) the stack costs whatever its matches."""
    idle = IDLE_POLLS_A_MONTH * PRICES["sqs_request"]
    polled = [
        ("SQS idle polls", f"{IDLE_POLLS_A_MONTH:,} requests, the queue of {name}", idle) for name in queue_pollers()
    ]
    return [("KMS key", "1 customer-managed key (DataKey)", ADDED_PRICES["kms_key_month"]), *polled]


def print_added(heading: str, bill: Bill) -> bool:
    """Prints the match's added costs against the goal; whether it holds."""
    lines = added_lines(bill)
    total = sum(cost for _what, _counted, cost in lines)
    holds = total < GOAL_DOLLARS
    print(f"  {heading}: ${total:.6f} added (goal < ${GOAL_DOLLARS}: {'ok' if holds else 'OVER'})")
    for what, counted, cost in lines:
        print(f"    {what:18} {counted:66} ${cost:.6f}")
    return holds


def report() -> None:
    """benchmarks/costs.py's bills, then what issue 29's queues, logs and key add to them."""
    by_webhook, by_mail = print_bills()
    print("added by issue 29's queues, logs and KMS key to the 9-player mm8 match (KMS: one a request, at most)")
    print_added("by webhook", by_webhook)
    print_added("by mail", by_mail)
    fixed = fixed_lines()
    print(f"  the stack's fixed cost a month, whatever its matches: ${sum(cost for *_, cost in fixed):.4f}")
    for what, counted, cost in fixed:
        print(f"    {what:18} {counted:66} ${cost:.4f}")
