"""Submitting: one use case for every channel (webhook, e-mail, ...)."""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from game_core.errors import InProgress, NotFound, Unauthorized
from game_core.games import registry
from game_core.match import engine
from game_core.match.model import Match, secret_hash
from game_core.service.host import request_resolution
from game_core.service.ports import AlreadyDelivered, Event, Ports, SubmissionView

logger = logging.getLogger(__name__)

WAKE_PENDING = "stored; the phase will close on the machine's next check"
"""The reply's message (with `wake_pending`) when a submission that completed an early-closing
phase is stored but could not wake the machine: it looks again at least every `recheck_seconds`."""


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


def submit(
    ports: Ports, request: SubmissionRequest, view: SubmissionView | None = None, delivery: str | None = None
) -> dict[str, Any]:
    """Accept the player's submission for the open phase, or raise why not (nothing is lost:
    a refused submission leaves the previous valid one in place).

    `view` is what the sender's channel read already (one read: the match, the sender's garnets
    and submissions, an earlier delivery); `delivery` (a webhook's Idempotency-Key) stores the
    reply with the submission, so a redelivery gets the first reply and changes nothing."""
    view = view or ports.store.submission_view(request.match_id, request.player, delivery)
    if view.delivered is not None:
        return view.delivered
    match = view.match
    if match.participant(request.player) is None:
        raise NotFound(f"{request.player} is not a player of match {match.match_id}")
    game = registry.load(match.game)
    now = ports.clock.now()
    accepted = engine.accept(
        match,
        game,
        request.player,
        request.phase,
        request.kind,
        request.submission,
        view.spendable(request.kind),
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
    reply: dict[str, Any] = {
        "accepted": True,
        "match_id": match.match_id,
        "phase": match.phase.name,
        "kind": accepted.kind,
        "submission": accepted.submission,
        "garnet_cost": accepted.garnet_cost,
    }
    try:
        stored = (delivery, reply) if delivery is not None else None
        ports.store.put_submission(match, request.player, accepted, event, view.sheet, stored)
    except AlreadyDelivered:
        first = ports.store.delivered(match.match_id, request.player, delivery or "")
        if first is None:
            raise InProgress("this delivery is being handled now; send it again for its reply") from None
        return first
    if not _close_early(ports, match, now):
        reply = reply | {"wake_pending": True, "message": WAKE_PENDING}
    return reply


def _close_early(ports: Ports, match: Match, now: datetime) -> bool:
    """Ask for the phase to resolve now if this submission completed an early-closing phase: the
    request changes the phase's clock (so a machine about to wait sees it: a wait keeps its token
    only for the clock it computed) and wakes the machine waiting. The submission is stored
    whatever happens here: if the request fails (a throttle, Step Functions unavailable), say so
    and let the machine find it at its next look; False then."""
    phase = match.phase
    assert phase is not None
    if not (match.early_close or phase.closes_on_submit):
        return True
    try:
        submitted = ports.store.submissions(match.match_id, phase.number)
        if not engine.closes_early(match, [p for p, kinds in submitted.items() if engine.has_done(match, p, kinds)]):
            return True
        reason = "every participant who can act has submitted"
        requested = request_resolution(ports, match.match_id, reason=reason, phase_number=phase.number, at=now)
        return not requested.get("wake_pending", False)
    except Exception as error:  # whatever failed, the submission is stored
        logger.warning(
            "early close not requested",
            extra={"match_id": match.match_id, "phase_number": phase.number, "error": type(error).__name__},
        )
        return False


def submit_by_webhook(
    ports: Ports,
    match_id: str,
    player: str,
    secret: str,
    delivery: str | None,
    request: Callable[[], SubmissionRequest],
) -> dict[str, Any]:
    """One read, then the secret checked before anything else: an earlier delivery's reply as it
    was, or the `request` (read only now) submitted with its reply stored under `delivery`."""
    view = ports.store.submission_view(match_id, player, delivery)
    authenticate_webhook(view.match, player, secret)
    if view.delivered is not None:
        return view.delivered
    return submit(ports, request(), view, delivery)
