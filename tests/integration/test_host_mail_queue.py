"""A laptop host's outgoing mail waits in the data folder until the relay takes it
(local_stack/laptop/mail_queue.py): a relay that is down, answers 421 or 451, or drops the connection
loses nothing, and each message arrives once, a restart of the host server in the middle
included; a 550 for one recipient skips only that recipient, and the host sees it in `status`
and on the host's page; a message the relay has not taken in 24 hours is given up, and the host
told.

The relay is a real SMTP server in a process of its own (tests/integration/relay_process.py) on
an ephemeral port: stopped, its port refuses connections. Time is the server's virtual clock:
each retry comes when the test moves the clock to it, never by waiting.
"""

from __future__ import annotations

import email
import email.policy
import html
import http.client
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import crates_request
from relay_process import RelayProcess
from test_host_server import START, environment, host, restarted, serve  # noqa: F401 - environment: autouse

from game_core.cli.failures import CliError
from local_stack.aws.clock import VirtualClock
from local_stack.aws.mail import RelayUnavailable, SmtpRelay
from local_stack.laptop.mail_queue import QUEUE_FILE, MailQueue
from local_stack.laptop.server import HostServer

pytestmark = pytest.mark.statemachine

ADDRESSES = {"ada": "ada@example.com", "bo": "bo@example.org", "cy": "cy@example.net"}
MATCH = crates_request(list(ADDRESSES), phase_seconds=7 * 86400)
MATCH["players"] = [{"id": who, "name": who.title(), "email": address} for who, address in ADDRESSES.items()]
"""Three players with an address; a phase far longer than the 24 hours mail is tried for."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def relay(tmp_path: Path) -> Iterator[RelayProcess]:
    process = RelayProcess(free_port(), tmp_path / "taken")
    yield process
    process.stop()


def queue_of(server: HostServer) -> MailQueue:
    assert server.mail_queue is not None
    return server.mail_queue


def retry(server: HostServer) -> None:
    """Move the clock to the moment the next message is due, and let the queue try what is due."""
    queue = queue_of(server)
    queue.settle()
    server.stack.clock.advance_to(min(mail.due_at for mail in queue.waiting()))  # type: ignore[union-attr]
    queue.settle()


def message_ids(raws: list[bytes]) -> list[str]:
    return [str(email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"]) for raw in raws]


def sent_by_the_service(data: Path, *, but_to: str = "") -> list[bytes]:
    """Every message the service sent (the outbox keeps each), but those to `but_to`."""
    raws = [path.read_bytes() for path in sorted((data / "outbox").glob("*.eml"))]
    return [raw for raw in raws if not but_to or but_to not in str(email.message_from_bytes(raw)["To"])]


def test_mail_waits_through_a_relay_down_then_refusing_and_a_restart_and_arrives_once(
    tmp_path: Path, relay: RelayProcess
) -> None:
    # Given a host server whose relay is down (its port refuses connections)
    data = tmp_path / "data"
    smtp = SmtpRelay("127.0.0.1", relay.port, security="plain", timeout=20)
    server = serve(data, VirtualClock(START), relay=smtp)
    try:
        created = host(server, "create", match=MATCH)
        match_id = created["match_id"]
        server.stack.settle()
        queue_of(server).settle()
        opening = len(sent_by_the_service(data))
        assert (
            opening == len(queue_of(server).waiting()) == 3
        )  # each player's opening (hand-counted: three with an address)

        # When the host presses: the answer comes at once, saying the mail waits and why
        reply = host(server, "press", match_id=match_id, text="Back at 8 tonight")
        assert reply["sent_to"] == "everyone"
        said = reply["mail_queued"]
        assert f"{opening + 3} messages wait" in said and QUEUE_FILE in said and "Connection refused" in said
        assert (data / QUEUE_FILE).exists()

        # When the relay comes back answering 421 to every sender, then 451 to every message
        relay.start(mail_from="421 4.3.2 Service shutting down")
        retry(server)
        assert "421 4.3.2 Service shutting down" in host(server, "status", match_id=match_id)["mail_queued"]
        relay.start(data="451 4.3.0 Try again later")
        retry(server)
        # ...then drops the connection in the middle of a message
        relay.start(drop=True)
        retry(server)
        assert relay.taken() == []
        waiting = {mail.id for mail in queue_of(server).waiting()}
        assert len(waiting) == opening + 3

        # When the host server restarts meanwhile, and the relay recovers but for Bo's mailbox
        server = restarted(server, data, relay=smtp)
        assert {mail.id for mail in queue_of(server).waiting()} == waiting
        relay.start(refuse="bo@example.org", busy="cy@example.net")
        retry(server)
        # ...but for Cy's mailbox, busy a while (450): only Cy's messages wait, then go
        assert sorted(mail.recipients for mail in queue_of(server).waiting()) == [("cy@example.net",)] * 2
        relay.start(refuse="bo@example.org")
        retry(server)

        # Then every message of the service arrived once, but Bo's, and nothing waits
        assert sorted(message_ids(relay.taken())) == sorted(message_ids(sent_by_the_service(data, but_to="bo@")))
        assert len(set(message_ids(relay.taken()))) == len(relay.taken()) == opening + 3 - 2  # Bo's two: hand-counted
        assert queue_of(server).waiting() == []
        status = host(server, "status", match_id=match_id)
        assert "mail_queued" not in status
        # ...and the host sees Bo's refusal once, in status and on the host's page
        (line,) = status["mail_bounced"]
        assert line.startswith("Bo's mail bounced at ") and "5.1.1 550 5.1.1 <bo@example.org>" in line, line
        assert f"said the relay 127.0.0.1:{relay.port}; not sent again" in line
        assert f"<dt>Mail not delivered</dt><dd>{html.escape(line)}</dd>" in host_page(server)
    finally:
        server.__exit__()


def host_page(server: HostServer) -> str:
    """The host's page of matches, as the host's browser gets it once logged in with the token."""
    connection = http.client.HTTPConnection("127.0.0.1", server.host_port, timeout=60)
    form = {"content-type": "application/x-www-form-urlencoded"}
    connection.request("POST", "/login", f"token={server.host_token}".encode(), form)
    login = connection.getresponse()
    login.read()
    connection.request("GET", "/", headers={"cookie": login.headers["set-cookie"].split(";")[0]})
    page = connection.getresponse().read().decode()
    connection.close()
    return page


def test_a_relay_down_for_24_hours_gives_the_mail_up_and_the_host_is_told(tmp_path: Path) -> None:
    # Given a host server whose relay never answers (its port refuses connections)
    data = tmp_path / "data"
    server = serve(data, VirtualClock(START), relay=SmtpRelay("127.0.0.1", free_port(), security="plain"))
    try:
        match_id = host(server, "create", match=MATCH)["match_id"]
        server.stack.settle()
        queue = queue_of(server)

        # When the clock moves from each retry to the next
        queue.settle()  # the first attempt: at once
        moments = [0.0]
        while queue.waiting():
            oldest = queue.waiting()[0]
            moments.append(oldest.due_at - oldest.queued_at)
            retry(server)
        # Then each message was tried 1, 2, 4, 8, 16 minutes after the last attempt, then every 30, the
        # last at the 24 hours' end (worked by hand: 0, 60, 180, 420, 900, 1860 s after it was queued,
        # then 1860 + 1800 k up to 84660, then 86400; 53 attempts in all)
        assert moments == [0, 60, 180, 420, 900, *(1860 + 1800 * k for k in range(47)), 86400]
        # ...and each participant's mail was given up, once, told to the host as theirs
        lines = host(server, "status", match_id=match_id)["mail_bounced"]
        assert [line.split("'")[0] for line in lines] == ["Ada", "Bo", "Cy"]
        assert all(line.endswith("(last: Connection refused): given up") for line in lines), lines
    finally:
        server.__exit__()


def test_a_queue_file_that_is_not_whole_stops_the_start_naming_it(tmp_path: Path) -> None:
    # Given a mail queue file cut short (its last write never half-done: a hand edit, a copy)
    data = tmp_path / "data"
    data.mkdir()
    (data / QUEUE_FILE).write_text('{"waiting": [{"id": "1", "recipients": ["ada@example.com"]')
    server = HostServer(data, port=0, clock=VirtualClock(START), games=("crates",), relay=SmtpRelay("127.0.0.1", 25))

    # Then the server does not start, naming the file and what to do; the file is left as it was
    with pytest.raises(CliError) as refused:
        server.__enter__()
    said = str(refused.value)
    assert f"{data / QUEUE_FILE} is not the mail queue this server keeps" in said and "move it aside" in said
    assert (data / QUEUE_FILE).read_text().endswith('"recipients": ["ada@example.com"]')


def test_a_relay_that_never_answers_times_out_and_the_message_waits() -> None:
    # Given a relay that takes the connection but never says a word (not even its greeting)
    with socket.create_server(("127.0.0.1", 0)) as silent:
        relay = SmtpRelay("127.0.0.1", silent.getsockname()[1], security="plain", timeout=0.5)

        # Then a send gives up on it after its timeout, as a failure that may pass
        with pytest.raises(RelayUnavailable, match="timed out"):
            relay.send(b"From: m-0123456789ab@play.local\r\nTo: ada@example.com\r\n\r\nHi\r\n", ["ada@example.com"])
