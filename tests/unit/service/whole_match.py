"""One whole match of a game on the in-memory fakes, played by the bots by mail, and everything
every participant was given to read on the way: each mail (notices, reminders, answers), each
webhook delivery as each kind of receiver gets it (the standard's JSON, Discord's and Slack's
bodies) and their page after each phase.

The participants' ids (p01, p02, ...) differ from their names (scientists' names): a reader knows
the names, so an id shown bare is one they do not know. Each bot mails its moves (and STATUS) in
the game's grammar and reads the answer; immediate actions go by webhook (the bot reads their
answers as data). In the first phase a player declares an absence the host then refuses, the
host sends a message to everyone and one to a single player, a player one to another, and a
player mails a JSON body the match refuses.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

from fakes import Fakes
from memory_hooks import MemoryHooks

from game_core.games import registry
from game_core.games.protocol import AnyGame, OpenPhase
from game_core.mail.inbound import parse_message
from game_core.mail.ses import Receipt, Verdicts
from game_core.match.engine import game_state, guests_per_player
from game_core.match.model import Match, MatchRequest
from game_core.service.mail.receive import receive
from game_core.service.matches import absence, press
from game_core.service.matches.actions import ActionRequest, act_by_webhook
from game_core.service.matches.lifecycle import create_match
from game_core.service.matches.phases import advance
from game_core.service.matches.views import standing
from game_core.service.page import play as page_play
from game_core.service.page import render
from game_core.service.ports import Ports
from game_core.service.webhooks.queue import Hook
from game_core.service.webhooks.sending import posts
from local_stack.bots import Acting, acting_bot_for, bot_for

NAMES = (
    "Hedy Lamarr",
    "Grace Hopper",
    "Alan Turing",
    "Frances Allen",
    "Edsger Dijkstra",
    "Barbara Liskov",
    "Donald Knuth",
    "Radia Perlman",
    "John Backus",
    "Karen Jones",
    "Niklaus Wirth",
    "Mary Keller",
)
"""The participants' names, in seat order (p01 is Hedy Lamarr)."""
PASSING = Verdicts(spf="PASS", dkim="PASS", dmarc="PASS", spam="PASS", virus="PASS")
HOST_EMAIL = "host@hosts.test"
RECEIVERS = {
    "standard": "https://hooks.example.com/{who}",
    "discord": "https://discord.com/api/webhooks/1/{who}",
    "slack": "https://hooks.slack.com/services/T0/B0/{who}",
}
"""A URL of each kind of receiver: every delivery is read as each would get it."""
PHASE_SECONDS = 3600
REMINDER_SECONDS = 1800


@dataclass(frozen=True)
class Read:
    """One text a participant (None: the public channel) was given, and where."""

    reader: str | None
    channel: str
    """"mail", "webhook", "discord", "slack" or "page"."""
    subject: str
    text: str


@dataclass
class WholeMatch:
    game: AnyGame
    fakes: Fakes
    hooks: MemoryHooks
    match_id: str
    secrets: dict[str, str]
    read: list[Read] = field(default_factory=list)

    @property
    def ports(self) -> Ports:
        return replace(self.fakes.ports, hooks=self.hooks)

    def match(self) -> Match:
        return self.fakes.store.get(self.match_id)

    def names(self) -> dict[str, str]:
        return {participant.id: participant.name for participant in self.match().players}

    def address(self, participant: str) -> str:
        return f"{participant}@players.test"

    def mail(self, sender: str, lines: list[str]) -> None:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = f"{self.match_id}@play.test"
        message["Subject"] = f"[{self.match_id}] moves"
        message["Message-ID"] = f"<{len(self.fakes.mailer.sent)}-{random.random()}@players.test>"
        message.set_content("\n".join(lines) + "\n")
        raw = message.as_bytes()
        receive(
            self.ports, Receipt(f"ses-{len(self.read)}-{sender}", (f"{self.match_id}@play.test",), PASSING, "", raw)
        )

    def act(self, participant: str, kind: str, action: dict[str, Any]) -> dict[str, Any]:
        def request() -> ActionRequest:
            return ActionRequest(self.match_id, participant, kind, action, "webhook")

        try:
            reply = act_by_webhook(self.ports, self.match_id, participant, self.secrets[participant], None, request)
        except Exception:  # a bot's action refused: it reads an empty answer, as on the webhook
            return {}
        return dict(reply.get("answer", {}))


def participants(game: AnyGame) -> list[dict[str, Any]]:
    """The settings file's players (the game's fewest), each with an address, and their guests."""
    guests = guests_per_player(game)
    ids = iter(f"p{number:02d}" for number in range(1, 40))
    names = iter(NAMES)
    seats = []
    for _ in range(game.demo.few):
        player = next(ids)
        seat: dict[str, Any] = {"id": player, "name": next(names), "email": f"{player}@players.test", "garnets": 5}
        if guests:
            seat["guests"] = [
                {"id": guest, "name": next(names), "email": f"{guest}@players.test"}
                for guest in (next(ids) for _ in range(guests))
            ]
        seats.append(seat)
    return seats


def start(game_id: str) -> WholeMatch:
    game = registry.load(game_id)
    seats = participants(game)
    ids = [entry["id"] for seat in seats for entry in (seat, *seat.get("guests", []))]
    kinds = list(RECEIVERS)
    webhooks = {who: RECEIVERS[kinds[n % len(kinds)]].format(who=who) for n, who in enumerate(ids)}
    request = MatchRequest.model_validate(
        {
            "game": game_id,
            "players": seats,
            "host_email": HOST_EMAIL,
            "phase_seconds": PHASE_SECONDS,
            "recheck_seconds": PHASE_SECONDS,
            "reminders": [REMINDER_SECONDS],
            "webhooks": webhooks | {"@public": "https://hooks.example.com/public"},
            "seed": 11,
        }
    )
    fakes, hooks = Fakes(), MemoryHooks()
    created = create_match(replace(fakes.ports, hooks=hooks), request)
    return WholeMatch(game, fakes, hooks, created["match_id"], created["secrets"])


def play(game_id: str) -> WholeMatch:
    """The whole match, and everything read in it (`WholeMatch.read`)."""
    table = start(game_id)
    choose, acts = bot_for(game_id), acting_bot_for(game_id)
    first, refused = True, False
    for _step in range(200):
        match = table.match()
        if match.phase is None or match.status != "running":
            break
        number = match.phase.number
        table.read += pages(table)
        # The reminder half an hour before the deadline, to whoever owes something
        table.fakes.clock.set(match.phase.deadline - (REMINDER_SECONDS - 60) * timedelta(seconds=1))
        advance(table.ports, table.match_id)
        if first:
            host_acts(table)
            first = False
        if not refused and match.phase.accepts:
            refused_json(table, match.player_ids[1])
            refused = True
        moves(table, choose, acts, number)
        match = table.match()
        if match.phase is not None and match.phase.number == number:
            table.fakes.clock.set(match.phase.deadline)
        advance(table.ports, table.match_id)
    else:
        raise AssertionError("the match never ended")
    table.read += pages(table)
    table.read += mails(table) + deliveries(table)
    return table


def host_acts(table: WholeMatch) -> None:
    """The first player declares an absence (by mail), which the host refuses; the host sends a
    message to everyone and one to the second player alone; the first player one to the second."""
    first, second = table.match().player_ids[:2]
    day = table.fakes.clock.now().date()
    table.mail(table.address(first), [f"ABSENT {day.isoformat()}"])
    absence.refuse_or_cut(table.ports, table.match_id, first, "refuse", None, None)
    press.from_host(table.ports, table.match_id, "Welcome, everyone.")
    press.from_host(table.ports, table.match_id, "A word for you alone.", to=second)
    table.mail(table.address(first), [f"PRESS TO {table.names()[second]}", "Shall we push together?"])


def refused_json(table: WholeMatch, sender: str) -> None:
    """A JSON body the match refuses: the open phase's first kind with its first field a list of
    one thing it does not take (pydantic names where by path: `multipliers.0`)."""
    phase = table.match().phase
    assert phase is not None
    kind = phase.accepts[0]
    field = next(iter(table.game.submissions[kind].model_fields))
    body = {"phase": phase.name, "kind": kind, "submission": {field: [{"nonsense": 1}]}}
    table.mail(table.address(sender), [json.dumps(body)])


def moves(table: WholeMatch, choose: Any, acts: Any, number: int) -> None:
    """Each actor of the open phase takes its immediate actions, then mails its moves and STATUS."""
    match = table.match()
    phase = match.phase
    assert phase is not None
    state = game_state(table.game, match)
    opened = OpenPhase(phase.name, phase.accepts, phase.actors, owes=dict(phase.owes))
    for actor in phase.actors:
        rng = random.Random(f"{number}:{actor}")
        if acts is not None and table.game.open_phase(state) is not None:
            acting = Acting(
                send=lambda kind, action, who=actor: table.act(who, kind, action),
                think=lambda seconds: table.fakes.clock.advance(seconds),
                standing=lambda who=actor: standing(table.ports.store.submission_view(table.match_id, who, None), who),
            )
            acts(table.game.view(game_state(table.game, table.match()), actor), opened, actor, rng, acting)
        current = table.match()
        if current.phase is None or current.phase.number != number:
            return
        chosen = choose(table.game.view(game_state(table.game, current), actor), opened, actor, rng)
        lines = []
        for kind in sorted(chosen, key=lambda kind: kind in opened.owed.get(actor, ())):
            lines += table.game.text.write_text(kind, table.game.submissions[kind].model_validate(chosen[kind]))
        table.mail(table.address(actor), [*lines, "STATUS"])


def mails(table: WholeMatch) -> list[Read]:
    """Every mail sent, as its reader reads it."""
    by_address = {table.address(p.id): p.id for p in table.match().players}
    read = []
    for mail in table.fakes.mailer.sent:
        letter = parse_message(mail.raw)
        read.append(Read(by_address.get(mail.to), "mail", letter.subject, letter.text))
    return read


def deliveries(table: WholeMatch) -> list[Read]:
    """Every webhook delivery's text as each kind of receiver gets it."""
    read = []
    for delivery in table.hooks.queued:
        reader = None if delivery.target.startswith("@") else delivery.target
        subject = str(delivery.payload.get("subject", ""))
        for kind, url in RECEIVERS.items():
            for post in posts(Hook(url.format(who=delivery.target), "whsec_" + "A" * 44), delivery, 0):
                body = json.loads(post.body)
                text = body.get("text") or body.get("content") or ""
                read.append(Read(reader, "webhook" if kind == "standard" else kind, subject, str(text)))
    return read


def pages(table: WholeMatch) -> list[Read]:
    """Each participant's page as it stands now, its HTML's text."""
    read = []
    for participant, secret in table.secrets.items():
        session = page_play.sign_in(table.ports, table.match_id, secret)
        html = render.page(page_play.show(table.ports, table.match_id, session.cookie))
        read.append(Read(participant, "page", "", html))
    return read
