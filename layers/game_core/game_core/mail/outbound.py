"""Outbound mail: a plain-text UTF-8 message, with any files attached after the text, as bytes
ready for SES's raw sending.

The body is sent as written, never reflowed (monospace tables must line up), as format=flowed
text (RFC 3676, `flowed`) so that a line a player wrote starting ">" (a PRESS message we relay)
is not shown as a quote, and quoted-printable, so long lines and any character travel safely over
7-bit SMTP. An answer to a player's message is threaded under it (In-Reply-To, and References as
RFC 5322 says: the answered message's References and then its Message-ID) and is marked
`Auto-Submitted: auto-replied`; a notice is `auto-generated` (RFC 3834), so that well-behaved
autoresponders do not answer either.
"""

from __future__ import annotations

import base64
import email.policy
from collections.abc import Sequence
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from game_core.mail.inbound import Letter


class Attachment(Protocol):
    """A file a message carries (a game's `Picture` is one)."""

    @property
    def filename(self) -> str: ...

    @property
    def content_type(self) -> str: ...

    @property
    def data(self) -> bytes: ...


SUBJECT_LIMIT = 99
"""Characters of a subject at most: under 100, which every client shows whole in a thread view."""
ELLIPSIS = "…"
WORD_BYTES = 42
"""UTF-8 bytes one encoded word of a subject carries at most: 56 base64 characters, so a line
"Subject: =?utf-8?b?...?=" keeps within 78 columns (and each word within RFC 2047's 75)."""
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
    attachments: Sequence[Attachment] = (),
    automatic: bool = True,
) -> bytes:
    """The message, with CRLF line ends. `sent_at` must be timezone-aware; `message_id` (with
    its angle brackets) is made up on `domain` when not given; `answering` is the player's
    message this answers (None for a notice). The subject is fitted with `fit_subject`. With
    `attachments` it is multipart/mixed: the text part first, then each file in the order given.
    `automatic=False` for a mail that stands for a person's (a bot's moves): no Auto-Submitted,
    which the service never reads (`mail.automatic`)."""
    message = EmailMessage(policy=email.policy.SMTP)
    message["From"] = Address(display_name=sender_name, addr_spec=sender)
    message["To"] = ", ".join(to)
    message["Date"] = format_datetime(sent_at)
    message["Message-ID"] = message_id or make_msgid(domain=domain)
    if answering is not None and answering.message_id:
        message["In-Reply-To"] = answering.message_id
        message["References"] = " ".join(_references(answering))
    if automatic:
        message["Auto-Submitted"] = "auto-replied" if answering is not None else "auto-generated"
    message.set_content(flowed(body), charset="utf-8", cte="quoted-printable", params={"format": "flowed"})
    for attachment in attachments:
        maintype, _, subtype = attachment.content_type.partition("/")
        message.add_attachment(attachment.data, maintype=maintype, subtype=subtype, filename=attachment.filename)
    # The Subject goes in as written here, not as the stdlib folds it (which can leave a space
    # at a fold that unfolding doubles); before Date, which is always there
    return message.as_bytes().replace(b"\r\nDate: ", b"\r\n" + subject_field(fit_subject(subject)) + b"\r\nDate: ", 1)


def flowed(body: str) -> str:
    """`body` as format=flowed text (RFC 3676) that reads as written in a client that knows
    flowed and in one that does not. Every line is hard: trailing spaces, which would join it to
    the next (a soft break), are dropped, so nothing is ever reflowed. A line starting " ", ">" or
    "From " must be space-stuffed (4.4: a reader takes one leading space off, and ">" would read as
    a quote); any other line may be, and here every line of a paragraph (lines up to a blank one)
    with such a line is, so that in a client that does not know flowed, which shows the stuffed
    space, a table or a board still lines up: its lines all move one column right together."""
    out: list[str] = []
    paragraph: list[str] = []
    for line in [*(line.rstrip(" ") for line in body.split("\n")), ""]:
        if line:
            paragraph.append(line)
            continue
        stuffed = any(written.startswith((" ", ">", "From ")) for written in paragraph)
        out += [" " + written if stuffed else written for written in paragraph]
        out.append(line)
        paragraph = []
    return "\n".join(out[:-1])


def _references(answered: Letter) -> list[str]:
    # RFC 5322 3.6.4: the parent's References, else its In-Reply-To (when it names one message),
    # then the parent's Message-ID; a client that threads by References alone keeps the thread
    parent = answered.references or ((answered.in_reply_to,) if answered.in_reply_to else ())
    chain = [reference for reference in parent if reference != answered.message_id]
    chain.append(answered.message_id)
    if len(chain) > MAX_REFERENCES:
        chain = [chain[0], *chain[-(MAX_REFERENCES - 1) :]]
    return chain


def subject_field(text: str) -> bytes:
    """The Subject field that gives back exactly `text` once unfolded and decoded: ASCII on one
    line as it is (a fitted subject is far within the 998 characters a line may have, so it is
    never folded); anything else as UTF-8 encoded words of at most `WORD_BYTES` bytes, folded
    between them (the space between two encoded words is no part of the text, RFC 2047 6.2)."""
    if text.isascii() and "=?" not in text:  # "=?" would read as the start of an encoded word
        return f"Subject: {text}".encode("ascii")
    chunks = [""]
    for char in text:
        if len((chunks[-1] + char).encode()) > WORD_BYTES:
            chunks.append("")
        chunks[-1] += char
    words = [f"=?utf-8?b?{base64.b64encode(chunk.encode()).decode('ascii')}?=" for chunk in chunks]
    return ("Subject: " + "\r\n ".join(words)).encode("ascii")


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
