"""The host server's table on disk (local_stack/laptop/table_file.py): a snapshot, and a journal line per
AWS call that changed the table, on the disk before the call returns. What a start reads back is
the table as every acknowledged call left it: after a compaction cut short, a journal line cut
short by a kill, a write the disk refused, a process killed -9 between calls.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from test_host_server import START

from game_core.cli.failures import CliError
from local_stack.aws.stack import LocalStack
from local_stack.aws.template import ROOT
from local_stack.laptop import table_file as table_file_module
from local_stack.laptop.table_file import TableFile, read_stored

pytestmark = pytest.mark.statemachine

DAY = 86_400
EXISTS = "attribute_exists(pk)"


@pytest.fixture
def stack() -> Iterator[LocalStack]:
    """A bare local stack (no state machines)."""
    saved = dict(os.environ)
    with LocalStack(games=()) as started:
        yield started
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture
def table_file(stack, tmp_path) -> Iterator[TableFile]:
    """The stack's table kept in tmp_path, loaded (empty) and journaling, its clock at START."""
    table = TableFile(stack.client("dynamodb"), "matches", tmp_path / "table.json", now=START.timestamp)
    table.load()
    stack.lambdas.after_aws_call.append(table.after_call)
    yield table
    table.close()


def key(sk: str, pk: str = "MATCH#m") -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def put(table: TableFile, sk: str, **attributes: dict[str, Any]) -> None:
    table.client.put_item(TableName="matches", Item=key(sk) | attributes)


def journal_lines(table: TableFile) -> list[Any]:
    return [json.loads(line) for line in table.journal.read_bytes().splitlines()]


def reloaded(stack: LocalStack, table: TableFile) -> dict[tuple[str, str], Any]:
    """What a new server reads from the folder: the table emptied, then loaded from it."""
    table.close()  # journals nothing more: the deletes below are the old server's end, not kept
    client = stack.client("dynamodb")
    for item in table.items():
        client.delete_item(TableName="matches", Key={"pk": item["pk"], "sk": item["sk"]})
    fresh = TableFile(client, "matches", table.path, now=START.timestamp)
    fresh.load()
    fresh.close()
    return {(item["pk"]["S"], item["sk"]["S"]): item for item in fresh.items()}


# -- the journal ------------------------------------------------------------------------------------


def test_each_write_call_is_one_journal_line_holding_its_items_as_they_are_after_it(stack, table_file) -> None:
    client = stack.client("dynamodb")
    # When one item is put, updated, two are written in a transaction (with a condition checked on a
    # third), two by a batch, one deleted
    put(table_file, "META", game={"S": "crates"})
    client.update_item(
        TableName="matches",
        Key=key("META"),
        UpdateExpression="SET version = :v",
        ExpressionAttributeValues={":v": {"N": "2"}},
    )
    client.transact_write_items(
        TransactItems=[
            {"Put": {"TableName": "matches", "Item": key("STATE") | {"state": {"B": b"\x00\xff"}}}},
            {"Delete": {"TableName": "matches", "Key": key("OLD")}},
            {
                "ConditionCheck": {
                    "TableName": "matches",
                    "Key": key("META"),
                    "ConditionExpression": "attribute_exists(pk)",
                }
            },
        ]
    )
    client.batch_write_item(
        RequestItems={"matches": [{"PutRequest": {"Item": key("P#1")}}, {"PutRequest": {"Item": key("P#2")}}]}
    )
    client.delete_item(TableName="matches", Key=key("P#2"))
    # ...and a conditional put that fails, and a read
    with pytest.raises(client.exceptions.ConditionalCheckFailedException):
        client.put_item(TableName="matches", Item=key("META"), ConditionExpression="attribute_not_exists(pk)")
    client.get_item(TableName="matches", Key=key("META"))

    # Then the journal has a line per write that succeeded (5), none for the failed put or the read;
    # each line holds every item its call named (sorted by key, the condition's item not among them)
    lines = journal_lines(table_file)
    assert [[change[0]["sk"]["S"] for change in line] for line in lines] == [
        ["META"],
        ["META"],
        ["OLD", "STATE"],
        ["P#1", "P#2"],
        ["P#2"],
    ]
    # ...as it is after the call: the update's whole item, the transaction's binary as base64, gone: null
    assert lines[1][0][1] == key("META") | {"game": {"S": "crates"}, "version": {"N": "2"}}
    assert lines[2] == [[key("OLD"), None], [key("STATE"), key("STATE") | {"state": {"B": "AP8="}}]]
    assert lines[4] == [[key("P#2"), None]]

    # ...and a new server reads back the table as it is (the binary as bytes again)
    assert sorted(reloaded(stack, table_file)) == [("MATCH#m", "META"), ("MATCH#m", "P#1"), ("MATCH#m", "STATE")]
    state = client.get_item(TableName="matches", Key=key("STATE"))["Item"]["state"]
    assert state == {"B": b"\x00\xff"}


def test_a_start_folds_the_journal_into_the_snapshot_and_starts_an_empty_one(stack, table_file) -> None:
    put(table_file, "META", game={"S": "crates"})
    put(table_file, "STATE", state={"B": b"packed"})
    assert len(journal_lines(table_file)) == 2

    items = reloaded(stack, table_file)

    assert sorted(items) == [("MATCH#m", "META"), ("MATCH#m", "STATE")]
    assert [item["sk"]["S"] for item in json.loads(table_file.path.read_text())] == ["META", "STATE"]
    assert table_file.journal.read_bytes() == b""


def test_a_journal_past_its_limit_is_folded_into_a_new_snapshot_while_running(stack, table_file, monkeypatch) -> None:
    # Given a limit smaller than two lines (each line here is some 60 bytes)
    monkeypatch.setattr(table_file_module, "JOURNAL_LIMIT", 100)
    put(table_file, "A")
    assert len(journal_lines(table_file)) == 1

    # When a second write takes the journal past it
    put(table_file, "B")

    # Then the snapshot holds both and the journal starts again empty; the next write is journaled
    assert [item["sk"]["S"] for item in json.loads(table_file.path.read_text())] == ["A", "B"]
    assert table_file.journal.read_bytes() == b""
    put(table_file, "C")
    assert sorted(reloaded(stack, table_file)) == [("MATCH#m", "A"), ("MATCH#m", "B"), ("MATCH#m", "C")]


def test_a_journal_line_cut_short_by_a_kill_is_dropped_and_one_elsewhere_stops_the_start(stack, table_file) -> None:
    put(table_file, "A")
    put(table_file, "B")
    whole = table_file.journal.read_bytes()
    table_file.close()

    # A kill mid-write: the last line cut short (its call never returned): the lines before it stand
    table_file.journal.write_bytes(whole[:-10])
    assert sorted(read_stored(table_file.path)) == [("MATCH#m", "A")]

    # A bad line before others (an edit, a disk fault): the start stops, naming the journal
    first, second = whole.splitlines(keepends=True)
    table_file.journal.write_bytes(first[:-10] + b"\n" + second)
    with pytest.raises(CliError, match=r"table\.journal is not the table this server keeps .*move it aside"):
        read_stored(table_file.path)


REAL_WRITE = os.write


def half_then_full_disk(handle: int, data: Any) -> int:
    """os.write that writes half of what it is given, then finds the disk full."""
    REAL_WRITE(handle, bytes(data)[: len(data) // 2])
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_journal_write_the_disk_refuses_fails_the_call_and_leaves_no_half_line(
    stack, table_file, monkeypatch
) -> None:
    put(table_file, "A")
    before = table_file.journal.read_bytes()

    # When the disk fills half-way through the next line: the call fails (its caller acknowledges nothing)
    monkeypatch.setattr(os, "write", half_then_full_disk)
    with pytest.raises(OSError, match="No space left"):
        put(table_file, "B")
    monkeypatch.undo()

    # Then the journal is as it was; the next write (B again, as a retry) is journaled whole after it
    assert table_file.journal.read_bytes() == before
    put(table_file, "B")
    assert sorted(reloaded(stack, table_file)) == [("MATCH#m", "A"), ("MATCH#m", "B")]


# -- the snapshot -----------------------------------------------------------------------------------


def failing(*_args: Any) -> None:
    raise OSError(errno.EIO, "Input/output error")


FAILURES = {"write": half_then_full_disk, "fsync": failing, "replace": failing}


@pytest.mark.parametrize("fails", FAILURES)
def test_a_compaction_that_fails_midway_leaves_the_snapshot_and_journal_whole(
    stack, table_file, monkeypatch, fails
) -> None:
    # Given a snapshot of one item, and a second journaled since
    put(table_file, "META", game={"S": "crates"})
    table_file.save()
    put(table_file, "STATE", state={"B": b"\x00\xffpacked"})
    snapshot, journal = table_file.path.read_bytes(), table_file.journal.read_bytes()

    # When the next compaction fails half-way (the disk full mid-write, the flush or the rename failing)
    monkeypatch.setattr(os, fails, FAILURES[fails])
    with pytest.raises(OSError):
        table_file.save()
    monkeypatch.undo()

    # Then both files are as they were, byte for byte, and no temporary file is left
    assert (table_file.path.read_bytes(), table_file.journal.read_bytes()) == (snapshot, journal)
    assert sorted(path.name for path in table_file.path.parent.iterdir()) == ["table.journal", "table.json"]
    # ...and the table loads back whole
    assert sorted(reloaded(stack, table_file)) == [("MATCH#m", "META"), ("MATCH#m", "STATE")]


def test_a_temporary_file_a_killed_compaction_left_is_removed_on_load(stack, table_file) -> None:
    put(table_file, "META", game={"S": "crates"})
    (table_file.path.parent / ".table.json.k1ll3d.tmp").write_text('[{"pk": {"S": "MATCH#m"}, "sk"')

    assert sorted(reloaded(stack, table_file)) == [("MATCH#m", "META")]
    assert sorted(path.name for path in table_file.path.parent.iterdir()) == ["table.journal", "table.json"]


BAD_TABLE_FILES = {
    "cut short": '[{"pk": {"S": "MATCH#m"}, "sk"',
    "not JSON": "matches, one per line",
    "an object, not a list of items": '{"pk": {"S": "MATCH#m"}}',
    "an item that is a string": '["MATCH#m"]',
    "a key with no type": '[{"pk": {}}]',
    "a value with no type": '[{"pk": {"S": "MATCH#m"}, "sk": {"S": "META"}, "game": {}}]',
}


@pytest.mark.parametrize("text", BAD_TABLE_FILES.values(), ids=BAD_TABLE_FILES)
def test_a_table_file_that_is_not_a_table_stops_the_start_naming_it(stack, tmp_path, text) -> None:
    path = tmp_path / "table.json"
    path.write_text(text)
    table = TableFile(stack.client("dynamodb"), "matches", path, now=START.timestamp)

    with pytest.raises(CliError, match=r"table\.json is not the table this server keeps .*move it aside"):
        table.load()
    assert path.read_text() == text
    assert table.items() == []


# -- time to live -----------------------------------------------------------------------------------


def test_only_items_whose_time_to_live_is_past_are_dropped(stack, table_file) -> None:
    now = int(START.timestamp())
    # Given items expiring a second ago, now, in a day, and one rewritten with a later time
    put(table_file, "GONE", expiration={"N": str(now - 1)})
    put(table_file, "DUE", expiration={"N": str(now)})  # "less than now": not yet
    put(table_file, "LATER", expiration={"N": str(now + DAY)})
    put(table_file, "MOVED", expiration={"N": str(now - 1)})
    put(table_file, "MOVED", expiration={"N": str(now + DAY)})

    # When what expired is dropped
    assert table_file.drop_expired() == 1

    # Then only GONE is gone (the rewritten item's later time counts), and so it is on the disk
    kept = {sk for _, sk in read_stored(table_file.path)}
    assert kept == {"DUE", "LATER", "MOVED"}


# -- a kill between calls ---------------------------------------------------------------------------

WRITER = """
import sys
from datetime import UTC, datetime
from pathlib import Path
from local_stack.aws.stack import LocalStack
from local_stack.laptop.table_file import TableFile
with LocalStack(games=()) as stack:
    table = TableFile(stack.client("dynamodb"), "matches", Path(sys.argv[1]), now=lambda: 0.0)
    table.load()
    stack.lambdas.after_aws_call.append(table.after_call)
    client = stack.client("dynamodb")
    for number in range(100_000):
        client.put_item(TableName="matches", Item={"pk": {"S": "MATCH#m"}, "sk": {"S": f"P#{number:05d}"}})
        print(number, flush=True)
"""


def test_every_write_acknowledged_before_a_kill_is_read_back(tmp_path) -> None:
    # Given a process writing items one after another, saying each once its call has returned
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path / "table.json")], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    acknowledged = [writer.stdout.readline() for _ in range(300)]

    # When it is killed -9 mid-stream
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=60)

    # Then every write it acknowledged is in the folder (and perhaps one more, whose call had returned)
    stored = {sk for _, sk in read_stored(tmp_path / "table.json")}
    assert {f"P#{int(line):05d}" for line in acknowledged} <= stored
