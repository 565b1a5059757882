"""What a webhook receiver's answer means for the next attempt (`verdict`), and when that attempt
is (`next_wait`): exponential backoff within `WINDOW_SECONDS` of the notice's queueing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

FIRST_RETRY_SECONDS = 30
LONGEST_WAIT_SECONDS = 12 * 3600
"""The longest wait between two attempts."""
WINDOW_SECONDS = 24 * 3600
"""How long after it was queued a delivery is tried; then it goes to the dead-letter queue."""
TIMEOUT_SECONDS = 10
"""A receiver that has not answered by then is retried like a 5xx."""


@dataclass(frozen=True)
class Verdict:
    """A receiver's answer to one attempt: delivered, refused for good, or to try again
    (`retry_after`: the seconds it asked for with a 429, else None)."""

    outcome: Literal["delivered", "refused", "retry"]
    retry_after: int | None = None


def verdict(status: int | None, retry_after: str | None = None, now: datetime | None = None) -> Verdict:
    """2xx is delivered. No answer (a timeout, a refused connection: `status` None), 408, 429 and
    5xx are tried again (429 after its Retry-After, seconds or an HTTP date). Any other status
    (4xx, and 3xx: a redirect is not followed, it could point anywhere) is refused for good."""
    if status is not None and 200 <= status < 300:
        return Verdict("delivered")
    if status is None or status == 408 or status >= 500:
        return Verdict("retry")
    if status == 429:
        return Verdict("retry", _retry_after(retry_after, now))
    return Verdict("refused")


def _retry_after(header: str | None, now: datetime | None) -> int | None:
    if not header:
        return None
    if header.strip().isdigit():
        return int(header.strip())
    from email.utils import parsedate_to_datetime  # here: the stdlib's e-mail modules cost a cold start

    try:
        moment = parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    return max(0, int((moment - now).total_seconds())) if now is not None and moment.tzinfo is not None else None


def next_wait(attempts: int, queued_at: float, now: float, retry_after: int | None = None) -> int | None:
    """Seconds until the next attempt after `attempts` failed ones: 30 s, doubling each time, at
    most 12 hours, or what a 429's Retry-After asked (at least 1 s); the last one lands on the
    window's end (`WINDOW_SECONDS` after `queued_at`). None once the window is spent: the
    delivery goes to the dead-letter queue."""
    left = queued_at + WINDOW_SECONDS - now
    if left <= 0:
        return None
    wanted = retry_after if retry_after is not None else FIRST_RETRY_SECONDS * 2 ** (attempts - 1)
    return int(min(max(wanted, 1), LONGEST_WAIT_SECONDS, max(left, 1)))
