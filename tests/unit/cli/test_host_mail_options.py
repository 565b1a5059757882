"""bin/host-server's options for the host's own mail account (local_stack/laptop/mail_options.py): what
they set up, and a one-line error naming what is missing. No password is ever an option."""

from __future__ import annotations

from pathlib import Path

import pytest

from game_core.cli.failures import CliError, OneLineParser
from local_stack.laptop.mail_options import add_mail_options, mail_options

ACCOUNT = ["--mail-account", "me@example.com"]
IMAP = ["--imap", "imap.example.com"]
TRUST = ["--trust-authserv-id", "mx.example.com"]


@pytest.fixture(autouse=True)
def no_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("SMTP_PASSWORD", "IMAP_PASSWORD", "SMTP_USER"):
        monkeypatch.delenv(variable, raising=False)


def parsed(argv: list[str]):  # type: ignore[no-untyped-def]
    parser = OneLineParser(prog="bin/host-server")
    add_mail_options(parser)
    return mail_options(parser.parse_args(argv))


@pytest.mark.parametrize(
    ("argv", "environment", "error"),
    [
        (IMAP, {}, "--imap reads your own mailbox: give its address with --mail-account"),
        ([*ACCOUNT, *IMAP], {"IMAP_PASSWORD": "x"}, "--imap needs --trust-authserv-id"),
        ([*ACCOUNT, *IMAP, *TRUST], {}, "no password for the mailbox: set $IMAP_PASSWORD"),
        ([*ACCOUNT, "--smtp-relay", "smtp.example.com"], {}, "no password for me@example.com at smtp.example.com"),
        (["--mail-account", "me+games@example.com"], {}, "--mail-account: not an account's own address"),
        (["--mail-account", "example.com"], {}, "--mail-account: not an account's own address"),
        ([*ACCOUNT, "--smtp-relay", "smtp.example.com:submission"], {"SMTP_PASSWORD": "x"}, "--smtp-relay: HOST or"),
        ([*ACCOUNT, *IMAP, *TRUST, "--imap-password-file", "/nonexistent/pw"], {}, "/nonexistent/pw cannot be read"),
        (
            ["--tls-ca-file", "/nonexistent/ca.pem"],
            {},
            "--tls-ca-file /nonexistent/ca.pem cannot be read: No such file",
        ),
        (["--tls-ca-file", __file__], {}, f"--tls-ca-file {__file__}: no PEM certificate in it"),
    ],
)
def test_what_is_missing_or_wrong_is_named_in_one_line(
    argv: list[str], environment: dict[str, str], error: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(CliError) as raised:
        parsed(argv)
    assert error in str(raised.value) and "\n" not in str(raised.value)


def test_the_account_sets_the_logins_and_the_mailbox_shares_the_relays_password(tmp_path: Path) -> None:
    secret = tmp_path / "app-password"
    secret.write_text("abcd efgh ijkl mnop\n")  # an app password as Gmail shows it, saved by an editor
    options = parsed([*ACCOUNT, "--smtp-relay", "smtp.example.com", "--smtp-password-file", str(secret), *IMAP, *TRUST])
    assert options.account is not None and options.account.reply_address("m-0123456789ab") == (
        "me+m-0123456789ab@example.com"
    )
    relay, imap = options.relay, options.imap
    assert relay is not None and imap is not None
    # STARTTLS on the submission port by default; IMAP over TLS on 993; each login the account
    assert (relay.host, relay.port, relay.security, relay.user) == (
        "smtp.example.com",
        587,
        "starttls",
        "me@example.com",
    )
    assert (imap.host, imap.port, imap.user, imap.folder, imap.authserv_id) == (
        "imap.example.com",
        993,
        "me@example.com",
        "INBOX",
        "mx.example.com",
    )
    assert relay.password == imap.password == "abcd efgh ijkl mnop"


def test_tls_from_the_start_takes_port_465_and_the_environment_gives_the_passwords(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SMTP_PASSWORD", "smtp secret")
    monkeypatch.setenv("IMAP_PASSWORD", "imap secret")
    options = parsed(
        [*ACCOUNT, "--smtp-relay", "smtp.example.com", "--smtp-security", "ssl", *IMAP, *TRUST, "--imap-user", "me"]
    )
    assert options.relay is not None and options.imap is not None
    assert (options.relay.port, options.relay.password) == (465, "smtp secret")
    assert (options.imap.user, options.imap.password) == ("me", "imap secret")
