"""The load benchmark's report: each figure printed beside the issue's goal (benchmarks/load.py)."""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

from benchmarks.load_settle import Settled

if TYPE_CHECKING:
    from benchmarks.load import Notices, Options, Outcome

P99_GOAL_MS = 300.0
LATE_GOAL_SECONDS = 5.0
RSS_GOAL_MB = 1536.0
RESTART_GOAL_SECONDS = 15.0
AFTER_KILL = {
    "the harness's relay": "the relay took it as the server died, before its queue noted so",
    "the outbox": "told again after the restart: the occasion was not yet marked told at the kill",
}
"""Why a message is counted once before the SIGKILL and once after (docs/LOAD.md's table)."""


def verdict(ok: bool) -> str:
    return "pass" if ok else "FAIL"


def percentile(values: list[float], share: float) -> float:
    return (
        statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]
        if len(values) > 1
        else values[0]
    )


def report(outcome: Outcome, options: Options, data_mb: float) -> None:
    print(f"{'route':40} {'requests':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}  errors by status")
    for route, times in sorted(outcome.tally.timings.items()):
        p50, p95, p99 = (percentile(times, share) * 1000 for share in (0.50, 0.95, 0.99))
        errors = {status: n for status, n in outcome.tally.statuses[route].items() if not 200 <= status < 400}
        gated = route.startswith(("POST submission", "GET page"))
        goal = f"  (goal p99 < {P99_GOAL_MS:.0f} ms: {verdict(p99 < P99_GOAL_MS)})" if gated else ""
        print(f"{route:40} {len(times):8} {p50:8.0f} {p95:8.0f} {p99:8.0f}  {errors or '-'}{goal}")
    late = outcome.lateness
    if late:
        print(
            f"phases resolved at their deadline: {len(late)}, late by p50 {percentile(late, 0.5):.2f} s, "
            f"p99 {percentile(late, 0.99):.2f} s, worst {max(late):.2f} s "
            f"(goal: within {LATE_GOAL_SECONDS:.0f} s: {verdict(max(late) <= LATE_GOAL_SECONDS)})"
        )
    else:
        print("phases resolved at their deadline: none (run longer than --phase-seconds)")
    usage = outcome.usage
    print(
        f"server: {usage.cpu_seconds:.1f} s CPU in {options.seconds:g} s of load, peak RSS {usage.peak_rss_mb:.0f} MB "
        f"(goal < {RSS_GOAL_MB:.0f} MB: {verdict(usage.peak_rss_mb < RSS_GOAL_MB)}); data folder {data_mb:.2f} MB"
    )
    report_settled(outcome.settled)
    moves = len(outcome.tally.acknowledged)
    print(
        f"acknowledged moves: {moves}, lost {len(outcome.lost)}, doubled {len(outcome.doubled)} "
        f"(goal 0 and 0: {verdict(not outcome.lost and not outcome.doubled)})"
    )
    report_notices(outcome.notices)
    if outcome.tally.mail_skipped:
        print(f"STATUS mails not sent, {outcome.tally.mail_skipped}: the harness's 2 SMTP sessions were still open")
    for how, seconds in outcome.restarts.items():
        print(
            f"restart after {how} with the matches running: serving again in {seconds:.1f} s "
            f"(goal < {RESTART_GOAL_SECONDS:.0f} s: {verdict(seconds < RESTART_GOAL_SECONDS)})"
        )


def report_settled(settled: Settled) -> None:
    waits = sorted(settled.seconds.values())
    slowest = f", the slowest after {waits[-1]:.0f} s" if waits else ""
    print(
        f"phases the host resolved now after the kill and restart: {len(waits)} resolved{slowest}; "
        f"left unresolved {len(settled.unresolved)} (goal 0: {verdict(not settled.unresolved)}); "
        f"resolve-now sent again (machine not woken) {settled.resent}"
    )
    for kind, matches in (("slow (open 2 min after, its machine running)", settled.slow), ("stuck", settled.stuck)):
        for match_id, why in sorted(matches.items()):
            after = f", resolved after {settled.seconds[match_id]:.0f} s" if match_id in settled.seconds else ""
            print(f"  {kind}: {match_id} {why}{after}")


def report_notices(notices: Notices) -> None:
    unanswered = sorted(message_id for message_id, count in notices.answers.items() if count == 0)
    answered_twice = sorted(message_id for message_id, count in notices.answers.items() if count > 1)
    repeats = f": {', '.join(notices.repeated[:5])}" if notices.repeated else ""
    print(
        f"webhooks out: {notices.webhooks} deliveries, resolution notices lost {len(notices.lost)}, "
        f"webhook ids delivered more than once {len(notices.repeated)} (the README allows a repeat under "
        f"the same id only when the server dies mid-POST), {len(notices.repeated_before_kill)} of them before "
        f"the SIGKILL{repeats}"
    )
    print(
        f"mail out (counted at {notices.mail_at}): {notices.mails} messages; STATUS mails taken: "
        f"{len(notices.answers)}, unanswered {len(unanswered)}, answered twice {len(answered_twice)}; twice (one "
        f"Message-ID, one recipient) {len(notices.mail_twice)}, and {len(notices.mail_across_kill)} more once before "
        f"the SIGKILL and again after ({AFTER_KILL[notices.mail_at]})"
    )
    kept = notices.outbox_twice
    if kept is not None:
        print(
            f"outbox (every send, the repeats the mail queue dropped included): {len(kept.after_kill)} kept again "
            f"after the SIGKILL, {len(kept.running)} kept twice otherwise"
        )
    running = kept.running if kept is not None else []
    for line in notices.mail_twice[:5] + running[:5]:
        print(f"  twice: {line}")
    ok = not (notices.lost or unanswered or answered_twice or notices.mail_twice or running)
    print(f"notices: (goal: every one delivered, none doubled beyond the README's crash case: {verdict(ok)})")
