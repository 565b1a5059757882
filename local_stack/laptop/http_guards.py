"""What keeps one misbehaving client from locking every player out of the host server's HTTP
ports (local_stack/laptop/http_serving.py serves them with waitress, whose own guards are a total
connection limit and an idle timeout: 500 silent connections from one address filled the first
and held it for the second's 60 s).

- `PER_CLIENT` connections at most from one address: a browser opens at most 6 to one host and
  port (Chrome's and Firefox's HTTP/1.1 limit), so 20 lets three browsers or devices behind one
  address (a household's router, the host's page beside match-host) play at once, while one
  address takes at most a fifth of the server's 100 places. One more is answered 429 at once
  and closed, its bytes never parsed.
- `REQUEST_TIMEOUT`: a request whose head and body are not all in 10 s after its first byte is
  answered 408 and closed, however slowly it trickles in (waitress's idle timeout restarts with
  every byte). A move is a few kilobytes; even the largest body taken (1 MB) arrives within 10 s
  over 1 Mbit/s.
- `IDLE_TIMEOUT`: a connection silent for 5 s between requests (or before its first) is closed,
  as Apache's KeepAliveTimeout does; a browser opens a new one for its next request.
"""

from __future__ import annotations

import json
import logging
import socket
import time
from collections import Counter
from typing import Any

from waitress.server import TcpWSGIServer
from waitress.utilities import Error

logger = logging.getLogger(__name__)

PER_CLIENT = 20
REQUEST_TIMEOUT = 10
IDLE_TIMEOUT = 5
CHECK_EVERY = 1
"""Seconds between looks for connections past a timeout (waitress's cleanup_interval)."""


class RequestTimeout(Error):
    code = 408
    reason = "Request Timeout"


def too_many_connections(address: str, held: int) -> bytes:
    """The 429 answered to a connection past the cap, with the JSON body of every refusal here."""
    detail = f"{held} connections are open from {address}, the most one address may hold: close some, then retry"
    body = json.dumps({"message": "Too Many Requests", "detail": detail}).encode()
    head = (
        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nRetry-After: {IDLE_TIMEOUT}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


def refuse(conn: socket.socket, answer: bytes) -> None:
    """Answer a connection that is not served, without waiting on it, and close it. What it sent
    already is read first: closing over unread bytes would reset the connection, and the client
    could lose the answer."""
    conn.setblocking(False)
    try:
        while conn.recv(65536):
            pass
    except OSError:  # nothing more to read now (or the client is gone)
        pass
    try:
        conn.send(answer)  # a new connection's send buffer holds far more than this
        conn.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    conn.close()


class GuardedServer(TcpWSGIServer):
    """waitress's server, with a cap of connections per client address and a request timeout."""

    def __init__(self, *args: Any, per_client: int, request_timeout: float, **kwargs: Any) -> None:
        self.per_client = per_client
        self.request_timeout = request_timeout
        self.capped: set[str] = set()
        """The addresses refused for holding too many: each logged once, until it holds fewer."""
        super().__init__(*args, **kwargs)

    def accept(self) -> tuple[socket.socket, Any] | None:
        accepted: tuple[socket.socket, Any] | None = super().accept()
        if accepted is None:
            return None
        conn, addr = accepted
        address = str(addr[0])
        held = sum(1 for channel in self.active_channels.values() if channel.addr[0] == address)
        if held < self.per_client:
            return accepted
        if address not in self.capped:
            self.capped.add(address)
            logger.warning("%s holds %d connections, the most one address may: refusing more", address, held)
        refuse(conn, too_many_connections(address, held))
        return None

    def maintenance(self, now: float) -> None:
        """Close the idle connections (waitress's), and time out the requests too slow to come in."""
        super().maintenance(now)
        started_before = time.monotonic() - self.request_timeout
        held: Counter[str] = Counter()
        for channel in self.active_channels.values():
            held[channel.addr[0]] += 1
            request = channel.request  # being read; channel.requests: read, being answered
            if request is not None and not channel.requests and request.started < started_before:
                with channel.requests_lock:
                    request.refuse(RequestTimeout(f"the request was not all sent within {self.request_timeout} s"))
                    channel.request = None
                    channel.requests.append(request)
                self.add_task(channel)  # answers it (408) and closes the connection
        self.capped = {address for address in self.capped if held[address] >= self.per_client}
