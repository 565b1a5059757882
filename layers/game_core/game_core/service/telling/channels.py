"""How the service speaks: `tell` publishes the notices (SNS, for integrations), mails each
participant with a registered address their letter of the occasion (`letters`), and queues each
webhook subscription's delivery (`webhooks`), each once however often a failed step is retried;
`send` sends one mail, a refusal for good recorded for the host instead of failing the step.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from game_core.errors import MailRefused
from game_core.match.email_address import sendable_address
from game_core.match.model import Match
from game_core.service.ports import Bounce, Notice, OutgoingMail, Ports
from game_core.service.telling.letters import letters
from game_core.service.telling.notices import told_key
from game_core.service.webhooks import sending as webhooks
from game_core.service.webhooks.queue import Delivery

logger = logging.getLogger(__name__)

TOLD_WRITES = 3
"""Attempts at remembering what a failed tell sent, in place (the write is idempotent)."""


@dataclass(frozen=True)
class Voice:
    """How an occasion's notices read as mail (one per recipient with an address) and as webhook
    deliveries (one per subscription): a match's own (`MATCH`), or a season's
    (service/season/news.py), told on one of its matches."""

    letters: Callable[[Match, Sequence[Notice], datetime, str], list[OutgoingMail]]
    deliveries: Callable[[Match, Sequence[Notice], datetime], list[Delivery]]


MATCH = Voice(letters, webhooks.deliveries)


def tell(
    ports: Ports,
    match: Match,
    notices: Sequence[Notice],
    then: Callable[[], object] | None = None,
    voice: Voice = MATCH,
) -> None:
    """Publish the notices, then mail them, each once; then `then` (the caller's mark that the
    occasion is told: `mark_announced`, the reminder's save). A failure raises (the step is
    retried), and the retry tells only what this one did not.

    Nothing is marked on the way, so a tell that goes through costs no write: the caller's mark
    says the whole occasion is told. Only when something fails (a send, or that mark) are the
    notices and mails sent so far remembered (`remember_told`, one idempotent write, tried again
    in place), before the error goes on; the retry reads them with the match (`match.told`) and
    skips them. Marking before sending would lose a notice whose send then failed; marking only
    after each send would cost a write each and repeat the one whose mark failed. So one fault
    anywhere repeats nothing, but for one case no store can tell apart from a send that never
    happened: a send applied and its reply lost. That notice goes again, with the same id (and
    the same Message-ID), for its receiver to drop.

    A mail the mail service refuses for good (`errors.MailRefused`: the address malformed, or not
    one SES's sandbox may send to) is no failure of the step: every retry would stop at the same
    mail, and no one after it would ever be told. It counts as told, and the host learns of it
    (`send`); the rest are sent."""
    told = match.told
    sent: list[str] = []

    def published(batch: Sequence[Notice]) -> None:
        sent.extend(told_key(notice.notice_id) for notice in batch)

    try:
        untold = [notice for notice in notices if told_key(notice.notice_id) not in told]
        if untold:
            ports.notifier.publish(match, untold, published)
        for mail in voice.letters(match, notices, ports.clock.now(), ports.mailer.domain):
            key = told_key(mail.told_as or "")
            if key not in told:
                send(ports, match, mail, _addressee(match, mail.to))
                sent.append(key)
        webhooks.enqueue(ports, voice.deliveries(match, notices, ports.clock.now()), told, sent)
        if then is not None:
            then()
    except Exception:
        if sent:
            _remember_told(ports, match.match_id, frozenset(sent))
        raise


REFUSED = "refused-"
"""A refusal's record is kept by this and its code, per participant (`Bounce.message`): the host
reads one line of it however many mails the same address is refused."""
HOST = "The host"
"""Whose refusal it is when the host's own address is refused (`send`): no participant's id (a
space), and the host's status line reads "The host's mail was refused by SES at ..."."""


def send(ports: Ports, match: Match, mail: OutgoingMail, whose: str) -> bool:
    """Send `mail` to `whose` address (a participant's id, or `HOST`): True once out. False when
    the mail service refused it for good: the refusal is then recorded for the host's status
    instead (`match_status`'s mail_bounced, as a bounce), once per `whose` and SES code."""
    refusal = refused(ports, match.match_id, mail, whose)
    if refusal is not None:
        said = str(refusal)  # "MessageRejected: Email address is not verified. ..."
        bounce = Bounce(whose, REFUSED + refusal.code, ports.clock.now(), "", said, refused=True)
        ports.store.record_bounce(match.match_id, bounce)
    return refusal is None


def refused(ports: Ports, match_id: str, mail: OutgoingMail, whose: str) -> MailRefused | None:
    """Send `mail`; the mail service's refusal of it for good (`errors.MailRefused`) is returned
    rather than raised, and logged by its code alone: sending it again fails the same way, so the
    caller goes on without it. Any other failure raises (it may yet succeed)."""
    try:
        ports.mailer.send(mail)
    except MailRefused as refusal:
        logger.warning(
            "mail refused for good: not sent again",
            extra={"match_id": match_id, "player": whose, "code": refusal.code},
        )
        return refusal
    return None


def _addressee(match: Match, address: str) -> str:
    """The participant a notice's mail goes to (`letters` mails participants only, each at
    their address as mail goes to it: `sendable_address`)."""
    return next(p.id for p in match.players if p.email and sendable_address(p.email) == address)


def _remember_told(ports: Ports, match_id: str, keys: frozenset[str]) -> None:
    for attempt in range(1, TOLD_WRITES + 1):
        try:
            ports.store.remember_told(match_id, keys)
            return
        except Exception as error:  # the store unavailable: the step's own error is the one to raise
            if attempt == TOLD_WRITES:
                logger.warning("what was told is not remembered", extra={"error": type(error).__name__})
