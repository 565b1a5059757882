"""The host server's data folder: one server at a time, a table file no crash can half-write,
delivery records that expire as DynamoDB's TTL says, and what a restart does to a deadline that
passed while the server was down (bin/host-server --on-restart grace|resolve).

Servers run on a virtual clock in this process (tests/integration/test_host_server.py); a holder
killed -9 and the refused bin/host-server are real processes.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import signal
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import crates_request
from test_host_server import (  # noqa: F401 - environment: the fixture restoring the process environment
    START,
    environment,
    host,
    http,
    move,
    player_url,
    post_move,
    restarted,
    serve,
)

from game_core.aws.wiring import ports_from_environment
from game_core.match.clock import PhaseClock
from local_stack.aws.clock import VirtualClock
from local_stack.aws.template import ROOT
from local_stack.laptop.persistence import DataFolder, DataFolderInUse
from local_stack.laptop.restart_grace import overdue_while_down
from local_stack.laptop.server import HostServer
from local_stack.laptop.table_file import expired, read_stored

pytestmark = pytest.mark.statemachine

HOUR, DAY = 3600, 86_400
WEEK = 7 * DAY
"""How long a delivery's reply is kept for redeliveries (README: the DELIVERY item's TTL, a week)."""


# -- one server at a time ---------------------------------------------------------------------------


def test_a_second_server_on_the_same_data_folder_is_refused_naming_the_first(tmp_path) -> None:
    # Given a server holding the folder, with a match
    first = serve(tmp_path, VirtualClock(START))
    try:
        match_id = host(first, "create", match=crates_request(2))["match_id"]
        first.stack.settle()
        table = stored_bytes(tmp_path)

        # When a second server starts on the same folder
        second = HostServer(tmp_path, port=0, clock=VirtualClock(START), games=("crates",))
        with pytest.raises(DataFolderInUse) as refused:
            second.__enter__()

        # Then it is refused, naming the first (this process) and its ports, and touched nothing
        message = str(refused.value)
        assert f"pid {os.getpid()}" in message
        assert f"players 127.0.0.1:{first.port}" in message
        assert f"host commands 127.0.0.1:{first.host_port}" in message
        assert stored_bytes(tmp_path) == table
        assert host(first, "status", match_id=match_id)["status"] == "running"
    finally:
        first.__exit__()

    # ...and once the first has stopped, a server starts on the folder and resumes the match
    third = serve(tmp_path, VirtualClock(START))
    try:
        assert third.recovered == [match_id]
    finally:
        third.__exit__()


def stored_bytes(data: Path) -> tuple[bytes, bytes]:
    """The table's snapshot and journal as they are on the disk."""
    return (data / "table.json").read_bytes(), (data / "table.journal").read_bytes()


HOLDER = """
import sys
from pathlib import Path
from local_stack.laptop.persistence import DataFolder
folder = DataFolder(Path(sys.argv[1]))
folder.hold()
folder.describe(players="0.0.0.0:8080", host_commands="127.0.0.1:8081")
print("held", flush=True)
sys.stdin.read()
"""


def test_bin_host_server_refuses_a_held_folder_in_one_line_and_a_killed_holder_blocks_nothing(tmp_path) -> None:
    # Given another process holding the folder
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"

        # When bin/host-server starts on it (what it runs, without its install check)
        refused = subprocess.run(
            [sys.executable, "-m", "local_stack.laptop.cli", "--data", str(tmp_path), "--port", "0"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )

        # Then it exits with 2 and one line naming the holder, without a traceback
        assert (refused.returncode, refused.stdout) == (2, ""), refused.stderr
        (line,) = refused.stderr.splitlines()
        assert f"pid {holder.pid}, players 0.0.0.0:8080, host commands 127.0.0.1:8081" in line
        assert "another --data folder" in line
    finally:
        # When the holder dies without letting go (kill -9)
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=60)

    # Then the folder is free: a server starts on it, having read what the dead holder left
    server = serve(tmp_path, VirtualClock(START))
    try:
        assert server.folder.previous["pid"] == holder.pid
        assert json.loads((tmp_path / DataFolder.ABOUT).read_text())["pid"] == os.getpid()
    finally:
        server.__exit__()


# -- time to live -----------------------------------------------------------------------------------

NOW = START.timestamp()
SIX_YEARS = 6 * 365 * DAY


@pytest.mark.parametrize(
    ("attributes", "gone"),
    [
        ({"expiration": {"N": str(int(NOW) - 1)}}, True),  # a second past: expired
        ({"expiration": {"N": str(int(NOW) - 4 * 365 * DAY)}}, True),  # four years past: still expired
        ({"expiration": {"N": str(int(NOW))}}, False),  # due this second: "less than now" is not yet
        ({"expiration": {"N": str(int(NOW) + WEEK)}}, False),  # ahead
        ({"expiration": {"N": str(int(NOW) - SIX_YEARS)}}, False),  # over five years past: TTL ignores it
        ({"expiration": {"S": str(int(NOW) - 1)}}, False),  # not a Number: TTL ignores it
        ({"other": {"N": str(int(NOW) - 1)}}, False),  # not the TTL attribute
        ({}, False),
    ],
)
def test_an_item_expires_as_dynamodb_ttl_says(attributes, gone) -> None:
    assert expired({"pk": {"S": "MATCH#m"}, "sk": {"S": "DELIVERY#p1#k"}} | attributes, "expiration", NOW) is gone


def delivery_keys(data: Path) -> set[str]:
    """The delivery records kept in the data folder (its snapshot and journal)."""
    return {sk for _, sk in read_stored(data / "table.json") if sk.startswith("DELIVERY#")}


def deliver(server: HostServer, match_id: str, player: str, secret: str, key: str, order: list[int]) -> Any:
    """A webhook delivery of the player's multipliers under a fixed Idempotency-Key."""
    body = {"phase": "Pregame", "kind": "multipliers", "submission": {"multipliers": order}}
    headers = {"Authorization": f"Bearer {secret}", "Content-Type": "application/json", "Idempotency-Key": key}
    return http(f"{player_url(server, match_id, player)}/submissions", body, headers)


def multipliers(server: HostServer, match_id: str, player: str, secret: str) -> list[int]:
    status, view = http(player_url(server, match_id, player), headers={"Authorization": f"Bearer {secret}"})
    assert status == 200, view
    order: list[int] = view["submitted"]["multipliers"]["multipliers"]
    return order


FIRST, SECOND = [2, 1, 1, 0, -1, -1], [-1, -1, 0, 1, 1, 2]


def test_delivery_records_expire_after_a_week_and_a_redelivery_then_is_new(tmp_path) -> None:
    # Given a match whose Pregame lasts ten days: p1's delivery k1 at START, p2's k2 two days later
    server = serve(tmp_path, VirtualClock(START))
    try:
        created = host(server, "create", match=crates_request(2, phase_seconds=10 * DAY, reminders=[]))
        match_id, secrets = created["match_id"], created["secrets"]
        server.stack.settle()
        assert deliver(server, match_id, "p1", secrets["p1"], "k1", FIRST)[0] == 200
        server.stack.advance(2 * DAY)
        replied = deliver(server, match_id, "p2", secrets["p2"], "k2", FIRST)
        assert replied[0] == 200
        # (each kept a week: k1 until START + 7 days, k2 until START + 9 days)
        items = {sk: item for (_, sk), item in read_stored(tmp_path / "table.json").items()}
        assert items["DELIVERY#p1#k1"]["expiration"] == {"N": str(int(START.timestamp()) + WEEK)}
        assert items["DELIVERY#p2#k2"]["expiration"] == {"N": str(int(START.timestamp()) + 2 * DAY + WEEK)}

        # When the server is down from day 2 to an hour past day 7 (the file still holds k1)
        server = restarted(server, tmp_path, later=5 * DAY + HOUR)

        # Then k1 is gone, k2 not yet due stays
        assert delivery_keys(tmp_path) == {"DELIVERY#p2#k2"}
        # ...a redelivery of k1 is new (its other body is taken), of k2 still the first reply (nothing taken)
        assert deliver(server, match_id, "p1", secrets["p1"], "k1", SECOND)[0] == 200
        assert multipliers(server, match_id, "p1", secrets["p1"]) == SECOND
        assert deliver(server, match_id, "p2", secrets["p2"], "k2", SECOND) == replied
        assert multipliers(server, match_id, "p2", secrets["p2"]) == FIRST

        # When two more days pass (k2's week is over) and any function runs
        server.stack.advance(2 * DAY)
        host(server, "status", match_id=match_id)

        # Then k2 is gone from the table and its file; the new k1 (kept until day 14) stays
        assert delivery_keys(tmp_path) == {"DELIVERY#p1#k1"}
        key = {"pk": {"S": f"MATCH#{match_id}"}, "sk": {"S": "DELIVERY#p2#k2"}}
        assert "Item" not in server.stack.client("dynamodb").get_item(TableName="matches", Key=key)
    finally:
        server.__exit__()


# -- a restart after a deadline ---------------------------------------------------------------------


def phase_clock(deadline: datetime, **fields: Any) -> PhaseClock:
    """An open phase's clock with what the restart policy reads (opened an hour before)."""
    return PhaseClock.model_construct(
        name="Round 1", deadline=deadline, opened_at=deadline - timedelta(hours=1), **fields
    )


DOWN, UP = START, START + timedelta(hours=2)


@pytest.mark.parametrize(
    ("deadline", "fields", "accepting", "down_since", "reopens"),
    [
        (START + timedelta(hours=1), {}, True, DOWN, True),  # passed while down
        (UP, {}, True, DOWN, True),  # passed the very second it came back
        (UP + timedelta(seconds=1), {}, True, DOWN, False),  # not yet passed: nothing to do
        (START - timedelta(minutes=1), {}, True, DOWN, False),  # passed while it was up (a stalled machine)
        (START + timedelta(hours=1), {}, True, None, True),  # when it went down is unknown (older folder)
        (START + timedelta(hours=1), {}, False, DOWN, False),  # its resolution had begun
        (START + timedelta(hours=1), {"resolve_requested": True}, True, DOWN, False),  # closed early / resolve now
        (START + timedelta(hours=1), {"paused_at": START}, True, DOWN, False),  # paused: no deadline runs
    ],
)
def test_which_phase_a_restart_reopens(deadline, fields, accepting, down_since, reopens) -> None:
    phase = phase_clock(deadline, **{"paused_at": None, "resolve_requested": False} | fields)
    assert overdue_while_down(phase, accepting, down_since, UP) is reopens


def mailed_text(server: HostServer, address: str) -> list[str]:
    """The text of every message sent to `address`, whitespace made single spaces."""
    texts = []
    for mail in server.stack.outbox.to(address):
        message = email.message_from_bytes(mail.raw, policy=email.policy.default)
        body = message.get_body(preferencelist=("plain",))
        assert body is not None
        texts.append(" ".join(body.get_content().split()))
    return texts


def pregame_with_p1_in(data: Path) -> tuple[HostServer, str, dict[str, str]]:
    """A server at 12:00 (START) with a match of p1 and p2 (each with an address) whose Pregame
    closes at 13:00, p1's multipliers in: the server, the match id, the secrets."""
    request = crates_request(2, phase_seconds=HOUR, reminders=[])
    request["players"] = [player | {"email": f"{player['id']}@example.com"} for player in request["players"]]
    server = serve(data, VirtualClock(START))
    created = host(server, "create", match=request)
    match_id, secrets = created["match_id"], created["secrets"]
    server.stack.settle()
    assert post_move(server, match_id, "p1", secrets["p1"], move("p1", "Pregame"))[0] == 200
    return server, match_id, secrets


def test_with_grace_a_deadline_passed_while_down_reopens_for_an_hour_and_everyone_is_told_why(tmp_path) -> None:
    # Given a match whose Pregame closes at 13:00, p1's multipliers in, the server stopped at 12:00
    server, match_id, secrets = pregame_with_p1_in(tmp_path)

    # When it starts again at 14:00, by default (grace, an hour)
    server = restarted(server, tmp_path, later=2 * HOUR)
    try:
        server.stack.settle()

        # Then the Pregame is open until 15:00 (extended by 2 hours: 13:00 + 2 h = 14:00 + 1 h)
        assert server.reopened == [f"{match_id} (Pregame until Monday 30 November, 15:00 UTC)"]
        status = host(server, "status", match_id=match_id)
        assert (status["phases_resolved"], status["open"]["phase"]) == (0, "Pregame")
        assert status["open"]["deadline"] == "2026-11-30T15:00:00Z"
        # ...as the host's own extend: logged with its seconds
        extended = [e for e in ports_from_environment().store.events(match_id) if e.type == "extended"]
        assert [event.data for event in extended] == [{"seconds": 2 * HOUR}]
        # ...and each participant was told why
        why = (
            "The host's server was down from Monday 30 November, 12:00 UTC to Monday 30 November, 14:00 UTC; "
            "Pregame reopens for 1 hour, until Monday 30 November, 15:00 UTC."
        )
        for player in ("p1", "p2"):
            assert [text for text in mailed_text(server, f"{player}@example.com") if why in text], player

        # When p2 sends their multipliers meanwhile
        assert post_move(server, match_id, "p2", secrets["p2"], move("p2", "Pregame"))[0] == 200

        # Then the phase waits for its new deadline: nothing resolves a second before 15:00, at 15:00 it does
        server.stack.advance(HOUR - 1)
        assert host(server, "status", match_id=match_id)["phases_resolved"] == 0
        server.stack.advance(1)
        assert host(server, "status", match_id=match_id)["phases_resolved"] == 1
        (pregame,) = host(server, "export", match_id=match_id)["phases"]
        assert pregame["missing"] == []
        assert pregame["submissions"]["p2"] == {"multipliers": move("p2", "Pregame")["submission"]}
    finally:
        server.__exit__()


def test_with_grace_a_phase_whose_resolution_had_begun_resolves_at_once(tmp_path) -> None:
    # Given a match whose Pregame closes at 13:00, p1's multipliers in, and its resolution begun
    # (the store stopped taking moves) when the server stopped at 12:00
    server, match_id, _secrets = pregame_with_p1_in(tmp_path)
    server.stack.client("dynamodb").update_item(  # as the resolution's first step does
        TableName="matches",
        Key={"pk": {"S": f"MATCH#{match_id}"}, "sk": {"S": "META"}},
        UpdateExpression="SET accepting = :no",
        ExpressionAttributeValues={":no": {"BOOL": False}},
    )
    host(server, "status", match_id=match_id)  # saved

    # When it starts again at 14:00, by default (grace)
    server = restarted(server, tmp_path, later=2 * HOUR)
    try:
        server.stack.settle()

        # Then the Pregame resolved at once, at its deadline (p2 sent nothing), nobody told of a reopening
        assert server.reopened == []
        assert host(server, "status", match_id=match_id)["phases_resolved"] == 1
        (pregame,) = host(server, "export", match_id=match_id)["phases"]
        assert (pregame["timed_out"], pregame["missing"]) == (True, ["p2"])
        assert not [text for text in mailed_text(server, "p1@example.com") if "reopens" in text]
    finally:
        server.__exit__()
