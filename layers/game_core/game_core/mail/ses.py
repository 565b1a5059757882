"""SES's receipt notifications, read as `Receipt`s, and the verdicts that refuse a message.

The receipt rule's action tells the inbound topic, which puts each notification in the inbound
queue as it is (raw delivery: a record's body is the notification, JSON); the mail function takes
them from there (functions/email_in). A notification has `notificationType` "Received", `receipt`
(envelope recipients, the spam, virus, SPF, DKIM and DMARC verdicts, the action), `mail` (SES's
message id, headers) and the message in one of two ways. An SNS action's notification carries it
as `content` (the raw message, base64 when the action's encoding is BASE64; SES sends it only for
messages up to 150 KB, and drops larger ones). An S3 action's notification (`action.type` "S3")
carries no content: the message is the object `action.objectKey` in the bucket `action.bucketName`
(`Receipt.stored`), up to SES's 40 MB, for the function to read (game_core/aws/mail_bucket.py).

Why our own pydantic models rather than Powertools' `SesModel`: the SES models describe the Lambda
action's event (`action.type` must be "Lambda", `dmarcVerdict` is required, `dkimVerdict` and
`content` are not there), so AWS's own sample notifications for the SNS action (no `dmarcVerdict`,
action "SNS") do not validate against them; and importing Powertools' models package costs about
70 ms of cold start.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass

from pydantic import BaseModel

from game_core.errors import Reason
from game_core.mail.inbound import MAX_BYTES

MISSING = "MISSING"
"""The status of a verdict the notification does not carry."""
CHECKS = ("spf", "dkim", "dmarc")
"""The authentication checks a deployment may require to PASS."""


@dataclass(frozen=True)
class Verdicts:
    """SES's verdict per check: "PASS", "FAIL", "GRAY", "PROCESSING_FAILED" or `MISSING`."""

    spf: str = MISSING
    dkim: str = MISSING
    dmarc: str = MISSING
    spam: str = MISSING
    virus: str = MISSING


@dataclass(frozen=True)
class StoredMessage:
    """Where an S3 action stored the message."""

    bucket: str
    key: str


@dataclass(frozen=True)
class Receipt:
    """One message SES received: its SES id, the envelope recipients (lower-cased), the verdicts,
    the sending domain's DMARC policy ("" unless DMARC failed), the raw message (None when the
    notification carries none: stored by an S3 action and not read yet, or gone from its bucket;
    undecodable) and its size in bytes. Of a message over `MAX_BYTES` only the head is read (its
    headers: whom to tell that it is too large)."""

    ses_message_id: str
    recipients: tuple[str, ...]
    verdicts: Verdicts
    dmarc_policy: str
    content: bytes | None
    stored: StoredMessage | None = None
    size: int = 0

    @property
    def too_large(self) -> bool:
        return self.size > MAX_BYTES


class _Verdict(BaseModel):
    status: str  # any string: a status SES adds later must not fail the event, only not PASS


class _Action(BaseModel):
    type: str
    encoding: str = "UTF8"
    bucketName: str | None = None  # the S3 action's
    objectKey: str | None = None


class _ReceiptPart(BaseModel):
    recipients: list[str]
    spamVerdict: _Verdict | None = None
    virusVerdict: _Verdict | None = None
    spfVerdict: _Verdict | None = None
    dkimVerdict: _Verdict | None = None
    dmarcVerdict: _Verdict | None = None
    dmarcPolicy: str = ""
    action: _Action


class _MailPart(BaseModel):
    messageId: str


class _Notification(BaseModel):
    notificationType: str


class _Received(_Notification):
    receipt: _ReceiptPart
    mail: _MailPart
    content: str | None = None


def receipt_of(notification_json: str) -> Receipt | None:
    """The message an SES notification (a queued record's body) is about; None for a notification that
    is not about a received message. Raises `ValueError` when it is not an SES notification."""
    parsed = json.loads(notification_json)
    if _Notification.model_validate(parsed).notificationType != "Received":
        return None
    notification = _Received.model_validate(parsed)
    receipt = notification.receipt
    action = receipt.action
    content = _content(notification.content, action.encoding)
    stored = None
    if action.type == "S3" and action.bucketName and action.objectKey:
        stored = StoredMessage(action.bucketName, action.objectKey)
    return Receipt(
        ses_message_id=notification.mail.messageId,
        recipients=tuple(recipient.lower() for recipient in receipt.recipients),
        verdicts=Verdicts(
            spf=_status(receipt.spfVerdict),
            dkim=_status(receipt.dkimVerdict),
            dmarc=_status(receipt.dmarcVerdict),
            spam=_status(receipt.spamVerdict),
            virus=_status(receipt.virusVerdict),
        ),
        dmarc_policy=receipt.dmarcPolicy,
        content=content,
        stored=stored,
        size=len(content) if content is not None else 0,
    )


def refusals(verdicts: Verdicts, required: frozenset[str]) -> list[Reason]:
    """Why a message must be refused, empty when it may be read: a spam or virus verdict FAIL
    always refuses it, and each check in `required` (a subset of `CHECKS`) must PASS. Codes are
    `<check>_<status>` in lower case, e.g. "spam_fail", "dkim_missing"."""
    unknown = required - set(CHECKS)
    if unknown:
        raise ValueError(f"unknown checks required: {sorted(unknown)} (known: {', '.join(CHECKS)})")
    found = [
        Reason(f"{check}_fail", f"SES's {check} verdict is FAIL")
        for check in ("spam", "virus")
        if getattr(verdicts, check) == "FAIL"
    ]
    for check in CHECKS:
        status = getattr(verdicts, check)
        if check in required and status != "PASS":
            found.append(Reason(f"{check}_{status.lower()}", f"SES's {check.upper()} verdict is {status}, not PASS"))
    return found


def _status(verdict: _Verdict | None) -> str:
    return verdict.status if verdict is not None else MISSING


def _content(content: str | None, encoding: str) -> bytes | None:
    """The raw message: base64 decoded for the BASE64 encoding, else UTF-8 ("UTF8" is the
    default); None when absent or undecodable."""
    if content is None:
        return None
    if encoding.upper().replace("-", "") == "BASE64":
        try:
            raw = base64.b64decode(content, validate=False)
        except (binascii.Error, ValueError):
            return None
    else:
        raw = content.encode("utf-8", errors="replace")  # a lone surrogate from a JSON escape
    return raw
