"""What every state machine's steps share (the games' ASL, cli/asl.py, and the season's, cli/season_asl.py)."""

from __future__ import annotations

BACKOFF = {
    "ErrorEquals": ["States.TaskFailed"],
    "IntervalSeconds": 2,
    "MaxAttempts": 6,
    "BackoffRate": 2.0,
    "MaxDelaySeconds": 120,
}
"""Every failure of a step is retried with backoff: Lambda's own errors, throttles and AWS errors
raised by the function (States.TaskFailed matches every error a task reports, but not
States.Timeout, which is how a wait ends). About four minutes in all, then the machine stalls."""
