"""Who may act on the host server (local_stack/laptop/server.py).

- The host, by the host token: made at the server's first start in DATA/host-token (readable by
  its owner alone), sent by `match-host --server` as `Authorization: Bearer <token>`. The host
  port also refuses a request whose `Host` is not its loopback address (DNS rebinding) or that
  carries a foreign `Origin` (a web page the host visits): neither is the host at their console.
- Each participant by mail, logged in to the SMTP port with their player id or e-mail address and
  their webhook secret (checked against its stored hash, as the webhook checks it), the host with
  the login `host` and the host token (a player whose id is `host` logs in with their e-mail
  address). A login is taken in plain text from this laptop only; from the LAN, after STARTTLS
  (with a self-signed certificate made in the data folder). A mail must come from the address of
  whom its session logged in as (`MailLogin.refusal`).
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import logging
import os
import secrets
import socket
import ssl
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from game_core.cli.host import HOST_TOKEN_FILE
from game_core.errors import Unauthorized
from game_core.match.model import Match
from game_core.service.mail.grammar import HOST_ONLY, read_command
from game_core.service.mail.receive import registered_sender
from game_core.service.matches.submit import authenticate_webhook

HOST_LOGIN = "host"
"""The SMTP login of the host (password: the host token)."""
CERTIFICATE_FILE, KEY_FILE = "smtp-cert.pem", "smtp-key.pem"
CERTIFICATE_DAYS = 3650


def _write_private(path: Path, content: bytes) -> None:
    """`content` in `path`, readable and writable by the owner alone, replaced whole."""
    temporary = path.with_name(f".{path.name}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(content)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def host_token(data: Path) -> str:
    """The host token kept in `data` (made on the first start), its file readable by the owner alone."""
    path = data / HOST_TOKEN_FILE
    token = path.read_text(encoding="utf-8").strip() if path.exists() else ""
    if not token:
        data.mkdir(parents=True, exist_ok=True)
        token = secrets.token_urlsafe(32)
        _write_private(path, f"{token}\n".encode())
    os.chmod(path, 0o600)  # one loosened by hand is tightened again
    return token


def is_token(given: str, token: str) -> bool:
    return hmac.compare_digest(given.encode(), token.encode())


def bearer_is_token(authorization: str, token: str) -> bool:
    """Whether an Authorization header is `Bearer <token>` (the scheme in any case)."""
    scheme, _, credentials = authorization.strip().partition(" ")
    return scheme.lower() == "bearer" and is_token(credentials.strip(), token)


def foreign_refusal(headers: Mapping[str, str], port: int) -> str | None:
    """Why a request to the host port on loopback `port` is not from the host's own console (a
    web page's request, or one through DNS rebinding), or None when it may be."""
    own = (f"127.0.0.1:{port}", f"localhost:{port}")
    if headers.get("host", "").lower() not in own:
        return f"host commands are taken for Host 127.0.0.1:{port} only"
    origin = headers.get("origin")
    if origin is not None and origin.lower() not in [f"http://{address}" for address in own]:
        return "host commands are not taken from a web page"
    return None


# -- mail ---------------------------------------------------------------------------------------


def plaintext_login_allowed(peer_ip: str) -> bool:
    """A login in plain text only from this laptop: on the LAN, its secret would be in the clear."""
    return is_loopback(peer_ip)


def is_loopback(peer_ip: str) -> bool:
    """Whether a peer's address is this laptop's own (IPv4, IPv6, or IPv4 mapped into IPv6)."""
    try:
        address = ipaddress.ip_address(peer_ip)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


@dataclass(frozen=True)
class MailLogin:
    """Whom an SMTP session logged in as: the host, or participants (match id -> their id)."""

    host: bool = False
    participants: Mapping[str, str] = field(default_factory=dict)

    def refusal(self, match: Match, sender: str, text: str) -> str | None:
        """Why this login may not send a mail from `sender` saying `text` to `match`, or None."""
        registered = registered_sender(match, sender)
        if self.host:
            if registered is None or not registered.is_host:
                return "logged in as the host: send from the host's address of the match"
            return None
        player = self.participants.get(match.match_id)
        if player is None:
            return f"not logged in as a participant of match {match.match_id}"
        if registered is None or registered.player is None or registered.player.id != player:
            return f"logged in as {player}: send from the address the match has for {player}"
        command = read_command(text)
        if registered.is_host and command is not None and command.keyword in HOST_ONLY:
            return f"{command.keyword} is a host command: log in as {HOST_LOGIN} with the host token"
        return None


LEGACY_LOGIN_WARNING = "Session.login_data is deprecated"


def _not_aiosmtpds_own_legacy_warning(record: logging.LogRecord) -> bool:
    """aiosmtpd 1.4 logs that `Session.login_data` is deprecated at every login an authenticator
    accepts, for it sets that attribute itself (aio-libs/aiosmtpd#347, open): this service reads
    only `session.auth_data`, the AuthResult's, so the line says nothing of it."""
    return not record.getMessage().startswith(LEGACY_LOGIN_WARNING)


class Authenticator:
    """aiosmtpd's authenticator: a login for the host (its token) or for participants (their
    secret, in every match where the login names them), given to the session as its `auth_data`.
    `candidates` gives the matches that may name a login (the server's login index: a login reads
    those alone, not every match); each is checked as stored. `LoginSmtp` calls it on a worker
    thread, never on the SMTP event loop: its reads wait on the table like any request."""

    def __init__(self, token: str, candidates: Callable[[str], Iterable[Match]]) -> None:
        self.token = token
        self.candidates = candidates
        logging.getLogger("mail.log").addFilter(_not_aiosmtpds_own_legacy_warning)  # once: a filter is added once

    def __call__(self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any) -> AuthResult:
        if not isinstance(data, LoginPassword):
            return AuthResult(success=False, handled=False)
        login = self.login(data.login.decode("utf-8", "replace").strip(), data.password.decode("utf-8", "replace"))
        return AuthResult(success=login is not None, handled=False, auth_data=login)

    def login(self, name: str, password: str) -> MailLogin | None:
        if name.lower() == HOST_LOGIN:
            return MailLogin(host=True) if is_token(password, self.token) else None
        participants = {}
        for match in self.candidates(name):
            for participant in match.players:
                if name.lower() not in (participant.id.lower(), (participant.email or "").strip().lower()):
                    continue
                try:
                    authenticate_webhook(match, participant.id, password)
                except Unauthorized:
                    continue
                participants[match.match_id] = participant.id
        return MailLogin(participants=participants) if participants else None


@dataclass(frozen=True)
class _Unchecked:
    """A login aiosmtpd has read, not yet checked (`LoginSmtp`)."""

    mechanism: str
    data: Any


class LoginSmtp(SMTP):
    """aiosmtpd's SMTP, taking a login in plain text from loopback, and from elsewhere only after
    STARTTLS (aiosmtpd decides by one setting for every connection: set here per connection).

    aiosmtpd calls the authenticator synchronously on the event loop that serves every session,
    so a login waiting on the table would hold them all: here its `_authenticate` only notes the
    credentials its PLAIN and LOGIN exchanges read, and those are checked on a worker thread."""

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        peer = self.session.peer if self.session is not None else None
        self._auth_require_tls = not (isinstance(peer, tuple) and plaintext_login_allowed(str(peer[0])))

    def _authenticate(self, mechanism: str, auth_data: Any) -> AuthResult:
        return AuthResult(success=False, handled=False, auth_data=_Unchecked(mechanism, auth_data))

    async def auth_PLAIN(self, server: SMTP, args: list[str]) -> AuthResult:  # noqa: N802 - aiosmtpd's name
        return await self._checked(await super().auth_PLAIN(server, args))

    async def auth_LOGIN(self, server: SMTP, args: list[str]) -> AuthResult:  # noqa: N802 - aiosmtpd's name
        return await self._checked(await super().auth_LOGIN(server, args))

    async def _checked(self, read: AuthResult) -> AuthResult:
        unchecked = read.auth_data
        if not isinstance(unchecked, _Unchecked):  # the exchange itself failed: as aiosmtpd answered it
            return read
        check = super()._authenticate
        return await asyncio.get_running_loop().run_in_executor(None, check, unchecked.mechanism, unchecked.data)


def tls_context(data: Path) -> ssl.SSLContext:
    """The SMTP port's STARTTLS context, with the certificate kept in `data` (made on first use:
    self-signed, for this laptop's name, localhost and 127.0.0.1)."""
    certificate, key = data / CERTIFICATE_FILE, data / KEY_FILE
    if not (certificate.exists() and key.exists()):
        _write_self_signed(certificate, key)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certificate, key)
    return context


def certificate_fingerprint(data: Path) -> str:
    """The SHA-256 fingerprint of the SMTP certificate, as a mail client shows it to check."""
    certificate = x509.load_pem_x509_certificate((data / CERTIFICATE_FILE).read_bytes())
    return certificate.fingerprint(hashes.SHA256()).hex(":").upper()


def _write_self_signed(certificate: Path, key_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    hostname = socket.gethostname()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hostname)])
    now = datetime.now(UTC)
    names = [x509.DNSName(hostname), x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    signed = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=CERTIFICATE_DAYS))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    certificate.parent.mkdir(parents=True, exist_ok=True)
    _write_private(
        key_path,
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()),
    )
    certificate.write_bytes(signed.public_bytes(serialization.Encoding.PEM))
