"""The host server's players' port as the LAN meets it, by raw sockets: malformed requests get a
real HTTP/1.x status line and a JSON body at once, an idle connection is closed after the idle
timeout, more connections than the cap wait without starving a request made after them, and a
client that hangs up leaves no traceback in the log.

The server's idle timeout is one second here: the waits below are for a socket to be closed
(real seconds, bounded by the client's own generous timeout), not for any game deadline."""

from __future__ import annotations

import json
import logging
import os
import socket
import struct
import time
from collections.abc import Iterator

import pytest
from test_host_server import REQUEST_TIMEOUT, START

from game_core.aws.wiring import ports_from_environment
from local_stack.aws.clock import VirtualClock
from local_stack.laptop.http_serving import HttpListener, request_line_error
from local_stack.laptop.server import MAX_BODY_BYTES, HostServer

pytestmark = pytest.mark.statemachine

CAP = 6
"""The server's connection cap here."""
NORMAL = b"GET /matches/nope HTTP/1.1\r\nHost: laptop\r\nConnection: close\r\n\r\n"
"""A well-formed request (for a match that does not exist: the function answers 404)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostServer]:
    """One server for the module (its stack sets the process environment: restored afterwards)."""
    saved = dict(os.environ)
    started = HostServer(
        tmp_path_factory.mktemp("data"),
        port=0,
        clock=VirtualClock(START),
        games=("crates",),
        idle_timeout=1,
        connection_limit=CAP,
    ).__enter__()
    try:
        yield started
    finally:
        started.__exit__()
        ports_from_environment.cache_clear()
        os.environ.clear()
        os.environ.update(saved)
        time.tzset()


def connect(server: HostServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=REQUEST_TIMEOUT)


def until_closed(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    connection.close()
    return received


def exchange(server: HostServer, request: bytes) -> bytes:
    connection = connect(server)
    connection.sendall(request)
    return until_closed(connection)


def parsed(response: bytes) -> tuple[bytes, dict[bytes, bytes], bytes]:
    """The status line, the headers (lower-case names) and the body of one whole response."""
    head, _, body = response.partition(b"\r\n\r\n")
    status_line, *lines = head.split(b"\r\n")
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(b":") for line in lines)}
    return status_line, headers, body


@pytest.mark.parametrize(
    ("request_bytes", "status_line", "detail"),
    [
        (b"garbage\r\n\r\n", b"HTTP/1.0 400 Bad Request", "the request line must be METHOD TARGET HTTP/1.1"),
        # HTTP/0.9: one line, no version, no blank line to wait for
        (b"GET /\r\n", b"HTTP/1.0 400 Bad Request", "the request line must be METHOD TARGET HTTP/1.1"),
        (b"GET / HTTP/0.9\r\n\r\n", b"HTTP/1.0 505 HTTP Version Not Supported", "HTTP/0.9 is not served here"),
        # HTTP/2's connection preface, spoken to an HTTP/1.1 port
        (
            b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
            b"HTTP/1.0 505 HTTP Version Not Supported",
            "HTTP/2.0 is not served here",
        ),
        # bare LF line ends, in the request line or in a header after it (issue 29: no answer, held 60 s)
        (b"GET /matches/nope HTTP/1.1\nHost: l\n\n", b"HTTP/1.0 400 Bad Request", "not a bare LF"),
        (b"GET /matches/nope HTTP/1.1\r\nHost: l\nAccept: */*\r\n\r\n", b"HTTP/1.0 400 Bad Request", "bare LF"),
        # no line end at all: garbage, and a TLS hello on the plain port, refused by their first bytes
        (b"\x00\x01garbage", b"HTTP/1.0 400 Bad Request", "the request line must be METHOD TARGET HTTP/1.1"),
        (b"\x16\x03\x01\x00\xa5\x01\x00\x00", b"HTTP/1.0 400 Bad Request", "the request line must be"),
        (
            b"POST /matches/m/players/p/submissions HTTP/1.1\r\nHost: l\r\nContent-Length: many\r\n\r\n",
            b"HTTP/1.1 400 Bad Request",
            "Content-Length is invalid",
        ),
        (
            b"POST /matches/m/players/p/submissions HTTP/1.1\r\nHost: l\r\nContent-Length: %d\r\n\r\n"
            % (MAX_BODY_BYTES + 1),
            b"HTTP/1.1 413 Request Entity Too Large",
            "exceeds max_body",
        ),
    ],
)
def test_a_malformed_request_gets_a_status_line_and_a_json_body_and_the_connection_closes(
    server, request_bytes, status_line, detail
) -> None:
    response = exchange(server, request_bytes)

    line, headers, body = parsed(response)
    assert line == status_line, response
    assert headers[b"content-type"] == b"application/json"
    assert int(headers[b"content-length"]) == len(body)
    refusal = json.loads(body)
    assert refusal["message"] == status_line.split(b" ", 2)[2].decode()
    assert detail in refusal["detail"]


def test_a_well_formed_request_is_answered_by_its_function(server) -> None:
    line, headers, body = parsed(exchange(server, NORMAL))
    assert (line, headers[b"content-type"]) == (b"HTTP/1.1 404 Not Found", b"application/json")
    assert "nope" in json.loads(body)["message"]


def test_a_request_sent_a_byte_at_a_time_is_answered(server) -> None:
    # Each CR and its LF arrive apart: no line end is taken for a bare LF, nor a prefix for garbage
    connection = connect(server)
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for byte in NORMAL:
        connection.sendall(bytes([byte]))
    assert parsed(until_closed(connection))[0] == b"HTTP/1.1 404 Not Found"


def test_an_idle_connection_is_closed_after_the_idle_timeout(server) -> None:
    # A client that connects and says nothing: the server closes it (recv returns b"") within the
    # client's own timeout, many times the server's second
    idle = connect(server)
    assert until_closed(idle) == b""
    # ...and one that stops halfway through its headers
    halfway = connect(server)
    halfway.sendall(b"GET /matches/nope HTTP/1.1\r\nHost: lap")
    assert until_closed(halfway) == b""


def test_connections_beyond_the_cap_wait_and_a_request_after_them_is_served_once_they_are_dropped(server) -> None:
    # Given twice the cap of connections that say nothing
    idle = [connect(server) for _ in range(2 * CAP)]

    # When a well-formed request comes after them
    line, _, _ = parsed(exchange(server, NORMAL))

    # Then it is answered, and every idle connection was closed without a byte
    assert line == b"HTTP/1.1 404 Not Found"
    assert [until_closed(connection) for connection in idle] == [b""] * len(idle)


def hang_up(connection: socket.socket) -> None:
    """Close with a reset, as a client that crashed or lost its network does."""
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.close()


def test_a_client_that_hangs_up_leaves_no_traceback(server, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    # A client that hangs up in the middle of its body, one right after its request, one after
    # reading part of the answer
    midway = connect(server)
    midway.sendall(b"POST /matches/m/players/p/submissions HTTP/1.1\r\nHost: l\r\nContent-Length: 100\r\n\r\n{")
    hang_up(midway)
    impatient = connect(server)
    impatient.sendall(NORMAL)
    hang_up(impatient)
    reader = connect(server)
    reader.sendall(NORMAL)
    assert reader.recv(5) == b"HTTP/"
    hang_up(reader)

    # Then the server still answers, and logged no traceback for any of them
    assert parsed(exchange(server, NORMAL))[0] == b"HTTP/1.1 404 Not Found"
    assert not [record for record in caplog.records if record.exc_info], caplog.text
    assert "Traceback" not in caplog.text


@pytest.mark.parametrize(
    ("line", "refused"),
    [
        (b"GET /matches/m HTTP/1.1", None),
        (b"POST /matches/m/players/p/submissions HTTP/1.0", None),
        (b"GET /", 400),  # HTTP/0.9
        (b"GET / HTTP/0.9", 505),
        (b"PRI * HTTP/2.0", 505),
        (b"GET / HTTP/1.1 extra", 400),
        (b"GET  / HTTP/1.1", 400),  # two spaces: an empty target
        (b"\x16\x03\x01\x00\xa5", 400),  # a TLS hello on the plain port
        (b"", 400),
    ],
)
def test_request_line_error(line: bytes, refused: int | None) -> None:
    error = request_line_error(line)
    assert (None if error is None else error.code) == refused


def test_stopping_survives_the_serving_thread_closing_before_the_wake_up_is_written() -> None:
    # The race seen at shutdown: the serving thread, woken by something else, runs the queued
    # close (which closes the wake-up pipe) before stop writes its own wake-up to that pipe.
    listener = HttpListener(lambda request: (200, b"{}", {}), "127.0.0.1", 0, max_body=1024)
    trigger = listener.server.trigger
    pull = trigger._physical_pull

    def wake_after_the_close_ran() -> None:
        pull()  # wakes the loop, which runs the close and ends
        listener.thread.join(timeout=10)
        pull()  # the late wake-up: its pipe is closed by now

    trigger._physical_pull = wake_after_the_close_ran
    listener.stop()
    assert not listener.thread.is_alive()
