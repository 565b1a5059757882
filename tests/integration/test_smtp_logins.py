"""A login to the laptop's SMTP port reads only the matches it names, however many the server
holds, and never on the port's event loop (issue 32: at 50 matches each login read every match
there, logins took seconds and the mail port stopped answering). The index behind it follows the
table: a new match's players log in at once, a replaced player's old address no longer does, and
a restart finds every login again."""

from __future__ import annotations

import smtplib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_host_server import (  # noqa: F401 - environment: the autouse fixture restoring os.environ
    REQUEST_TIMEOUT,
    START,
    environment,
    host,
    serve,
)

from game_core.match.model import Match
from local_stack.aws.clock import VirtualClock
from local_stack.laptop.access import Authenticator
from local_stack.laptop.server import HostServer
from local_stack.laptop.smtp import SmtpListener

pytestmark = pytest.mark.statemachine


def match_of(*players: str) -> dict[str, Any]:
    """A crates match of these players, each at <id>@example.com."""
    return {
        "game": "crates",
        "settings": {},
        "players": [{"id": p, "name": p.title(), "email": f"{p}@example.com"} for p in players],
        "phase_seconds": 86400,
    }


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path


def started(data: Path) -> HostServer:
    return serve(data, VirtualClock(START), smtp_port=0)


def logs_in(server: HostServer, name: str, secret: str) -> bool:
    with smtplib.SMTP("127.0.0.1", server.smtp_port, timeout=REQUEST_TIMEOUT) as smtp:
        try:
            smtp.login(name, secret)  # in plain text: from this laptop itself
        except smtplib.SMTPAuthenticationError:
            return False
        return True


def table_calls(server: HostServer, name: str, secret: str) -> tuple[bool, int]:
    """Whether the login was taken, and how many DynamoDB calls the server made meanwhile."""
    server.stack.settle()  # nothing else at work: every call counted is the login's
    calls: list[str] = []

    def count(event_name: str, _request: Any, _response: Any) -> None:
        if event_name.startswith("before-send.dynamodb."):
            calls.append(event_name)

    server.stack.lambdas.after_aws_call.append(count)
    try:
        taken = logs_in(server, name, secret)
    finally:
        server.stack.lambdas.after_aws_call.remove(count)
    return taken, len(calls)


@pytest.fixture
def hosted(data: Path) -> Iterator[tuple[HostServer, dict[str, Any]]]:
    """A server taking mail, with one match of Ada and Bo."""
    server = started(data)
    try:
        yield server, host(server, "create", match=match_of("ada", "bo"))
    finally:
        server.__exit__()


def test_a_login_reads_the_one_match_it_names_however_many_the_server_holds(hosted, data) -> None:
    server, first = hosted
    # Given one match: Ada's login by address reads it once (a match is one read: its header,
    # state and log counter in one BatchGetItem)
    alone = table_calls(server, "ada@example.com", first["secrets"]["ada"])

    # When four more matches of other players are created, and one more of Ada's (one login,
    # her address, takes her into both)
    for number in range(4):
        host(server, "create", match=match_of(f"x{number}", f"y{number}"))
    second = host(server, "create", match=match_of("ada", "cy"))
    many = table_calls(server, "ada@example.com", first["secrets"]["ada"])
    new_match = table_calls(server, "cy@example.com", second["secrets"]["cy"])
    wrong = table_calls(server, "ada", "not her secret")
    nobody = table_calls(server, "nobody@example.com", first["secrets"]["ada"])

    # Then each login read the matches naming it and no other: 1 of 1, 2 of 6 (Ada plays two),
    # 1 for Cy, whose match was created after the server started; a refused one the same each
    # try (smtplib tries PLAIN, then LOGIN: 2 x Ada's 2), and a name no match has reads none
    assert (alone, many, new_match, wrong, nobody) == ((True, 1), (True, 2), (True, 1), (False, 4), (False, 0))

    # and after a restart on the same folder, the index is read back with the table
    server.__exit__()
    again = started(data)
    try:
        assert table_calls(again, "cy@example.com", second["secrets"]["cy"]) == (True, 1)
    finally:
        again.__exit__()


def test_a_replaced_players_address_and_secret_log_in_no_more_and_the_newcomers_do(hosted) -> None:
    server, created = hosted
    match_id, bo = created["match_id"], created["secrets"]["bo"]
    assert logs_in(server, "bo@example.com", bo)

    # When the host gives Bo's seat to Dana
    dana = host(server, "replace", match_id=match_id, seat="bo", name="Dana", email="dana@example.com")["secret"]

    # Then Bo's address and his secret are refused, and Dana's address with her secret is taken
    assert (logs_in(server, "bo@example.com", bo), logs_in(server, "bo", bo)) == (False, False)
    assert logs_in(server, "bo@example.com", dana) is False  # her secret, his address
    assert logs_in(server, "dana@example.com", dana) is True


def test_a_login_waiting_on_the_table_holds_no_other_session_of_the_mail_port() -> None:
    # Given a mail port whose authenticator waits (a store read behind moto's lock under load)
    entered, release = threading.Event(), threading.Event()

    def waiting(_name: str) -> list[Match]:
        entered.set()
        release.wait(3 * REQUEST_TIMEOUT)  # past the other client's timeout: released by the test
        return []

    listener = SmtpListener(object(), "127.0.0.1", 0, authenticator=Authenticator("token", waiting))
    refused: list[int] = []

    def first_login() -> None:
        with smtplib.SMTP("127.0.0.1", listener.port, timeout=REQUEST_TIMEOUT) as smtp:
            try:
                smtp.login("ada@example.com", "her secret")
            except smtplib.SMTPAuthenticationError as error:
                refused.append(error.smtp_code)

    try:
        login = threading.Thread(target=first_login)
        login.start()
        assert entered.wait(REQUEST_TIMEOUT)

        # When another client connects while that login waits
        try:
            with smtplib.SMTP("127.0.0.1", listener.port, timeout=REQUEST_TIMEOUT) as other:
                answered = (other.ehlo()[0], other.noop()[0])
        except (TimeoutError, smtplib.SMTPServerDisconnected):
            answered = None
        finally:
            release.set()
            login.join(REQUEST_TIMEOUT)
    finally:
        listener.stop()

    # Then it was greeted and answered meanwhile, and the waiting login was then refused (no match names it)
    assert answered == (250, 250)
    assert refused == [535]
