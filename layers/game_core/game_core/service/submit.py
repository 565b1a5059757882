"""Submitting: one use case for every channel (webhook, e-mail, ...)."""

from __future__ import annotations

import hmac
import logging
from dataclasses import dataclass
from typing import Any

from game_core.errors import NotFound, Unauthorized
from game_core.games import registry
from game_core.match import engine
from game_core.match.model import Match, secret_hash
from game_core.service.host import request_resolution
from game_core.service.ports import Event, Ports

logger = logging.getLogger(__name__)

WAKE_PENDING = "stored; the phase will close on the machine's next check"
"""The reply's message (with `wake_pending`) when a submission is stored but asking for the early
close failed: the state machine re-reads the clock at least every `recheck_seconds`."""


@dataclass(frozen=True)
class SubmissionRequest:
    match_id: str
    player: str
    phase: str
    kind: str
    submission: Any
    channel: str
    phase_number: int | None = None
    """The opening of the phase the sender means (from the notice); None: whichever is open."""


def authenticate_webhook(match: Match, player: str, secret: str) -> None:
    participant = match.participant(player)
    if participant is None:
        raise NotFound(f"{player} is not a player of match {match.match_id}")
    if not hmac.compare_digest(participant.secret_hash, secret_hash(secret)):
        raise Unauthorized("the webhook secret does not match this player")


def submit(ports: Ports, request: SubmissionRequest, match: Match | None = None) -> dict[str, Any]:
    """Accept the player's submission for the open phase, or raise why not (nothing is lost:
    a refused submission leaves the previous valid one in place)."""
    match = match or ports.store.get(request.match_id)
    if match.participant(request.player) is None:
        raise NotFound(f"{request.player} is not a player of match {match.match_id}")
    game = registry.load(match.game)
    now = ports.clock.now()
    open_number = match.phase.number if match.phase else 0
    purse = ports.store.purse(match.match_id, open_number, request.player, request.kind)
    accepted = engine.accept(
        match,
        game,
        request.player,
        request.phase,
        request.kind,
        request.submission,
        purse.spendable,
        now,
        request.phase_number,
    )
    assert match.phase is not None  # accept() refuses when no phase is open
    event = Event(
        "submission_accepted",
        now,
        {
            "player": request.player,
            "phase": match.phase.name,
            "number": match.phase.number,
            "kind": request.kind,
            "channel": request.channel,
        },
    )
    ports.store.put_submission(match, request.player, accepted, event, purse.held)
    reply: dict[str, Any] = {
        "accepted": True,
        "match_id": match.match_id,
        "phase": match.phase.name,
        "kind": accepted.kind,
        "submission": accepted.submission,
        "garnet_cost": accepted.garnet_cost,
    }
    if not _close_early(ports, match):
        reply |= {"wake_pending": True, "message": WAKE_PENDING}
    return reply


def _close_early(ports: Ports, match: Match) -> bool:
    """Ask for the phase to resolve now if this submission completed it. The submission is stored
    whatever happens here: if the request fails (a throttle, Step Functions unavailable), say so
    and let the machine's next clock check find it; False then."""
    assert match.phase is not None
    number = match.phase.number
    try:
        if engine.closes_early(match, ports.store.submissions(match.match_id, number)):
            requested = request_resolution(
                ports, match.match_id, reason="every participant who can act has submitted", phase_number=number
            )
            return not requested.get("wake_pending", False)
    except Exception as error:  # whatever failed, the submission is stored
        logger.warning(
            "early close not requested",
            extra={"match_id": match.match_id, "phase_number": number, "error": type(error).__name__},
        )
        return False
    return True


def submit_by_webhook(ports: Ports, request: SubmissionRequest, secret: str) -> dict[str, Any]:
    match = ports.store.get(request.match_id)
    authenticate_webhook(match, request.player, secret)
    return submit(ports, request, match)
