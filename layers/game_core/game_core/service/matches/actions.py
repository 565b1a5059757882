"""Immediate actions: applied when they arrive, in arrival order, answered at once to the sender.

Each is stored with the match it leaves, conditional on the match's version (so two actions, or
an action and a resolution or host act, never both build on the same match), and recorded with
its arrival time under the open phase: the phase's record carries them, and replay applies them
before the phase's resolution. Nothing is told to anyone else: the answer goes to the sender.

An action sent with a delivery key (a mail's message id and line) stores its reply in the same
write, once: a redelivery gets the first reply and applies nothing again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game_core.games import registry
from game_core.match import immediate
from game_core.service.matches import press
from game_core.service.matches.absence import ABSENCE_KIND, absence_action
from game_core.service.matches.ready import READY_KIND, ready_vote, vote
from game_core.service.matches.sheets import AlreadyDelivered, SubmissionView
from game_core.service.matches.submit import authenticate_webhook, first_reply
from game_core.service.ports import Event, Ports
from game_core.service.retries import until_stored


@dataclass(frozen=True)
class ActionRequest:
    match_id: str
    actor: str | None
    """The participant acting; None for the host."""
    kind: str
    action: Any
    channel: str


def take_action(
    ports: Ports, request: ActionRequest, delivery: str | None = None, view: SubmissionView | None = None
) -> dict[str, Any]:
    """Apply the action to the open phase and return its answer, or raise why not. With a
    `delivery` key, one taken before under that key is not taken again: its reply is returned.
    When the action moves the sender's garnets, the reply tells what they hold now. `view` is what
    the sender's channel read already (a match that moved meanwhile is read again)."""
    if request.kind == READY_KIND and request.actor is not None:
        return vote(ports, request.match_id, request.actor, ready_vote(request.action), request.channel, delivery, view)
    if request.kind == ABSENCE_KIND and request.actor is not None:
        return absence_action(ports, request.match_id, request.actor, request.action, request.channel, view)
    if request.kind == press.PRESS_KIND and request.actor is not None:  # a message to other players
        said = press.press_action(request.action)
        to = None if said.to == "all" else said.to
        seen = view.match if view is not None else None
        return press.send(ports, request.match_id, request.actor, to, said.text, request.channel, delivery, seen)
    sender = request.actor or ""

    def attempt(seen: SubmissionView) -> dict[str, Any]:
        if seen.delivered is not None:
            return seen.delivered
        match = seen.match
        if request.actor is not None:
            match.member(request.actor)  # NotFound: no such participant
        game = registry.load(match.game)
        now = ports.clock.now()
        acted = immediate.act(match, game, request.actor, request.kind, request.action, seen.available, now)
        assert match.phase is not None  # act() refuses when no phase is open
        event = Event(
            "action_taken",
            now,
            {"actor": request.actor, "phase": match.phase.name, "kind": request.kind, "channel": request.channel},
        )
        reply = {"accepted": True, "match_id": match.match_id, "kind": request.kind, "answer": acted.answer}
        change = acted.garnets.get(sender, 0)
        if change:
            reply["garnets"] = {"balance": seen.balance + change, "available": seen.available + change}
        stored = (delivery, reply) if delivery is not None else None
        ports.store.put_action(match, acted.match, acted.record, acted.garnets, event, stored)
        return reply

    try:
        return until_stored(
            lambda: ports.store.submission_view(request.match_id, sender, delivery),
            attempt,
            match_id=request.match_id,
            what="the action was not taken",
            seen=view,
        )
    except AlreadyDelivered:
        return first_reply(ports, request.match_id, sender, delivery or "")


def act_by_webhook(
    ports: Ports,
    match_id: str,
    participant: str,
    secret: str,
    delivery: str | None,
    request: Callable[[], ActionRequest],
) -> dict[str, Any]:
    """One read, the secret checked before anything else, then an earlier delivery's reply as it
    was, or the action (its body read only now) taken with its reply stored under `delivery`."""
    view = ports.store.submission_view(match_id, participant, delivery)
    authenticate_webhook(view.match, participant, secret)
    if view.delivered is not None:
        return view.delivered
    return take_action(ports, request(), delivery, view=view)
