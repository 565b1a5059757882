"""Mail the local stack sends: an outbox folder for what the service sends (moto's SES also keeps
it); received mail is local_stack/aws/inbound_bucket.py's.

Sent mail lands in the outbox as one `.eml` file per message (`local-outbox/` by default), which
any mail client opens. The host server also sends it through the host's own mail account
(`SmtpRelay`, `MailAccount`): From the host's address, with replies to a plus-address of theirs
that names the match; each message waits in the data folder until the relay takes it
(local_stack/laptop/mail_queue.py).
"""

from __future__ import annotations

import email
import email.policy
import smtplib
import ssl
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from email.utils import formataddr, getaddresses, parseaddr
from pathlib import Path
from typing import Literal

from game_core.mail.addresses import match_address, match_for
from game_core.service.ports import OutgoingMail

LOCAL_DOMAIN = "play.local"
"""The match domain of the local stack: each match takes mail at <match_id>@play.local."""
SmtpSecurity = Literal["starttls", "ssl", "plain"]
"""How the relay's connection is secured: STARTTLS (port 587), TLS from the start (port 465), or
not at all (a relay on the LAN)."""


@dataclass
class Outbox:
    """Every message the local stack's services send, in order; also written to `folder` (one
    `.eml` file each) when one is set, and handed to `relay` (the host server's SMTP relay)."""

    folder: Path | None = None
    sent: list[OutgoingMail] = field(default_factory=list)
    relay: Callable[[OutgoingMail], None] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def keep(self, mail: OutgoingMail) -> None:
        with self._lock:
            self.sent.append(mail)
            number = len(self.sent)
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
            safe_to = "".join(c if c.isalnum() or c in "@.-_" else "_" for c in mail.to)
            (self.folder / f"{stamp}-{number:05d}-{safe_to}.eml").write_bytes(mail.raw)
        if self.relay is not None:
            self.relay(mail)

    def to(self, address: str) -> list[OutgoingMail]:
        with self._lock:
            return [mail for mail in self.sent if mail.to == address]


@dataclass(frozen=True)
class MailAccount:
    """The host's own mail account (`address`: theirs, without a +tag), standing for the match
    domain: the service's mail goes out From it, replies come to `<user>+<match id>@<domain>`
    (plus-addressing, which Gmail, Fastmail, Outlook.com and most providers deliver to the
    account), and mail to such an address is the match's."""

    address: str

    def __post_init__(self) -> None:
        local, at, domain = self.address.rpartition("@")
        if not (at and local and "." in domain) or "+" in local or any(c.isspace() or c in "<>" for c in self.address):
            raise ValueError(f"not an account's own address (user@domain, no +tag): {self.address!r}")

    @property
    def user(self) -> str:
        return self.address.rpartition("@")[0]

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2]

    def reply_address(self, match_id: str) -> str:
        """Where the match's players write: the account's address tagged with the match id."""
        return f"{self.user}+{match_id}@{self.domain}"

    def match_recipient(self, addresses: Iterable[str]) -> str | None:
        """The match's own address (`<match id>@play.local`, as the mail function reads it) of the
        first of `addresses` (header values: each may list several) that is this account's tagged
        with a match id, else None."""
        for _name, address in getaddresses(list(addresses)):
            local, _, domain = address.lower().rpartition("@")
            user, plus, tag = local.partition("+")
            if plus and user == self.user.lower() and domain.rstrip(".") == self.domain.lower():
                match_id = match_for([f"{tag}@{LOCAL_DOMAIN}"], "", LOCAL_DOMAIN)
                if match_id is not None:
                    return match_address(match_id, LOCAL_DOMAIN)
        return None

    def outgoing(self, raw: bytes) -> bytes:
        """A message the service wrote from a match's address, as the account sends it: From the
        account (the display name kept), Reply-To its tag for the match, the Message-ID on its
        domain (a reply's In-Reply-To still names the match and phase)."""
        message = email.message_from_bytes(raw, policy=email.policy.SMTP)
        name, sender = parseaddr(str(message["From"]))
        match_id = match_for([sender], "", LOCAL_DOMAIN)
        message.replace_header("From", formataddr((name, self.address)))
        if match_id is not None:
            del message["Reply-To"]
            message["Reply-To"] = self.reply_address(match_id)
        message_id = str(message.get("Message-ID", ""))
        if message_id.lower().endswith(f"@{LOCAL_DOMAIN}>"):
            message.replace_header("Message-ID", f"{message_id[: -len(LOCAL_DOMAIN) - 1]}{self.domain}>")
        return message.as_bytes()


class RelayUnavailable(Exception):
    """The relay took a message for none of its recipients, for a reason that may pass and is
    none of theirs: it could not be reached or timed out, dropped the connection, answered 4xx, or
    refused the login or the sender (the host's to fix). The message says what."""


@dataclass(frozen=True)
class Refusal:
    """The relay's answer to one recipient it did not take: for good when a 5xx (RFC 5321 4.2.1),
    else worth trying again."""

    code: int
    said: str

    @property
    def for_good(self) -> bool:
        return 500 <= self.code < 600

    def __str__(self) -> str:
        return f"{self.code} {self.said}"


class SmtpRelay:
    """Sends the service's messages through an SMTP server: the host's own account's (`account`:
    From it, replies to its tag for the match), else one on the LAN taking mail from the match
    addresses as they are. `security`: STARTTLS, TLS from the start, or none; `tls`: the context
    checking the server's certificate (the system's trusted authorities by default). One
    connection per message, each waiting at most `timeout` seconds for an answer; the mail queue
    (local_stack/laptop/mail_queue.py) calls it from a thread of its own."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        user: str = "",
        password: str = "",
        security: SmtpSecurity = "starttls",
        account: MailAccount | None = None,
        tls: ssl.SSLContext | None = None,
        timeout: float = 30,
    ) -> None:
        self.host, self.port = host, port
        self.user, self.password = user, password
        self.security = security
        self.account = account
        self.tls = tls or ssl.create_default_context()
        self.timeout = timeout

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}"

    def send(self, raw: bytes, recipients: Sequence[str]) -> dict[str, Refusal]:
        """Hand `raw` (a message as the service wrote it) to the relay for `recipients`; returns
        each recipient it did not take, with its answer (none: all taken). A 5xx to the message
        itself (DATA) refuses it for all of them. RelayUnavailable when it took none for a
        reason not theirs."""
        message = raw if self.account is None else self.account.outgoing(raw)
        sender = self.account.address if self.account is not None else parseaddr(_header(raw, "From"))[1]
        refused: dict[str, tuple[int, bytes | str]]
        try:
            refused = dict(self._session(sender, list(recipients), message))
        except smtplib.SMTPRecipientsRefused as error:  # none taken; after a 421, the rest never asked
            unasked = (421, b"not asked: the relay closed the session")
            refused = {to: error.recipients.get(to, unasked) for to in recipients}
        except smtplib.SMTPDataError as error:
            if not 500 <= error.smtp_code < 600:
                raise RelayUnavailable(f"{error.smtp_code} {_said(error.smtp_error)}") from None
            refused = {to: (error.smtp_code, error.smtp_error) for to in recipients}
        except smtplib.SMTPResponseException as error:  # the greeting, STARTTLS, the login, the sender
            raise RelayUnavailable(f"{error.smtp_code} {_said(error.smtp_error)}") from None
        except ssl.SSLCertVerificationError as error:
            raise RelayUnavailable(f"its certificate is not trusted ({error.verify_message}): --tls-ca-file") from None
        except OSError as error:  # unreachable, timed out, a dropped connection, TLS (SMTPException too)
            raise RelayUnavailable(error.strerror or str(error) or type(error).__name__) from None
        return {to: Refusal(code, _said(said)) for to, (code, said) in refused.items()}

    def _session(self, sender: str, recipients: list[str], message: bytes) -> dict[str, tuple[int, bytes]]:
        relay = self._connect()
        try:
            if self.security == "starttls":
                relay.starttls(context=self.tls)
            if self.user:
                relay.login(self.user, self.password)
            return relay.sendmail(sender, recipients, message)
        finally:
            try:  # what the relay took is taken: a QUIT it answers badly changes nothing
                relay.quit()
            except OSError:
                relay.close()

    def _connect(self) -> smtplib.SMTP:
        if self.security == "ssl":
            return smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=self.tls)
        return smtplib.SMTP(self.host, self.port, timeout=self.timeout)


def _said(answer: bytes | str) -> str:
    """A server's answer as one line of text."""
    text = answer.decode("utf-8", "replace") if isinstance(answer, bytes) else answer
    return " ".join(text.split())


def _header(raw: bytes, name: str) -> str:
    return str(BytesHeaderParser().parsebytes(raw).get(name, ""))
