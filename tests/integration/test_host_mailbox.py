"""A laptop host playing by mail through their own account (bin/host-server --mail-account
--smtp-relay --imap): the service's mail goes out through the account's SMTP server From the
host's address with replies to `host+<match_id>@example.net`, and the replies are read from the
account's mailbox over IMAP, as far as the provider's Authentication-Results vouch for them.

The provider is played by an aiosmtpd server (STARTTLS, a login) and a small IMAP server over
TLS (tests/integration/imap_responder.py), both on loopback with a certificate of their own: no
network. The provider signs its Authentication-Results as `mx.example.net`.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import logging
import socket
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from imap_responder import ImapResponder
from test_host_server import (  # noqa: F401 - environment: the autouse fixture restoring os.environ
    START,
    environment,
    host,
    http,
    player_url,
    restarted,
    serve,
)

from local_stack.aws.clock import VirtualClock
from local_stack.aws.mail import MailAccount, SmtpRelay
from local_stack.laptop.access import CERTIFICATE_FILE, tls_context
from local_stack.laptop.mailbox import HandIn, ImapSettings, MailboxLoginRefused, MailboxPoller, Read
from local_stack.laptop.server import HostServer
from local_stack.laptop.smtp import SmtpListener

pytestmark = pytest.mark.statemachine

HOST = "host@example.net"
APP_PASSWORD = 'app password "with" quotes\\'
PROVIDER = "mx.example.net"
WAIT = 60.0
"""Real seconds a test waits at most for the poller to read what was delivered (a loaded machine is slow)."""
MATCH = {
    "game": "crates",
    "settings": {},
    "players": [
        {"id": "ada", "name": "Ada", "email": "ada@example.com"},
        {"id": "bo", "name": "Bo", "email": "bo@example.org"},
        {"id": "cy", "name": "Cy"},
    ],
    "host_email": HOST,
    "phase_seconds": 86400,
}
VOUCHED = (
    f"{PROVIDER}; spf=pass smtp.mailfrom={{sender}}; dkim=pass header.d={{domain}}; dmarc=pass header.from={{domain}}"
)


class Provider:
    """The host's mail provider: its SMTP submission server (a login after STARTTLS) keeping
    each envelope, and the account's IMAP mailbox."""

    def __init__(self, folder: Path, **extensions: bool) -> None:
        server_tls = tls_context(folder)
        self.client_tls = ssl.create_default_context(cafile=folder / CERTIFICATE_FILE)
        self.envelopes: list[Any] = []
        self.sessions: list[tuple[bool, Any]] = []
        self.smtp = SmtpListener(self, "127.0.0.1", 0, authenticator=self.login, tls=server_tls)
        self.imap = ImapResponder(server_tls, HOST, APP_PASSWORD, **extensions)

    def login(self, server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        good = isinstance(data, LoginPassword) and (data.login.decode(), data.password.decode()) == (HOST, APP_PASSWORD)
        return AuthResult(success=good, handled=False, auth_data=HOST if good else None)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.sessions.append((session.ssl is not None, session.auth_data))
        self.envelopes.append(envelope)
        return "250 OK"

    def relay(self) -> SmtpRelay:
        account = MailAccount(HOST)
        return SmtpRelay(
            "127.0.0.1", self.smtp.port, user=HOST, password=APP_PASSWORD, account=account, tls=self.client_tls
        )

    def settings(self, **options: Any) -> ImapSettings:
        return ImapSettings("127.0.0.1", self.imap.port, HOST, APP_PASSWORD, PROVIDER, tls=self.client_tls, **options)

    def to(self, address: str) -> list[EmailMessage]:
        return [
            email.message_from_bytes(e.original_content, policy=email.policy.default)  # type: ignore[misc]
            for e in self.envelopes
            if e.rcpt_tos == [address]
        ]

    def stop(self) -> None:
        self.smtp.stop()
        self.imap.stop()


@dataclass
class Hosted:
    server: HostServer
    provider: Provider
    relay: SmtpRelay
    match_id: str
    secrets: dict[str, str]

    @property
    def mailbox(self) -> MailboxPoller:
        assert self.server.mailbox is not None
        return self.server.mailbox

    def read(self, uid: int) -> Read:
        """What became of the message `uid` of the INBOX, once the poller has read it."""
        assert self.mailbox.wait_for(lambda read: any(r.uid == uid for r in read), WAIT), self.mailbox.read
        self.server.stack.settle()
        mail_sent(self.server)
        return next(r for r in self.mailbox.read if r.uid == uid)

    def submitted(self, player: str) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.secrets[player]}"}
        code, view = http(player_url(self.server, self.match_id, player), headers=headers)
        assert code == 200, view
        return dict(view["submitted"])


@pytest.fixture
def provider(tmp_path: Path) -> Iterator[Provider]:
    running = Provider(tmp_path / "provider")
    yield running
    running.stop()


def mail_sent(server: HostServer) -> None:
    """Once the server's relay has had every message due (the mail queue's thread sends them)."""
    assert server.mail_queue is not None
    server.mail_queue.settle()


def start(data: Path, provider: Provider, relay: SmtpRelay, **imap_options: Any) -> HostServer:
    """A host server on the host's account, its clock at START."""
    imap = provider.settings(**imap_options)
    return serve(data, VirtualClock(START), relay=relay, account=MailAccount(HOST), imap=imap)


@pytest.fixture
def hosted(tmp_path: Path, provider: Provider) -> Iterator[Hosted]:
    """A server on the host's account, with a match of Ada, Bo and Cy waiting for the Pregame."""
    relay = provider.relay()
    server = start(tmp_path / "data", provider, relay, done_folder="Matches")
    try:
        created = host(server, "create", match=MATCH)
        server.stack.settle()
        mail_sent(server)
        yield Hosted(server, provider, relay, created["match_id"], created["secrets"])
    finally:
        server.__exit__()


def letter(sender: str, to: str, body: str, *, vouched_by: list[str] | None = None, in_reply_to: str = "") -> bytes:
    """A message as the provider files it: its Authentication-Results on top (`vouched_by`, top
    first; by default the provider's own, saying every check passed for the sender's domain)."""
    domain = sender.rpartition("@")[2]
    results = [VOUCHED.format(sender=sender, domain=domain)] if vouched_by is None else vouched_by
    message = EmailMessage()
    for value in results:
        message["Authentication-Results"] = value
    message["Received"] = f"from mail.{domain} by {PROVIDER}; Mon, 30 Nov 2026 12:00:00 +0000"
    message["From"], message["To"], message["Subject"] = sender, to, "moves"
    message["Message-ID"] = make_msgid(domain=domain)
    if in_reply_to:
        message["In-Reply-To"] = message["References"] = in_reply_to
    message.set_content(body)
    return message.as_bytes()


def test_a_move_by_mail_goes_through_the_hosts_own_account_both_ways(hosted: Hosted) -> None:
    provider, match_id = hosted.provider, hosted.match_id
    tagged = f"host+{match_id}@example.net"

    # Then the match's opening went to Ada through the account's server, after STARTTLS and a login,
    # From the host's address, replies to the match's tag of it, its Message-ID on the host's domain
    (notice,) = provider.to("ada@example.com")
    assert provider.sessions[0] == (True, HOST)
    assert notice["From"].addresses[0].addr_spec == HOST
    assert str(notice["Reply-To"]) == tagged
    assert str(notice["Message-ID"]).endswith("@example.net>") and match_id in str(notice["Message-ID"])
    assert [e.mail_from for e in provider.envelopes] == [HOST] * len(provider.envelopes)

    # When the host's bank writes to the host, and Ada answers the notice (her client writes to Reply-To)
    bank = provider.imap.deliver(letter("news@bank.example", HOST, "Your statement is ready."))
    answer = letter("ada@example.com", tagged, "MULTIPLIERS 2 1 1 0 -1 -1\n", in_reply_to=str(notice["Message-ID"]))
    uid = provider.imap.deliver(answer)

    # Then her move is stored, answered to her alone through the account, threaded under her mail
    assert hosted.read(uid).outcome == "answered"
    assert hosted.submitted("ada") == {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}}
    (_, reply) = provider.to("ada@example.com")
    assert "Accepted for Pregame" in reply.get_content()
    assert str(reply["In-Reply-To"]) in answer.decode()
    assert str(reply["Reply-To"]) == tagged
    # ...her mail is marked read and moved out of the inbox; the bank's is left as it was, unread
    assert provider.imap.flags(uid) is None
    assert [m.flags for m in provider.imap.folders["Matches"].messages] == [{"\\Seen"}]
    assert provider.imap.flags(bank) == set()
    assert [r.uid for r in hosted.mailbox.read] == [uid]


FORGED = [
    ("no header by the provider", ["mx.evil.example; dmarc=pass header.from=example.com"]),
    (
        "the provider's fail on top, a pass under its name written below by the sender",
        [
            f"{PROVIDER}; spf=pass smtp.mailfrom=eve@evil.example; dmarc=fail header.from=example.com",
            f"{PROVIDER}; dmarc=pass header.from=example.com",
        ],
    ),
]


@pytest.mark.parametrize("vouched_by", [case for _, case in FORGED], ids=[name for name, _ in FORGED])
def test_a_forged_sender_changes_nothing_and_gets_no_answer_beyond_a_log_line(
    hosted: Hosted, vouched_by: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    # When someone mails Ada's move, and the host's EXTEND, from addresses not theirs
    tagged = f"host+{hosted.match_id}@example.net"
    before = host(hosted.server, "status", match_id=hosted.match_id)
    sent = len(hosted.provider.envelopes)
    with caplog.at_level(logging.WARNING, logger="host-server"):
        move = hosted.provider.imap.deliver(
            letter("ada@example.com", tagged, "MULTIPLIERS 2 1 1 0 -1 -1\n", vouched_by=vouched_by)
        )
        extend = hosted.provider.imap.deliver(letter(HOST, tagged, "EXTEND 48\n", vouched_by=vouched_by))

        # Then neither is handed in: nothing stored, the clock as it was, nobody answered
        assert [hosted.read(uid).outcome for uid in (move, extend)] == ["untrusted", "untrusted"]
    assert hosted.submitted("ada") == {}
    assert host(hosted.server, "status", match_id=hosted.match_id)["open"] == before["open"]
    assert len(hosted.provider.envelopes) == sent
    # ...but for a line each in the host's log, which names neither address
    refusals = [record.getMessage() for record in caplog.records if "not taken" in record.getMessage()]
    assert len(refusals) == 2 and not any("@" in line for line in refusals), refusals
    # ...and both stay in the inbox, unread, for the host to see
    assert hosted.provider.imap.flags(move) == hosted.provider.imap.flags(extend) == set()


def test_a_mail_read_twice_is_applied_once_and_a_restart_reads_what_came_meanwhile(
    tmp_path: Path, provider: Provider
) -> None:
    # Given the host's EXTEND 2 by mail, read and done (an extension of two hours)
    relay = provider.relay()
    data = tmp_path / "data"
    server = start(data, provider, relay)
    try:
        created = host(server, "create", match=MATCH)
        match_id = created["match_id"]
        tagged = f"host+{match_id}@example.net"
        deadline = host(server, "status", match_id=match_id)["open"]["deadline"]
        extend = provider.imap.deliver(letter(HOST, tagged, "EXTEND 2\n"))
        assert server.mailbox is not None
        assert server.mailbox.wait_for(lambda read: [r.uid for r in read] == [extend], WAIT)
        server.stack.settle()
        extended = host(server, "status", match_id=match_id)["open"]["deadline"]
        mail_sent(server)
        answers = len(provider.to(HOST))

        # When the inbox is made anew (every message gets a new UID: a poller reads them again)
        server.mailbox.stop()
        provider.imap.recreate()
        again = MailboxPoller(provider.settings(), MailAccount(HOST), server.mail_function, data)
        (read,) = again.poll_once()

        # Then the mail function knows it: nothing extended twice, no second answer
        assert read.outcome != "answered"
        server.stack.settle()
        assert host(server, "status", match_id=match_id)["open"]["deadline"] == extended != deadline
        mail_sent(server)
        assert len(provider.to(HOST)) == answers == 1

        # When the server stops, and Ada's move arrives while it is down
        server.stack.settle()
        server.__exit__()
        move = provider.imap.deliver(letter("ada@example.com", tagged, "MULTIPLIERS 2 1 1 0 -1 -1\n"))
        server = start(data, provider, relay)

        # Then the new server reads it on its start, and nothing read before
        assert server.mailbox is not None
        assert server.mailbox.wait_for(lambda read: bool(read), WAIT)
        server.stack.settle()
        assert [(r.uid, r.outcome) for r in server.mailbox.read] == [(move, "answered")]
        ada = {"Authorization": f"Bearer {created['secrets']['ada']}"}
        view = http(player_url(server, match_id, "ada"), headers=ada)[1]
        assert view["submitted"] == {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}}
    finally:
        server.__exit__()


Handed = tuple[bytes, list[str], dict[str, str], str]


def failing_once(handed: list[Handed]) -> HandIn:
    """A mail function that fails the first time (the table unavailable), then answers; keeps what it was handed."""

    def mail_function(raw: bytes, recipients: list[str], verdicts: dict[str, str], message_id: str) -> dict[str, Any]:
        handed.append((raw, recipients, verdicts, message_id))
        if len(handed) == 1:
            raise RuntimeError("EmailInFunction failed: TableUnavailable")
        return {"outcomes": ["answered"]}

    return mail_function


def test_without_idle_the_mailbox_is_polled_a_failed_hand_in_is_tried_again_and_a_read_mail_copied_out(
    tmp_path: Path,
) -> None:
    # Given a provider offering neither IDLE nor MOVE, and a mail function failing once
    provider = Provider(tmp_path / "provider", idle=False, move=False)
    handed: list[Handed] = []
    mail_function = failing_once(handed)
    settings = provider.settings(done_folder="Matches", poll_seconds=0.05, max_bytes=4000)
    poller = MailboxPoller(settings, MailAccount(HOST), mail_function, tmp_path)
    assert poller.poll_once() == []  # the first start: the mailbox's history is none of the matches'
    try:
        poller.start()
        # When a mail larger than SES takes comes to a match's tag, then Ada's (X-Original-To: she sent it Bcc)
        big = provider.imap.deliver(letter("bo@example.org", "host+m-0123456789ab@example.net", "x" * 4000))
        raw = letter("ada@example.com", "undisclosed-recipients:;", "MULTIPLIERS 2 1 1 0 -1 -1\n")
        uid = provider.imap.deliver(b"X-Original-To: host+m-0123456789ab@example.net\r\n" + raw)

        # Then hers is handed in once the mail function takes it, on a later look
        assert poller.wait_for(lambda read: len(read) == 2, WAIT), poller.read
    finally:
        poller.stop()
        provider.stop()
    assert poller.read == [Read(big, "too_large"), Read(uid, "answered")]
    assert len(handed) == 2
    assert provider.imap.flags(big) == set()  # left unread in the inbox
    # ...both times as the same message (SES's id made from its bytes), to the match's own address
    # (the provider's header said every check passed: SES's verdicts say so too)
    tagged = b"X-Original-To: host+m-0123456789ab@example.net\r\n" + raw
    passed = {"spf": "PASS", "dkim": "PASS", "dmarc": "PASS"}
    assert (
        handed[0]
        == handed[1]
        == (tagged, ["m-0123456789ab@play.local"], passed, hashlib.sha256(tagged).hexdigest()[:40])
    )
    # ...then copied to the folder (made first), its copy in the inbox flagged deleted and expunged; no IDLE
    assert provider.imap.flags(uid) is None
    assert [m.flags for m in provider.imap.folders["Matches"].messages] == [{"\\Seen"}]
    asked = provider.imap.commands
    assert (asked["IDLE"], asked["CREATE"], asked["UID COPY"], asked["UID EXPUNGE"]) == (0, 1, 1, 1)


def test_an_idling_poller_takes_a_failed_mail_again_without_waiting_for_new_mail(tmp_path: Path) -> None:
    # Given a provider offering IDLE, and a mail function failing once
    provider = Provider(tmp_path / "provider")
    handed: list[Handed] = []
    poller = MailboxPoller(provider.settings(poll_seconds=0.05), MailAccount(HOST), failing_once(handed), tmp_path)
    assert poller.poll_once() == []
    try:
        poller.start()
        # When Ada's mail arrives, and nothing after it
        uid = provider.imap.deliver(letter("ada@example.com", "host+m-0123456789ab@example.net", "STATUS\n"))

        # Then it is taken on a look after the failure, not on the next mail's arrival (there is none)
        assert poller.wait_for(lambda read: bool(read), WAIT), poller.read
    finally:
        poller.stop()
        provider.stop()
    assert (poller.read, len(handed)) == ([Read(uid, "answered")], 2)


class TlsCatcher:
    """An SMTP server's handler keeping each envelope with the login and whether TLS carried it."""

    def __init__(self) -> None:
        self.received: list[tuple[Any, Any, bool]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.received.append((envelope, session.auth_data, server.transport.get_extra_info("ssl_object") is not None))
        return "250 OK"


def test_the_relay_on_port_465_speaks_tls_from_the_start_and_logs_in(tmp_path: Path) -> None:
    # Given the provider's submission server taking TLS from the first byte (port 465's way)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    catcher = TlsCatcher()
    accept = lambda server, session, envelope, mechanism, data: AuthResult(success=True, auth_data=data.login)  # noqa: E731
    server = Controller(
        catcher,
        hostname="127.0.0.1",
        port=port,
        ssl_context=tls_context(tmp_path),
        authenticator=accept,
        auth_require_tls=False,  # aiosmtpd counts STARTTLS alone as TLS: this connection is TLS throughout
    )
    server.start()
    try:
        # When the service's mail goes out through it on the host's account
        client_tls = ssl.create_default_context(cafile=tmp_path / CERTIFICATE_FILE)
        relay = SmtpRelay(
            "127.0.0.1",
            port,
            user=HOST,
            password=APP_PASSWORD,
            security="ssl",
            account=MailAccount(HOST),
            tls=client_tls,
        )
        raw = b"From: m-0123456789ab@play.local\r\nTo: ada@example.com\r\nSubject: Pregame\r\n\r\nHello Ada,\r\n"
        assert relay.send(raw, ["ada@example.com"]) == {}
    finally:
        server.stop()

    # Then it went over TLS, logged in as the host, from the host's address, replies to the match's tag
    ((envelope, login, over_tls),) = catcher.received
    assert (envelope.mail_from, envelope.rcpt_tos, login, over_tls) == (HOST, ["ada@example.com"], HOST.encode(), True)
    assert b"Reply-To: host+m-0123456789ab@example.net" in envelope.original_content


def test_a_login_the_mailbox_refuses_stops_the_server_from_starting_in_one_line(
    tmp_path: Path, provider: Provider
) -> None:
    # When the host starts the server with a wrong app password for the mailbox
    wrong = ImapSettings(
        "127.0.0.1", provider.imap.port, HOST, "not the app password", PROVIDER, tls=provider.client_tls
    )
    server = HostServer(
        tmp_path / "data", port=0, clock=VirtualClock(START), games=("crates",), account=MailAccount(HOST), imap=wrong
    )
    with pytest.raises(MailboxLoginRefused) as refused:
        server.__enter__()

    # Then it says whose login was refused, and where to put the right password (never the wrong one)
    message = str(refused.value)
    assert f"127.0.0.1:{provider.imap.port} refused the login of {HOST}" in message and "$IMAP_PASSWORD" in message
    assert "not the app password" not in message and "\n" not in message
    # ...and holds nothing: a server with the right one starts on the same folder
    start(tmp_path / "data", provider, provider.relay()).__exit__()
