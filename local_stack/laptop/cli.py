"""bin/host-server: host a real match from one laptop (local_stack/laptop/server.py says how).

bin/host-server --host 0.0.0.0 --port 8080            players: http://<laptop-ip>:8080
bin/match-host --server http://127.0.0.1:8081 create settings.json
"""

from __future__ import annotations

import argparse
import gc
import logging
import shlex
import time
from pathlib import Path
from typing import get_args

from game_core.cli.failures import OneLineParser, one_line_errors
from game_core.cli.host import DEFAULT_DATA, HOST_TOKEN_FILE
from game_core.errors import not_seconds
from local_stack.aws.mail import LOCAL_DOMAIN
from local_stack.laptop.access import (
    certificate_fingerprint,
)
from local_stack.laptop.mail_options import MailOptions, add_mail_options, mail_options
from local_stack.laptop.server import LOOPBACK, HostServer, OnRestart, logger


def say_resumed(server: HostServer) -> None:
    """The matches resumed, once they all are (served meanwhile: a request for one not yet resumed waits)."""
    server.recovery.done.wait()
    if server.reopened:
        print(f"reopened (the server was down past their deadline): {', '.join(server.reopened)}")
    if server.recovered:
        print(f"resumed: {', '.join(server.recovered)}")


def match_host_command(data: Path, host_port: int) -> str:
    """The match-host command for this server: with `--data` and the folder's whole path (where
    its host token is) unless it is the default, which match-host run in the checkout finds."""
    server = f"bin/match-host --server http://{LOOPBACK}:{host_port}"
    return server if data == Path(DEFAULT_DATA) else f"{server} --data {shlex.quote(str(data.absolute()))}"


def _positive(text: str) -> int:
    """A whole number of seconds above zero (argparse's type); "1h" is refused saying 3600."""
    try:
        seconds = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(not_seconds(text)) from None
    if seconds <= 0:
        raise argparse.ArgumentTypeError(f"a positive number of seconds, not {text}")
    return seconds


def _parser() -> OneLineParser:
    parser = OneLineParser(prog="bin/host-server", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=LOOPBACK, help="the address players reach (0.0.0.0: every interface)")
    parser.add_argument("--port", type=int, default=8080, help="the players' HTTP port")
    parser.add_argument("--host-port", type=int, help="the host commands' port, on 127.0.0.1 only (default: port+1)")
    parser.add_argument("--data", type=Path, default=Path(DEFAULT_DATA), help="where the table is kept")
    parser.add_argument("--outbox", type=Path, help="where sent mail is kept as .eml (default: DATA/outbox)")
    parser.add_argument("--smtp-port", type=int, help="take mail for @play.local on this port (on --host)")
    parser.add_argument("--log-level", default="WARNING", help="the functions' log level")
    parser.add_argument(
        "--on-restart",
        choices=get_args(OnRestart),
        default="grace",
        help="a deadline that passed while the server was down: reopen the phase for --grace-seconds "
        "and tell everyone why (grace, the default), or resolve it at once (resolve)",
    )
    parser.add_argument(
        "--grace-seconds", type=_positive, default=3600, help="how long such a phase reopens for (default: an hour)"
    )
    parser.add_argument(
        "--allow-loopback-webhooks",
        action="store_true",
        help="also POST webhooks to http://127.0.0.1 (a bot on this laptop; never another private address)",
    )
    add_mail_options(parser)
    return parser


def _say_where(args: argparse.Namespace, server: HostServer, mail: MailOptions) -> None:
    """Where players, the host and the mail reach the server, and where it keeps what it keeps."""
    data = args.data.absolute()  # bin/host-server runs in its checkout, wherever it was called from
    print(f"players: http://{args.host}:{server.port} (share http://<this laptop's address>:{server.port})")
    print(f"host:    {match_host_command(args.data, server.host_port)} create settings.json")
    print(f"page:    http://{LOOPBACK}:{server.host_port}/ (the host's: log in with {data}/{HOST_TOKEN_FILE})")
    if args.smtp_port is not None:
        print(f"mail:    <match_id>@{LOCAL_DOMAIN} by SMTP on port {server.smtp_port} (login: e-mail + secret)")
        print(f"         its STARTTLS certificate's SHA-256: {certificate_fingerprint(args.data)}")
    if mail.account is not None:
        imap = mail.imap
        read = f"read at {imap.host}:{imap.port}, as far as {imap.authserv_id} vouches" if imap else "unread"
        print(f"mail:    players reply to {mail.account.reply_address('<match_id>')} ({read})")
    print(f"kept in: {data}/ (sent mail: {(args.outbox or data / 'outbox').absolute()}/)")


@one_line_errors("bin/host-server")
def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(format="%(asctime)s %(message)s")
    logger.setLevel(logging.INFO)
    mail = mail_options(args)
    server = HostServer(
        args.data,
        host=args.host,
        port=args.port,
        host_port=args.host_port,
        smtp_port=args.smtp_port,
        relay=mail.relay,
        account=mail.account,
        imap=mail.imap,
        outbox=args.outbox,
        log_level=args.log_level,
        on_restart=args.on_restart,
        grace_seconds=args.grace_seconds,
        allow_loopback_webhooks=args.allow_loopback_webhooks,
        recover_while_serving=True,
    )
    with server:  # a folder another server holds: DataFolderInUse, one line (one_line_errors)
        gc.enable()  # serving: off since the start (local_stack/laptop/__main__.py)
        _say_where(args, server, mail)
        say_resumed(server)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
