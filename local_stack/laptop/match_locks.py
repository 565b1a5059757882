"""One match's requests one at a time, different matches' side by side (the host server's HTTP
API and host commands).

Every write to a match meets at its event log's counter (a conditional update: the losers read
again and retry, five times at most), so requests to one match running at once mostly make each
other retry, and 16 players posting to one match at the same instant ran some out of retries
(409 "try again") once handlers ran outside moto's lock (local_stack/aws/moto_lock.py). On the
laptop, taking each match's requests in turn costs nothing a match could have gained, while
requests to different matches run at once. The state machines' resolutions are not held here:
their writes are guarded and retried as on AWS.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class MatchLocks:
    """A lock per match id, made on first use (a lock is a few hundred bytes: one per match ever
    seen by this process is nothing to keep)."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._making = threading.Lock()

    def lock(self, match_id: str) -> threading.Lock:
        """The match's lock (a plain lock: one thread may take it and another release it, as the
        start's recovery does)."""
        with self._making:
            return self._locks.setdefault(match_id, threading.Lock())

    @contextmanager
    def holding(self, match_id: object) -> Iterator[None]:
        """The block run holding `match_id`'s lock; a request naming no match (None, or not a
        string: a malformed command, refused by its function) takes none."""
        if not isinstance(match_id, str):
            yield
            return
        with self.lock(match_id):
            yield
