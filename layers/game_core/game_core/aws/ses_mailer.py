"""Mail out by SES (v2): each message sent raw, as composed, from the match domain."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game_core.service.ports import OutgoingMail


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
        self.client.send_email(Destination={"ToAddresses": [mail.to]}, Content={"Raw": {"Data": mail.raw}})
        if self._also is not None:
            self._also(mail)
