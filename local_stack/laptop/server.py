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

import argparse
import asyncio
import base64
import errno
import json
import logging
import os
import shlex
import socket
import ssl
import threading
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, get_args
from urllib.parse import unquote

from aiosmtpd.smtp import SMTP, Envelope, Session

from game_core.aws.routes import route_pattern
from game_core.cli.failures import CliError, OneLineParser, one_line_errors
from game_core.cli.host import DEFAULT_DATA, HOST_TOKEN_FILE
from game_core.errors import not_seconds
from game_core.mail.addresses import match_for
from game_core.mail.inbound import parse_message
from game_core.match.model import Match
from local_stack.aws.api_events import api_gateway_event
from local_stack.aws.clock import VirtualClock
from local_stack.aws.inbound_bucket import SES_MAX_BYTES
from local_stack.aws.mail import LOCAL_DOMAIN, MailAccount, SmtpRelay
from local_stack.aws.stack import LocalStack
from local_stack.aws.template import template_routes
from local_stack.aws.webhooks import DeliveryPump
from local_stack.laptop.access import (
    Authenticator,
    LoginSmtp,
    MailLogin,
    bearer_is_token,
    certificate_fingerprint,
    foreign_refusal,
    host_token,
    tls_context,
)
from local_stack.laptop.http_serving import IDLE_TIMEOUT, HttpListener, Reply, Request, json_reply
from local_stack.laptop.login_index import LoginIndex, reader
from local_stack.laptop.mail_options import add_mail_options, mail_options
from local_stack.laptop.mail_queue import MailQueue
from local_stack.laptop.mail_undelivered import tell_host
from local_stack.laptop.mailbox import ImapSettings, MailboxPoller
from local_stack.laptop.match_locks import MatchLocks
from local_stack.laptop.page import host_page
from local_stack.laptop.persistence import DataFolder, QueueFile
from local_stack.laptop.players_url import PLAYERS_URL, players_url
from local_stack.laptop.recovery import Recovery
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
TEXT_TYPES = ("text/", "application/json", "+json", "application/xml", "+xml", "application/x-www-form-urlencoded")
"""Content types whose body an HTTP API hands over as text; any other body is base64-encoded."""


@dataclass(frozen=True)
class Route:
    """One route of the HTTP API: "METHOD /path/{name}/..." and the function it invokes."""

    key: str
    function: str

    def parameters(self, method: str, path: str) -> dict[str, str] | None:
        """The path parameters if the request is this route's, else None."""
        route_method, _, template = self.key.partition(" ")
        if route_method not in ("ANY", method):
            return None
        found = route_pattern(template).fullmatch(path)
        return None if found is None else {name: unquote(value) for name, value in found.groupdict().items()}


class ApiRoutes:
    """The HTTP API: every route of the template, as API Gateway invokes its function."""

    def __init__(self, stack: LocalStack, matches: MatchLocks) -> None:
        self.stack = stack
        self.routes = [Route(key, function) for key, function in template_routes().items()]
        self.matches = matches

    def __call__(self, request: Request) -> Reply:
        for route in self.routes:
            parameters = route.parameters(request.method, request.path)
            if parameters is not None:
                break
        else:
            return json_reply(404, {"message": "Not Found"})
        event = api_gateway_event(
            route.key,
            request.path,
            parameters,
            headers=request.headers | {"x-forwarded-proto": "http"},  # served over plain HTTP (the page's cookie)
            body=_as_text_if_textual(request.body, request.headers.get("content-type", "")),
            request_id=str(uuid.uuid4()),
            query=request.query,
            source_ip=request.source_ip,
            method=request.method,
        )
        try:
            with self.matches.holding(parameters.get("match_id")):
                reply = self.stack.invoke(route.function, event)
        except RuntimeError:  # the function failed: API Gateway says no more than this
            logger.exception("%s failed", route.function)
            return json_reply(500, {"message": "Internal Server Error"})
        return _http_response(reply)


class HostCommands:
    """The host's commands: POST /host with the command, as the console's sample events have it,
    from the host's own console on this laptop (`foreign_refusal`: 403) with the host token (401).
    `port`: the loopback port they are served on, once bound."""

    def __init__(self, act: Callable[[dict[str, Any]], dict[str, Any]], token: str) -> None:
        self.act = act
        self.token = token
        self.port = 0

    def __call__(self, request: Request) -> Reply:
        refusal = foreign_refusal(request.headers, self.port)
        if refusal is not None:
            return json_reply(403, {"ok": False, "error": "Forbidden", "message": refusal})
        if not bearer_is_token(request.headers.get("authorization", ""), self.token):
            message = f"the host token is missing or wrong: match-host sends the data folder's {HOST_TOKEN_FILE}"
            refused = {"ok": False, "error": "Unauthorized", "message": message}
            return json_reply(401, refused, {"www-authenticate": "Bearer"})
        if request.path != "/host":
            return json_reply(404, {"message": "Not Found"})
        if request.method != "POST":
            return json_reply(405, {"message": "Method Not Allowed"}, {"allow": "POST"})
        try:
            command = json.loads(request.body)
        except ValueError:
            command = None
        if not isinstance(command, dict):
            message = 'the command as a JSON object: {"command": "status", "match_id": ...}'
            return json_reply(400, {"ok": False, "error": "Malformed", "message": message})
        try:
            reply = self.act(command)
        except RuntimeError as error:
            return json_reply(500, {"ok": False, "error": "FunctionError", "message": str(error)})
        return json_reply(200, reply)


def _as_text_if_textual(body: bytes, content_type: str) -> str | bytes | None:
    if not body:
        return None
    if any(kind in content_type.lower() for kind in TEXT_TYPES):
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            pass
    return body


def _http_response(reply: Any) -> tuple[int, bytes, dict[str, str]]:
    """A function's reply as API Gateway's HTTP API (payload 2.0) turns it into a response: a
    reply without a statusCode is the body of a 200 as JSON."""
    if not (isinstance(reply, dict) and "statusCode" in reply):
        return 200, json.dumps(reply).encode(), {"content-type": "application/json"}
    body = reply.get("body") or ""
    raw = base64.b64decode(body) if reply.get("isBase64Encoded") else body.encode()
    headers = {str(name): str(value) for name, value in (reply.get("headers") or {}).items()}
    if not any(name.lower() == "content-type" for name in headers):
        headers["content-type"] = "application/json"
    return int(reply["statusCode"]), raw, headers


# -- mail -----------------------------------------------------------------------------------------


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


# -- the server -----------------------------------------------------------------------------------


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
            self._resume(table, down_since, starting)
            deliveries = DeliveryPump(self.stack.webhooks)
            deliveries.start()
            starting.callback(deliveries.stop)
            self.host_token = host_token(self.data)
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
            if self._smtp_port is not None:
                smtp = self._smtp_listener(self._smtp_port)
                starting.callback(smtp.stop)
                self.smtp_port = smtp.port
            if self._imap is not None and self._account is not None:
                self.mailbox = MailboxPoller(self._imap, self._account, self.mail_function, self.data)
                self.mailbox.start()
                starting.callback(self.mailbox.stop)
            self.folder.describe(
                players=f"{self._host}:{self.port}",
                host_commands=f"{LOOPBACK}:{self.host_port}",
                **({"mail": f"{self._host}:{self.smtp_port}"} if self._smtp_port is not None else {}),
            )
            self._running = starting.pop_all()  # started: stopped by __exit__, in reverse order
        return self

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
        heartbeat.join(timeout=10)
        self.folder.describe(seen=self._now().isoformat())  # the moment a restart says it went down

    def _resume(self, table: TableFile, down_since: datetime | None, starting: ExitStack) -> None:
        """Recover every match left running (local_stack/laptop/recovery.py): before serving, or
        (`recover_while_serving`) while serving, each match's requests waiting for its recovery."""
        planned = self.recovery.plan(self._stored_matches(table), down_since, self._now())
        recovering = self.recovery.start(planned, down_since, self._now())
        starting.callback(recovering.join, 60)
        if not self._recover_while_serving:
            recovering.join()

    def _stored_matches(self, table: TableFile) -> list[tuple[Match, bool]]:
        """Every match in the table, and whether its store still takes moves."""
        store = self.stack.ports().store
        return [
            (store.get(item["pk"]["S"].removeprefix("MATCH#")), item.get("accepting", {}).get("BOOL", False))
            for item in table.items()
            if item["sk"]["S"] == "META" and item["pk"]["S"].startswith("MATCH#")
        ]


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


def _positive(text: str) -> int:
    """A whole number of seconds above zero (argparse's type); "1h" is refused saying 3600."""
    try:
        seconds = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(not_seconds(text)) from None
    if seconds <= 0:
        raise argparse.ArgumentTypeError(f"a positive number of seconds, not {text}")
    return seconds


@one_line_errors("bin/host-server")
def main(argv: list[str] | None = None) -> int:
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
    args = parser.parse_args(argv)
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
    data = args.data.absolute()  # bin/host-server runs in its checkout, wherever it was called from
    with server:  # a folder another server holds: DataFolderInUse, one line (one_line_errors)
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
        say_resumed(server)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
