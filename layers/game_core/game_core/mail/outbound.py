"""Outbound mail: a plain-text UTF-8 message, as bytes ready for SES's raw sending.

The body is sent as written: never reflowed (monospace tables must line up), and
quoted-printable, so long lines and any character travel safely over 7-bit SMTP. An answer to a
player's message is threaded under it (In-Reply-To, and References as RFC 5322 says: the answered
message's References and then its Message-ID) and is marked `Auto-Submitted: auto-replied`; a
notice is `auto-generated` (RFC 3834), so that well-behaved autoresponders do not answer either.
"""

from __future__ import annotations

import email.policy
from collections.abc import Sequence
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game_core.mail.inbound import Letter


SUBJECT_LIMIT = 99
"""Characters of a subject at most: under 100, which every client shows whole in a thread view."""
ELLIPSIS = "…"
MAX_REFERENCES = 20
"""Ids in References at most: the first of the thread and the latest ones (RFC 5322 allows trimming)."""


def compose(
    *,
    sender: str,
    sender_name: str,
    to: Sequence[str],
    subject: str,
    body: str,
    domain: str,
    sent_at: datetime,
    answering: Letter | None = None,
    message_id: str | None = None,
) -> bytes:
    """The message, with CRLF line ends. `sent_at` must be timezone-aware; `message_id` (with
    its angle brackets) is made up on `domain` when not given; `answering` is the player's
    message this answers (None for a notice). The subject is fitted with `fit_subject`."""
    message = EmailMessage(policy=email.policy.SMTP)
    message["From"] = Address(display_name=sender_name, addr_spec=sender)
    message["To"] = ", ".join(to)
    message["Subject"] = fit_subject(subject)
    message["Date"] = format_datetime(sent_at)
    message["Message-ID"] = message_id or make_msgid(domain=domain)
    if answering is not None and answering.message_id:
        message["In-Reply-To"] = answering.message_id
        message["References"] = " ".join(_references(answering))
    message["Auto-Submitted"] = "auto-replied" if answering is not None else "auto-generated"
    message.set_content(body, charset="utf-8", cte="quoted-printable")
    return message.as_bytes()


def _references(answered: Letter) -> list[str]:
    chain = [reference for reference in answered.references if reference != answered.message_id]
    chain.append(answered.message_id)
    if len(chain) > MAX_REFERENCES:
        chain = [chain[0], *chain[-(MAX_REFERENCES - 1) :]]
    return chain


def fit_subject(text: str, limit: int = SUBJECT_LIMIT) -> str:
    """`text` on one line with its whitespace collapsed, at most `limit` characters: a longer one
    is cut at the last word boundary that fits and ends with "…". Only a first word longer than
    the whole limit is cut inside (there is no boundary to cut at)."""
    words = text.split()
    fitted = " ".join(words)
    if len(fitted) <= limit:
        return fitted
    room = limit - len(ELLIPSIS)
    kept = fitted[: room + 1].rsplit(" ", 1)[0] if " " in fitted[: room + 1] else fitted[:room]
    return kept.rstrip(" ,;:.-–—") + ELLIPSIS
