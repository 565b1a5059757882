"""`bin/host-server --tls-ca-file`: a company's or provider's mail servers whose certificates an
authority of their own signs (not one the system trusts) are trusted for SMTP and IMAP once that
authority's certificate is given; without it, each says so in one line naming the option.

The authority and the servers' certificate are made here (cryptography); the servers are an
aiosmtpd relay taking STARTTLS and tests/integration/imap_responder.py, both on loopback.
"""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from imap_responder import ImapResponder
from test_host_mail_queue import free_port

from game_core.cli.failures import OneLineParser
from local_stack.aws.mail import MailAccount, RelayUnavailable
from local_stack.laptop.mail_options import MailOptions, add_mail_options, mail_options
from local_stack.laptop.mailbox import MailboxNotTrusted, MailboxPoller

ACCOUNT = "host@corp.example"
PASSWORD = "app password"
MESSAGE = b"From: m-0123456789ab@play.local\r\nTo: ada@example.com\r\nSubject: Pregame\r\n\r\nHello Ada,\r\n"


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def company_authority(folder: Path) -> tuple[Path, ssl.SSLContext]:
    """A certificate authority of the test's own, its certificate written to `folder`/ca.pem, and
    the servers' TLS context: a certificate for 127.0.0.1 it signed."""
    now = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=1)
    later = now + datetime.timedelta(days=3650)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("Corp Example Root CA"))
        .issuer_name(_name("Corp Example Root CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(later)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    certificate = (
        x509.CertificateBuilder()
        .subject_name(_name("mail.corp.example"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(later)
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    (folder / "server.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    (folder / "server.key").write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(folder / "server.pem", folder / "server.key")
    return folder / "ca.pem", server


class Taken:
    """The relay's handler: keeps each envelope, and whether it came over TLS."""

    def __init__(self) -> None:
        self.envelopes: list[tuple[Any, bool]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.envelopes.append((envelope, session.ssl is not None))
        return "250 OK"


@dataclass
class CompanyServers:
    ca_file: Path
    smtp_port: int
    imap: ImapResponder
    taken: Taken

    def options(self, *extra: str) -> MailOptions:
        """What bin/host-server's mail options set up for these servers, with `extra`."""
        parser = OneLineParser(prog="bin/host-server")
        add_mail_options(parser)
        return mail_options(
            parser.parse_args(
                [
                    *("--mail-account", ACCOUNT, "--smtp-relay", f"127.0.0.1:{self.smtp_port}"),
                    *("--imap", f"127.0.0.1:{self.imap.port}", "--trust-authserv-id", "mx.corp.example"),
                    *extra,
                ]
            )
        )


@pytest.fixture
def servers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[CompanyServers]:
    monkeypatch.setenv("SMTP_PASSWORD", PASSWORD)
    ca_file, server_tls = company_authority(tmp_path / "authority")
    taken = Taken()
    accept = lambda server, session, envelope, mechanism, data: True  # noqa: E731 - any login: TLS is the test
    port = free_port()
    smtp = Controller(
        taken, hostname="127.0.0.1", port=port, tls_context=server_tls, require_starttls=True, authenticator=accept
    )
    smtp.start()
    imap = ImapResponder(server_tls, ACCOUNT, PASSWORD)
    try:
        yield CompanyServers(ca_file, port, imap, taken)
    finally:
        smtp.stop()
        imap.stop()


def test_with_the_companys_authority_the_relay_and_the_mailbox_are_trusted(
    servers: CompanyServers, tmp_path: Path
) -> None:
    # When the host gives the company's authority's certificate
    options = servers.options("--tls-ca-file", str(servers.ca_file))
    assert options.relay is not None and options.imap is not None

    # Then the relay takes the service's mail after STARTTLS, and the mailbox is read over TLS
    assert options.relay.send(MESSAGE, ["ada@example.com"]) == {}
    ((envelope, over_tls),) = servers.taken.envelopes
    assert (envelope.mail_from, envelope.rcpt_tos, over_tls) == (ACCOUNT, ["ada@example.com"], True)
    poller = MailboxPoller(options.imap, MailAccount(ACCOUNT), lambda *_: {}, tmp_path)
    assert poller.poll_once() == []  # a first start: nothing of the mailbox's history is read
    assert servers.imap.commands["LOGIN"] == 1


def test_without_it_neither_is_trusted_and_each_says_to_give_it(servers: CompanyServers, tmp_path: Path) -> None:
    # When the host starts without the authority's certificate
    options = servers.options()
    assert options.relay is not None and options.imap is not None

    # Then the relay takes nothing, saying its certificate is not trusted and what to give
    with pytest.raises(RelayUnavailable, match="its certificate is not trusted .*: --tls-ca-file"):
        options.relay.send(MESSAGE, ["ada@example.com"])
    assert servers.taken.envelopes == []
    # ...and the mailbox stops the start in one line, before any login
    poller = MailboxPoller(options.imap, MailAccount(ACCOUNT), lambda *_: {}, tmp_path)
    with pytest.raises(MailboxNotTrusted) as refused:
        poller.start()
    assert f"127.0.0.1:{servers.imap.port}'s certificate is not trusted" in str(refused.value)
    assert "--tls-ca-file" in str(refused.value) and "\n" not in str(refused.value)
    assert servers.imap.commands["LOGIN"] == 0
