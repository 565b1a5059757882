"""The host server's mail port (bin/host-server --smtp-port): mail for <match_id>@play.local from
a session logged in as its sender, handed to the mail function as SES's receipt rule would.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import threading
from collections.abc import Callable
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope, Session

from game_core.mail.addresses import match_for
from game_core.mail.inbound import parse_message
from game_core.match.model import Match
from local_stack.aws.inbound_bucket import SES_MAX_BYTES
from local_stack.aws.mail import LOCAL_DOMAIN
from local_stack.aws.stack import LocalStack
from local_stack.laptop.access import (
    Authenticator,
    LoginSmtp,
    MailLogin,
)

logger = logging.getLogger("host-server")


class MailDrop:
    """aiosmtpd's handler: mail for <anything>@play.local from a session logged in as its sender
    (`MailLogin.refusal`) handed to the mail function as SES's receipt rule would, any other
    recipient refused (this is no relay). `match` reads a match (None: there is none)."""

    def __init__(self, stack: LocalStack, match: Callable[[str], Match | None]) -> None:
        self.stack = stack
        self.match = match

    async def handle_RCPT(  # noqa: N802 - aiosmtpd's hook names
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        if address.rpartition("@")[2].lower() != LOCAL_DOMAIN:
            return f"550 5.7.1 only mail for @{LOCAL_DOMAIN} is taken here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802
        raw = envelope.original_content or b""
        try:  # the function holds moto's lock while it runs: not on the event loop
            return await asyncio.get_running_loop().run_in_executor(
                None, self._take, raw, envelope.rcpt_tos, session.auth_data
            )
        except RuntimeError:
            logger.exception("the mail function failed")
            return "451 4.3.0 not taken this time: try again later"

    def _take(self, raw: bytes, recipients: list[str], login: object) -> str:
        if not isinstance(login, MailLogin):
            return "530 5.7.0 Authentication required"
        letter = parse_message(raw)
        match_id = match_for(recipients, letter.subject, LOCAL_DOMAIN)
        match = None if match_id is None else self.match(match_id)
        if match is None:
            return "550 5.1.1 no match has this address"
        refusal = login.refusal(match, letter.sender, letter.text)
        if refusal is not None:
            return f"553 5.7.1 {refusal}"
        self.stack.mail_in.hand_in(raw, recipients, None)  # failing: 451, and the sender tries again
        return "250 OK"


class SmtpListener:
    """An aiosmtpd server on its own event loop thread (port 0: any free port, read `port`).

    With an `authenticator`, nothing is taken before a login (530), which `LoginSmtp` takes in
    plain text from loopback only, and from elsewhere after STARTTLS with `tls`."""

    def __init__(
        self,
        handler: object,
        host: str,
        port: int,
        *,
        authenticator: Authenticator | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.loop = asyncio.new_event_loop()
        # As SES takes mail: up to 40 MB, so the service can answer what is over its 10 MB
        settings: dict[str, Any] = {"hostname": LOCAL_DOMAIN, "data_size_limit": SES_MAX_BYTES}
        if authenticator is not None:
            settings.update(authenticator=authenticator, auth_required=True, tls_context=tls)
        factory = lambda: LoginSmtp(handler, **settings)  # noqa: E731
        self.server = self.loop.run_until_complete(self.loop.create_server(factory, host, port))
        self.port: int = self.server.sockets[0].getsockname()[1]
        self.thread = threading.Thread(target=self.loop.run_forever, name=f"smtp-{self.port}", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()
