"""Immediate actions: applied when they arrive, in arrival order, answered at once to the sender.

Each is stored with the match it leaves, conditional on the match's version (so two actions, or
an action and a resolution or host act, never both build on the same match), and recorded with
its arrival time under the open phase: the phase's record carries them, and replay applies them
before the phase's resolution. Nothing is told to anyone else: the answer goes to the sender.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game_core.errors import Conflict, NotFound
from game_core.games import registry
from game_core.match import engine
from game_core.service.ports import Event, Ports
from game_core.service.submit import authenticate_webhook

ATTEMPTS = 5
"""Reads of the match at most for one action: another is needed only when the match moved under
it (another action, a submission closing the phase, a host act)."""


@dataclass(frozen=True)
class ActionRequest:
    match_id: str
    actor: str | None
    """The participant acting; None for the host."""
    kind: str
    action: Any
    channel: str


def take_action(ports: Ports, request: ActionRequest) -> dict[str, Any]:
    """Apply the action to the open phase and return its answer, or raise why not."""
    for _attempt in range(ATTEMPTS):
        view = ports.store.submission_view(request.match_id, request.actor or "", None)
        match = view.match
        if request.actor is not None and match.participant(request.actor) is None:
            raise NotFound(f"{request.actor} is not a participant of match {match.match_id}")
        game = registry.load(match.game)
        now = ports.clock.now()
        acted = engine.act(match, game, request.actor, request.kind, request.action, view.available, now)
        assert match.phase is not None  # act() refuses when no phase is open
        event = Event(
            "action_taken",
            now,
            {"actor": request.actor, "phase": match.phase.name, "kind": request.kind, "channel": request.channel},
        )
        try:
            ports.store.put_action(match, acted.match, acted.record, acted.garnets, event)
        except Conflict:
            continue
        return {"accepted": True, "match_id": match.match_id, "kind": request.kind, "answer": acted.answer}
    raise Conflict(f"match {request.match_id} kept changing; send the action again")


def act_by_webhook(
    ports: Ports, match_id: str, participant: str, secret: str, request: Callable[[], ActionRequest]
) -> dict[str, Any]:
    """The secret checked before anything else, then the action (its body read only now)."""
    authenticate_webhook(ports.store.get(match_id), participant, secret)
    return take_action(ports, request())
