"""The host's own mailbox, read over IMAP (TLS) for the matches' mail (local_stack/laptop/server.py).

Players reply to the host's plus-addresses (`me+<match id>@example.com`, `mail.MailAccount`),
which the provider delivers to the host's mailbox. The poller reads each message that arrived
since its last pass, in order (a cursor of UIDs kept in the data folder, so a restart resumes
where it stood and reads nothing twice): the headers of every one, the whole of those addressed
to a match's tag (To, Cc, Delivered-To, X-Original-To), never the host's other mail. A tagged
message is handed to the mail function as SES hands it (stored, then notified) only when the provider's
Authentication-Results vouch for its From address (`mail_trust`); a forged one gets a log line
and nothing else. Each message handed in keeps an id made from its bytes, so one read again (a
crash between the hand-in and the cursor, a folder recreated) is recognised by the store's marks
and applied once. Then it is flagged \\Seen, and moved to `done_folder` when one is set.

A bounce of mail sent through the account comes back to its plain address, not a tag: such a
message is the match's when it is a bounce (`mail.automatic`, told from its headers before its
body is read) returning one of the match's mails (its Message-ID `<match id>.…@` the account's
domain, `MailAccount.outgoing`), and it is handed in the same way (if the provider vouches for
its sender), so the host's status shows it as on AWS. Any other message to the plain address is
neither read beyond its headers nor marked.

It waits with IDLE where the server offers it (woken as mail arrives), else polls every
`poll_seconds`; a lost connection is opened again after `poll_seconds`.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import json
import logging
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.utils import getaddresses
from pathlib import Path
from typing import Any

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError

from game_core.cli.failures import CliError
from game_core.mail.addresses import match_address, match_for
from game_core.mail.automatic import Kind, automatic
from game_core.mail.ses import CHECKS
from local_stack.aws.inbound_bucket import SES_MAX_BYTES
from local_stack.aws.mail import LOCAL_DOMAIN, MailAccount
from local_stack.laptop.mail_trust import trust
from local_stack.laptop.persistence import write_durably

logger = logging.getLogger("host-server")
ROUTING_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To")
"""Where a message's tagged address may stand (the last two: the envelope, as providers record it)."""
IDLE_SECONDS = 25 * 60
"""How long one IDLE lasts at most: servers may drop an IDLE after 30 minutes (RFC 2177)."""
STATE_FILE = "imap-cursor.json"


@dataclass(frozen=True)
class ImapSettings:
    """Where the host's mailbox is and how it is read. `authserv_id`: the name the host's provider
    signs its Authentication-Results with (Gmail: mx.google.com); `tls`: the context checking
    the server's certificate (the system's trusted authorities by default)."""

    host: str
    port: int
    user: str
    password: str
    authserv_id: str
    folder: str = "INBOX"
    done_folder: str = ""
    poll_seconds: float = 60
    tls: ssl.SSLContext | None = None
    max_bytes: int = SES_MAX_BYTES
    """A larger message is left unread (SES refuses it before storing it)."""


HandIn = Callable[[bytes, list[str], dict[str, str], str], dict[str, Any]]
"""Hands a received message to the mail function as SES does: (raw, recipients, verdicts, SES's
message id) -> the function's reply ({"outcomes": [...]})."""


class MailboxLoginRefused(CliError):
    """The IMAP server refused the account's login (bin/host-server says so in one line)."""

    def __init__(self, settings: ImapSettings, error: Exception) -> None:
        super().__init__(
            f"{settings.host}:{settings.port} refused the login of {settings.user} ({error}): "
            "check the app password in $IMAP_PASSWORD, $SMTP_PASSWORD or --imap-password-file"
        )


class MailboxNotTrusted(CliError):
    """The IMAP server's certificate is signed by no authority this server trusts (one line)."""

    def __init__(self, settings: ImapSettings, error: ssl.SSLCertVerificationError) -> None:
        super().__init__(
            f"{settings.host}:{settings.port}'s certificate is not trusted ({error.verify_message}): a server "
            "whose certificate its provider or company signs with an authority of its own needs that "
            "authority's certificate in --tls-ca-file"
        )


@dataclass(frozen=True)
class Read:
    """What became of one message of a match: the mail function's outcome, or why it was not handed in."""

    uid: int
    outcome: str


class MailboxPoller:
    """Reads the host's mailbox for the matches' mail and hands each message to `hand_in` (the
    message, its recipients, the verdicts and SES's message id: the mail function's reply);
    `state`: the folder keeping the cursor."""

    def __init__(self, settings: ImapSettings, account: MailAccount, hand_in: HandIn, state: Path) -> None:
        self.settings = settings
        self.account = account
        self.hand_in = hand_in
        self.cursor_file = state / STATE_FILE
        self.read: list[Read] = []
        """Every message of a match read (tagged, or a bounce of its mail), in order."""
        self._passed = threading.Condition()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._behind = False
        """Whether the last pass left a mail to take again (the mail function failed on it)."""

    # -- running ---------------------------------------------------------------------------

    def start(self) -> None:
        """Read the mailbox now, then whenever mail arrives, on a thread of its own, until `stop`.
        A login the server refuses raises `MailboxLoginRefused`, a certificate not trusted
        `MailboxNotTrusted` (the settings are wrong: nothing would ever be read); a server out of
        reach is tried again on the thread."""
        try:
            self.poll_once()
        except LoginError as error:
            raise MailboxLoginRefused(self.settings, error) from None
        except ssl.SSLCertVerificationError as error:  # as wrong as a refused login: it would never pass
            raise MailboxNotTrusted(self.settings, error) from None
        except (IMAPClientError, OSError) as error:
            logger.warning("the mailbox %s: %s (trying again)", self.settings.host, error)
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="imap", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def wait_for(self, done: Callable[[list[Read]], bool], timeout: float) -> bool:
        """Wait (in real time, at most `timeout` s) until what was read so far is `done`."""
        with self._passed:
            return self._passed.wait_for(lambda: done(self.read), timeout)

    def poll_once(self) -> list[Read]:
        """One pass over the mailbox on a connection of its own: what it read."""
        with self._session() as client:
            return self._pass(client)

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                with self._session() as client:
                    while not self._stopping.is_set():
                        self._pass(client)
                        self._wait(client)
            except (IMAPClientError, OSError) as error:  # ssl.SSLError is an OSError
                settings = self.settings
                logger.warning("the mailbox %s: %s (again in %s s)", settings.host, error, settings.poll_seconds)
                self._stopping.wait(self.settings.poll_seconds)

    @contextmanager
    def _session(self) -> Iterator[IMAPClient]:
        settings = self.settings
        context = settings.tls or ssl.create_default_context()
        client = IMAPClient(settings.host, settings.port, ssl=True, ssl_context=context, timeout=60)
        try:
            client.login(settings.user, settings.password)
            if settings.done_folder and not client.folder_exists(settings.done_folder):
                client.create_folder(settings.done_folder)
            yield client
        finally:
            try:
                client.logout()
            except (IMAPClientError, OSError):
                client.shutdown()

    def _wait(self, client: IMAPClient) -> None:
        """Until mail arrives (IDLE), or for `poll_seconds` where IDLE is not offered or a mail is
        still to be taken again (no new mail would wake an IDLE for it); at once on `stop`."""
        if self._behind or b"IDLE" not in client.capabilities():
            self._stopping.wait(self.settings.poll_seconds)
            return
        client.idle()
        try:
            until = time.monotonic() + IDLE_SECONDS
            while not self._stopping.is_set() and time.monotonic() < until:
                if client.idle_check(timeout=1):
                    return
        finally:
            client.idle_done()

    # -- one pass --------------------------------------------------------------------------

    def _pass(self, client: IMAPClient) -> list[Read]:
        self._behind = False
        selected = client.select_folder(self.settings.folder)
        validity = int(selected[b"UIDVALIDITY"])
        last = self._last_uid(validity, selected)
        new = sorted(uid for uid in client.search(["UID", f"{last + 1}:*"]) if uid > last)
        read = []
        fetched = client.fetch(new, ["RFC822.SIZE", "BODY.PEEK[HEADER]"]) if new else {}
        for uid in new:
            found = fetched.get(uid, {})
            headers = bytes(found.get(b"BODY[HEADER]", b""))
            message = email.message_from_bytes(headers)
            addresses = [str(value) for name in ROUTING_HEADERS for value in message.get_all(name, [])]
            recipient = self.account.match_recipient(addresses)
            size = int(found.get(b"RFC822.SIZE", 0))
            raw = None
            if recipient is None and size <= self.settings.max_bytes and self._bounce_to_me(addresses, headers):
                raw = self._fetch(client, uid)
                recipient = self._bounced_match(raw)
            if recipient is not None and size > self.settings.max_bytes:
                logger.warning(
                    "mail to %s not taken: %s bytes, over SES's limit",
                    recipient.partition("@")[0],
                    size,
                )
                read.append(Read(uid, "too_large"))
            elif recipient is not None:
                outcome = self._take(client, uid, recipient, raw or self._fetch(client, uid))
                if outcome is None:
                    self._behind = True
                    break  # the mail function failed: read from this one again next time
                read.append(Read(uid, outcome))
            last = uid
        self._save(validity, last)  # also on a first start: mail that comes while it is down is read
        with self._passed:
            self.read += read
            self._passed.notify_all()
        return read

    def _bounce_to_me(self, addresses: list[str], headers: bytes) -> bool:
        """Whether a message is to the account's plain address and its headers say it is a bounce
        (only then is its body read)."""
        own = self.account.address.lower()
        if not any(address.lower() == own for _name, address in getaddresses(addresses)):
            return False
        found = automatic(headers)
        return found is not None and found.kind is Kind.BOUNCE

    def _bounced_match(self, raw: bytes) -> str | None:
        """The address of the match one of whose mails the bounce `raw` returns, else None."""
        bounce = automatic(raw)
        originals = bounce.original_ids if bounce is not None and bounce.kind is Kind.BOUNCE else ()
        for original in originals:
            tag, _, domain = original.strip("<>").partition("@")
            if domain.lower() == self.account.domain.lower():
                match_id = match_for([f"{tag.partition('.')[0]}@{LOCAL_DOMAIN}"], "", LOCAL_DOMAIN)
                if match_id is not None:
                    return match_address(match_id, LOCAL_DOMAIN)
        return None

    @staticmethod
    def _fetch(client: IMAPClient, uid: int) -> bytes:
        """The whole message, left unread (PEEK: no \\Seen flag)."""
        return bytes(client.fetch([uid], ["BODY.PEEK[]"])[uid][b"BODY[]"])

    def _take(self, client: IMAPClient, uid: int, recipient: str, raw: bytes) -> str | None:
        """Hand one message of a match in if its sender is vouched for, and mark it; its outcome
        (None: the mail function failed)."""
        verdict = trust(email.message_from_bytes(raw, policy=email.policy.default), self.settings.authserv_id)
        if not verdict.sender:
            logger.warning("mail to %s not taken: %s", recipient.partition("@")[0], verdict.reason)
            return "untrusted"
        verdicts = {check: "GRAY" for check in CHECKS} | {m: r for m, r in verdict.verdicts if m in CHECKS}
        try:
            outcomes = self.hand_in(raw, [recipient], verdicts, hashlib.sha256(raw).hexdigest()[:40])["outcomes"]
        except RuntimeError:
            logger.exception("the mail function failed on a mail to %s", recipient.partition("@")[0])
            return None
        client.add_flags([uid], [b"\\Seen"])
        if self.settings.done_folder:
            self._move(client, uid)
        return ",".join(outcomes)

    def _move(self, client: IMAPClient, uid: int) -> None:
        if b"MOVE" in client.capabilities():
            client.move([uid], self.settings.done_folder)
            return
        client.copy([uid], self.settings.done_folder)
        client.delete_messages([uid])
        if b"UIDPLUS" in client.capabilities():
            client.uid_expunge([uid])

    # -- the cursor ------------------------------------------------------------------------

    def _last_uid(self, validity: int, selected: dict[bytes, Any]) -> int:
        """The UID read last in the folder: from the cursor while the folder is the same one
        (UIDVALIDITY); from its start once it was made anew; on a first start, the newest
        message's (the mailbox's history is none of the matches')."""
        try:
            cursor = json.loads(self.cursor_file.read_text())
        except (OSError, ValueError):
            cursor = None
        if isinstance(cursor, dict) and cursor.get("folder") == self.settings.folder:
            return int(cursor["last_uid"]) if cursor.get("uidvalidity") == validity else 0
        return int(selected.get(b"UIDNEXT", 1)) - 1

    def _save(self, validity: int, last: int) -> None:
        cursor = {"folder": self.settings.folder, "uidvalidity": validity, "last_uid": last}
        write_durably(self.cursor_file, json.dumps(cursor).encode())
