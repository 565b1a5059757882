"""The host told of mail the laptop's relay will never deliver (local_stack/laptop/mail_queue.py's
`Undelivered`): recorded as a bounce of the match the mail is from, under the participant it was
for, so `status` lists it under `mail_bounced` and the host's page under "Mail not delivered",
as a bounce or an SES refusal is shown on AWS. One line per participant and reason however many
messages it stopped (the store keeps the first: recording one again changes nothing).
"""

from __future__ import annotations

import logging
from email.parser import BytesHeaderParser
from email.utils import parseaddr

from game_core.errors import NotFound
from game_core.mail.addresses import match_for
from game_core.match.email_address import address_key
from game_core.match.model import Match
from game_core.service.ports import Bounce, Ports
from game_core.service.telling.channels import HOST
from local_stack.aws.mail import LOCAL_DOMAIN
from local_stack.laptop.mail_queue import Undelivered

logger = logging.getLogger("host-server")


def tell_host(ports: Ports, undelivered: Undelivered) -> bool:
    """Record `undelivered` for the host of the match its message is from (its From: the match's
    address); False (and a log line) when it is no match's or the address no participant's."""
    sender = parseaddr(str(BytesHeaderParser().parsebytes(undelivered.message).get("From", "")))[1]
    match_id = match_for([sender], "", LOCAL_DOMAIN)
    match = None
    if match_id is not None:
        try:
            match = ports.store.get(match_id)
        except NotFound:
            pass
    whose = None if match is None else addressee(match, undelivered.recipient)
    if match is None or whose is None:
        logger.warning("mail not delivered, of no match's participant: %s", undelivered.diagnostic)
        return False
    bounce = Bounce(whose, undelivered.key, ports.clock.now(), undelivered.status, undelivered.diagnostic)
    ports.store.record_bounce(match.match_id, bounce)
    return True


def addressee(match: Match, address: str) -> str | None:
    """Whose address in `match` mail went to: a participant's id, `HOST` for the host's, else None."""
    key = address_key(address)
    for player in match.players:
        if player.email and address_key(player.email) == key:
            return player.id
    return HOST if match.host_email and address_key(match.host_email) == key else None
