"""Play a whole season with bots on the local stack: the host creates it (`match-host season
create`'s command), the season's machine starts each match, and every bot plays the matches it
is seated in from what SNS delivered to its own inbox, through the webhook handler, with the secret
the season gave it once (every match of the season takes it).

The stack runs on a virtual clock: the bots act only while every execution is parked, and time
moves only when nothing else can (an EC who stays silent lets the clock run to the host's turn,
then to the lot, unless `host` decides first). Each season match's bots are made when its first
notice arrives, so a Death Match's bots never see the Main Match's notices.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from local_stack.aws.api_events import api_gateway_event
from local_stack.aws.stack import Inbox, LocalStack
from local_stack.bots.runner import Seat

HostPolicy = Callable[[dict[str, Any]], dict[str, Any] | None]
"""Given the season's status while it waits on people, the host's `decide` command's fields
({"player": ..., "match_id": ...}), or None to let the deadline pass."""


def quiet(_kind: str, _data: dict[str, Any]) -> None:
    """The default observer: says nothing."""


@dataclass
class SeasonRun:
    season_id: str
    secrets: dict[str, str]
    status: str = "RUNNING"
    matches: dict[str, str] = field(default_factory=dict)
    """Each match of the season the bots played in, in the order it began -> its game."""
    announcements: list[dict[str, Any]] = field(default_factory=list)
    told: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """The season's own notices each player received (service/season/news.py), in order."""
    decided: list[dict[str, Any]] = field(default_factory=list)
    """Each decision the host sent, with the reply."""
    submitted: int = 0


@dataclass
class SeasonTable:
    """The bots of every match so far, and the moves chosen and not yet sent."""

    stack: LocalStack
    run: SeasonRun
    inbox: Inbox
    observe: Callable[[str, dict[str, Any]], None]
    ecs_name: bool = False
    """The EC whose turn it is names at once, by webhook (the first they may name)."""
    ecs_spend: bool = False
    """An EC who may spend a ToL spends one at once, by webhook."""
    bots: dict[tuple[str, str], Seat] = field(default_factory=dict)
    pending: list[tuple[str, Seat, dict[str, Any]]] = field(default_factory=list)

    def seat(self, match_id: str, player: str) -> Seat:
        if (match_id, player) not in self.bots:
            match = self.stack.ports().store.get(match_id)
            if match_id not in self.run.matches:
                self.run.matches[match_id] = match.game
                self.observe(
                    "match", {"match_id": match_id, "game": match.game, "players": [p.id for p in match.players]}
                )
            self.bots[match_id, player] = Seat(match.game, player, self.run.secrets[player], match.seed)
        return self.bots[match_id, player]

    def read(self) -> int:
        """Hand out what was delivered; each bot chooses its moves. How many messages there were."""
        received = 0
        for announcement in self.inbox.receive(None):
            received += 1
            self.run.announcements.append(announcement)
            self.observe("announcement", announcement)
        for player in self.run.secrets:
            latest: dict[str, dict[str, Any]] = {}
            for notice in self.inbox.receive(player):
                received += 1
                if notice.get("type") == "season.notice":
                    self.run.told.setdefault(player, []).append(notice)
                    continue
                latest[notice["match_id"]] = notice
            for match_id, notice in latest.items():
                bot = self.seat(match_id, player)
                self.pending += [(match_id, bot, body) for body in bot.submissions(notice)]
        return received

    def send(self) -> None:
        """Send the moves chosen, stopping once one of them has woken a machine."""
        while self.pending:
            match_id, bot, body = self.pending.pop(0)
            status, reply = self.stack.submit(match_id, bot.player, bot.secret, body)
            self.run.submitted += 1
            self.observe("submitted", {"match_id": match_id, "player": bot.player, "status": status, "reply": reply})
            if not self.stack.idle():
                return


def play_season(
    stack: LocalStack,
    settings: dict[str, Any],
    host: HostPolicy | None = None,
    observe: Callable[[str, dict[str, Any]], None] = quiet,
    timeout: float = 900,
    season_id: str | None = None,
    ecs_name: bool = False,
) -> SeasonRun:
    """Create the season (named `season_id`, or a new id) and let the bots (and `host`) play it to
    its end (`ecs_name`: each EC names at once, by webhook)."""
    return play_on(stack, begin_season(stack, settings, observe, season_id, ecs_name), host, timeout)


def begin_season(
    stack: LocalStack,
    settings: dict[str, Any],
    observe: Callable[[str, dict[str, Any]], None] = quiet,
    season_id: str | None = None,
    ecs_name: bool = False,
) -> SeasonTable:
    """The season created by the host's command, and its bots' table (`play_on` plays it)."""
    cast = [member["id"] for member in settings["cast"]]
    inbox = stack.subscribe(cast)
    create = {"command": "season", "action": "create", "season": settings}
    created = stack.host(create | ({"season_id": season_id} if season_id else {}))
    if not created["ok"]:
        raise ValueError(f"the season was refused: {created.get('reasons') or created}")
    run = SeasonRun(created["season_id"], created["secrets"])
    observe("created", {"season_id": run.season_id})
    return SeasonTable(stack, run, inbox, observe, ecs_name)


def play_on(
    stack: LocalStack,
    table: SeasonTable,
    host: HostPolicy | None = None,
    timeout: float = 900,
    until: Callable[[], bool] | None = None,
) -> SeasonRun:
    """Play until the season's execution ends (succeeded, or failed: a stalled season, which the
    host's `recover` starts again, and `play_on` plays on), or until `until()` is true with every
    machine parked (a test acts then, and plays on). With `table.ecs_name` (`ecs_spend`), the EC
    whose turn it is names (spends a ToL) at once, by webhook; else the ECs stay silent."""
    run = table.run
    run.status = "RUNNING"
    deadline = time.monotonic() + timeout
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError(f"season {run.season_id} still running after {timeout} s")
        stack.settle()
        run.status = str(stack.execution(run.season_id, "season")["status"])
        if run.status != "RUNNING":
            table.read()  # what its last steps told (the champion, say)
            return run
        if until is not None and until():
            return run
        if table.read() or table.pending:
            table.send()
        elif not _ec_acted(stack, table) and not _host_acted(stack, run, host, table.observe):
            stack.advance_to_next_wake()


def _ec_acted(stack: LocalStack, table: SeasonTable) -> bool:
    """The EC whose turn it is acts at once through the webhook's season route: spends a ToL
    when they may (`table.ecs_spend`), names the first player they may (`table.ecs_name`)."""
    run = table.run
    if not (table.ecs_name or table.ecs_spend):
        return False
    status = stack.host({"command": "season", "action": "status", "season_id": run.season_id})
    for wait in status.get("waiting", []):
        if wait["kind"] == "spend" and table.ecs_spend:
            act, said = {"act": "spend"}, "ec_spent"
        elif wait["kind"] == "naming" and wait["among"] and table.ecs_name:
            act, said = {"act": "name", "opponent": wait["among"][0]}, "ec_named"
        else:
            continue
        ec = wait["who"][0]
        event = api_gateway_event(
            "POST /seasons/{season_id}/players/{player_id}/acts",
            f"/seasons/{run.season_id}/players/{ec}/acts",
            {"season_id": run.season_id, "player_id": ec},
            headers={"authorization": f"Bearer {run.secrets[ec]}", "content-type": "application/json"},
            body=json.dumps(act),
            request_id=f"{run.season_id}-{ec}-{act['act']}s",
        )
        reply = stack.invoke("SubmitWebhookFunction", event)
        table.observe(
            said, {"ec": ec, "opponent": act.get("opponent"), "among": wait["among"], "status": reply["statusCode"]}
        )
        if reply["statusCode"] != 200:
            raise RuntimeError(f"{ec}'s {act['act']} was refused: {reply['body']}")
        return True
    return False


def _host_acted(
    stack: LocalStack, run: SeasonRun, host: HostPolicy | None, observe: Callable[[str, dict[str, Any]], None]
) -> bool:
    """The host decides, if their policy says so for what the season waits on now."""
    if host is None:
        return False
    status = stack.host({"command": "season", "action": "status", "season_id": run.season_id})
    fields = host(status)
    if fields is None:
        return False
    reply = stack.host({"command": "season", "action": "decide", "season_id": run.season_id} | fields)
    run.decided.append(fields | {"reply": reply})
    observe("decided", fields | {"reply": reply})
    return True
