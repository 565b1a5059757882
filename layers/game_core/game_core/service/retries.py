"""Read, decide, write conditionally; on a conflict read again: the loop every use case that
writes a match runs, written once.

A write is conditional on what was read (the match's version, a sheet's revision), so a
concurrent change makes it fail as a conflict and nothing is stored: reading again and deciding
afresh is always safe. A refusal (Late, Illegal, NotOpen, ...) is final and goes straight to the
caller; so does `InProgress`, a delivery handled elsewhere right now, which only its sender's
resend can collect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from game_core.errors import Conflict, InProgress

ATTEMPTS = 5
"""Reads at most for one use case: another is needed only when the match moved under the last
one (another participant's move, a host act, a resolution), so five are plenty."""

Seen = TypeVar("Seen")
Done = TypeVar("Done")


def kept_changing(match_id: str, what: str) -> Conflict:
    """The error when every attempt met a concurrent change: nothing was stored."""
    return Conflict(f"{what}: match {match_id} kept changing; try again")


def until_stored(
    read: Callable[[], Seen],
    attempt: Callable[[Seen], Done],
    *,
    match_id: str,
    what: str,
    seen: Seen | None = None,
    retried: type[Exception] = Conflict,
) -> Done:
    """`attempt(read())` until it does not raise `retried` (a conflict), at most `ATTEMPTS`
    times; `seen` is a first read the caller made already. `what` says what was not done when
    they run out (`kept_changing`)."""
    for _attempt in range(ATTEMPTS):
        current = read() if seen is None else seen
        seen = None
        try:
            return attempt(current)
        except InProgress:
            raise
        except retried:
            continue
    raise kept_changing(match_id, what)
