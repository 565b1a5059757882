"""A whole season on the real season ASL and the games' ASL, run by moto, played by bots.

Given a season of three (ada, bo, cy): one episode whose Main Match is Domino, its Death Match
Abstrac `row` (the default), then the Finals (Abstrac `deal`, the default) once two are left
(`finals_at` 2, the default), created by the host's season command;
When the bots play every match through the webhook handler, with the one secret the season gave
each, and the EC never names anyone;
Then (RULINGS.md, "Seasons"): the Main Match among all three names one EC (Domino: the last place);
the EC's 24 hours pass, then the host's 24 hours, and a lot names the opponent among those who are
no EC and hold no ToL (everyone but the EC when all of them hold one: the rule lapses); the Death
Match is between the EC and the one named, the named one protected; its loser is eliminated; the
two left play the Finals, whose winner is the champion; every execution succeeds.

The tests of who names (the host, the EC by webhook, `bin/play --season`) and of a stalled match
play the same season with its Death Match and Finals on Domino (`ON_DOMINO`: 4 phases each where
Abstrac takes 20 to 35): what they check is the season's, whatever the games.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from season_outcome import on_domino

from local_stack.aws.clock import VirtualClock
from local_stack.aws.faults import SEASON_STRIKE_POINTS, Fault, StepFaults, Struck, always, every_point
from local_stack.aws.stack import LocalStack
from local_stack.bots import play
from local_stack.bots.season_play import SeasonRun, begin_season, play_on, play_season

pytestmark = pytest.mark.statemachine

START = datetime(2026, 12, 1, tzinfo=UTC)
SEASON_ID = "s-three"
HASH = re.compile(r'"[0-9a-f]{64}"')
CAST = ["ada", "bo", "cy"]
SETTINGS = {
    "name": "Three",
    "seed": 7,
    "cast": [{"id": player} for player in CAST],
    "episodes": [{"main": {"game": "domino"}}],
    "match_options": {"phase_seconds": 600, "early_close": True},
}
ON_DOMINO = on_domino(SETTINGS)
"""The same season, its Death Match and Finals on Domino: for the tests of who names and of a
stall, whose subject is the season, not its default games (the silent EC's test plays those)."""


def played(
    host: Any = None,
    points: dict[str, tuple[Fault, ...]] | None = None,
    ecs_name: bool = False,
    settings: dict[str, Any] = SETTINGS,
) -> tuple[SeasonRun, dict[str, Any], list[Any], list[Struck]]:
    """Plays the season (the defaults' unless `settings`); with `points`, every invocation of a
    season step is struck once (at each step's points, in their order: faults.every_point)."""
    with LocalStack(games=("domino", "abstrac"), clock=VirtualClock(START)) as stack:
        faults = StepFaults(stack, every_point(points), "SeasonStepFunction") if points else None
        run = play_season(stack, settings, host=host, timeout=600, season_id=SEASON_ID, ecs_name=ecs_name)
        ports = stack.ports()
        assert ports.seasons is not None
        state = ports.seasons.season(run.season_id).state.model_dump(mode="json")
        events = ports.seasons.season_events(run.season_id)
        matches = {match_id: ports.store.get(match_id) for match_id in run.matches}
        statuses = [str(stack.execution(match_id, game)["status"]) for match_id, game in run.matches.items()]
        records = [stack.host({"command": "export", "match_id": match_id}) for match_id in run.matches]
        announced = run.announcements
    seen = {"state": state, "matches": matches, "statuses": statuses, "records": records, "announced": announced}
    seen["told"] = run.told
    return run, seen, events, faults.injected if faults else []


def unsalted(record: dict[str, Any]) -> str:
    """A match record but for what each run draws afresh: every receipt's salt, and so each
    commitment and each hash of the log's chain (64 hex digits), made H."""
    return HASH.sub('"H"', json.dumps(record, sort_keys=True))


def at(events: list[Any], kind: str) -> datetime:
    return next(event.at for event in events if event.type == kind)


def test_a_silent_ecs_opponent_is_drawn_by_lot_after_48_hours_and_the_season_plays_to_its_champion() -> None:
    run, seen, events, _ = played()
    state, matches = seen["state"], seen["matches"]
    assert run.status == "SUCCEEDED"
    assert seen["statuses"] == ["SUCCEEDED"] * 3
    main, death, finals = matches.values()
    assert [m.game for m in matches.values()] == ["domino", "abstrac", "abstrac"]
    assert [p.id for p in main.players] == CAST  # the episode's players: the cast, in its order
    # Domino names one EC: its last place
    ec = state["episodes"][0]["ecs"]
    assert ec == list(main.result["ec"]) and len(ec) == 1
    ec = ec[0]
    # Nobody named within 24 hours, nor by the host within 24 more: a lot, among the eligible
    naming = state["episodes"][0]["namings"][0]
    others = [p for p in CAST if p != ec]
    held_before = {p: list(main.result["tol"]).count(p) for p in others}  # ToL the Main Match gave
    expected_among = [p for p in others if held_before[p] == 0] or others
    assert naming["by"] == "lot" and naming["among"] == expected_among
    assert naming["opponent"] in expected_among
    assert at(events, "named") - at(events, "main_match_ended") == timedelta(hours=24 + 24)
    # The Death Match: the EC against the one named, who is protected (Abstrac row: names the starter)
    assert death.settings["rule_set"] == "row" and death.settings["protected"] == naming["opponent"]
    assert {p.id for p in death.players} == {ec, naming["opponent"]}
    loser = death.result["ec"][0]
    eliminated = [p["id"] for p in state["players"] if p["eliminated_in"] == 1]
    assert eliminated == [loser]
    # The Finals: the two left, Abstrac deal; its winner is the champion
    left = [p for p in CAST if p != loser]
    assert finals.settings["rule_set"] == "deal" and [p.id for p in finals.players] == left
    first = [s["player"] for s in finals.result["standings"] if s["place"] == 1]
    assert state["stage"] == "over" and [state["champion"]] == first
    # Everyone, the eliminated too, is told each occasion once, in order (service/season/news.py)
    among = " and ".join(expected_among)  # one or both of the two others
    headlines = [
        "Episode 1's Main Match (domino) is over.",
        f"A lot named {naming['opponent']} as {ec}'s Death Match opponent (drawn among {among}).",
        f"{naming['opponent'] if loser == ec else ec} won the Death Match against {loser}: {loser} is eliminated.",
        f"The Finals begin: abstrac deal among {' and '.join(left)}.",
        f"{state['champion']} is the season's champion. The season is over.",
    ]
    for player in CAST:
        assert [notice["news"][0] for notice in seen["told"][player]] == headlines, player


def test_the_host_names_in_place_of_a_silent_ec_and_the_named_player_plays_the_death_match() -> None:
    named: list[str] = []

    def host(status: dict[str, Any]) -> dict[str, Any] | None:
        naming = [w for w in status["waiting"] if w["kind"] == "naming"]
        if not naming or named:
            return None
        named.append(naming[0]["among"][-1])  # who the EC may name (their status says)
        return {"player": named[0]}

    run, seen, events, _ = played(host, settings=ON_DOMINO)
    state, (_main, death, _finals) = seen["state"], seen["matches"].values()
    naming = state["episodes"][0]["namings"][0]
    assert [d["reply"]["ok"] for d in run.decided] == [True], run.decided
    assert (naming["by"], naming["opponent"]) == ("host", named[0])
    assert {p.id for p in death.players} == {naming["ec"], named[0]}
    # The host acted at once: no deadline passed between the result and the pick
    assert at(events, "named") == at(events, "main_match_ended")
    assert run.status == "SUCCEEDED" and state["stage"] == "over"


def test_an_ec_who_names_by_webhook_wakes_the_season_at_once() -> None:
    run, seen, events, _ = played(ecs_name=True, settings=ON_DOMINO)
    state, (_main, death, _finals) = seen["state"], seen["matches"].values()
    naming = state["episodes"][0]["namings"][0]
    assert naming["by"] == "ec" and {p.id for p in death.players} == {naming["ec"], naming["opponent"]}
    # The act woke the machine: the Death Match began at the instant of the naming, no deadline passed
    assert at(events, "named") == at(events, "main_match_ended") == at(events, "death_match_started")
    assert run.status == "SUCCEEDED" and state["stage"] == "over"


def test_a_fault_at_every_step_of_the_season_machine_ends_with_the_clean_runs_season() -> None:
    """Each invocation of the season's step fails once (a throttle or an AWS error before a call,
    or after it was applied with its reply lost, or the Lambda service failing the invocation:
    local_stack/aws/faults.py: SEASON_STRIKE_POINTS), and the machine retries it: a transition stored
    and its reply lost, a match stored and its reply lost (the retry completes its start), its
    execution started and the reply lost, a wait's token kept and the reply lost, or not kept, the
    season's telling (its Query of the log, its notices' publish, its mark written and the reply lost).
    A season has fewer invocations of a step than the step has points (Advance: about 5 for 7), so
    the season is played again, each step's points not yet struck first, until every declared point
    has struck; each run ends as the one clean run's: the same state, the same log (each event once,
    at the same instant), the same matches with the same records, the same announcements, and each
    player's season notices, each once. The season's steps are the subject, not its games: every run
    plays its Death Match and Finals on Domino (`ON_DOMINO`), the steps invoked as often as on Abstrac."""
    _clean_run, clean, clean_events, _ = played(settings=ON_DOMINO)
    del clean["state"]["secret_hashes"]  # each run draws its secrets
    declared = {(step, f.operation, f.after) for step, faults in SEASON_STRIKE_POINTS.items() for f in faults}
    struck: set[tuple[str, str, bool]] = set()
    for _run in range(3):  # 3 runs of ~5 Advance invocations cover its 7 points with room to spare
        first = {
            step: tuple(sorted(faults, key=lambda f, step=step: (step, f.operation, f.after) in struck))
            for step, faults in SEASON_STRIKE_POINTS.items()
        }
        run, faulty, events, injected = played(points=first, settings=ON_DOMINO)
        assert injected, "a faulty run struck nothing"
        struck |= {(s.step, s.operation, s.after) for s in injected}
        assert run.status == "SUCCEEDED" and faulty["statuses"] == ["SUCCEEDED"] * 3
        del faulty["state"]["secret_hashes"]
        assert faulty["state"] == clean["state"]
        assert [(e.type, e.at, e.data) for e in events] == [(e.type, e.at, e.data) for e in clean_events]
        assert [unsalted(r) for r in faulty["records"]] == [unsalted(r) for r in clean["records"]]
        # The announcements, each once, but for a publish applied and its reply lost (a match's
        # opening notices: `telling.tell`), which goes again under the same id, for its receiver to drop
        ids = [a["notice_id"] for a in faulty["announced"]]
        assert list(dict.fromkeys(ids)) == [a["notice_id"] for a in clean["announced"]]
        lost = sum(1 for s in injected if (s.operation, s.after) == ("PublishBatch", True))
        assert len(ids) - len(set(ids)) <= lost
        # Each player's 5 season notices, each once: no season point loses a notice's reply after
        # its send (PublishBatch strikes before the call), so none is repeated, even under its id
        for player in CAST:
            told = [notice["notice_id"] for notice in faulty["told"][player]]
            assert told == [notice["notice_id"] for notice in clean["told"][player]] and len(set(told)) == 5
        if declared <= struck:
            break
    # Every declared strike point struck at least once (counted), whatever the runs' lengths
    assert declared - struck == set(), f"never struck: {sorted(declared - struck)}"
    assert len(struck & declared) == sum(len(faults) for faults in SEASON_STRIKE_POINTS.values()) == 18


def test_bin_play_season_plays_a_settings_file_to_its_champion(tmp_path, capsys) -> None:
    settings = tmp_path / "season.json"
    settings.write_text(json.dumps(ON_DOMINO))
    assert play.main(["--season", str(settings), "--host-names"]) == 0
    printed = capsys.readouterr().out
    assert "=== match" in printed and "named" in printed and '"by":"host"' in printed
    assert "champion: " in printed and "season machine SUCCEEDED" in printed and "3 matches" in printed


def test_a_stalled_match_stalls_the_season_with_a_host_alert_and_recover_resumes_both() -> None:
    """The Main Match's resolution cannot be stored (every try of its step fails: retries cannot
    mend it), so the match stalls; its stalled step fails the season's wait (MatchStalled, never
    retried), the season stalls and the host is alerted. Once AWS works again, the host's
    `season recover` recovers the match and starts the season's next execution: the season plays
    on to its champion, each of its events once."""
    with LocalStack(games=("domino",), clock=VirtualClock(START)) as stack:
        alerts = host_alerts(stack)
        faults = StepFaults(stack, always("TransactWriteItems"))  # the match's steps: no resolution stored
        table = begin_season(stack, ON_DOMINO, season_id=SEASON_ID)
        stalled = play_on(stack, table)
        assert stalled.status == "FAILED"
        failed = stack.execution(SEASON_ID, "season")
        history = stack.client("stepfunctions").get_execution_history(executionArn=failed["executionArn"])["events"]
        entered = [e["stateEnteredEventDetails"]["name"] for e in history if "stateEnteredEventDetails" in e]
        assert entered[-3:] == ["Main Match", "Stalled", "Stopped"]
        (main,) = table.run.matches
        assert stack.host({"command": "status", "match_id": main}).get("stalled")
        subjects = [json.loads(m["Body"])["Subject"] for m in alerts()]
        assert any(SEASON_ID in s and "season recover" in s for s in subjects), subjects

        faults.stop()
        recovered = stack.host({"command": "season", "action": "recover", "season_id": SEASON_ID})
        assert recovered["ok"] and recovered["matches_recovered"] == [main], recovered
        run = play_on(stack, table)
        seasons = stack.ports().seasons
        assert seasons is not None
        state = seasons.season(SEASON_ID).state
        kinds = [event.type for event in seasons.season_events(SEASON_ID)]
    assert run.status == "SUCCEEDED" and state.stage == "over" and state.champion is not None
    assert kinds.count("episode_started") == 1 and kinds.count("main_match_ended") == 1
    assert kinds.count("eliminated") == 1 and kinds.count("champion") == 1


def host_alerts(stack: LocalStack) -> Any:
    """A queue on the host's alerts topic; returns the function that reads what came."""
    sqs, sns = stack.client("sqs"), stack.client("sns")
    url = sqs.create_queue(QueueName="host-alerts-test")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    sns.subscribe(TopicArn=stack.host_topic, Protocol="sqs", Endpoint=arn)

    def received() -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = []
        while batch := sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []):
            messages += batch
            for message in batch:
                sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        return messages

    return received
