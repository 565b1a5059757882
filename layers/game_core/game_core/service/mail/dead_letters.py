"""Received mail the mail function could not apply in all its tries (`aws.inbound_queue`): the host
told on the last one, and the host's redrive that queues the dead letters again.

The alert goes to the host of the match the mail is addressed to, by the alerts topic and the
`@alerts` webhook (`webhooks.alert_host`), and needs the match read: when AWS is so far down that
even that fails (the caller logs it), the dead-letter queue's alarm (template.yaml) still tells
the host. It names the mail by SES's id alone, never its sender or what it says.
"""

from __future__ import annotations

import logging
from typing import Any

from game_core.errors import NotFound
from game_core.mail.addresses import match_for
from game_core.mail.ses import Receipt, receipt_of
from game_core.service.ports import Ports
from game_core.service.webhooks import sending as webhooks

logger = logging.getLogger(__name__)

REDRIVE = "match-host redrive-mail"
KEPT_DAYS = 7
"""How long a dead letter (and the mail it names, in the inbound bucket) is kept (template.yaml)."""


def gave_up(ports: Ports, receipt: Receipt, tries: int) -> None:
    """Tell the host of the mail's match that its last try failed (it goes to the dead letters)."""
    match_id = _match_of(ports, receipt)
    try:
        match = ports.store.get(match_id) if match_id is not None else None
    except NotFound:
        match = None
    if match is None:
        logger.error("a mail for no match goes to the dead letters", extra={"ses_message_id": receipt.ses_message_id})
        return
    subject = f"[{match.match_id}] A mail to the match could not be read after {tries} tries"
    body = {
        "match_id": match.match_id,
        "ses_message_id": receipt.ses_message_id,
        "tries": tries,
        "what_to_do": f"it is kept {KEPT_DAYS} days in the mail dead-letter queue; once AWS is well again, run"
        f" `{REDRIVE} {match.match_id}`: it is read then, and a mail read before is not applied twice",
    }
    webhooks.alert_host(ports, match, subject, body, f"{match.match_id}/mail-dead/{receipt.ses_message_id}")


def redrive_mail(ports: Ports, match_id: str) -> dict[str, Any]:
    """The host's command: every dead mail to the match queued for the mail function again."""
    match = ports.store.get(match_id)  # NotFound for a match that is not there
    if ports.inbound is None:
        return {"match_id": match_id, "requeued": 0, "note": "mail is taken here at once, never queued"}

    def to_the_match(body: str) -> bool:
        try:
            receipt = receipt_of(body)
        except ValueError:  # not SES's: no match's
            return False
        return receipt is not None and _match_of(ports, receipt) == match.match_id

    return {"match_id": match_id, "requeued": ports.inbound.redrive(to_the_match)}


def _match_of(ports: Ports, receipt: Receipt) -> str | None:
    """The match the mail is addressed to, by its envelope (no match without a mail domain)."""
    return match_for(receipt.recipients, "", ports.mailer.domain) if ports.mailer.domain else None
