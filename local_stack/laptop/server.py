"""Host a real match from one laptop: the service's HTTP API on a port players on the LAN reach,
the host's commands on the laptop alone, the table kept on disk.

    bin/host-server --host 0.0.0.0 --port 8080            players: http://<laptop-ip>:8080
    bin/match-host --server http://127.0.0.1:8081 create settings.json

- Every HttpApi route of template.yaml is served as API Gateway serves it: each request becomes
  the HTTP API's payload 2.0 event for its function, and the function's reply the response.
- Host commands (POST /host, the command as JSON, answered by HostCommandsFunction) are taken
  only on 127.0.0.1, at --host-port (default: the port after --port), with the host token, and
  never from a web page (local_stack/laptop/access.py).
- The host's page (local_stack/laptop/page.py) is served there too, logged in with the host token: every
  match, a new match's form, the host's commands. Both ports are served by waitress (http_serving.py):
  idle connections and slow requests time out, connections are capped (per client too), refusals are JSON.
- AWS (moto) stays inside this process: no port serves its API.
- Every change to the table is journaled to --data as it is made (local_stack/laptop/table_file.py) and
  read back on start; one server at a time holds the folder (a second is refused, naming the first). So are
  the webhook deliveries still queued (retries and dead letters included): a start delivers
  what came due while the server was down. On start,
  a phase whose deadline passed while the server was down reopens for --grace-seconds (with
  --on-restart grace, the default: `extend`, and a message to everyone saying why), or resolves
  at once (--on-restart resolve); then every match still running is recovered (`recover`): a new
  execution announces what was resolved but not told, and goes on from the stored clock.
- With --smtp-port, mail to <match_id>@play.local is taken by SMTP from a session logged in as
  its sender (a participant with their secret, the host with the token; STARTTLS from the LAN)
  and handed to EmailInFunction as SES would; what the service sends is kept in the outbox folder, and also sent through
  --smtp-relay when one is set, waiting in the data folder until it takes it (local_stack/laptop/mail_queue.py).
- With --mail-account and --imap, the host's own mail account stands for the match domain: the
  service's mail goes out From it (through its provider's --smtp-relay), players reply to its
  plus-addresses (me+<match_id>@example.com), and those replies are read from its mailbox over
  IMAP (local_stack/laptop/mailbox.py), as far as the provider's Authentication-Results vouch for them.
"""

from __future__ import annotations

import errno
import logging
import os
import socket
import threading
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from game_core.cli.failures import CliError
from game_core.match.model import Match
from local_stack.aws.clock import VirtualClock
from local_stack.aws.mail import MailAccount, SmtpRelay
from local_stack.aws.stack import LocalStack
from local_stack.aws.webhooks import DeliveryPump
from local_stack.laptop.access import (
    Authenticator,
    host_token,
    tls_context,
)
from local_stack.laptop.http_api import ApiRoutes, HostCommands
from local_stack.laptop.http_serving import IDLE_TIMEOUT, HttpListener
from local_stack.laptop.login_index import LoginIndex, reader
from local_stack.laptop.mail_queue import MailQueue
from local_stack.laptop.mail_undelivered import tell_host
from local_stack.laptop.mailbox import ImapSettings, MailboxPoller
from local_stack.laptop.match_locks import MatchLocks
from local_stack.laptop.page import host_page
from local_stack.laptop.persistence import DataFolder, QueueFile
from local_stack.laptop.players_url import PLAYERS_URL, players_url
from local_stack.laptop.recovery import Recovery
from local_stack.laptop.smtp import MailDrop, SmtpListener
from local_stack.laptop.table_file import TableFile

logger = logging.getLogger("host-server")
LOOPBACK = "127.0.0.1"
MAX_BODY_BYTES = 1024 * 1024
"""The largest request or mail taken (a function reads far less: a move is a few kilobytes)."""
OnRestart = Literal["grace", "resolve"]
"""What a restart does to a phase whose deadline passed while the server was down: reopen it for
a grace, or resolve it at once."""
HEARTBEAT_SECONDS = 60
"""How often (real time) a running server notes it is alive (the time a restart says it went
down) and drops expired items from the table."""


class HostServer:
    """The local stack behind an HTTP API, host commands on loopback, and optionally SMTP.

        with HostServer(Path("local-data"), host="0.0.0.0", port=8080) as server:
            ...  # server.port, server.host_port, server.smtp_port: the bound ports

    Port 0 takes any free port (then `host_port` defaults to any free one too, else to port + 1).
    Each HTTP port closes a connection idle for `idle_timeout` seconds, holds at most
    `connection_limit` at once, and guards against a client that holds many (http_guards.py).
    `on_restart` and `grace_seconds`: what becomes of a phase whose deadline passed while the
    server was down (OnRestart). `clock` is for tests (a VirtualClock); the server otherwise runs
    on the wall clock. Entering raises DataFolderInUse if another server holds `data`, and a
    CliError naming the port if another program holds one, before reading or telling anything."""

    def __init__(
        self,
        data: Path,
        *,
        host: str = LOOPBACK,
        port: int = 8080,
        host_port: int | None = None,
        smtp_port: int | None = None,
        relay: SmtpRelay | None = None,
        account: MailAccount | None = None,
        imap: ImapSettings | None = None,
        outbox: Path | None = None,
        clock: VirtualClock | None = None,
        games: tuple[str, ...] | None = None,
        log_level: str = "WARNING",
        idle_timeout: int = IDLE_TIMEOUT,
        connection_limit: int = 100,
        on_restart: OnRestart = "grace",
        grace_seconds: int = 3600,
        allow_loopback_webhooks: bool = False,
        recover_while_serving: bool = False,
    ) -> None:
        self.data = data
        self.folder = DataFolder(data)
        self._on_restart, self._grace_seconds = on_restart, grace_seconds
        self.stack = LocalStack(log_level=log_level, games=games, clock=clock, outbox=outbox or data / "outbox")
        self._relay = relay
        self.mail_queue: MailQueue | None = None
        """The mail waiting for the relay (with a relay), once started."""
        self._host, self._port = host, port
        self._host_port = host_port if host_port is not None else (port + 1 if port else 0)
        self._smtp_port = smtp_port
        if imap is not None and account is None:
            raise ValueError("the mailbox read over IMAP is the mail account's: give the account")
        self._account, self._imap = account, imap
        self.mailbox: MailboxPoller | None = None
        """The poller reading the account's mailbox, once started."""
        self._http = {"max_body": MAX_BODY_BYTES, "idle_timeout": idle_timeout, "connection_limit": connection_limit}
        self._running = ExitStack()
        self._match_locks = MatchLocks()
        self.recovery = Recovery(self.stack.host, self._match_locks, grace_seconds if on_restart == "grace" else None)
        self.recovered, self.reopened = self.recovery.recovered, self.recovery.reopened
        """The matches resumed on start; those whose phase it reopened, each with the phase and until when."""
        self._recover_while_serving = recover_while_serving
        self._recovering: threading.Thread | None = None
        self._stopping = threading.Event()
        self._table: TableFile | None = None
        self.logins = LoginIndex()
        """Which matches each SMTP login names (kept from the table as it is written)."""
        self._allow_loopback_webhooks = allow_loopback_webhooks

    def _now(self) -> datetime:
        """The stack's clock (whole seconds, as the handlers read it)."""
        return self.stack.clock.now() if self.stack.clock is not None else datetime.now(UTC).replace(microsecond=0)

    def __enter__(self) -> HostServer:
        with ExitStack() as starting:
            self.folder.hold()  # before anything is read or bound: a refused server touches nothing
            starting.callback(self.folder.release)
            taken = self._port_taken()  # before the restart's grace tells anyone the server is back
            if taken is not None:
                self.folder.describe(**self.folder.previous)  # the last holder's word, for the next start
                raise CliError(taken)
            queue = QueueFile(self.data / "webhook-queue.json")
            kept = queue.read()  # a file that is not a queue: refused before anything starts
            if self._relay is not None:  # the same for the mail queue
                self.mail_queue = MailQueue(self.data, self._relay, self.stack.clock)
                self.stack.outbox.relay = self.mail_queue.put
            seen = self.folder.previous.get("seen")
            down_since = datetime.fromisoformat(seen) if seen else None
            self.folder.describe(seen=self._now().isoformat())
            if self._allow_loopback_webhooks:  # read by the functions' ports, built as the stack starts
                os.environ["WEBHOOKS_ALLOW_LOOPBACK"] = "1"
            starting.callback(self._close_table)  # once the stack has stopped: its last writes journaled
            starting.enter_context(self.stack)
            table = self._keep_table()
            self.stack.webhooks.put_back(kept)
            self.stack.lambdas.after_each.append(lambda _function: queue.save(self.stack.webhooks))
            self.stack.webhooks.after_batch.append(lambda: queue.save(self.stack.webhooks))
            self._stopping.clear()
            heartbeat = threading.Thread(target=self._beat, args=(table,), name="heartbeat", daemon=True)
            heartbeat.start()
            starting.callback(self._stop_beating, heartbeat)
            if self.mail_queue is not None:
                self.mail_queue.start(told=lambda gone: tell_host(self.stack.ports(), gone))
                starting.callback(self.mail_queue.stop)
            planned = self._hold_unfinished(table, down_since)
            starting.callback(self._recovered)  # once the ports are closed (registered before them)
            if not self._recover_while_serving:
                self._resume(planned, down_since).join()
            deliveries = DeliveryPump(self.stack.webhooks)
            deliveries.start()
            starting.callback(deliveries.stop)
            self.host_token = host_token(self.data)
            self._serve_http(starting)
            self._take_mail(starting)
            if self._recover_while_serving:
                self._resume(planned, down_since)
            self.folder.describe(
                players=f"{self._host}:{self.port}",
                host_commands=f"{LOOPBACK}:{self.host_port}",
                **({"mail": f"{self._host}:{self.smtp_port}"} if self._smtp_port is not None else {}),
            )
            self._running = starting.pop_all()  # started: stopped by __exit__, in reverse order
        return self

    def _serve_http(self, starting: ExitStack) -> None:
        """The players' port (the HTTP API) and the host's port on loopback (host commands and the
        host's page), each stopped by `starting`."""
        api = HttpListener(ApiRoutes(self.stack, self._match_locks), self._host, self._port, **self._http)
        starting.callback(api.stop)
        self.port = api.port
        os.environ[PLAYERS_URL] = players_url(self._host, self.port)  # create's links (service.telling.links)
        commands = HostCommands(self._host_act, self.host_token)
        page = host_page(self.host_token, self.stack, self._matches, self._host_act, self.mail_queue is not None)
        on_host_port = lambda request: commands(request) if request.path == "/host" else page(request)  # noqa: E731
        listener = HttpListener(on_host_port, LOOPBACK, self._host_port, **self._http)
        starting.callback(listener.stop)
        self.host_port = commands.port = page.port = listener.port

    def _take_mail(self, starting: ExitStack) -> None:
        """The SMTP port (with `smtp_port`) and the poller of the host's mailbox (with `imap`)."""
        if self._smtp_port is not None:
            smtp = self._smtp_listener(self._smtp_port)
            starting.callback(smtp.stop)
            self.smtp_port = smtp.port
        if self._imap is not None and self._account is not None:
            self.mailbox = MailboxPoller(self._imap, self._account, self.mail_function, self.data)
            self.mailbox.start()
            starting.callback(self.mailbox.stop)

    def _keep_table(self) -> TableFile:
        """The table read back from the data folder, and each change to it journaled there."""
        dynamodb, now = self.stack.client("dynamodb"), lambda: self._now().timestamp()
        table = self._table = TableFile(dynamodb, os.environ["TABLE_NAME"], self.data / "table.json", now)
        table.watchers.append(self.logins.changed)
        table.load()
        self.stack.lambdas.after_aws_call.append(table.after_call)
        self.stack.lambdas.after_each.append(lambda _function: table.drop_expired())
        return table

    def _close_table(self) -> None:
        if self._table is not None:
            self._table.close()
            self._table = None

    def _port_taken(self) -> str | None:
        """What to do about the first of the ports to serve that another program holds, if one does."""
        ports = [(self._host, self._port, "the players' port", "--port")]
        ports.append((LOOPBACK, self._host_port, "the host commands' port", "--host-port (default: --port + 1)"))
        ports.append((self._host, self._smtp_port or 0, "the mail port", "--smtp-port"))
        for host, port, what, option in ports:
            if port and not _free(host, port):
                return f"{what} {port} is in use (another server still running?): stop it, or give {option} another"
        return None

    def __exit__(self, *exc: object) -> None:
        """Stop listening, then stop the stack (what still waits stays parked with it)."""
        self._running.close()

    def _host_act(self, command: dict[str, Any]) -> dict[str, Any]:
        """A host command's reply, saying so when the service's mail waits for the relay."""
        with self._match_locks.holding(command.get("match_id")):
            reply = self.stack.host(command)
        return reply | self.mail_queue.note() if self.mail_queue is not None else reply

    def mail_function(self, raw: bytes, recipients: list[str], verdicts: dict[str, str], message_id: str) -> Any:
        """Hand a received message to the mail function as SES's receipt rule does (`MailboxPoller`'s
        hand-in): stored in the inbound bucket under `message_id`, then taken at once (not queued:
        failing, it raises, and the poller reads it again)."""
        return self.stack.mail_in.hand_in(raw, recipients, verdicts, message_id)

    def _matches(self) -> list[Match]:
        """Every match in the table."""
        store = self.stack.ports().store
        table = self.stack.client("dynamodb")
        pages = table.get_paginator("scan").paginate(
            TableName=os.environ["TABLE_NAME"],
            FilterExpression="sk = :header AND begins_with(pk, :match)",  # a season's header is no match's
            ExpressionAttributeValues={":header": {"S": "META"}, ":match": {"S": "MATCH#"}},
            ProjectionExpression="pk",
        )
        return [store.get(item["pk"]["S"].removeprefix("MATCH#")) for page in pages for item in page["Items"]]

    def _smtp_listener(self, port: int) -> SmtpListener:
        """The SMTP port: mail from a session logged in as the sender (`access`)."""
        match = reader(self.stack.ports().store)
        authenticator = Authenticator(self.host_token, self.logins.candidates(match))
        return SmtpListener(
            MailDrop(self.stack, match), self._host, port, authenticator=authenticator, tls=tls_context(self.data)
        )

    def _beat(self, table: TableFile) -> None:
        """Until stopped: drop what has expired, and note the server is alive."""
        while not self._stopping.wait(HEARTBEAT_SECONDS):
            table.drop_expired()
            self.folder.describe(seen=self._now().isoformat())

    def _stop_beating(self, heartbeat: threading.Thread) -> None:
        self._stopping.set()
        _joined(heartbeat, 10)
        self.folder.describe(seen=self._now().isoformat())  # the moment a restart says it went down

    def _hold_unfinished(self, table: TableFile, down_since: datetime | None) -> list[Any]:
        """Every match left running, to recover (local_stack/laptop/recovery.py), its lock taken: a
        request for it waits until it is recovered."""
        planned = self.recovery.plan(self._stored_matches(table), down_since, self._now())
        self.recovery.hold(planned)
        return planned

    def _resume(self, planned: list[Any], down_since: datetime | None) -> threading.Thread:
        """Recover the planned matches on a thread: before serving, or (`recover_while_serving`)
        once the ports are open (the recovery then does not compete with opening them)."""
        self._recovering = self.recovery.start(planned, down_since, self._now())
        return self._recovering

    def _recovered(self) -> None:
        if self._recovering is not None:
            _joined(self._recovering, 60)
            self._recovering = None

    def _stored_matches(self, table: TableFile) -> list[tuple[Match, bool]]:
        """Every match in the table, and whether its store still takes moves."""
        store = self.stack.ports().store
        return [
            (store.get(item["pk"]["S"].removeprefix("MATCH#")), item.get("accepting", {}).get("BOOL", False))
            for item in table.items()
            if item["sk"]["S"] == "META" and item["pk"]["S"].startswith("MATCH#")
        ]


def _joined(thread: threading.Thread, timeout: float) -> None:
    """The thread ended, before the stack it calls stops (else it would call moto reset, or the
    next stack's in the same process)."""
    thread.join(timeout)
    if thread.is_alive():
        raise RuntimeError(f"the {thread.name} thread still runs {timeout} s after the stop (the stack stops under it)")


def _free(host: str, port: int) -> bool:
    """Whether a server could bind (host, port) now, as the listeners bind it (SO_REUSEADDR: a
    port whose last connections are closing counts as free)."""
    [(family, kind, proto, _, address), *_] = socket.getaddrinfo(
        host, port, flags=socket.AI_PASSIVE, type=socket.SOCK_STREAM
    )
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise
            return False
    return True
