"""match-replay prints a record as text: a heading per phase (how it ended), the public view after
it, then the result; --json prints the outcome as before. The record is the worked Crates match
(tests/worked/test_worked_crates.py), whose every figure is worked by hand there."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from game_core.cli import replay

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "worked"))
from test_worked_crates import RECORD  # noqa: E402


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    return path


def test_the_text_names_every_phase_and_shows_each_reveal_and_the_result(record_file, capsys) -> None:
    assert replay.main([str(record_file)]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()

    assert lines[0] == "Pushing Crates, match worked-crates: 4 players (ann, bob, cat, dan)"
    headings = [line for line in lines if line.startswith("== ")]
    # the host resolved round 1 early, after 50,000 s = 13 h 53 min 20 s; every other phase ran its
    # day (round 3 extended by 2 hours)
    assert headings == [
        "== Phase 1: Pregame (ran its time, after 1 day) ==",
        "== Phase 2: Round 1 (resolved early, after 13 hours 53 minutes) ==",
        "== Phase 3: Round 2 (ran its time, after 1 day) ==",
        "== Phase 4: Round 3 (ran its time, after 1 day 2 hours) ==",
        "== Phase 5: Round 4 (ran its time, after 1 day) ==",
        "== Phase 6: Round 5 (ran its time, after 1 day) ==",
        "== Phase 7: Round 6 (ran its time, after 1 day) ==",
    ]
    # round 1's reveal, after phase 2: locations mod 5 ann 2, bob 3, cat 0, dan 0
    after_round_1 = text.split(headings[1])[1].split(headings[2])[0]
    assert [line.split() for line in after_round_1.splitlines() if line.split()[:1] in (["ann"], ["bob"])] == [
        ["ann", "2"],
        ["bob", "3"],
    ]
    # standings 1 bob 3, 2 ann 3, 3 dan 1, 4 cat 1; ToL bob, ann; EC dan, cat; garnets ann 1, bob 1
    assert lines[lines.index("Result:") :] == [
        "Result:",
        "  Place  Player  Score  Tied with",
        "  -----  ------  -----  ---------",
        "      1  bob         3",
        "      2  ann         3",
        "      3  dan         1",
        "      4  cat         1",
        "Token of Life: bob (1), ann (1)",
        "Elimination Candidates: dan, cat",
        "Garnets: ann +1, bob +1",
    ]


def test_json_prints_the_outcome_in_one_canonical_line(record_file, capsys) -> None:
    assert replay.main(["--json", str(record_file)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert [s["player"] for s in json.loads(out)["result"]["standings"]] == ["bob", "ann", "dan", "cat"]
