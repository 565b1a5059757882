"""bin/host-server's options for the host's own mail account: the relay the service's mail goes
out through, and the IMAP mailbox players' replies are read from.

Passwords are never options (a command line is visible to every user of the machine, `ps`):
each comes from a file (`--smtp-password-file`, `--imap-password-file`) or an environment
variable (`$SMTP_PASSWORD`, `$IMAP_PASSWORD`); the mailbox's is the relay's unless given, as a
provider's app password is one for both.
"""

from __future__ import annotations

import argparse
import os
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from game_core.cli.failures import CliError
from local_stack.aws.mail import MailAccount, SmtpRelay, SmtpSecurity
from local_stack.laptop.mailbox import ImapSettings

IMAP_TLS_PORT = 993
SMTP_PORTS: dict[str, int] = {"starttls": 587, "ssl": 465, "plain": 25}


@dataclass(frozen=True)
class MailOptions:
    """What the options set up: each part None when not asked for."""

    account: MailAccount | None
    relay: SmtpRelay | None
    imap: ImapSettings | None


def add_mail_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "mail through the host's own account (passwords: files or environment, never options)"
    )
    group.add_argument(
        "--mail-account",
        metavar="ADDRESS",
        help="your own address: the service's mail goes out From it, players reply to ADDRESS tagged +<match_id>",
    )
    group.add_argument("--smtp-relay", metavar="HOST[:PORT]", help="send the service's mail through this server")
    group.add_argument(
        "--smtp-security",
        choices=get_args(SmtpSecurity),
        default="starttls",
        help="starttls (port 587, the default), ssl (port 465), plain (a relay on the LAN)",
    )
    group.add_argument(
        "--smtp-user", default=os.environ.get("SMTP_USER", ""), help="its login ($SMTP_USER; default: --mail-account)"
    )
    group.add_argument("--smtp-password-file", type=Path, help="a file holding its password (default: $SMTP_PASSWORD)")
    group.add_argument(
        "--imap", metavar="HOST[:PORT]", help="read --mail-account's mailbox at this IMAP server (TLS, port 993)"
    )
    group.add_argument("--imap-user", help="its login (default: --mail-account)")
    group.add_argument(
        "--imap-password-file",
        type=Path,
        help="a file holding its password (default: $IMAP_PASSWORD, else the relay's)",
    )
    group.add_argument("--imap-folder", default="INBOX", help="the folder players' mail arrives in (default: INBOX)")
    group.add_argument("--imap-done-folder", default="", help="move each mail read there (default: only mark it read)")
    group.add_argument(
        "--imap-poll-seconds",
        type=float,
        default=60,
        help="how often to look where the server offers no IDLE (default: 60)",
    )
    group.add_argument(
        "--tls-ca-file",
        type=Path,
        metavar="PEM",
        help="also trust the certificate authorities in this file for --smtp-relay and --imap "
        "(a company server's own CA; the system's are trusted as well)",
    )
    group.add_argument(
        "--trust-authserv-id",
        metavar="NAME",
        help="the name your provider signs its Authentication-Results with (Gmail: mx.google.com); needed with --imap",
    )


def mail_options(args: argparse.Namespace) -> MailOptions:
    """The account, relay and mailbox the parsed options ask for; a CliError naming what is missing."""
    account = None
    if args.mail_account:
        try:
            account = MailAccount(args.mail_account)
        except ValueError as error:
            raise CliError(f"--mail-account: {error}") from None
    elif args.imap:
        raise CliError("--imap reads your own mailbox: give its address with --mail-account")
    relay = None
    tls = _trusting(args.tls_ca_file)
    smtp_password = _password(args.smtp_password_file, "SMTP_PASSWORD")
    if args.smtp_relay:
        user = args.smtp_user or (account.address if account is not None and args.smtp_security != "plain" else "")
        if user and not smtp_password:
            raise CliError(f"no password for {user} at {args.smtp_relay}: set $SMTP_PASSWORD or --smtp-password-file")
        host, port = _endpoint(args.smtp_relay, SMTP_PORTS[args.smtp_security], "--smtp-relay")
        security = args.smtp_security
        relay = SmtpRelay(host, port, user=user, password=smtp_password, security=security, account=account, tls=tls)
    imap = None
    if args.imap:
        assert account is not None
        if not args.trust_authserv_id:
            raise CliError(
                "--imap needs --trust-authserv-id: the name in your provider's Authentication-Results headers "
                "(open a mail you received and look; Gmail: mx.google.com)"
            )
        password = _password(args.imap_password_file, "IMAP_PASSWORD") or smtp_password
        if not password:
            raise CliError(
                "no password for the mailbox: set $IMAP_PASSWORD (or $SMTP_PASSWORD) or --imap-password-file"
            )
        if args.imap_poll_seconds <= 0:
            raise CliError(f"--imap-poll-seconds: a positive number of seconds, not {args.imap_poll_seconds}")
        host, port = _endpoint(args.imap, IMAP_TLS_PORT, "--imap")
        imap = ImapSettings(
            host,
            port,
            user=args.imap_user or account.address,
            password=password,
            authserv_id=args.trust_authserv_id,
            folder=args.imap_folder,
            done_folder=args.imap_done_folder,
            poll_seconds=args.imap_poll_seconds,
            tls=tls,
        )
    return MailOptions(account, relay, imap)


def _trusting(ca_file: Path | None) -> ssl.SSLContext:
    """The context checking the relay's and the mailbox's certificates: the system's authorities,
    and `ca_file`'s too when given (a CliError naming it when it holds none)."""
    context = ssl.create_default_context()
    if ca_file is not None:
        try:
            context.load_verify_locations(cafile=ca_file)
        except ssl.SSLError:
            raise CliError(f"--tls-ca-file {ca_file}: no PEM certificate in it") from None
        except OSError as error:
            raise CliError(f"--tls-ca-file {ca_file} cannot be read: {error.strerror}") from None
    return context


def _password(file: Path | None, variable: str) -> str:
    """The password in `file` (its one line), else in the environment variable; "" when neither."""
    if file is None:
        return os.environ.get(variable, "")
    try:
        return file.read_text(encoding="utf-8").rstrip("\r\n")
    except OSError as error:
        raise CliError(f"the password file {file} cannot be read: {error.strerror}") from None


def _endpoint(text: str, default_port: int, option: str) -> tuple[str, int]:
    host, colon, port = text.rpartition(":")
    if not colon:
        return text, default_port
    if not (host and port.isdigit() and 0 < int(port) < 65536):
        raise CliError(f"{option}: HOST or HOST:PORT, not {text!r}")
    return host, int(port)
