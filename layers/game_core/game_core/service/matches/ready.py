"""Ready votes: where early close is off, the participants who owe the open phase something may
vote it ready once they have sent it all, and take the vote back until it closes; the vote that
leaves all of them ready requests the resolution as early close does and wakes the machine.

Who has voted is public, as who still owes a move is (`open.ready` in status and standing): a
vote says nothing of what anyone sent. A vote is stored with its log entry, conditional on the
match as read, so of two votes each finding itself the last, one reads again. Cast twice, or
where early close is on, it is accepted and changes nothing.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from game_core.errors import Malformed, Reason
from game_core.match import engine
from game_core.service.matches.sheets import AlreadyDelivered, SubmissionView
from game_core.service.matches.submit import first_reply, wake
from game_core.service.ports import Event, Ports
from game_core.service.retries import until_stored

READY_KIND = "ready"
"""The webhook action's kind for a vote: `{"kind": "ready", "action": {"ready": true}}`."""


class ReadyVote(BaseModel):
    """The webhook action's body for a vote (`match-schemas` prints its schema)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    ready: bool
    """True to vote the open phase ready, false to take the vote back."""


def ready_vote(action: Any) -> bool:
    """The vote a webhook action carries: `{"ready": true}` or `{"ready": false}`."""
    try:
        return ReadyVote.model_validate(action).ready
    except ValidationError:
        text = 'a ready vote is {"ready": true} or {"ready": false}'
        raise Malformed("the ready action is malformed", [Reason("ready_vote", text)]) from None


def vote(
    ports: Ports,
    match_id: str,
    participant: str,
    ready: bool,
    channel: str,
    delivery: str | None = None,
    view: SubmissionView | None = None,
) -> dict[str, Any]:
    """Cast or take back `participant`'s ready vote on the open phase; the answer says what it did.
    With a `delivery` key (a webhook's Idempotency-Key), a vote cast before under that key is not
    cast again, so a retried READY cannot undo a NOT READY sent after it: its reply is returned.
    `view` is what the voter's channel read already, under that key (one read fewer)."""

    def attempt(seen: SubmissionView) -> dict[str, Any]:
        if seen.delivered is not None:
            return seen.delivered
        match = seen.match
        match.member(participant)  # NotFound: no such participant
        now = ports.clock.now()
        voted = engine.vote_ready(match, participant, ready, now)
        assert match.phase is not None  # vote_ready refuses when no phase is open
        reply: dict[str, Any] = {"accepted": True, "match_id": match_id, "phase": match.phase.name, "ready": ready}
        if voted is None:
            return reply | {"changed": False, "answer": _unchanged(match.early_close or match.phase.closes_on_submit)}
        assert voted.phase is not None
        closing = voted.phase.resolve_requested
        data = {"actor": participant, "phase": match.phase.name, "ready": ready, "closing": closing, "channel": channel}
        reply |= {"changed": True, "ready_now": list(voted.phase.ready), "closing": closing}
        reply |= {"answer": _answer(ready, closing)}
        stored = (participant, delivery, reply) if delivery is not None else None
        ports.store.save(match, voted, Event("ready_vote", now, data), delivery=stored)
        if closing and not wake(ports, voted, seen.task_token):
            reply["wake_pending"] = True
        return reply

    try:
        return until_stored(
            lambda: ports.store.submission_view(match_id, participant, delivery),
            attempt,
            match_id=match_id,
            what="the ready vote was not taken",
            seen=view,
        )
    except AlreadyDelivered:
        return first_reply(ports, match_id, participant, delivery or "")


def _unchanged(early_close: bool) -> str:
    if early_close:
        return "Early close is on: the phase resolves as soon as every move it waits for is in; no vote is needed."
    return "Your vote already stood as sent; nothing changed."


def _answer(ready: bool, closing: bool) -> str:
    if closing:
        return "Everyone who owes this phase a move is ready: it resolves now."
    if ready:
        return "You are ready; the phase resolves early once everyone who owes it a move is ready too."
    return "Your ready vote is taken back; the phase waits for its deadline or everyone's vote."
