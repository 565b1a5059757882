"""Who may act on the host server (bin/host-server), tried as an attacker and as the host would:
the host port takes only the host's own console (the host token, its loopback Host, no foreign
Origin), and the SMTP port takes a mail only from a session logged in as its sender (a
participant with their webhook secret, the host with the host token); whatever is refused
changes nothing and is answered by nothing."""

from __future__ import annotations

import json
import smtplib
import socket
import ssl
import stat
from collections.abc import Iterator
from datetime import datetime, timedelta
from email.message import EmailMessage
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
from test_host_server import (  # noqa: F401 - environment: the autouse fixture restoring os.environ
    REQUEST_TIMEOUT,
    START,
    environment,
    http,
    player_url,
    serve,
)

from game_core.cli import host as match_host
from local_stack.aws.clock import VirtualClock
from local_stack.laptop.access import bearer_is_token, host_token, plaintext_login_allowed
from local_stack.laptop.server import HostServer

pytestmark = pytest.mark.statemachine

HOST = "host@example.net"
MULTIPLIERS = "MULTIPLIERS 2 1 1 0 -1 -1\n"
MATCH = {
    "game": "crates",
    "settings": {},
    "players": [
        {"id": "ada", "name": "Ada", "email": "ada@example.com"},
        {"id": "bo", "name": "Bo", "email": "bo@example.com"},
        {"id": "cy", "name": "Cy", "email": HOST},  # the host plays too, as Cy
    ],
    "host_email": HOST,
    "phase_seconds": 86400,
}


@pytest.fixture
def hosted(tmp_path: Path) -> Iterator[tuple[HostServer, dict[str, Any]]]:
    """A server taking mail, with a match of Ada, Bo and Cy (the host's address) waiting for the Pregame."""
    server = serve(tmp_path, VirtualClock(START), smtp_port=0)
    try:
        created = send(server, {"command": "create", "match": MATCH}, own_headers(server))[1]
        assert created["ok"], created
        server.stack.settle()
        yield server, created
    finally:
        server.__exit__()


def own_headers(server: HostServer) -> dict[str, str]:
    """What match-host sends: its loopback Host, the host token, no Origin."""
    return {"Host": f"127.0.0.1:{server.host_port}", "Authorization": f"Bearer {server.host_token}"}


def send(server: HostServer, command: dict[str, Any], headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """A POST to the host port with exactly these headers (a page's script or a rebound name sets its own)."""
    connection = HTTPConnection("127.0.0.1", server.host_port, timeout=REQUEST_TIMEOUT)
    try:
        body = json.dumps(command).encode()
        connection.putrequest("POST", "/host", skip_host=True, skip_accept_encoding=True)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            connection.putheader(name, value)
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def status(server: HostServer, match_id: str) -> dict[str, Any]:
    return send(server, {"command": "status", "match_id": match_id}, own_headers(server))[1]


# -- the host port -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        # match-host from the host's console: its token, Host 127.0.0.1:<port> (or localhost), no Origin
        (own_headers, 200),
        (lambda s: {**own_headers(s), "Host": f"localhost:{s.host_port}"}, 200),
        (lambda s: {**own_headers(s), "Origin": f"http://127.0.0.1:{s.host_port}"}, 200),
        # no token, or another one: 401
        (lambda s: {"Host": f"127.0.0.1:{s.host_port}"}, 401),
        (lambda s: {**own_headers(s), "Authorization": "Bearer not-the-token"}, 401),
        (lambda s: {**own_headers(s), "Authorization": s.host_token}, 401),  # no scheme
        # a web page's request (even one that somehow had the token): 403
        (lambda s: {**own_headers(s), "Origin": "http://evil.example", "Content-Type": "text/plain"}, 403),
        (lambda s: {**own_headers(s), "Origin": "null"}, 403),
        (lambda s: {**own_headers(s), "Origin": f"http://127.0.0.1:{s.port}"}, 403),  # the players' port
        # DNS rebinding: the page's own name, resolved to 127.0.0.1: 403
        (lambda s: {**own_headers(s), "Host": f"evil.example:{s.host_port}"}, 403),
        (lambda s: {**own_headers(s), "Host": "127.0.0.1"}, 403),
        (lambda s: {key: value for key, value in own_headers(s).items() if key != "Host"}, 403),
    ],
)
def test_the_host_port_takes_the_host_console_alone(hosted, headers, expected) -> None:
    server, created = hosted
    reply = send(server, {"command": "status", "match_id": created["match_id"]}, headers(server))
    assert reply[0] == expected, reply
    assert reply[1]["ok"] is (expected == 200)
    if expected != 200:
        assert "submitted" not in reply[1] and "open" not in reply[1]


def test_reissue_secret_never_answers_a_foreign_request_and_the_old_secret_still_works(hosted) -> None:
    # Given Ada's secret from the match's creation
    server, created = hosted
    match_id, secret = created["match_id"], created["secrets"]["ada"]
    reissue = {"command": "reissue_secret", "match_id": match_id, "player": "ada"}

    # When a web page (with a foreign Origin, or through a rebound name) and a tokenless caller
    # ask for a new one
    refused = [
        send(server, reissue, {**own_headers(server), "Origin": "http://evil.example"}),
        send(server, reissue, {**own_headers(server), "Host": f"evil.example:{server.host_port}"}),
        send(server, reissue, {"Host": f"127.0.0.1:{server.host_port}"}),
    ]

    # Then none gets a secret, and Ada's own still opens her view
    assert [code for code, _ in refused] == [403, 403, 401]
    assert not any("secret" in json.dumps(body) for _, body in refused), refused
    assert http(player_url(server, match_id, "ada"), headers={"Authorization": f"Bearer {secret}"})[0] == 200

    # ...while the host's own request replaces it
    code, reissued = send(server, reissue, own_headers(server))
    assert (code, reissued["ok"]) == (200, True), reissued
    assert http(player_url(server, match_id, "ada"), headers={"Authorization": f"Bearer {secret}"})[0] == 401


def test_the_host_token_is_kept_for_the_owner_alone_and_match_host_reads_it(hosted, tmp_path, monkeypatch, capsys):
    server, created = hosted
    token_file = tmp_path / "host-token"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert token_file.read_text().strip() == server.host_token
    url = f"http://127.0.0.1:{server.host_port}"
    monkeypatch.delenv("MATCH_HOST_TOKEN", raising=False)

    # match-host with the server's data folder: the status, exit 0
    assert match_host.main(["--server", url, "--data", str(tmp_path), "status", created["match_id"]]) == 0
    assert json.loads(capsys.readouterr().out)["match_id"] == created["match_id"]

    # ...with a folder that has no token: one line naming the fix, exit 2 (argparse's usage error), nothing sent
    try:
        code = match_host.main(["--server", url, "--data", str(tmp_path / "elsewhere"), "status", created["match_id"]])
    except SystemExit as exited:
        code = exited.code
    assert code == 2
    assert "no host token in" in capsys.readouterr().err

    # ...and $MATCH_HOST_TOKEN in place of the folder (a wrong one refused: one line naming it, exit 2)
    monkeypatch.setenv("MATCH_HOST_TOKEN", server.host_token)
    assert match_host.main(["--server", url, "--data", str(tmp_path / "elsewhere"), "status", created["match_id"]]) == 0
    capsys.readouterr()
    monkeypatch.setenv("MATCH_HOST_TOKEN", "not-the-token")
    assert match_host.main(["--server", url, "status", created["match_id"]]) == 2
    said = "refused the host token in $MATCH_HOST_TOKEN: unset it to use the server's host-token"
    assert capsys.readouterr().err == f"match-host: {url} {said}\n"


# -- mail ------------------------------------------------------------------------------------------


def mail(match_id: str, sender: str, text: str, number: int) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"] = sender, f"{match_id}@play.local"
    message["Subject"], message["Message-ID"] = f"[{match_id}]", f"<m{number}@example.com>"
    message.set_content(text)
    return message


ADA, BO, CY = "Ada <ada@example.com>", "Bo <bo@example.com>", f"Cy <{HOST}>"


@pytest.mark.parametrize(
    ("login", "sender", "text", "refusal"),
    [
        # nobody logged in: a forged host command and a forged move, refused before anything is read
        (None, CY, "EXTEND 100\n", (530, b"5.7.0 Authentication required")),
        (None, ADA, MULTIPLIERS, (530, b"5.7.0 Authentication required")),
        # logged in as one participant, sending as another (or as the host)
        (("bo", "bo"), ADA, MULTIPLIERS, (553, b"5.7.1 logged in as bo: send from the address the match has for bo")),
        (
            ("ada", "ada"),
            CY,
            "EXTEND 100\n",
            (553, b"5.7.1 logged in as ada: send from the address the match has for ada"),
        ),
        # the host's own address, logged in as the participant it also is: no host command
        (
            ("cy", "cy"),
            CY,
            "EXTEND 100\n",
            (553, b"5.7.1 EXTEND is a host command: log in as host with the host token"),
        ),
        # logged in as the host, sending as a player
        (
            ("host", "token"),
            ADA,
            MULTIPLIERS,
            (553, b"5.7.1 logged in as the host: send from the host's address of the match"),
        ),
    ],
)
def test_a_mail_from_anyone_but_whom_its_session_logged_in_as_changes_nothing_and_gets_no_answer(
    hosted, login, sender, text, refusal
) -> None:
    server, created = hosted
    match_id = created["match_id"]
    before = status(server, match_id)
    sent_before = len(server.stack.outbox.sent)

    with smtplib.SMTP("127.0.0.1", server.smtp_port, timeout=REQUEST_TIMEOUT) as smtp:
        if login is not None:
            name, whose = login
            smtp.login(name, server.host_token if whose == "token" else created["secrets"][whose])
        with pytest.raises((smtplib.SMTPSenderRefused, smtplib.SMTPDataError)) as refused:
            smtp.send_message(mail(match_id, sender, text, 1))
    assert (refused.value.smtp_code, refused.value.smtp_error) == refusal
    server.stack.settle()

    # Nothing changed: the same deadline, nothing submitted, nothing answered
    after = status(server, match_id)
    assert (after["open"], after["submitted"]) == (before["open"], [])
    assert len(server.stack.outbox.sent) == sent_before


@pytest.mark.parametrize("login", ["ada@example.com", "ada", "ADA@Example.com"])
def test_a_participant_logged_in_with_their_secret_has_their_move_taken_and_answered(hosted, login) -> None:
    server, created = hosted
    match_id = created["match_id"]
    with smtplib.SMTP("127.0.0.1", server.smtp_port, timeout=REQUEST_TIMEOUT) as smtp:
        # a wrong secret first (Bo's): refused at the login
        with pytest.raises(smtplib.SMTPAuthenticationError) as wrong:
            smtp.login(login, created["secrets"]["bo"])
        assert wrong.value.smtp_code == 535
        smtp.login(login, created["secrets"]["ada"])
        assert smtp.send_message(mail(match_id, ADA, MULTIPLIERS, 2)) == {}

    assert status(server, match_id)["submitted"] == ["ada"]
    (answer,) = [sent for sent in server.stack.outbox.to("ada@example.com") if b"<m2@example.com>" in sent.raw]
    assert b"Accepted for Pregame" in answer.raw


def test_the_host_logged_in_with_the_token_extends_by_mail(hosted) -> None:
    server, created = hosted
    match_id = created["match_id"]
    deadline = datetime.fromisoformat(status(server, match_id)["open"]["deadline"])
    with smtplib.SMTP("127.0.0.1", server.smtp_port, timeout=REQUEST_TIMEOUT) as smtp:
        with pytest.raises(smtplib.SMTPAuthenticationError):
            smtp.login("host", "not-the-token")
        smtp.login("host", server.host_token)
        assert smtp.send_message(mail(match_id, CY, "EXTEND 2\n", 3)) == {}
    server.stack.settle()

    # EXTEND 2: the deadline two hours later, and the host told it is done
    assert datetime.fromisoformat(status(server, match_id)["open"]["deadline"]) == deadline + timedelta(hours=2)
    (answer,) = [sent for sent in server.stack.outbox.to(HOST) if b"<m3@example.com>" in sent.raw]
    assert b"Done: EXTEND 2." in answer.raw


def lan_address() -> str | None:
    """This machine's address on its network, if it has one (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if address.startswith("127.") else address


def test_from_the_lan_a_login_is_taken_only_after_starttls_with_the_certificate_in_the_data_folder(tmp_path) -> None:
    address = lan_address()
    if address is None:
        pytest.skip("this machine has no address but loopback")
    server = HostServer(tmp_path, host="0.0.0.0", port=0, clock=VirtualClock(START), games=("crates",), smtp_port=0)
    server.__enter__()
    try:
        created = send(server, {"command": "create", "match": MATCH}, own_headers(server))[1]
        server.stack.settle()
        secret = created["secrets"]["ada"]
        with smtplib.SMTP(address, server.smtp_port, timeout=REQUEST_TIMEOUT) as smtp:
            # in plain text, no login is offered, and one tried is refused
            smtp.ehlo()
            assert not smtp.has_extn("auth")
            assert smtp.docmd("AUTH", "PLAIN AGFkYQBzZWNyZXQ=")[0] == 538
            # after STARTTLS, checked against the server's own certificate, it is
            trusted = ssl.create_default_context(cafile=tmp_path / "smtp-cert.pem")
            trusted.check_hostname = False  # the certificate names this laptop, not its address
            smtp.starttls(context=trusted)
            smtp.login("ada", secret)
            assert smtp.send_message(mail(created["match_id"], ADA, MULTIPLIERS, 4)) == {}
        assert status(server, created["match_id"])["submitted"] == ["ada"]
        assert stat.S_IMODE((tmp_path / "smtp-key.pem").stat().st_mode) == 0o600
    finally:
        server.__exit__()


# -- the rules themselves ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("peer", "allowed"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),  # all of 127/8 is this machine
        ("::1", True),
        ("::ffff:127.0.0.1", True),  # IPv4 loopback on a dual-stack socket
        ("192.168.1.20", False),
        ("10.0.0.7", False),
        ("::ffff:192.168.1.20", False),
        ("fe80::1", False),
        ("not-an-address", False),
    ],
)
def test_a_login_in_plain_text_is_taken_from_this_machine_alone(peer: str, allowed: bool) -> None:
    assert plaintext_login_allowed(peer) is allowed


def test_the_host_token_is_made_once_for_the_owner_alone_and_kept(tmp_path: Path) -> None:
    # Made on the first start, in a file only its owner reads (0600), a URL-safe 43 characters
    # (token_urlsafe(32): 32 random bytes in base64 without padding)
    token = host_token(tmp_path / "data")
    path = tmp_path / "data" / "host-token"
    assert (stat.S_IMODE(path.stat().st_mode), len(token)) == (0o600, 43)
    assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    # ...the same on every later start, its file tightened again if someone loosened it
    path.chmod(0o644)
    assert host_token(tmp_path / "data") == token
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # ...and made anew if the file was left empty (a crash as it was first written)
    path.write_text("")
    assert host_token(tmp_path / "data") not in ("", token)


@pytest.mark.parametrize(
    ("authorization", "taken"),
    [
        ("Bearer the-token", True),
        ("bearer the-token", True),  # the scheme in any case (RFC 9110)
        ("Bearer  the-token ", True),
        ("Bearer the-token2", False),
        ("Bearer the-toke", False),
        ("Basic the-token", False),
        ("the-token", False),
        ("Bearer", False),
        ("", False),
    ],
)
def test_the_bearer_header_is_the_token_or_nothing(authorization: str, taken: bool) -> None:
    assert bearer_is_token(authorization, "the-token") is taken
