"""Golden match records: each replays to exactly the outcome committed beside it.

A failure means a change altered how a recorded match resolves. If the change is a deliberate
rules fix, regenerate with `tests/golden/make_records.py` and say why in the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from game_core.match.model import MatchRecord
from game_core.match.replay import canonical_json, replay

HERE = Path(__file__).resolve().parent
RECORDS = sorted(HERE.glob("*.record.json"))


def test_there_is_a_golden_record_for_every_game_and_rule_set():
    assert {path.name.removesuffix(".record.json") for path in RECORDS} == {
        "crates-default",
        "palindrome-mm8",
        "palindrome-mm5",
        "abstrac-row",
        "abstrac-deal",
    }


@pytest.mark.parametrize("path", RECORDS, ids=[path.name.removesuffix(".record.json") for path in RECORDS])
def test_a_golden_record_replays_to_its_committed_outcome(path):
    record = MatchRecord.model_validate_json(path.read_text())
    outcome = canonical_json(replay(record)) + "\n"
    assert outcome == path.with_name(path.name.replace(".record.json", ".outcome.json")).read_text()
    assert replay(record)["result"] == record.result, "the record's own result is the replayed one"
