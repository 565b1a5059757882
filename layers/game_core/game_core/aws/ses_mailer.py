"""Mail out by SES (v2): each message sent raw, as composed, from the match domain.

SES refuses some messages for good, and says so by the error's code: those raise `MailRefused`,
for the caller to skip that one message (sending it again fails the same way). Every other error
(a throttle, a 5xx, the account's sending paused, the domain unverified) goes on as it is: it is
transient, or it stops every message alike, so the step is retried rather than its mail dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from botocore.exceptions import ClientError

from game_core.errors import MailRefused
from game_core.service.ports import OutgoingMail

REFUSED_FOR_GOOD = frozenset({"BadRequestException", "InvalidParameterValue", "MessageRejected"})
"""SES's codes for one message it will never send, however often asked: BadRequestException (SES
v2 SendEmail: "the input you provided is invalid", as a recipient that is no address), its SES v1
name InvalidParameterValue ("Missing domain", "Illegal address": moto's SES answers so), and
MessageRejected ("the message can't be sent because it contains invalid content"; in SES's
sandbox "Email address is not verified" for a recipient not verified in the account). Not among
them: the sending rate or daily quota (TooManyRequestsException, SES v1's Throttling: SES's guide
says to retry within minutes), LimitExceededException, 5xx errors, and what refuses every message
alike until the deployment is fixed (SendingPausedException, AccountSuspendedException,
MailFromDomainNotVerifiedException, NotFoundException): a retried step keeps its mail for then.
A sandbox refusing the match's own domain (never verified) is a MessageRejected too: each
participant's mail is then refused, and the host's status names each, with SES's words."""
SANDBOX_HINT = "(is SES still in its sandbox?)"
"""Said of an unverified address: in its sandbox SES sends only to addresses verified in the
account, the first surprise of a new deployment."""


class SesMailer:
    def __init__(
        self,
        client: Any,
        domain: str,
        required_checks: frozenset[str],
        also: Callable[[OutgoingMail], None] | None = None,
    ) -> None:
        self.client = client
        self.domain = domain
        self.required_checks = required_checks
        self._also = also
        """The local stack's outbox: every message sent is also kept there as a file."""

    def send(self, mail: OutgoingMail) -> None:
        if not self.domain:
            return  # a deployment without mail
        try:
            self.client.send_email(Destination={"ToAddresses": [mail.to]}, Content={"Raw": {"Data": mail.raw}})
        except ClientError as error:
            code, said = error.response["Error"].get("Code", ""), error.response["Error"].get("Message", "")
            if code not in REFUSED_FOR_GOOD:
                raise
            hint = f" {SANDBOX_HINT}" if "not verified" in said else ""
            raise MailRefused(code, said + hint) from None
        if self._also is not None:
            self._also(mail)
