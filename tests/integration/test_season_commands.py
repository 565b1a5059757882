"""The host's season commands, fed from the sample events in events/ (the AWS console's test events),
through the real host-commands handler and the real season machine on moto.

Given the sample season (four players, two episodes of Domino) created from
events/host_season_create.json, each act is the sample event with the season's id put in:
status says the season waits on its first Main Match, among the cast in its order, which each
player opens with the one secret the season gave them; pause stops the season and that match,
resume starts both again; extend puts the naming deadlines off; a decision with nothing to decide
is refused saying what the season waits on; recover is refused while the machine runs; cancel ends
the season and its running match, and the machine ends in "Season cancelled". Nothing a host does
is silent: each act is in the season's log. A sample event sent unedited says to put the season's id in.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from game_core.cli import host
from local_stack.aws.api_events import api_gateway_event
from local_stack.aws.stack import LocalStack

pytestmark = pytest.mark.games("domino", "abstrac")

EVENTS = Path(__file__).resolve().parents[2] / "events"


def sample(name: str, season_id: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((EVENTS / f"host_season_{name}.json").read_text())
    return event | ({"season_id": season_id} if season_id else {})


def season_log(stack: LocalStack, season_id: str) -> list[str]:
    seasons = stack.ports().seasons
    assert seasons is not None
    return [event.type for event in seasons.season_events(season_id)]


def standing(stack: LocalStack, match_id: str, player: str, secret: str) -> int:
    """The status of the player's own standing, read with their secret (200: the secret opens it)."""
    path = f"/matches/{match_id}/players/{player}"
    event = api_gateway_event(
        "GET /matches/{match_id}/players/{player_id}",
        path,
        {"match_id": match_id, "player_id": player},
        headers={"authorization": f"Bearer {secret}"},
        body=None,
        request_id="standing",
    )
    return int(stack.invoke("SubmitWebhookFunction", event)["statusCode"])


def test_the_host_creates_pauses_resumes_extends_and_cancels_a_season_from_the_sample_events(stack) -> None:
    created = stack.host(sample("create"))
    assert created["ok"], created
    season_id, secrets = created["season_id"], created["secrets"]
    assert sorted(secrets) == ["ada", "bo", "cy", "di"]
    stack.settle()

    status = stack.host(sample("status", season_id))
    assert status["ok"] and status["stage"] == "episode" and not status["paused"]
    (waiting,) = status["waiting"]
    assert waiting["kind"] == "main_match" and waiting["who"] == ["ada", "bo", "cy", "di"]
    main = waiting["match_id"]
    assert stack.host({"command": "status", "match_id": main})["ok"]
    assert [standing(stack, main, player, secrets[player]) for player in secrets] == [200] * 4
    assert standing(stack, main, "ada", secrets["bo"]) == 401  # one player's secret is theirs alone

    paused = stack.host(sample("pause", season_id))
    assert paused["ok"] and paused["matches_paused"] == [main], paused
    assert stack.host(sample("status", season_id))["paused"]
    assert stack.host({"command": "status", "match_id": main})["open"]["paused"]
    resumed = stack.host(sample("resume", season_id))
    assert resumed["ok"] and resumed["matches_resumed"] == [main], resumed
    assert not stack.host({"command": "status", "match_id": main})["open"]["paused"]

    before = stack.host(sample("status", season_id))["opened_at"]
    extended = stack.host(sample("extend", season_id))
    assert extended["ok"], extended
    # the sample's 43200 seconds after the instant the season's waits opened (the pause, at no
    # time on the stack's clock, put them off by nothing)
    assert extended["opened_at"] == (datetime.fromisoformat(before) + timedelta(seconds=43200)).isoformat()

    refused = stack.host(sample("decide", season_id))
    assert not refused["ok"] and "main_match" in refused["message"], refused
    running = stack.host(sample("recover", season_id))
    assert not running["ok"] and "running" in running["message"], running

    cancelled = stack.host(sample("cancel", season_id))
    assert cancelled["ok"] and cancelled["stage"] == "cancelled" and cancelled["matches_cancelled"] == [main]
    stack.settle()
    assert stack.execution(season_id, "season")["status"] == "SUCCEEDED"
    history = stack.client("stepfunctions").get_execution_history(
        executionArn=stack.execution(season_id, "season")["executionArn"]
    )["events"]
    entered = [e["stateEnteredEventDetails"]["name"] for e in history if "stateEnteredEventDetails" in e]
    assert entered[-1] == "Season cancelled"
    assert season_log(stack, season_id) == [
        "season_created",
        "episode_started",
        "paused",
        "resumed",
        "extended",
        "season_cancelled",
    ]


def test_a_sample_event_sent_unedited_says_to_put_the_seasons_id_in(stack) -> None:
    reply = stack.host(sample("status"))
    assert not reply["ok"]
    assert "sample events' id" in reply["message"] and "season's id" in reply["message"]


def run_host(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = host.main(list(args))
    return code, json.loads(capsys.readouterr().out)


def test_match_host_season_sends_each_action_as_the_console_event(stack, capsys) -> None:
    # The console's sample event as the settings file, and the season named by the host
    code, created = run_host(capsys, "season", "create", str(EVENTS / "host_season_create.json"), "--id", "s-winter")
    assert code == 0 and created["season_id"] == "s-winter" and sorted(created["secrets"]) == ["ada", "bo", "cy", "di"]
    stack.settle()
    code, status = run_host(capsys, "season", "status", "s-winter")
    assert code == 0 and [w["kind"] for w in status["waiting"]] == ["main_match"]
    code, extended = run_host(capsys, "season", "extend", "s-winter", "3600")
    assert code == 0 and extended["opened_at"] > status["opened_at"]
    # A decision with nothing to decide exits 1 with the reason
    code, refused = run_host(capsys, "season", "decide", "s-winter", "bo", "--match", status["waiting"][0]["match_id"])
    assert code == 1 and refused["error"] == "NotNow"
    code, cancelled = run_host(capsys, "season", "cancel", "s-winter")
    assert code == 0 and cancelled["stage"] == "cancelled"
    # Its record, bare (no "ok"), as match-replay and match-verify read it: the season's log so far
    code, record = run_host(capsys, "season", "export", "s-winter")
    assert code == 0 and "ok" not in record and record["season_id"] == "s-winter"
    assert record["events"][0]["type"] == "season_created" and record["events"][-1]["type"] == "season_cancelled"
