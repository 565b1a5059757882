"""A season's record (issue 31, item 4), from a whole season played by bots on the real ASL:
its export holds every match's record and the season's log; match-replay replays it to the same
eliminations and champion; match-verify checks the season's chain and every match's, and names
what a changed record breaks.

The season: ada, bo, cy; one episode, Domino then a Domino Death Match, then the Finals (Domino)
between the two left (the season's own record is the subject, not its games': season_outcome.on_domino);
the EC silent, so a lot names the opponent (RULINGS.md, "Seasons"): three matches in all, one
eliminated, one champion."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from season_outcome import on_domino

from game_core.cli import replay as replay_cli
from game_core.cli import verify as verify_cli
from game_core.service.season.export import export_season
from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack
from local_stack.bots.season_play import play_season

pytestmark = pytest.mark.statemachine

EVENTS = Path(__file__).resolve().parents[2] / "events"
SETTINGS = on_domino(
    {
        "name": "Three",
        "seed": 7,
        "cast": [{"id": player} for player in ("ada", "bo", "cy")],
        "episodes": [{"main": {"game": "domino"}}],
        "match_options": {"phase_seconds": 600, "early_close": True},
    }
)


@pytest.fixture(scope="module")
def exported() -> dict[str, Any]:
    with LocalStack(games=("domino",), clock=VirtualClock(datetime(2026, 12, 1, tzinfo=UTC))) as stack:
        run = play_season(stack, SETTINGS, timeout=600, season_id="s-record")
        assert run.status == "SUCCEEDED"
        # as the host asks for it: the console's sample event with the season's id put in
        event = json.loads((EVENTS / "host_season_export.json").read_text()) | {"season_id": run.season_id}
        reply = stack.host(event)
        assert reply.pop("ok") is True
        record = export_season(stack.ports(), run.season_id)
        assert [m.match_id for m in record.matches] == list(run.matches)  # every match, in the order begun
        assert reply == record.model_dump(mode="json")
    return reply


def write(tmp_path: Path, record: dict[str, Any]) -> str:
    path = tmp_path / "season.json"
    path.write_text(json.dumps(record))
    return str(path)


def test_the_export_holds_every_match_and_the_seasons_log(exported: dict[str, Any]) -> None:
    games = [match["game"] for match in exported["matches"]]
    assert games == ["domino", "domino", "domino"]  # Main Match, Death Match, Finals
    assert all(match["result"] and match["events"] for match in exported["matches"])
    types = [event["type"] for event in exported["events"]]
    assert types[0] == "season_created" and "eliminated" in types and types[-1] == "champion"
    assert "secret_hashes" not in exported["state"]  # no secret of any kind leaves


def test_match_replay_replays_the_season_to_the_same_eliminations(exported, tmp_path, capsys) -> None:
    assert replay_cli.main(["--json", write(tmp_path, exported)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    held = exported["state"]
    assert [(p["id"], p["eliminated_in"]) for p in replayed["players"]] == [
        (p["id"], p["eliminated_in"]) for p in held["players"]
    ]
    assert replayed["champion"] == held["champion"] is not None
    assert replay_cli.main([write(tmp_path, exported)]) == 0
    text = capsys.readouterr().out
    [eliminated] = [p["id"] for p in held["players"] if p["eliminated_in"] == 1]
    assert f"{eliminated} eliminated" in text and f"Champion: {held['champion']}" in text


def test_match_verify_checks_every_chain_and_the_replay(exported, tmp_path, capsys) -> None:
    assert verify_cli.main([write(tmp_path, exported)]) == 0
    said = capsys.readouterr().out
    assert said.startswith("verified: season s-record") and "3 matches verified" in said
    # The season's log changed: a lot's opponent rewritten breaks its chain
    changed = copy.deepcopy(exported)
    named = next(e for e in changed["events"] if e["type"] == "named")
    named["data"]["opponent"] = named["data"]["ec"]
    assert verify_cli.main([write(tmp_path, changed)]) == verify_cli.FAILED
    assert "the season's log is broken" in capsys.readouterr().err
    # A match's log changed: its own chain names it
    changed = copy.deepcopy(exported)
    changed["matches"][1]["events"][0]["data"]["forged"] = True
    assert verify_cli.main([write(tmp_path, changed)]) == verify_cli.FAILED
    assert f"match {exported['matches'][1]['match_id']}: the event log is broken" in capsys.readouterr().err
    # The state claims another player eliminated: the replay does not lead there
    changed = copy.deepcopy(exported)
    for player in changed["state"]["players"]:
        player["eliminated_in"] = None
    assert verify_cli.main([write(tmp_path, changed)]) == verify_cli.FAILED
    assert "the season does not replay" in capsys.readouterr().err
