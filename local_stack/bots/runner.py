"""Drive one match on the local stack with a bot in every seat, as players would: each bot reads
only its own SNS inbox and submits through the webhook handler, or (`channel="email"`) mails its
moves in the game's plain-text grammar to the match address, as SES would deliver them, and every
participant's mail is kept (a bot's immediate actions, such as Clubs' puzzle requests, still go by
the webhook there: the bot reads their answers as data; tests/unit/service/test_service_mail_actions.py
covers them by mail). Used by bin/play and the tests.

On a stack with a virtual clock the bots act only while the machine waits (every execution parked
in a wait), and the match's time moves only once every bot has read its inbox and acted: the
clock then runs on to the next moment the machine wakes by itself (a deadline, a recheck). So a
bot is never late, and a match plays the same however slow the machine is. A bot that thinks
before an immediate action (a Clubs puzzle's answer) spends match time: the clock runs on by its
think while everything waits, never up to the machine's next wake. `pace` is how many
real seconds each of those seconds takes (1: as on a wall clock, to watch deadlines pass; 0: at
once).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any

from game_core.games import registry
from game_core.games.protocol import OpenPhase
from game_core.mail.addresses import match_address
from game_core.mail.outbound import compose
from game_core.service.ports import OutgoingMail
from local_stack.aws.api_events import api_gateway_event
from local_stack.aws.mail import LOCAL_DOMAIN
from local_stack.aws.stack import Inbox, LocalStack
from local_stack.bots import Acting, acting_bot_for, bot_for

THINK_MARGIN = 1.0
"""A bot's think ends at least this many seconds before the machine's next wake (a deadline)."""
ACTION_ROUTE = "POST /matches/{match_id}/players/{player_id}/actions"


def send_action(stack: LocalStack, match_id: str, player: str, secret: str, kind: str, action: Any) -> dict[str, Any]:
    """POST an immediate action through the webhook function, as API Gateway's HTTP API calls it."""
    event = api_gateway_event(
        ACTION_ROUTE,
        f"/matches/{match_id}/players/{player}/actions",
        {"match_id": match_id, "player_id": player},
        headers={"authorization": f"Bearer {secret}", "content-type": "application/json"},
        body=json.dumps({"kind": kind, "action": action}),
        request_id=f"{player}-{kind}-{time.monotonic_ns()}",
    )
    reply: dict[str, Any] = json.loads(stack.invoke("SubmitWebhookFunction", event)["body"])
    return reply


STANDING_ROUTE = "GET /matches/{match_id}/players/{player_id}"


def fetch_standing(stack: LocalStack, match_id: str, player: str, secret: str) -> dict[str, Any]:
    """GET the participant's standing (their view, open phase and garnets) through the webhook
    function, as API Gateway's HTTP API calls it."""
    event = api_gateway_event(
        STANDING_ROUTE,
        f"/matches/{match_id}/players/{player}",
        {"match_id": match_id, "player_id": player},
        headers={"authorization": f"Bearer {secret}"},
        body=None,
        request_id=f"{player}-standing-{time.monotonic_ns()}",
    )
    reply: dict[str, Any] = json.loads(stack.invoke("SubmitWebhookFunction", event)["body"])
    return reply


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

    def submissions(self, notice: dict[str, Any], acting: Acting | None = None) -> list[dict[str, Any]]:
        """The bot's moves for the phase its notice opened; first, in a game with immediate actions
        (a bot module with `act`), the actions it takes through `acting`, answered at once."""
        opened = notice.get("open")
        if not opened or opened["number"] in self.acted or self.player not in opened["actors"]:
            return []
        self.acted.add(opened["number"])
        owes = {participant: tuple(kinds) for participant, kinds in opened["owes"].items()}
        phase = OpenPhase(opened["phase"], tuple(opened["accepts"]), tuple(opened["actors"]), owes=owes)
        acts = acting_bot_for(self.game_id)
        if acts is not None and acting is not None:
            acts(notice["view"], phase, self.player, self.rng, acting)
        chosen = self.choose(notice["view"], phase, self.player, self.rng)
        kinds = sorted(chosen, key=lambda kind: kind in phase.owed.get(self.player, ()))  # as `engine.sent_last`
        return [
            {"phase": phase.name, "number": opened["number"], "kind": kind, "submission": chosen[kind]}
            for kind in kinds
        ]


@dataclass
class MatchRun:
    match_id: str
    status: str
    announcements: list[dict[str, Any]]
    private: dict[str, list[dict[str, Any]]]
    replies: list[tuple[str, int, dict[str, Any]]]
    result: dict[str, Any] | None
    mailboxes: dict[str, list[OutgoingMail]] = field(default_factory=dict)
    """By e-mail: every message the service sent to each participant's address, in order."""
    mailed: dict[str, list[bytes]] = field(default_factory=dict)
    """By e-mail: every message each bot sent."""


PLAYERS_DOMAIN = "players.local"
"""Where the bots' addresses are, when they play by e-mail."""


def address_of(player: str) -> str:
    return f"{player}@{PLAYERS_DOMAIN}"


def with_addresses(player: dict[str, Any]) -> dict[str, Any]:
    """A seat of the settings file with an address for the player and each of their guests."""
    guests = [{"email": address_of(guest["id"])} | guest for guest in player.get("guests", [])]
    return {"email": address_of(player["id"])} | player | ({"guests": guests} if guests else {})


def moves_mail(game_id: str, match_id: str, player: str, bodies: list[dict[str, Any]], sent_at: datetime) -> bytes:
    """One mail carrying a bot's moves for one phase, in the game's plain-text grammar."""
    game = registry.load(game_id)
    lines: list[str] = []
    for body in bodies:
        model = game.submissions[body["kind"]].model_validate(body["submission"])
        lines += game.text.write_text(body["kind"], model)
    return compose(
        sender=address_of(player),
        sender_name=player,
        to=[match_address(match_id, LOCAL_DOMAIN)],
        subject=f"[{match_id}] {bodies[0]['phase']}",
        body="\n".join(lines) + "\n",
        domain=PLAYERS_DOMAIN,
        sent_at=sent_at,
        automatic=False,  # a bot plays as a person would: its mail must be read
    )


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
    channel: str = "webhook",
) -> MatchRun:
    """Create the match, let the bots play it to the end, return everything that was delivered.

    `observe(kind, data)` sees progress as it happens: "created", "announcement", "submitted".
    `timeout` bounds the real time; `pace` (virtual clock only): real seconds per match second.
    """
    seats = [entry["id"] for player in request["players"] for entry in (player, *player.get("guests", []))]
    if channel == "email":
        request = request | {"players": [with_addresses(player) for player in request["players"]]}
    inbox = stack.subscribe(seats)
    created = stack.host({"command": "create", "match": request})
    if not created["ok"]:
        raise ValueError(f"the match was refused: {created['reasons']}")
    match_id = created["match_id"]
    observe("created", created)
    bots = {p: Seat(request["game"], p, created["secrets"][p], request.get("seed") or 0) for p in seats}
    run = MatchRun(match_id, "RUNNING", [], {p: [] for p in seats}, [], None, mailed={p: [] for p in seats})
    table = _Table(stack, request, match_id, bots, run, inbox, observe, channel)
    table.play_to_the_end(timeout, pace)
    if channel == "email":
        run.mailboxes = {player: stack.outbox.to(address_of(player)) for player in seats}
    return run


@dataclass
class _Table:
    """One match's bots at the table: what each is told, and the moves they chose and not yet sent."""

    stack: LocalStack
    request: dict[str, Any]
    match_id: str
    bots: dict[str, Seat]
    run: MatchRun
    inbox: Inbox
    observe: Callable[[str, dict[str, Any]], None]
    channel: str
    pending: list[tuple[Seat, dict[str, Any]]] = field(default_factory=list)
    """Moves the bots have chosen and not yet sent."""

    def play_to_the_end(self, timeout: float, pace: float) -> None:
        stack, run, clock = self.stack, self.run, self.stack.clock
        deadline = time.monotonic() + timeout
        while run.status == "RUNNING":
            if time.monotonic() > deadline:
                raise TimeoutError(f"match {self.match_id} still running after {timeout} s")
            if clock is None:
                self.read()
                self.send(one_by_one=False)
                time.sleep(0.1)
            elif not stack.idle():
                # The machine is working: the bots wait until it waits (then all it published is in
                # the inboxes, and its task token is stored, so a move that completes a phase wakes it).
                stack.settle(max(0.0, deadline - time.monotonic()))
                # Its status is read on the next look, idle then (an execution that ended no longer
                # runs): once per busy spell, not twice (two API calls each).
                continue
            elif self.read() or self.pending:
                self.send(one_by_one=True)
            elif (wake := clock.next_wake()) is not None:
                # Parked, everything read, every bot has acted: only time can move things now.
                step = wake - clock.time()
                if pace > 0:
                    step = min(step, TICK_SECONDS)
                    time.sleep(step * pace)
                clock.advance_to(clock.time() + step)
            else:
                time.sleep(0.005)  # parked with nothing to wake it: it is ending
            run.status = str(stack.execution(self.match_id, self.request["game"])["status"])
        self.read()
        self.send(one_by_one=False)  # none: the match is over (a bot acts only on an open phase)

    def read(self) -> int:
        """Hand out what was delivered; each bot chooses its moves. How many messages there were."""
        received = 0
        for announcement in self.inbox.receive(None):
            received += 1
            self.run.announcements.append(announcement)
            self.run.result = announcement.get("result", self.run.result)
            self.observe("announcement", announcement)
        for player, bot in self.bots.items():
            notices = self.inbox.receive(player)
            received += len(notices)
            self.run.private[player] += notices
            acting = Acting(partial(self.act, bot), self.think, partial(self.standing, bot))
            self.pending.extend((bot, body) for body in (bot.submissions(notices[-1], acting) if notices else []))
        return received

    def act(self, bot: Seat, kind: str, action: dict[str, Any]) -> dict[str, Any]:
        reply = send_action(self.stack, self.match_id, bot.player, bot.secret, kind, action)
        self.observe("acted", {"player": bot.player, "kind": kind, "reply": reply})
        return dict(reply.get("answer", {}))

    def standing(self, bot: Seat) -> dict[str, Any]:
        return fetch_standing(self.stack, self.match_id, bot.player, bot.secret)

    def think(self, seconds: float) -> None:
        """A bot thinks on the match clock: with everything parked (bots act only then), the
        virtual clock runs on by `seconds`, stopping short of the machine's next wake so that no
        deadline passes while a bot thinks. On the wall clock, match time passes by itself."""
        clock = self.stack.clock
        if clock is None:
            return
        wake = clock.next_wake()
        until = clock.time() + seconds
        if wake is not None:
            until = min(until, wake - THINK_MARGIN)
        if until > clock.time():
            clock.advance_to(until)

    def send(self, one_by_one: bool) -> None:
        """Send the moves chosen; `one_by_one`: stop once one of them has woken the machine (the
        rest wait until it waits again)."""
        while self.pending:
            bot, body = self.pending.pop(0)
            if self.channel == "email":
                # The bot's other moves for this phase go in the same mail
                bodies = [body]
                while self.pending and self.pending[0][0] is bot and self.pending[0][1]["number"] == body["number"]:
                    bodies.append(self.pending.pop(0)[1])
                sent_at = self.stack.now() if self.stack.clock is not None else datetime.now(UTC)
                raw = moves_mail(self.request["game"], self.match_id, bot.player, bodies, sent_at)
                self.run.mailed[bot.player].append(raw)
                reply = self.stack.receive_mail(raw)
                status = 200
            else:
                status, reply = self.stack.submit(self.match_id, bot.player, bot.secret, body)
            self.run.replies.append((bot.player, status, reply))
            self.observe(
                "submitted",
                {"player": bot.player, "body": body, "status": status, "reply": reply, "channel": self.channel},
            )
            if one_by_one and not self.stack.idle():
                return
