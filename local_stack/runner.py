"""Drive one match on the local stack with a bot in every seat, as players would: each bot reads
only its own SNS inbox and submits through the webhook handler. Used by bin/play and the tests.

On a stack with a virtual clock the bots act only while the machine waits (every execution parked
in a wait), and the match's time moves only once every bot has read its inbox and acted: the
clock then runs on to the next moment the machine wakes by itself (a deadline, a recheck). So a
bot is never late, and a match plays the same however slow the machine is. `pace` is how many
real seconds each of those seconds takes (1: as on a wall clock, to watch deadlines pass; 0: at
once).
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

    pending: list[tuple[Seat, dict[str, Any]]] = []
    """Moves the bots have chosen and not yet sent."""

    def read() -> int:
        """Hand out what was delivered; each bot chooses its moves. How many messages there were."""
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
            pending.extend((bot, body) for body in (bot.submissions(notices[-1]) if notices else []))
        return received

    def send(one_by_one: bool) -> None:
        """Send the moves chosen; `one_by_one`: stop once one of them has woken the machine (the
        rest wait until it waits again)."""
        while pending:
            bot, body = pending.pop(0)
            status, reply = stack.submit(match_id, bot.player, bot.secret, body)
            run.replies.append((bot.player, status, reply))
            observe("submitted", {"player": bot.player, "body": body, "status": status, "reply": reply})
            if one_by_one and not stack.idle():
                return

    clock = stack.clock
    deadline = time.monotonic() + timeout
    pause = 0.005  # between looks while the machine works: longer the longer it takes (looking costs it)
    while run.status == "RUNNING":
        if time.monotonic() > deadline:
            raise TimeoutError(f"match {match_id} still running after {timeout} s")
        if clock is None:
            read()
            send(one_by_one=False)
            time.sleep(0.1)
        elif not stack.idle():
            # The machine is working: the bots wait until it waits (then all it published is in
            # the inboxes, and its task token is stored, so a move that completes a phase wakes it).
            time.sleep(pause)
            pause = min(pause * 1.5, 0.1)
        elif read() or pending:
            send(one_by_one=True)
            pause = 0.005
        elif (wake := clock.next_wake()) is not None:
            # Parked, everything read, every bot has acted: only time can move things now.
            step = wake - clock.time()
            if pace > 0:
                step = min(step, TICK_SECONDS)
                time.sleep(step * pace)
            clock.advance_to(clock.time() + step)
            pause = 0.005
        else:
            time.sleep(pause)  # parked with nothing to wake it: it is ending
        run.status = str(stack.execution(match_id, request["game"])["status"])
    read()
    send(one_by_one=False)  # none: the match is over (a bot acts only on an open phase)
    return run
