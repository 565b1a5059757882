"""The host server (bin/host-server) as a host and players use it: host commands through
`match-host --server` on the loopback port, moves by real HTTP requests and real SMTP, the table
kept on disk across a restart, sixteen players posting at once, and no port but the chosen ones.

Each server runs the real ASL on a virtual clock (time moves only when a test moves it), in this
process; a restart is the server stopped and a new one started on the same data folder.
"""

from __future__ import annotations

import email
import json
import os
import smtplib
import socket
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from conftest import crates_request, load_event, push

from game_core.cli.host import send_to_server
from local_stack.aws.clock import VirtualClock
from local_stack.aws.mail import MailAccount, SmtpRelay
from local_stack.laptop.recovery import Recovery
from local_stack.laptop.server import HostServer
from local_stack.laptop.smtp import SmtpListener

pytestmark = pytest.mark.statemachine

START = datetime(2026, 11, 30, 12, tzinfo=UTC)
ORDER = [2, 1, 1, 0, -1, -1]
GROUNDS = ["stone", "ice", "stone", "rubber", "ice", "stone"]
"""Six rounds' grounds within the limits (rubber once, ice twice), each player starting elsewhere."""
REQUEST_TIMEOUT = 60


@pytest.fixture(autouse=True)
def environment() -> Iterator[None]:
    """Each server's stack sets the process environment (as Lambda's): restored afterwards."""
    from game_core.aws.wiring import ports_from_environment

    saved = dict(os.environ)
    yield
    ports_from_environment.cache_clear()
    os.environ.clear()
    os.environ.update(saved)
    time.tzset()


def serve(data: Path, clock: VirtualClock, **options: Any) -> HostServer:
    """A started host server on free loopback ports."""
    return HostServer(data, port=0, clock=clock, games=("crates",), **options).__enter__()


def host(server: HostServer, command: str, **fields: Any) -> dict[str, Any]:
    """A host command, as `match-host --server` sends it."""
    reply = send_to_server({"command": command, **fields}, f"http://127.0.0.1:{server.host_port}", server.host_token)
    assert reply["ok"], reply
    return reply


def http(url: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def player_url(server: HostServer, match_id: str, player: str) -> str:
    return f"http://127.0.0.1:{server.port}/matches/{match_id}/players/{player}"


def post_move(
    server: HostServer,
    match_id: str,
    player: str,
    secret: str,
    move: dict[str, Any],
    content_type: str = "application/json",
) -> tuple[int, Any]:
    """A player's submission by HTTP, as `curl` or a bot on the LAN sends it."""
    headers = {
        "Authorization": f"Bearer {secret}",
        "Content-Type": content_type,
        "Idempotency-Key": uuid.uuid4().hex,
    }
    return http(f"{player_url(server, match_id, player)}/submissions", move, headers)


def move(player: str, phase: str) -> dict[str, Any]:
    """The scripted move of a player (p1..pN) in a phase: rotated multipliers, then 1-3 free pushes."""
    seat = int(player[1:])
    if phase == "Pregame":
        return {"phase": phase, "kind": "multipliers", "submission": {"multipliers": ORDER[seat:] + ORDER[:seat]}}
    number = int(phase.split()[-1])
    turn = {"pushes": push(player, times=(seat + number) % 3 + 1), "ground": GROUNDS[(seat + number) % 6]}
    return {"phase": phase, "kind": "round", "submission": turn}


def restarted(server: HostServer, data: Path, later: float = 0, **options: Any) -> HostServer:
    """The server stopped once the machine has settled, and a new one started on the same data,
    `later` seconds after (on a new clock, the old one stopping with its stack)."""
    server.stack.settle()
    moment = server.stack.clock.time() + later
    server.__exit__()
    return serve(data, VirtualClock(datetime.fromtimestamp(moment, UTC)), **options)


def play_scripted_match(data: Path, restart_at: str | None) -> dict[str, Any]:
    """A 4-player Pushing Crates match with early close, every move by HTTP; with `restart_at`,
    the server restarts in that phase once half the players have sent their moves. Returns the
    exported record without its match id and event log (a restart logs its own events, and the
    chain's hashes start from the match id), and only whose moves have receipts' salts."""
    server = serve(data, VirtualClock(START))
    try:
        created = host(server, "create", match=crates_request(4, early_close=True, seed=20261130))
        match_id, secrets = created["match_id"], created["secrets"]
        server.stack.settle()
        resolved = 0
        while (status := host(server, "status", match_id=match_id))["status"] == "running":
            phase, waiting = status["open"]["phase"], status["waiting_for"]
            for index, player in enumerate(waiting):
                if phase == restart_at and index == len(waiting) // 2:
                    server = restarted(server, data)
                    assert server.recovered == [match_id]
                    server.stack.settle()
                sent = post_move(server, match_id, player, secrets[player], move(player, phase))
                assert sent[0] == 200, sent
            server.stack.settle()
            resolved += 1
            assert host(server, "status", match_id=match_id)["phases_resolved"] == resolved
        assert status["status"] == "finished"
        record = host(server, "export", match_id=match_id)
    finally:
        server.__exit__()
    for phase in record["phases"]:  # whose moves have salts, not the salts (each run draws its own)
        phase["salts"] = {player: sorted(kinds) for player, kinds in phase["salts"].items()}
    return {key: value for key, value in record.items() if key not in ("ok", "match_id", "events")}


def test_a_match_restarted_midway_finishes_with_the_record_of_an_uninterrupted_run(tmp_path) -> None:
    uninterrupted = play_scripted_match(tmp_path / "once", restart_at=None)
    restarted_midway = play_scripted_match(tmp_path / "twice", restart_at="Round 3")

    assert [phase["name"] for phase in uninterrupted["phases"]] == ["Pregame"] + [f"Round {n}" for n in range(1, 7)]
    assert uninterrupted["result"]["standings"]
    assert restarted_midway == uninterrupted
    assert (tmp_path / "twice" / "table.json").exists()


def test_with_on_restart_resolve_a_deadline_that_passed_while_the_server_was_down_resolves_at_once(tmp_path) -> None:
    # Given a match whose Pregame lasts an hour, one player's multipliers in (sent as bytes, which
    # the HTTP API hands over base64-encoded)
    server = serve(tmp_path, VirtualClock(START))
    created = host(server, "create", match=crates_request(2, phase_seconds=3600, seed=7))
    match_id = created["match_id"]
    server.stack.settle()
    secret = created["secrets"]["p1"]
    sent = post_move(server, match_id, "p1", secret, move("p1", "Pregame"), "application/octet-stream")
    assert sent[0] == 200, sent

    # When the server stops, and starts again two hours later, told to resolve what fell due
    server = restarted(server, tmp_path, later=7200, on_restart="resolve")
    try:
        server.stack.settle()

        # Then the Pregame resolved at once, on its deadline (p2 sent nothing), and Round 1 is open
        status = host(server, "status", match_id=match_id)
        assert (status["phases_resolved"], status["open"]["phase"]) == (1, "Round 1")
        (pregame,) = host(server, "export", match_id=match_id)["phases"]
        assert (pregame["timed_out"], pregame["missing"]) == (True, ["p2"])
        assert pregame["submissions"]["p1"] == {"multipliers": move("p1", "Pregame")["submission"]}
    finally:
        server.__exit__()


def test_serving_while_it_recovers_a_restart_opens_its_ports_before_recovering_a_match_held_till_then(
    tmp_path, monkeypatch
) -> None:
    # Given a running match, its server stopped
    server = serve(tmp_path, VirtualClock(START))
    match_id = host(server, "create", match=crates_request(2, phase_seconds=3600, seed=7))["match_id"]
    server.stack.settle()
    moment = server.stack.clock.time()
    server.__exit__()

    # When a server starts on its folder serving while it recovers (as bin/host-server does), the
    # recovery noting, as it begins, what the players' port answers and whether the match is held
    clock = VirtualClock(datetime.fromtimestamp(moment, UTC))
    server = HostServer(tmp_path, port=0, clock=clock, games=("crates",), recover_while_serving=True)
    seen: list[tuple[int, bool]] = []
    run = Recovery.run

    def noting(recovery: Recovery, *args: Any) -> None:
        nobody = http(f"http://127.0.0.1:{server.port}/matches/m-000000000000")[0]
        seen.append((nobody, recovery.locks.lock(match_id).locked()))
        run(recovery, *args)

    monkeypatch.setattr(Recovery, "run", noting)
    server.__enter__()
    try:
        assert server.recovery.done.wait(REQUEST_TIMEOUT)

        # Then the port answered (a match nobody made: 404) before the recovery, the match held until
        # recovered, and then it was: its Pregame open again
        assert seen == [(404, True)]
        assert server.recovered == [match_id]
        server.stack.settle()
        assert host(server, "status", match_id=match_id)["open"]["phase"] == "Pregame"
    finally:
        server.__exit__()


def test_sixteen_players_posting_at_once_are_all_served(tmp_path) -> None:
    # Given a 16-player match waiting for everyone's multipliers
    server = serve(tmp_path, VirtualClock(START))
    try:
        players = [f"p{seat}" for seat in range(1, 17)]
        created = host(server, "create", match=crates_request(players))
        match_id, secrets = created["match_id"], created["secrets"]
        server.stack.settle()
        replies: dict[str, list[int]] = {player: [] for player in players}

        def send_and_look(player: str) -> None:  # a bounded loop: three moves, each then a look
            for _ in range(3):
                replies[player].append(post_move(server, match_id, player, secrets[player], move(player, "Pregame"))[0])
                headers = {"Authorization": f"Bearer {secrets[player]}"}
                replies[player].append(http(player_url(server, match_id, player), headers=headers)[0])

        # When each player sends their move and reads their view, three times, all at once
        threads = [threading.Thread(target=send_and_look, args=(player,), daemon=True) for player in players]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=180)
        assert not any(thread.is_alive() for thread in threads)

        # Then every request was served, and every move is in
        assert replies == {player: [200] * 6 for player in players}
        status = host(server, "status", match_id=match_id)
        assert (status["submitted"], status["waiting_for"]) == (sorted(players), [])
        host(server, "resolve_now", match_id=match_id)
        server.stack.settle()
        assert host(server, "status", match_id=match_id)["open"]["phase"] == "Round 1"
    finally:
        server.__exit__()


class Catcher:
    """An SMTP server standing for the host's relay: keeps each envelope."""

    def __init__(self) -> None:
        self.envelopes: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.envelopes.append(envelope)
        return "250 OK"


def listening_ports() -> dict[int, str]:
    """Port -> address of every TCP socket this process listens on (Linux: /proc)."""
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    ports = {}
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            address, port = fields[1].split(":")
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ip = socket.inet_ntoa(bytes.fromhex(address)[::-1]) if len(address) == 8 else "ipv6"
                ports[int(port, 16)] = ip
    return ports


def test_mail_comes_in_by_smtp_and_answers_go_out_through_the_relay_and_no_other_port_listens(tmp_path) -> None:
    # Given a server taking mail by SMTP, relaying what it sends to the host's SMTP server
    catcher = Catcher()
    relay = SmtpListener(catcher, "127.0.0.1", 0)
    mail_relay = SmtpRelay("127.0.0.1", relay.port, security="plain", account=MailAccount("host@example.net"))
    server = serve(tmp_path, VirtualClock(START), smtp_port=0, relay=mail_relay)
    try:
        created = host(server, "create", match=load_event("host_create.json")["match"])  # Ada: ada@example.com
        match_id = created["match_id"]
        server.stack.settle()

        # Then only the chosen ports listen: the players' and the mail's, and the host's on loopback
        ports = listening_ports()
        ports.pop(relay.port)
        assert ports == {server.port: "127.0.0.1", server.host_port: "127.0.0.1", server.smtp_port: "127.0.0.1"}
        # ...and the players' port has no host commands
        assert http(f"http://127.0.0.1:{server.port}/host", {"command": "status", "match_id": match_id})[0] == 404

        # When Ada, logged in with her secret, mails her multipliers to the match
        message = EmailMessage()
        message["From"], message["To"] = "Ada <ada@example.com>", f"{match_id}@play.local"
        message["Subject"], message["Message-ID"] = f"[{match_id}] moves", "<ada-1@example.com>"
        message.set_content("MULTIPLIERS 2 1 1 0 -1 -1\n")
        with smtplib.SMTP("127.0.0.1", server.smtp_port, timeout=REQUEST_TIMEOUT) as smtp:
            smtp.login("ada@example.com", created["secrets"]["ada"])
            refused = smtp.send_message(message)
            # ...and someone tries to relay through it
            with pytest.raises(smtplib.SMTPRecipientsRefused):
                smtp.sendmail("ada@example.com", ["someone@example.org"], b"Subject: hi\r\n\r\nhi\r\n")
        assert refused == {}

        # Then the move is stored, from the e-mail channel
        headers = {"Authorization": f"Bearer {created['secrets']['ada']}"}
        view = http(player_url(server, match_id, "ada"), headers=headers)
        assert view[0] == 200, view
        assert view[1]["submitted"] == {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}}
        # ...its answer, threaded under her message, is in the outbox and went out through the relay
        (answer,) = [mail for mail in server.stack.outbox.to("ada@example.com") if b"<ada-1@example.com>" in mail.raw]
        assert any(path.suffix == ".eml" for path in (tmp_path / "outbox").iterdir())
        assert server.mail_queue is not None
        server.mail_queue.settle()
        (relayed,) = [e for e in catcher.envelopes if b"<ada-1@example.com>" in e.original_content]
        assert (relayed.mail_from, relayed.rcpt_tos) == ("host@example.net", ["ada@example.com"])
        assert email.message_from_bytes(relayed.original_content)["From"].endswith(" <host@example.net>")
        assert f"Reply-To: host+{match_id}@example.net".encode() in relayed.original_content
        assert b"Accepted for Pregame" in answer.raw
        # (the refused relay attempt reached nobody)
        assert not [e for e in catcher.envelopes if "someone@example.org" in e.rcpt_tos]
    finally:
        server.__exit__()
        relay.stop()
