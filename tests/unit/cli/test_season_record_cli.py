"""match-replay and match-verify tell a season's record from a match's by its `season_id` and
`matches`, and refuse a malformed one (or receipts given with one) in one line naming what is
wrong, exit code 2 (the whole season, played, is tests/statemachine/test_season_record.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game_core.cli import replay, verify
from game_core.season.record import is_season_record


def test_a_season_record_is_told_from_a_match_record() -> None:
    assert is_season_record({"season_id": "s-1", "matches": []})
    assert not is_season_record({"match_id": "m-000000000001", "game": "crates"})
    assert not is_season_record([{"season_id": "s-1", "matches": []}])


@pytest.mark.parametrize("tool", [replay, verify])
def test_a_malformed_season_record_is_refused_in_one_line(tool, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "season.json"
    path.write_text(json.dumps({"season_id": "s-1", "matches": [], "events": []}))  # no settings, no state
    assert tool.main([str(path)]) == 2
    said = capsys.readouterr().err.strip()
    assert "is not an exported season record (settings: Field required)" in said and "\n" not in said


def test_receipts_are_not_checked_against_a_season(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "season.json"
    path.write_text(json.dumps({"season_id": "s-1", "settings": {}, "state": {}, "events": [], "matches": []}))
    receipt = tmp_path / "receipt.json"
    receipt.write_text(json.dumps({"match_id": "m-000000000001"}))
    assert verify.main([str(path), "--receipt", str(receipt)]) == 2
    assert "receipts are checked against a match's record" in capsys.readouterr().err
