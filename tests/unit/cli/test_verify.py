"""match-verify: an exported record's event log is a hash chain (each event carries `prev`, the
SHA-256 of the canonical JSON of the event before it, the first the genesis SHA-256 of
"genesis:<match id>"), the final notice publishes its head, and the record replays to its result.
The record is a two-player Crates match played on the fakes: Ada sends multipliers, then every
phase runs to its deadline."""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from game_core.cli import verify
from game_core.match.model import MatchRecord
from game_core.match.replay import replay
from game_core.service.host import powers as host
from game_core.service.matches.lifecycle import export_record

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from crates_driver import Table  # noqa: E402
from test_service_host import MID, finished_with_a_tie  # noqa: E402


def played() -> Table:
    table = Table.open()
    table.submit("ada", "Pregame", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})
    while table.match().phase is not None:
        table.resolve_at_deadline()
    return table


@pytest.fixture(scope="module")
def finished() -> tuple[Table, dict[str, Any]]:
    table = played()
    return table, export_record(table.ports, table.match_id).model_dump(mode="json")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def by_hand_head(match_id: str, events: list[dict[str, Any]]) -> str:
    """The protocol restated: each event's prev is the previous hash, each hash is over the event
    with its prev, sorted keys, no spaces, UTF-8."""
    prev = sha256(f"genesis:{match_id}")
    for event in events:
        assert event["prev"] == prev
        prev = sha256(json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    return prev


def run(record: dict[str, Any], tmp_path: Path, capsys, *options: str) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code = verify.main([str(path), *options])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_record_as_exported_verifies_and_its_head_is_the_final_notices(finished, tmp_path, capsys) -> None:
    table, record = finished
    # created, Ada's submission, 7 phases resolved, 6 opened (Round 1..6), finished: 16 events
    assert [event["type"] for event in record["events"]].count("phase_resolved") == 7
    head = by_hand_head(table.match_id, record["events"])
    [final] = [notice for notice in table.fakes.notifier.notices(table.match_id) if "result" in notice.body]
    assert final.recipient is None and final.body["log_head"] == head

    assert run(record, tmp_path, capsys, "--head", head) == (0, f"verified: 16 events, head {head}\n", "")


def forged_append(record: dict[str, Any]) -> dict[str, Any]:
    """A forger's event, chained properly onto the head: only the published head catches it."""
    head = by_hand_head(record["match_id"], record["events"])
    event = {"type": "decided", "at": record["events"][-1]["at"], "data": {"order": ["bo", "ada"]}, "prev": head}
    return record | {"events": [*record["events"], event]}


def edited(record: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(record)
    changed["events"][1]["data"]["kind"] = "round"  # Ada's submission said multipliers
    return changed


def cut(record: dict[str, Any]) -> dict[str, Any]:
    return record | {"events": record["events"][:2] + record["events"][3:]}


def swapped(record: dict[str, Any]) -> dict[str, Any]:
    events = list(record["events"])
    events[2], events[3] = events[3], events[2]
    return record | {"events": events}


def copied_to_the_end(record: dict[str, Any]) -> dict[str, Any]:
    return record | {"events": [*record["events"], record["events"][1]]}


# Events counted from 1: 1 created, 2 Ada's submission, 3 Pregame resolved, 4 Round 1 opened ...
TAMPERED = [
    # an edit of event 2 changes its hash: event 3's prev no longer matches it
    (edited, "event 3 (phase_resolved at 2026-12-01T13:00:00+00:00) does not follow event 2 (submission_accepted"),
    # event 3 cut: event 4 (now third) carries event 3's hash, not event 2's
    (cut, "event 3 (phase_opened at 2026-12-01T13:00:00+00:00) does not follow event 2 (submission_accepted"),
    # events 3 and 4 swapped: the third now carries event 3's hash, not event 2's
    (swapped, "event 3 (phase_opened at 2026-12-01T13:00:00+00:00) does not follow event 2 (submission_accepted"),
    # event 2 copied to the end: its prev is event 1's hash, not event 16's (finished)
    (copied_to_the_end, "event 17 (submission_accepted at 2026-12-01T12:00:00+00:00) does not follow event 16 (fin"),
    # chained properly: the log holds, but its head is not the one the final notice published
    (forged_append, "is not the published "),
]


@pytest.mark.parametrize(("tamper", "named"), TAMPERED, ids=[t.__name__ for t, _ in TAMPERED])
def test_a_record_changed_in_any_way_fails_naming_where(tamper, named, finished, tmp_path, capsys) -> None:
    table, record = finished
    published = table.fakes.notifier.notices(table.match_id)[-1].body["log_head"]  # every final notice has it

    code, out, err = run(tamper(record), tmp_path, capsys, "--head", published)

    assert (code, out) == (1, "")
    assert err.startswith("match-verify: ") and " FAILS: " in err and named in err


def test_a_result_the_phases_do_not_replay_to_fails(finished, tmp_path, capsys) -> None:
    _table, record = finished
    result = copy.deepcopy(record["result"])
    result["tol"], result["tol_awarded"] = ["ada"], {"ada": 1}  # the lot gave Bo the Token of Life
    code, _out, err = run(record | {"result": result}, tmp_path, capsys)
    assert code == 1 and "not the one its phases replay to" in err


def test_phases_that_replay_to_another_result_than_the_log_recorded_fail(finished, tmp_path, capsys) -> None:
    # A forger changes the seed, whose lot breaks the 0-0 tie, and writes the new result beside it;
    # the chained log's finished event (16th) still holds the lot's first result: Bo first
    _table, record = finished
    assert [s["player"] for s in record["result"]["standings"]] == ["bo", "ada"]
    forged = MatchRecord.model_validate(record | {"seed": 1})
    result = replay(forged)["result"]
    assert [s["player"] for s in result["standings"]] == ["ada", "bo"]  # seed 1's lot

    code, _out, err = run(record | {"seed": 1, "result": result}, tmp_path, capsys)

    assert code == 1 and "do not replay to the result event 16 (finished) logged" in err


def test_a_record_exported_before_the_chain_is_unchained_and_still_replayed(finished, tmp_path, capsys) -> None:
    _table, record = finished
    old = {key: value for key, value in record.items() if key != "events"}
    # 7 phases, all replayed
    assert run(old, tmp_path, capsys) == (
        0,
        "unchained: exported before the event log was chained; replayed 7 phases\n",
        "",
    )
    broken = old | {"phases": old["phases"][1:]}  # Pregame gone: Round 1 is not what the game opens with
    code, _out, err = run(broken, tmp_path, capsys)
    assert code == 1 and "does not replay" in err


def test_a_decided_tie_publishes_the_head_that_now_ends_with_the_decision() -> None:
    table = Table.open(emails={"ada": "ada@example.org"})
    finished_with_a_tie(table)

    host.decide(table.ports, MID, ["bo", "ada"])

    events = export_record(table.ports, MID).model_dump(mode="json")["events"]
    assert events[-1]["type"] == "decided"
    head = by_hand_head(MID, events)
    assert table.fakes.notifier.notices(MID)[-1].body["log_head"] == head
    mail = table.fakes.mailer.sent[-1]  # the decision's, to Ada (the only address)
    assert f"The match's event log ends in the hash\r\n{head} (match-verify" in mail.raw.decode()  # folded at 78
