"""The host server's HTTP ports, served by waitress (a maintained pure-Python WSGI server) rather
than the standard library's development server:

- one misbehaving client cannot lock the others out (local_stack/laptop/http_guards.py): it holds at
  most `per_client` connections, a request not all in `request_timeout` seconds after its first
  byte is answered 408 and closed, and a connection idle for `idle_timeout` seconds is closed;
  at most `connection_limit` connections are open at once (the rest wait in the listen queue);
- every error waitress answers itself (a malformed request, a body over the cap) has a JSON body;
- a request that cannot be HTTP/1.x is refused as soon as the bytes that show it are read: a
  request line that cannot become METHOD TARGET HTTP/1.x (garbage, a TLS hello on the plain
  port, HTTP/0.9's "GET /", HTTP/2's "PRI * HTTP/2.0" preface) or a line ended by a bare LF
  (waitress waits for CRLF CRLF, so either would hold the connection until a timeout);
- a client that hangs up is no error worth a traceback.

A request reaches the application as a `Request`; its answer is a status, a body and headers.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.task import ErrorTask
from waitress.utilities import BadRequest, Error

from local_stack.laptop.http_guards import CHECK_EVERY, IDLE_TIMEOUT, PER_CLIENT, REQUEST_TIMEOUT, GuardedServer

TOKEN = rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]"
"""One character of a method (RFC 9110's tchar)."""
REQUEST_LINE = re.compile(TOKEN + rb"+ [^ ]+ HTTP/(\d\.\d)")
"""METHOD TARGET HTTP/x.y, as RFC 9112 writes a request line (waitress then checks each part)."""
REQUEST_LINE_START = re.compile(
    rb"(?:%s+(?: (?:[^ ]+(?: (?:H(?:T(?:T(?:P(?:/(?:\d(?:\.(?:\d\r?)?)?)?)?)?)?)?)?)?)?)?)?" % TOKEN
)
"""What a request line can have so far, before its line end comes."""
BARE_LF = re.compile(rb"(?<!\r)\n")
SERVED_VERSIONS = (b"1.0", b"1.1")
LINE_START_CHECKED = 64
"""The first bytes of a request line checked before its end comes (each arrival checks them again)."""

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


def head_error(head: bytes, checked: int) -> Error | None:
    """Why a request's head read so far (its first bytes up to the blank line, if that came) is
    refused, or None while it can still become an HTTP/1.x one; `checked`: how many of its
    bytes an earlier call found nothing wrong in."""
    if BARE_LF.search(head, max(checked - 1, 0)):  # one byte back: a CR the last call ended on
        return BadRequest("every line must end with CRLF (\\r\\n), not a bare LF")
    start = len(head) - len(head.lstrip(b"\r\n"))  # blank lines before a request are allowed
    line_end = head.find(b"\n", start)
    if line_end < 0:  # its first bytes show garbage, a TLS hello, ... (a long target waits for its end)
        begun = head[start : start + LINE_START_CHECKED]
        return None if REQUEST_LINE_START.fullmatch(begun) else request_line_error(begun)
    return request_line_error(head[start:line_end].removesuffix(b"\r")) if checked <= line_end else None


class _Parser(HTTPRequestParser):
    """waitress's parser, refusing at once a head that cannot become an HTTP/1.x request's."""

    checked = 0
    """How many bytes of the head `head_error` found nothing wrong in."""

    def __init__(self, adj: Adjustments) -> None:
        super().__init__(adj)
        self.started = time.monotonic()
        """When the request's first byte came (http_guards times a request out from then)."""

    def received(self, data: bytes) -> int:
        if not (self.completed or self.headers_finished):
            head = self.header_plus + data
            blank_line = head.find(b"\r\n\r\n")
            head = head if blank_line < 0 else head[: blank_line + 4]  # what follows is a body
            error = head_error(head, self.checked)
            if error is not None:
                self.refuse(error)
                return len(data)
            self.checked = len(head)
        consumed: int = super().received(data)
        return consumed

    def refuse(self, error: Error) -> None:
        """Complete the request as a refusal, answered by the error task (and the connection closed)."""
        if not self.headers_finished:
            self.parse_header(b"GET / HTTP/1.0\r\n")  # as waitress does for its own early refusals
        self.error = error
        self.completed = True


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


class _Server(GuardedServer):
    channel_class = _Channel


class HttpListener:
    """`respond` served on (host, port) (port 0: any free one, read `port`) from a thread of its own.

    A body of `max_body` bytes or more is refused (413); `threads` requests are answered at once.
    The timeouts and limits: local_stack/laptop/http_guards.py."""

    def __init__(
        self,
        respond: Callable[[Request], Reply],
        host: str,
        port: int,
        *,
        max_body: int,
        idle_timeout: int = IDLE_TIMEOUT,
        request_timeout: float = REQUEST_TIMEOUT,
        per_client: int = PER_CLIENT,
        connection_limit: int = 100,
        threads: int = 8,
    ) -> None:
        self.respond = respond
        adjustments = Adjustments(
            host=host,
            port=port,
            threads=threads,
            channel_timeout=idle_timeout,
            cleanup_interval=CHECK_EVERY,  # how often connections past a timeout are looked for
            connection_limit=connection_limit + 2,  # waitress counts its listening socket and wake-up pipe too
            max_request_body_size=max_body,
            log_socket_errors=False,  # a client that hangs up is no error of ours
            ident="host-server",
        )
        self._map: dict[int, Any] = {}
        self.server = _Server(
            self._wsgi, map=self._map, adj=adjustments, per_client=per_client, request_timeout=request_timeout
        )
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
