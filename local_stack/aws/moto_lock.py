"""The one lock around moto: each AWS call into the mock is atomic, and a Lambda handler runs
outside it.

moto's backends are not thread-safe (DynamoDB's TransactWriteItems deep-copies items for its
rollback; a Step Functions thread and a host command would write one table at once), so every
call into moto takes `MOTO_LOCK` (local_stack/aws/lambda_adapter.py). A Lambda invocation is itself
such a call, and its handler makes further calls: held through the handler, the lock served one
request at a time, whatever the cores and however the handlers' own work (parsing, the games'
rules, rendering pages) could overlap (issue 32's load benchmark: p99 of 21 s at 20 requests a
second). On AWS, handlers run at once and guard their races with conditional writes; the
invocation therefore gives the lock up for the handler's run (`released`) and takes it again
for the rest of moto's Invoke. Each AWS call the handler makes takes the lock for itself.

Re-entrant: code holding the lock (a table scan, the webhook queue's bookkeeping) may call moto.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class MotoLock:
    """A re-entrant lock whose holder can give it up wholly for a while and take it back."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._held = threading.local()

    def _depth(self) -> int:
        return getattr(self._held, "depth", 0)

    def __enter__(self) -> MotoLock:
        self._lock.acquire()
        self._held.depth = self._depth() + 1
        return self

    def __exit__(self, *exc: object) -> None:
        self._held.depth -= 1
        self._lock.release()

    def held(self) -> bool:
        """Whether this thread holds the lock."""
        return self._depth() > 0

    @contextmanager
    def released(self) -> Iterator[None]:
        """Give the lock up (as often as this thread took it) for the block, then take it back as
        often: other threads' calls run meanwhile. A no-op for a thread not holding it."""
        depth = self._depth()
        for _ in range(depth):
            self._lock.release()
        self._held.depth = 0
        try:
            yield
        finally:
            for _ in range(depth):
                self._lock.acquire()
            self._held.depth = depth


MOTO_LOCK = MotoLock()
