"""Drive one match on the local stack with a bot in every seat, as players would: each bot reads
only its own SNS inbox and submits through the webhook handler. Used by bin/play and the tests.

On a stack with a virtual clock the match's time moves only while everyone waits: once every
execution is parked in a wait and every bot has read its inbox and acted, the clock runs on to the
next moment the machine wakes by itself (a deadline, a recheck), so a bot is never late however
slow the machine is. `pace` is how many real seconds each of those seconds takes (1: as on a wall
clock, to watch deadlines pass; 0: at once).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game_core.games.protocol import OpenPhase
from local_stack.bots import bot_for
from local_stack.stack import LocalStack


@dataclass
class Seat:
    """One bot: acts once per phase number it can act in, from its latest private notice."""

    game_id: str
    player: str
    secret: str
    seed: int
    acted: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.choose = bot_for(self.game_id)
        self.rng = random.Random(f"bot:{self.seed}:{self.player}")

    def submissions(self, notice: dict[str, Any]) -> list[dict[str, Any]]:
        opened = notice.get("open")
        if not opened or opened["number"] in self.acted or self.player not in opened["actors"]:
            return []
        self.acted.add(opened["number"])
        phase = OpenPhase(opened["phase"], tuple(opened["accepts"]), tuple(opened["actors"]))
        chosen = self.choose(notice["view"], phase, self.player, self.rng)
        return [
            {"phase": phase.name, "number": opened["number"], "kind": kind, "submission": body}
            for kind, body in chosen.items()
        ]


@dataclass
class MatchRun:
    match_id: str
    status: str
    announcements: list[dict[str, Any]]
    private: dict[str, list[dict[str, Any]]]
    replies: list[tuple[str, int, dict[str, Any]]]
    result: dict[str, Any] | None


def quiet(_kind: str, _data: dict[str, Any]) -> None:
    """The default observer: says nothing."""


TICK_SECONDS = 0.25
"""When paced, the clock runs in steps this long (virtual seconds), checking between them."""


def run_match(
    stack: LocalStack,
    request: dict[str, Any],
    observe: Callable[[str, dict[str, Any]], None] = quiet,
    timeout: float = 300,
    pace: float = 0.0,
) -> MatchRun:
    """Create the match, let the bots play it to the end, return everything that was delivered.

    `observe(kind, data)` sees progress as it happens: "created", "announcement", "submitted".
    `timeout` bounds the real time; `pace` (virtual clock only): real seconds per match second.
    """
    seats = [player["id"] for player in request["players"]]
    inbox = stack.subscribe(seats)
    created = stack.host({"command": "create", "match": request})
    if not created["ok"]:
        raise ValueError(f"the match was refused: {created['reasons']}")
    match_id = created["match_id"]
    observe("created", created)
    bots = {p: Seat(request["game"], p, created["secrets"][p], request.get("seed") or 0) for p in seats}
    run = MatchRun(match_id, "RUNNING", [], {p: [] for p in seats}, [], None)

    def deliver() -> int:
        """Hand out what was delivered and let the bots act; how many messages there were."""
        received = 0
        for announcement in inbox.receive(None):
            received += 1
            run.announcements.append(announcement)
            run.result = announcement.get("result", run.result)
            observe("announcement", announcement)
        for player, bot in bots.items():
            notices = inbox.receive(player)
            received += len(notices)
            run.private[player] += notices
            for body in bot.submissions(notices[-1]) if notices else []:
                status, reply = stack.submit(match_id, player, bot.secret, body)
                run.replies.append((player, status, reply))
                observe("submitted", {"player": player, "body": body, "status": status, "reply": reply})
        return received

    def quiet_now() -> bool:
        """Every execution parked in a wait and nothing left to read: only time can move things.
        (Idle first: what a step publishes is in the inboxes before its execution parks.)"""
        return stack.idle() and not deliver()

    clock = stack.clock
    deadline = time.monotonic() + timeout
    pause = 0.005  # between looks while the machine works: longer the longer it takes (looking costs it)
    while run.status == "RUNNING":
        if time.monotonic() > deadline:
            raise TimeoutError(f"match {match_id} still running after {timeout} s")
        if clock is None:
            deliver()
            time.sleep(0.1)
        elif deliver():
            pause = 0.005
        elif not quiet_now():
            time.sleep(pause)
            pause = min(pause * 1.5, 0.1)
        elif (wake := clock.next_wake()) is not None:
            step = wake - clock.time()
            if pace > 0:
                step = min(step, TICK_SECONDS)
                time.sleep(step * pace)
                if not quiet_now():
                    continue
            clock.advance_to(clock.time() + step)
            pause = 0.005
        else:
            time.sleep(pause)  # parked with nothing to wake it: it is ending
        run.status = str(stack.execution(match_id, request["game"])["status"])
    deliver()
    return run
