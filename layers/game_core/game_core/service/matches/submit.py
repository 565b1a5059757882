"""Submitting: one use case for every channel (webhook, e-mail, ...)."""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from game_core.errors import InProgress, Late, NotFound, Unauthorized
from game_core.games import registry
from game_core.games.protocol import Model
from game_core.match import engine, grace, receipts
from game_core.match.engine import Accepted
from game_core.match.model import Match, secret_hash
from game_core.service.matches.sheets import AlreadyDelivered, HeaderMoved, SubmissionView
from game_core.service.ports import Completion, Event, Ports
from game_core.service.retries import until_stored

logger = logging.getLogger(__name__)

WAKE_PENDING = "stored; the phase will close on the machine's next check"
"""The reply's message (with `wake_pending`) when a submission that completed an early-closing
phase is stored but could not wake the machine: it looks again at least every `recheck_seconds`."""


class SubmissionBody(Model):
    """A submission's JSON body, on every channel (the webhook's request body, a mail's JSON)."""

    phase: str
    number: int | None = None
    """The phase's number from the notice that opened it; pins a move to that opening."""
    kind: str
    submission: Any


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


EARLY_CLOSE = "every participant who can act has submitted"


def submit(
    ports: Ports, request: SubmissionRequest, view: SubmissionView | None = None, delivery: str | None = None
) -> dict[str, Any]:
    """Accept the player's submission for the open phase, or raise why not (nothing is lost:
    a refused submission leaves the previous valid one in place).

    `view` is what the sender's channel read already (one read: the match, the sender's garnets
    and submissions, an earlier delivery); `delivery` (a webhook's Idempotency-Key) stores the
    reply with the submission, so a redelivery gets the first reply and changes nothing. The
    submission that closes an early-closing phase requests its resolution in its own transaction
    and wakes the waiting machine: one AWS call more than any other."""
    # Read again only when the header moved under a move that finishes its sender's part (another
    # actor finished, the machine began a wait): a conflict on the sheet is the sender's to resend.
    try:
        return until_stored(
            lambda: ports.store.submission_view(request.match_id, request.player, delivery),
            lambda seen: _store(ports, request, seen, delivery),
            match_id=request.match_id,
            what="the submission was not stored",
            seen=view,
            retried=HeaderMoved,
        )
    except AlreadyDelivered:
        return first_reply(ports, request.match_id, request.player, delivery or "")


def first_reply(ports: Ports, match_id: str, sender: str, delivery: str) -> dict[str, Any]:
    """The reply stored with the delivery that won a race with this one under the same key."""
    first = ports.store.delivered(match_id, sender, delivery)
    if first is None:
        raise InProgress("this delivery is being handled now; send it again for its reply")
    return first


def validated(request: SubmissionRequest, view: SubmissionView, now: datetime) -> Accepted:
    """The submission as the open phase would take it from this participant, or the error that
    says why not: every check a submission passes before it is stored (the page's check request
    runs exactly these, storing nothing)."""
    match = view.match
    if match.participant(request.player) is None:
        raise NotFound(f"{request.player} is not a player of match {match.match_id}")
    game = registry.load(match.game)
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
    if not view.accepting:  # a resolution has begun: what it reads is already fixed
        raise Late(f"{match.phase.name!r} closed before the submission arrived")
    return accepted


def _store(ports: Ports, request: SubmissionRequest, view: SubmissionView, delivery: str | None) -> dict[str, Any]:
    if view.delivered is not None:
        return view.delivered
    match = view.match
    now = ports.clock.now()
    accepted = validated(request, view, now)
    assert match.phase is not None  # validated() refuses when no phase is open
    accepted = replace(accepted, salt=ports.ids.salt())  # each move its own, a resend too
    sealed = receipts.receipt(
        match.match_id,
        match.phase.name,
        match.phase.number,
        request.player,
        accepted.kind,
        accepted.submission,
        receipts.seal(accepted.salt, now),
    )
    event = Event(
        "submission_accepted",
        now,
        {
            "player": request.player,
            "phase": match.phase.name,
            "number": match.phase.number,
            "kind": request.kind,
            "channel": request.channel,
            "commitment": sealed["commitment"],  # into the log's chain: a move changed later fails it
        },
    )
    reply: dict[str, Any] = {
        "accepted": True,
        "match_id": match.match_id,
        "phase": match.phase.name,
        "kind": accepted.kind,
        "submission": accepted.submission,
        "garnet_cost": accepted.garnet_cost,
        "receipt": sealed,
    }
    completion = _completion(view, request.player, accepted, now)
    stored = (delivery, reply) if delivery is not None else None
    ports.store.put_submission(match, request.player, accepted, event, view.sheet, stored, completion)
    if completion is not None and completion.closing is not None and not wake(ports, match, view.task_token):
        reply = reply | {"wake_pending": True, "message": WAKE_PENDING}
    return reply


def _completion(view: SubmissionView, player: str, accepted: Accepted, now: datetime) -> Completion | None:
    """What the submission writes on the header if it leaves the sender done with the phase for
    the first time (and, when that closes an early-closing phase, the resolution it requests)."""
    match = view.match
    sheet = view.open_sheet
    kinds = (sheet.kinds if sheet else {}) | {accepted.kind: accepted.submission}
    if player in view.done or not engine.has_done(match, player, kinds):
        return None
    completion = Completion(done_before=view.done, task_token=view.task_token)
    if not engine.closes_early(match, view.done | {player}):
        return completion
    closing = engine.with_resolution_requested(match, now)
    reason = grace.CLOSED if match.phase is not None and match.phase.grace_held else EARLY_CLOSE
    return replace(completion, closing=closing, closing_event=Event("resolve_requested", now, {"reason": reason}))


def wake(ports: Ports, match: Match, token: str | None) -> bool:
    """Wake the machine's wait, if it has begun one (else its wait, when it begins, finds the
    clock changed and goes on at once). False if that failed: the resolution is requested, and
    the machine finds it when it next looks."""
    if token is None:
        return True
    try:
        ports.workflow.wake(token)
    except Exception as error:  # whatever failed, the submission and the request are stored
        logger.warning("early close wake failed", extra={"match_id": match.match_id, "error": type(error).__name__})
        return False
    return True


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
