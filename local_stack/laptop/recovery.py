"""What the host server does with the matches it finds running when it starts: their executions
were the old process's, so each is `recover`ed (a new execution goes on from the stored match),
and with the grace policy a phase whose deadline passed while the server was down is reopened
first (extended, and everyone told why: local_stack/laptop/restart_grace.py).

A recovery costs a Lambda invocation and a StartExecution (moto parses the state machine's
definition for each), some 0.6 s a match on a busy 2-core machine: 50 matches took half a minute
before the server answered anyone (issue 32's restart goal: serving within 15 s). `Recovery.hold`
therefore takes every unfinished match's lock (local_stack/laptop/match_locks.py) before the server
opens its ports, and `start` recovers them on a thread of its own once they are open (not
competing with the opening): a request for a match not yet recovered waits for it, as it would
have waited for the whole start, and every other request is answered at once.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from game_core.match.clock import PhaseClock, day_text
from local_stack.laptop.match_locks import MatchLocks
from local_stack.laptop.restart_grace import overdue_while_down, reopening_text

logger = logging.getLogger("host-server")
Act = Callable[[dict[str, Any]], dict[str, Any]]
"""The stack's host command (LocalStack.host)."""


class Recovery:
    """The start's recoveries: `plan` reads which matches to recover (and which phase to reopen),
    `hold` takes their locks, `run` does them in turn (releasing each match's lock), `start` on a thread."""

    def __init__(self, act: Act, locks: MatchLocks, grace_seconds: int | None) -> None:
        self.act = act
        self.locks = locks
        self.grace_seconds = grace_seconds
        """None: a deadline passed while down resolves at once (--on-restart resolve)."""
        self.recovered: list[str] = []
        self.reopened: list[str] = []
        """Each reopened match, with its phase and until when."""
        self.done = threading.Event()

    def plan(self, matches: list[tuple[Any, bool]], down_since: datetime | None, now: datetime) -> list[Any]:
        """Of `matches` ((match, accepting) for every match in the table), each one to recover
        with the phase to reopen (None: none): [(match_id, phase or None)], in the table's order."""
        planned = []
        for match, accepting in matches:
            if match.status == "running" or match.announced < match.phases_resolved:
                reopen = (
                    self.grace_seconds is not None
                    and match.status == "running"
                    and match.phase is not None
                    and overdue_while_down(match.phase, accepting, down_since, now)
                )
                planned.append((match.match_id, match.phase if reopen else None))
        return planned

    def run(self, planned: list[Any], down_since: datetime | None, now: datetime) -> None:
        """Reopen and recover each planned match (its lock held by the caller), releasing its lock
        once done; then `done` is set."""
        try:
            for match_id, phase in planned:
                try:
                    if phase is not None:
                        self._reopen(match_id, phase, down_since, now)
                    reply = self.act({"command": "recover", "match_id": match_id})
                    if reply.get("ok"):
                        self.recovered.append(match_id)
                    else:
                        logger.warning("match %s not recovered: %s", match_id, reply.get("message"))
                finally:
                    self.locks.lock(match_id).release()
        finally:
            self.done.set()

    def hold(self, planned: list[Any]) -> None:
        """Every planned match's lock taken (a request for it waits until `run` has recovered it)."""
        for match_id, _phase in planned:
            self.locks.lock(match_id).acquire()

    def start(self, planned: list[Any], down_since: datetime | None, now: datetime) -> threading.Thread:
        """`run` on a thread (the planned matches held)."""
        thread = threading.Thread(target=self.run, args=(planned, down_since, now), name="recovery", daemon=True)
        thread.start()
        return thread

    def _reopen(self, match_id: str, phase: PhaseClock, down_since: datetime | None, now: datetime) -> None:
        """Extend the phase until now + the grace (the host's own act: logged, told, the clock's
        version moved), then tell everyone why."""
        assert self.grace_seconds is not None
        seconds = math.ceil((now + timedelta(seconds=self.grace_seconds) - phase.deadline).total_seconds())
        reply = self.act({"command": "extend", "match_id": match_id, "seconds": seconds})
        if not reply.get("ok"):
            logger.warning("match %s: %s not reopened: %s", match_id, phase.name, reply.get("message"))
            return
        text = reopening_text(phase.name, down_since, now, self.grace_seconds)
        told = self.act({"command": "press", "match_id": match_id, "text": text})
        if not told.get("ok"):
            logger.warning("match %s: the reopening of %s not told: %s", match_id, phase.name, told.get("message"))
        until = day_text(now + timedelta(seconds=self.grace_seconds))
        self.reopened.append(f"{match_id} ({phase.name} until {until})")
