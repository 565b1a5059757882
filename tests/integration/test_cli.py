"""The command lines: match-schemas (JSON Schemas and timelines), match-host (the host's commands
against a stack; here the local one, in-process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game_core.cli import host, schemas
from game_core.games import registry

CREATE_EVENT = Path(__file__).resolve().parents[2] / "events" / "host_create.json"

TIMELINES = {
    ("crates", None): ["Pregame"] + [f"Round {r}" for r in range(1, 7)],
    ("palindrome", "mm8"): ["Pregame", "Round 1 bidding"]
    + [f"Round {r + 1} bidding and round {r} construction" for r in range(1, 7)]
    + ["Round 7 construction"],
    ("palindrome", "mm5"): ["Round 1 bidding"]
    + [f"Round {r + 1} bidding and round {r} construction" for r in range(1, 5)]
    + ["Round 5 construction"],
    ("abstrac", "row"): ["Choose starter", "Laying move", "Picking move"],
    ("abstrac", "deal"): ["Move"],
}


@pytest.mark.parametrize(("game_id", "rule_set"), list(TIMELINES), ids=[f"{g}-{r}" for g, r in TIMELINES])
def test_match_schemas_prints_the_timeline_and_a_schema_for_every_kind(capsys, game_id, rule_set):
    assert schemas.main([game_id] + (["--rule-set", rule_set] if rule_set else [])) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [phase["phase"] for phase in printed["timeline"]] == TIMELINES[(game_id, rule_set)]
    kinds = {kind for phase in printed["timeline"] for kind in phase["accepts"]}
    assert kinds <= set(printed["submission_schemas"])
    assert all(schema["type"] == "object" for schema in printed["submission_schemas"].values())
    assert "rule_set" in printed["settings_schema"]["properties"]


def test_match_schemas_names_each_phase_of_crates_with_what_it_accepts(capsys):
    schemas.main(["crates"])
    accepts = {p["phase"]: p["accepts"] for p in json.loads(capsys.readouterr().out)["timeline"]}
    assert accepts["Pregame"] == ["multipliers"]
    assert sorted(accepts["Round 1"]) == ["multipliers", "round"]  # multipliers until the end of round 1
    assert accepts["Round 2"] == ["round"]


def test_match_schemas_describes_a_players_entry_with_its_time_zone(capsys):
    schemas.main(["crates"])
    entry = json.loads(capsys.readouterr().out)["player_schema"]
    assert {"id", "name", "email", "zone"} <= set(entry["properties"])
    assert "Europe/Paris" in json.dumps(entry["properties"]["zone"])  # the field says what it takes


def test_match_schemas_describes_the_hosts_address_and_time_zone(capsys):
    schemas.main(["crates"])
    host_fields = json.loads(capsys.readouterr().out)["host_schema"]
    assert set(host_fields) == {"host_email", "host_zone"}
    assert "Europe/Paris" in json.dumps(host_fields["host_zone"])


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_every_available_game_is_described(game_id):
    assert schemas.describe(game_id, None)["game"] == game_id


def run_host(capsys, *args: str) -> tuple[int, dict]:
    code = host.main(list(args))
    return code, json.loads(capsys.readouterr().out)


def test_match_host_drives_a_match_on_the_local_stack(stack, capsys):
    # Given the console's sample create event as the settings file
    code, created = run_host(capsys, "create", str(CREATE_EVENT))
    assert code == 0 and created["ok"]
    match_id = created["match_id"]
    assert sorted(created["secrets"]) == ["ada", "bo", "cy", "di", "ed"]

    # When the host checks, extends, pauses and resumes
    _, status = run_host(capsys, "status", match_id)
    deadline = status["open"]["deadline"]
    _, extended = run_host(capsys, "extend", match_id, "3600")
    _, paused = run_host(capsys, "pause", match_id)
    _, resumed = run_host(capsys, "resume", match_id)

    # Then each reply shows the clock as the command left it
    assert status["open"]["phase"] == "Pregame" and status["waiting_for"] == ["ada", "bo", "cy", "di", "ed"]
    assert extended["open"]["deadline"] > deadline
    assert paused["open"]["paused"] is True and resumed["open"]["paused"] is False

    # And export prints the bare record, ready for match-replay
    code, record = run_host(capsys, "export", match_id)
    assert code == 0 and "ok" not in record and record["players"] == ["ada", "bo", "cy", "di", "ed"]

    # And a refused command exits 1 with the reason
    run_host(capsys, "cancel", match_id)
    code, refused = run_host(capsys, "pause", match_id)
    assert code == 1 and refused["error"] == "NotOpen"
