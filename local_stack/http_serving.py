"""The host server's HTTP ports, served by waitress (a maintained pure-Python WSGI server) rather
than the standard library's development server:

- an idle connection is closed after `idle_timeout` seconds, and at most `connection_limit`
  connections are open at once (the rest wait in the listen queue, not in threads);
- every error waitress answers itself (a malformed request, a body over the cap) has a JSON body;
- a request line that is not HTTP/1.0 or HTTP/1.1 is refused as soon as its line is read: an
  HTTP/0.9 "GET /" or HTTP/2's "PRI * HTTP/2.0" preface never sends the blank line a header ends
  with, so waiting for one would hold the connection until the timeout;
- a client that hangs up is no error worth a traceback.

A request reaches the application as a `Request`; its answer is a status, a body and headers.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask
from waitress.utilities import BadRequest, Error

REQUEST_LINE = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+ [^ ]+ HTTP/(\d\.\d)")
"""METHOD TARGET HTTP/x.y, as RFC 9112 writes a request line (waitress then checks each part)."""
SERVED_VERSIONS = (b"1.0", b"1.1")

Reply = tuple[int, bytes, dict[str, str]]
"""A status, a body and the response's headers."""


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query: str
    headers: dict[str, str]
    """Lower-case names; a repeated header's values joined by commas."""
    body: bytes
    source_ip: str


class VersionNotSupported(Error):
    code = 505
    reason = "HTTP Version Not Supported"


def request_line_error(line: bytes) -> Error | None:
    """Why a request line (without its line end) is refused, or None for an HTTP/1.x one."""
    found = REQUEST_LINE.fullmatch(line)
    if found is None:
        return BadRequest("the request line must be METHOD TARGET HTTP/1.1")
    if found.group(1) not in SERVED_VERSIONS:
        return VersionNotSupported(f"HTTP/{found.group(1).decode()} is not served here: use HTTP/1.1")
    return None


class _Parser(HTTPRequestParser):
    """waitress's parser, refusing a request line that is not HTTP/1.x once that line is in."""

    line_checked = False

    def received(self, data: bytes) -> int:
        if not (self.line_checked or self.completed):
            line, line_end, _ = (self.header_plus + data).lstrip(b"\r\n").partition(b"\n")
            if line_end:
                self.line_checked = True
                error = request_line_error(line.removesuffix(b"\r"))
                if error is not None:
                    self.parse_header(b"GET / HTTP/1.0\r\n")  # as waitress does for its own early refusals
                    self.error = error
                    self.completed = True
                    return len(data)
        consumed: int = super().received(data)
        return consumed


class _JsonErrorTask(ErrorTask):
    """waitress's refusals (400, 413, 431, 505, ...) with a JSON body, as the routes' own."""

    def execute(self) -> None:
        error = self.request.error
        body = json.dumps({"message": error.reason, "detail": error.body}).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class _Channel(HTTPChannel):
    parser_class = _Parser
    error_task_class = _JsonErrorTask


class _Server(TcpWSGIServer):
    channel_class = _Channel


class HttpListener:
    """`respond` served on (host, port) (port 0: any free one, read `port`) from a thread of its own.

    A body of `max_body` bytes or more is refused (413); `threads` requests are answered at once."""

    def __init__(
        self,
        respond: Callable[[Request], Reply],
        host: str,
        port: int,
        *,
        max_body: int,
        idle_timeout: int = 60,
        connection_limit: int = 100,
        threads: int = 8,
    ) -> None:
        self.respond = respond
        adjustments = Adjustments(
            host=host,
            port=port,
            threads=threads,
            channel_timeout=idle_timeout,
            cleanup_interval=min(idle_timeout, 30),  # how often idle connections are looked for
            connection_limit=connection_limit + 2,  # waitress counts its listening socket and wake-up pipe too
            max_request_body_size=max_body,
            log_socket_errors=False,  # a client that hangs up is no error of ours
            ident="host-server",
        )
        self._map: dict[int, Any] = {}
        self.server = _Server(self._wsgi, map=self._map, adj=adjustments)
        self.port: int = int(self.server.effective_port)
        self.thread = threading.Thread(target=self.server.run, name=f"http-{self.port}", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Close the port and every connection (in the serving thread, which then ends)."""
        try:
            self.server.trigger.pull_trigger(lambda: wasyncore.close_all(self._map))
        except OSError:
            # The serving thread, woken by something else between the close being queued and the
            # wake-up being written, already ran the close: it closed the wake-up pipe too.
            pass
        self.thread.join(timeout=10)
        self.server.task_dispatcher.shutdown()

    def _wsgi(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        headers = {
            name.removeprefix("HTTP_").replace("_", "-").lower(): value
            for name, value in environ.items()
            if name.startswith("HTTP_") or name in ("CONTENT_TYPE", "CONTENT_LENGTH")
        }
        request = Request(
            method=environ["REQUEST_METHOD"],
            path=environ.get("PATH_INFO", ""),
            query=environ.get("QUERY_STRING", ""),
            headers=headers,
            body=environ["wsgi.input"].read(),
            source_ip=environ.get("REMOTE_ADDR", ""),
        )
        status, body, reply_headers = self.respond(request)
        names = {name.lower() for name in reply_headers}
        sent = [(name, value) for name, value in reply_headers.items() if name.lower() not in HOP_BY_HOP]
        if "content-type" not in names:
            sent.append(("Content-Type", "application/json"))
        sent.append(("Content-Length", str(len(body))))
        start_response(f"{status} {_phrase(status)}", sent)
        return [] if request.method == "HEAD" else [body]


HOP_BY_HOP = ("content-length", "connection", "transfer-encoding", "keep-alive")
"""Headers the server sets itself (a WSGI application may not set the hop-by-hop ones)."""


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def json_reply(status: int, body: Any, headers: dict[str, str] | None = None) -> Reply:
    return status, json.dumps(body).encode(), {"content-type": "application/json", **(headers or {})}
