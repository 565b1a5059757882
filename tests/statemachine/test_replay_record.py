"""The exported match record replays to the live result: by `game_core.match.replay.replay`, and by
the `match-replay --json` CLI, which prints the same bytes every time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import push

from game_core.match.model import MatchRecord
from game_core.match.replay import canonical_json, replay

pytestmark = pytest.mark.statemachine

MATCH_REPLAY = Path(sys.executable).parent / "match-replay"
PLAYERS = ["p1", "p2", "p3", "p4", "p5"]
SCRIPT = {
    "Pregame": {"p1": ("multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})},
    "Round 1": {
        "p1": ("round", {"pushes": push("p1", times=3), "ground": "ice"}),
        "p2": ("round", {"pushes": push("p2", times=2), "ground": "stone"}),
        "p3": ("round", {"pushes": push("p3", times=3), "ground": "rubber"}),
        "p2-late-change": ("multipliers", {"multipliers": [1, 2, 1, 0, -1, -1]}),
    },
    "Round 2": {"p2": ("round", {"pushes": push("p2", times=3), "ground": "ice"})},
    "Round 3": {"p3": ("round", {"pushes": push("p3", times=3), "ground": "ice"})},
}
# By hand: p1 0->9 in round 1 (x2: 2 points); p2 0->2, then 2->11 in round 2 (5, 10, x2: 4);
# p3 stays on rubber, then 0->9 in round 3 at the listed order's x0: 0 points but further right
# than p4 and p5, who never move: their tie survives every location, so the seeded lot decides.


def play(match) -> None:
    for phase in ("Pregame", "Round 1", "Round 2", "Round 3", "Round 4", "Round 5", "Round 6"):
        for who, (kind, submission) in SCRIPT.get(phase, {}).items():
            assert match.submit(who.split("-")[0], phase, kind, submission)[0] == 200
        match.resolve_now()


def test_the_exported_record_replays_to_the_live_result_and_the_cli_prints_the_same_bytes(
    crates_match, stack, tmp_path
) -> None:
    # Given a whole match played on the state machine, the host resolving each phase
    public = stack.subscribe([])
    match = crates_match(PLAYERS, seed=20261130)
    play(match)
    assert match.wait_for_execution(timeout=60) == "SUCCEEDED"
    live = match.status()
    assert live["status"] == "finished"
    result = live["result"]
    # (the outcome the rules give: points, then further right, then the lot for p4 and p5)
    assert [s["player"] for s in result["standings"]][:3] == ["p2", "p1", "p3"]
    assert result["details"]["points"] == {"p1": 2, "p2": 4, "p3": 0, "p4": 0, "p5": 0}
    assert result["details"]["lot_decided"] is True
    assert {s["player"] for s in result["standings"][3:]} == set(result["ec"]) == {"p4", "p5"}

    # When the record is exported and replayed
    exported = match.export()
    record = MatchRecord.model_validate(exported)
    assert [phase.name for phase in record.phases] == ["Pregame"] + [f"Round {n}" for n in range(1, 7)]
    replayed = replay(record)

    # Then the replay gives the live result and the final public view everyone was sent
    assert replayed["finished"] is True
    assert replayed["result"] == result == record.result
    final_announcement = [m for m in public.receive(None) if m.get("status") == "finished"][-1]
    assert replayed["public_view"] == final_announcement["view"]

    # And the CLI prints the same bytes every time, from a file or from standard input
    path = tmp_path / "record.json"
    path.write_text(json.dumps(exported, indent=2), encoding="utf-8")
    as_json = [MATCH_REPLAY, "--json"]
    runs = [subprocess.run([*as_json, str(path)], capture_output=True, check=True).stdout for _ in range(2)]
    runs.append(subprocess.run([*as_json, "-"], input=path.read_bytes(), capture_output=True, check=True).stdout)
    assert runs[0] == runs[1] == runs[2]
    assert runs[0].decode() == canonical_json(replayed) + "\n"
    assert json.loads(runs[0])["result"] == result


def test_a_record_that_does_not_fit_the_game_is_refused(crates_match) -> None:
    match = crates_match(2)
    match.resolve_now()
    exported = match.export()
    exported["phases"][0]["name"] = "Round 3"

    with pytest.raises(ValueError, match="record phase 1 is 'Round 3' but the game expects Pregame"):
        replay(MatchRecord.model_validate(exported))
