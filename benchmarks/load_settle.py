"""The load benchmark's last step: the host resolves every running match's open phase now
(`resolve_now`), so each move acknowledged in it is in a phase record, and the harness waits for
each of those phases, telling a slow one from a stuck one.

A phase is waited for until it has resolved (the match's open phase is a later one, or the match
is over). Two minutes after the last resolve-now, each phase still open is looked at through the
host's port: the match `stalled` (its machine gave up after its retries: stuck, `recover` is the
host's to run), or its machine is asked for by `recover`, which the server refuses while the
match's execution runs (slow: waited for up to ten minutes more) and otherwise starts one (stuck:
no machine was running the match; the recovered one resolves it). A resolve-now whose reply says
the machine could not be woken (`wake_pending`) is sent again, as the reply asks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from benchmarks.load_server import HostServerProcess

FIRST_WAIT_SECONDS = 120.0
LONGEST_WAIT_SECONDS = 600.0
"""How long a slow phase (its machine running) is waited for after the first two minutes."""
RUNNING = "is running; there is nothing to recover"
"""What `recover` answers while the match's execution runs (service/host/powers.py's `recover`)."""


@dataclass
class Settled:
    """How each resolve-now ended."""

    seconds: dict[str, float] = field(default_factory=dict)
    """Each match whose phase resolved -> seconds from its resolve-now to seeing it resolved."""
    slow: dict[str, str] = field(default_factory=dict)
    """Each match still open after the first two minutes, its machine running -> what it was doing."""
    stuck: dict[str, str] = field(default_factory=dict)
    """Each match whose phase no running machine would resolve -> why."""
    resent: int = 0
    """Resolve-nows sent again: the reply said the machine could not be woken."""
    unresolved: list[str] = field(default_factory=list)
    """The matches whose phase had not resolved when the harness stopped waiting."""


@dataclass
class Asked:
    number: int
    at: float
    wake_pending: bool


def settle(server: HostServerProcess, match_ids: list[str]) -> Settled:
    settled = Settled()
    asked: dict[str, Asked] = {}
    for match_id in match_ids:
        status = server.host("status", match_id=match_id)
        if status["status"] == "running" and status.get("open"):
            number = status["open"]["number"]
            reply = server.ask("resolve_now", match_id=match_id)
            if reply.get("ok") or "already resolved" not in str(reply.get("message")):  # else: resolved meanwhile
                asked[match_id] = Asked(number, time.monotonic(), bool(reply.get("wake_pending")))
    first_look = time.monotonic() + FIRST_WAIT_SECONDS
    deadline = first_look + LONGEST_WAIT_SECONDS
    while asked and time.monotonic() < deadline:
        for match_id, ask in list(asked.items()):
            status = server.host("status", match_id=match_id)
            if resolved(status, ask.number):
                settled.seconds[match_id] = time.monotonic() - ask.at
                del asked[match_id]
            elif ask.wake_pending:
                reply = server.ask("resolve_now", match_id=match_id)
                ask.wake_pending = bool(reply.get("wake_pending"))
                settled.resent += 1
            elif time.monotonic() > first_look and match_id not in settled.slow | settled.stuck:
                look(server, match_id, status, settled)
        time.sleep(1.0)  # each round is a status a match: the server the harness waits for answers them
    settled.unresolved = sorted(asked)
    return settled


def resolved(status: dict[str, Any], number: int) -> bool:
    """Whether phase `number` has resolved: the match is over, or its open phase is a later one."""
    opened = status.get("open")
    return status["status"] != "running" or not opened or opened["number"] > number


def look(server: HostServerProcess, match_id: str, status: dict[str, Any], settled: Settled) -> None:
    """Why a phase is still open two minutes after its resolve-now: slow or stuck (`Settled`)."""
    opened = status["open"]
    where = f"phase {opened['number']} ({opened['phase']}){', paused' if opened.get('paused') else ''}"
    if "stalled" in status:
        reason = status["stalled"]
        settled.stuck[match_id] = f"{where}: stalled ({reason.get('error')}: {reason.get('cause')})"
        return
    reply = server.ask("recover", match_id=match_id)
    if RUNNING in str(reply.get("message")):
        settled.slow[match_id] = f"{where}: its machine runs"
    elif reply.get("ok"):
        settled.stuck[match_id] = f"{where}: no machine was running the match (recover started one)"
    else:
        settled.stuck[match_id] = f"{where}: recover refused: {reply.get('message')}"
