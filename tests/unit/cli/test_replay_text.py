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


def test_the_text_says_under_each_phase_who_a_grace_held_it_for_and_what_the_log_says_happened(
    tmp_path, capsys
) -> None:
    # The worked match as if Ann had been graced in Round 1 (phase 2), with a log: in the Pregame
    # the host set everyone's graces to 1 (12 hours each); in Round 1 Bob declared himself away
    # 24-27 December (held the deadline), the host cut it to end the 25th, Cat wrote to Dan, then
    # to everyone; in Round 2 Eve took Dan's seat and the host made messages public, 5 an hour.
    def event(kind: str, **data: object) -> dict[str, object]:
        return {"type": kind, "at": "2026-12-01T12:00:00+00:00", "data": data, "prev": "0" * 64}

    phases = [dict(phase) for phase in RECORD["phases"]]
    phases[1]["graced"] = ["ann"]
    AWAY = {"from": "2026-12-24T00:00:00Z"}
    events = [
        event("created", game="crates", players=["ann", "bob", "cat", "dan"]),
        event("graces_set", left=1, seconds=43200, players=["ann", "bob", "cat", "dan"]),
        event("phase_resolved", phase="Pregame", number=1),
        event("phase_opened", phase="Round 1", number=2),
        event("absence_declared", actor="bob", deadline_held=True, **AWAY, until="2026-12-28T00:00:00Z"),
        event("absence_cut", act="cut", who="bob", **AWAY, until="2026-12-26T00:00:00Z"),
        event("press", id="1", to=["dan"], text="Secret", **{"from": "cat"}),
        event("press", id="2", to="all", text="Hello all", **{"from": "cat"}),
        event("grace_held", number=2, late=["ann"], graced=["ann"]),
        event("phase_opened", phase="Round 2", number=3),
        event("replaced", seat="dan", replaced="Dan", by="Eve", phase="Round 2"),
        event("press_mode", mode="public", per_hour=5),
    ]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(RECORD | {"phases": phases, "events": events}), encoding="utf-8")

    assert replay.main([str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()

    def under(heading: str) -> list[str]:
        """The lines of what happened under a phase's heading (above its view)."""
        section = lines[lines.index(heading) + 1 :]
        return [line for line in section[: section.index("")] if line.startswith(("Held", "While"))]

    assert under("== Phase 1: Pregame (ran its time, after 1 day) ==") == [
        "While it was open: the host set the graces left of ann, bob, cat, dan to 1, each holding 12 hours"
    ]
    assert under("== Phase 2: Round 1 (resolved early, after 13 hours 53 minutes) ==") == [
        "Held by a grace for ann",
        "While it was open: bob away from Thursday 24 December, 00:00 UTC until Monday 28 December, 00:00 UTC"
        " (the deadline held)",
        "While it was open: the host cut bob's absence from Thursday 24 December, 00:00 UTC"
        " to end Saturday 26 December, 00:00 UTC",
        "While it was open: a message from cat to dan",  # never its text
        "While it was open: a message from cat to everyone",
    ]
    assert under("== Phase 3: Round 2 (ran its time, after 1 day) ==") == [
        "While it was open: seat dan: Eve replaced Dan",
        "While it was open: the host set messages between players public, 5 an hour",
    ]
    assert "Secret" not in "\n".join(lines)
