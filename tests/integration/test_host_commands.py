"""Host commands and state machine steps fed from the sample events in events/ (the AWS console's
test events), through the real handlers on moto; refusals name what is wrong."""

from __future__ import annotations

import json
import re
import zlib
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from conftest import EVENTS, SAMPLE_MATCH_ID, crates_request, load_event, texts, wait_until

from game_core.service.season.commands import SAMPLE_SEASON_ID

SAMPLE_PLAYERS = ["ada", "bo", "cy", "di", "ed"]
HOST_COMMANDS = [
    "create",
    "status",
    "extend",
    "pause",
    "resume",
    "resolve_now",
    "cancel",
    "export",
    "recover",
    "press",
    "press_mode",
    "reissue_secret",
    "replace",
    "graces",
    "redrive_mail",
]
"""Every host command with a sample event a live match takes (`decide` needs a finished, tied one)."""


def parse(moment: str) -> datetime:
    return datetime.fromisoformat(moment.replace("Z", "+00:00"))


def create_sample(stack) -> dict:
    created = stack.host(load_event("host_create.json"))
    assert created["ok"], created
    return created


def events_of(match_id: str, kind: str) -> list:
    from game_core.aws.wiring import ports_from_environment

    return [event for event in ports_from_environment().store.events(match_id) if event.type == kind]


def test_there_is_a_sample_event_for_every_host_command_step_and_the_webhook() -> None:
    names = {path.name for path in Path(EVENTS).glob("*.json")}
    expected = {f"host_{command}.json" for command in HOST_COMMANDS}
    expected |= {"submit_webhook.json", "phase_step_advance.json", "phase_step_wait.json"}
    expected |= {"phase_step_stalled.json", "host_decide.json"}
    assert expected <= names
    for name in sorted(names - {"host_create.json", "host_season_create.json"}):
        # a season's act names the sample season (its create names none: one is drawn)
        sample = SAMPLE_SEASON_ID if name.startswith("host_season_") else SAMPLE_MATCH_ID
        assert sample in (EVENTS / name).read_text(), f"{name} does not name the sample {sample}"


@pytest.mark.parametrize("command", HOST_COMMANDS[1:])
def test_every_sample_host_event_is_accepted_for_a_live_match(stack, monkeypatch, command) -> None:
    # Given a match created from the sample create event (for recover: whose state machine did
    # not start, Step Functions being unavailable)
    if command == "recover":
        unavailable(stack, monkeypatch, "start")
    created = create_sample(stack)
    if command == "resume":
        stack.host(load_event("host_pause.json", created["match_id"]))

    # When the sample event for the command is sent with the live match's id
    reply = stack.host(load_event(f"host_{command}.json", created["match_id"]))

    # Then the handler accepts it
    assert reply["ok"] is True, reply
    assert reply["match_id"] == created["match_id"]


def unavailable(stack, monkeypatch, operation: str) -> None:
    """The next call of the handlers' Step Functions port's `operation` fails, as a throttled one would."""
    from botocore.exceptions import ClientError

    workflow = stack.ports().workflow
    real = getattr(workflow, operation)

    def fail_once(*args, **kwargs):
        monkeypatch.setattr(workflow, operation, real)
        raise ClientError({"Error": {"Code": "ThrottlingException", "Message": "Rate exceeded"}}, "StartExecution")

    monkeypatch.setattr(workflow, operation, fail_once)


def test_a_match_whose_machine_did_not_start_is_created_with_its_secrets_and_recovered(stack, monkeypatch) -> None:
    # Given Step Functions refuses the start of the match's execution once
    unavailable(stack, monkeypatch, "start")

    # When the host creates the match
    created = create_sample(stack)

    # Then the match exists and the host has the secrets (shown only now), told to recover
    assert sorted(created["secrets"]) == sorted(SAMPLE_PLAYERS)
    assert created["execution"] is None
    assert created["warnings"] == [
        "the match is created, but this failed: the state machine (run `recover`) (ClientError)"
    ]
    # And recover starts it
    recovered = stack.host(load_event("host_recover.json", created["match_id"]))
    assert recovered["ok"], recovered
    assert recovered["execution"].endswith(f":{created['match_id']}-r1")
    stack.settle()
    assert stack.execution(created["match_id"], "crates")["status"] == "RUNNING"


def test_create_from_the_sample_event(stack) -> None:
    created = create_sample(stack)

    assert re.fullmatch(r"m-[0-9a-f]{12}", created["match_id"])
    assert sorted(created["secrets"]) == sorted(SAMPLE_PLAYERS)
    assert len(set(created["secrets"].values())) == len(SAMPLE_PLAYERS)
    opened = created["open"]
    assert (opened["phase"], opened["number"], opened["paused"]) == ("Pregame", 1, False)
    assert opened["accepts"] == ["multipliers"]
    assert opened["actors"] == SAMPLE_PLAYERS
    # The sample's phase lasts 86400 s from creation.
    (event,) = events_of(created["match_id"], "created")
    assert parse(opened["deadline"]) - event.at.replace(microsecond=0) == timedelta(seconds=86400)
    assert event.data == {"game": "crates", "players": SAMPLE_PLAYERS}
    # The state machine for the match is running.
    assert stack.execution(created["match_id"], "crates")["status"] == "RUNNING"


def test_the_webhook_secrets_are_stored_only_as_hashes(stack) -> None:
    created = create_sample(stack)
    items = stack.client("dynamodb").scan(TableName="matches")["Items"]
    stored = json.dumps(items, default=lambda packed: zlib.decompress(packed).decode())  # the STATE blob too
    for secret in created["secrets"].values():
        assert secret not in stored


def test_status_from_the_sample_event(stack) -> None:
    created = create_sample(stack)

    status = stack.host(load_event("host_status.json", created["match_id"]))

    assert status["status"] == "running"
    assert status["phases_resolved"] == 0
    assert status["open"] == created["open"]
    assert status["submitted"] == []
    assert status["waiting_for"] == SAMPLE_PLAYERS


def test_extend_from_the_sample_event_moves_the_deadline_by_its_seconds(stack) -> None:
    created = create_sample(stack)
    event = load_event("host_extend.json", created["match_id"])

    reply = stack.host(event)

    moved = parse(reply["open"]["deadline"]) - parse(created["open"]["deadline"])
    assert moved == timedelta(seconds=event["seconds"]) == timedelta(seconds=3600)
    (extended,) = events_of(created["match_id"], "extended")
    assert extended.data == {"seconds": 3600}


def test_pause_and_resume_from_the_sample_events(stack) -> None:
    created = create_sample(stack)
    match_id = created["match_id"]

    paused = stack.host(load_event("host_pause.json", match_id))
    assert paused["open"]["paused"] is True
    resumed = stack.host(load_event("host_resume.json", match_id))
    assert resumed["open"]["paused"] is False

    # The deadline moved by exactly the time the clock stood still.
    (pause,) = events_of(match_id, "paused")
    (resume,) = events_of(match_id, "resumed")
    stood_still = resume.at.replace(microsecond=0) - pause.at.replace(microsecond=0)
    assert parse(resumed["open"]["deadline"]) - parse(created["open"]["deadline"]) == stood_still


def test_resolve_now_from_the_sample_event_resolves_the_open_phase(stack) -> None:
    created = create_sample(stack)
    match_id = created["match_id"]

    stack.host(load_event("host_resolve_now.json", match_id))

    status = wait_until(
        lambda: (s := stack.host({"command": "status", "match_id": match_id}))["phases_resolved"] == 1 and s,
        10,
        "the pregame to resolve",
    )
    assert status["open"]["phase"] == "Round 1"
    assert status["open"]["accepts"] == ["round", "multipliers"]


def test_cancel_from_the_sample_event_ends_the_match_and_its_execution(stack) -> None:
    created = create_sample(stack)
    match_id = created["match_id"]

    reply = stack.host(load_event("host_cancel.json", match_id))

    assert reply["status"] == "cancelled"
    assert stack.wait_for_execution(match_id, "crates", timeout=60) == "SUCCEEDED"
    assert stack.host({"command": "status", "match_id": match_id})["status"] == "cancelled"


def test_export_from_the_sample_event(stack) -> None:
    created = create_sample(stack)

    record = stack.host(load_event("host_export.json", created["match_id"]))

    assert record.pop("ok") is True
    assert record["match_id"] == created["match_id"]
    assert (record["game"], record["status"], record["phases"]) == ("crates", "running", [])
    assert record["players"] == SAMPLE_PLAYERS
    # Only di brought garnets (2); a player the service has never seen starts at 0.
    assert record["starting_garnets"] == {"ada": 0, "bo": 0, "cy": 0, "di": 2, "ed": 0}
    assert isinstance(record["seed"], int)


# -- the state machine's steps, fed from their sample events ---------------------------------------


def test_the_advance_step_before_the_deadline_says_how_long_to_wait(stack) -> None:
    created = create_sample(stack)

    progress = stack.invoke("PhaseStepFunction", load_event("phase_step_advance.json", created["match_id"]))

    assert progress["match_id"] == created["match_id"]
    assert (progress["phase"], progress["phase_number"], progress["due"]) == ("Pregame", 1, False)
    # The sample's Pregame lasts 86400 s, and the machine sleeps until the next moment anything is
    # due: its first reminder, 12 hours before the deadline (no time has passed: 43200 s).
    assert progress["wait_seconds"] == 43_200
    assert events_of(created["match_id"], "phase_resolved") == []


def test_the_advance_step_resolves_and_tells_once_however_often_it_is_retried(stack) -> None:
    # Given a match whose Pregame ran out of time, and every inbox subscribed
    inbox = stack.subscribe(["ada", "bo", "cy", "di", "ed"])
    created = create_sample(stack)
    match_id = created["match_id"]

    # When the machine resolves and announces it, and the advance step runs twice more (retries)
    stack.advance(86400)
    event = load_event("phase_step_advance.json", match_id)
    first = stack.invoke("PhaseStepFunction", event)
    retried = stack.invoke("PhaseStepFunction", event)

    # Then the Pregame was resolved once, and everyone told once, after the opening notice
    assert (first["phase"], first["phase_number"], first["due"]) == ("Round 1", 2, False)
    assert retried == first
    assert len(events_of(match_id, "phase_resolved")) == 1
    record = stack.host({"command": "export", "match_id": match_id})
    assert [phase["name"] for phase in record["phases"]] == ["Pregame"]
    public = [message["subject"] for message in inbox.receive(None)]
    assert public == [
        f"[{match_id}] Pushing Crates: the match begins",
        f"[{match_id}] Pregame resolved; Round 1 is open",
    ]
    for player in ["ada", "bo", "cy", "di", "ed"]:
        notices = inbox.receive(player)
        assert [n["you"] for n in notices] == [player] * 4
        # Nobody sent an order: everyone was reminded 12 hours and 1 hour before the deadline
        assert [n["subject"].removeprefix(f"[{match_id}] ") for n in notices] == [
            "Pushing Crates: the match begins",
            "Reminder: Pregame closes in 12 hours",
            "Reminder: Pregame closes in 1 hour",
            "Pregame resolved; Round 1 is open",
        ]


def test_the_wait_step_keeps_the_token_only_for_the_clock_it_waited_on(stack) -> None:
    from game_core.aws.wiring import ports_from_environment

    created = create_sample(stack)
    match_id = created["match_id"]
    store = ports_from_environment().store
    machine_token = wait_until(lambda: store.task_token(match_id), 10, "the state machine to wait")
    event = load_event("phase_step_wait.json", match_id)
    try:
        # The clock is at version 0: the sample's token is kept (it stands in for the machine's).
        assert stack.invoke("PhaseStepFunction", event) == {}
        assert store.task_token(match_id) == event["token"]

        # A wait computed against an older clock leaves the stored token alone, and the stale
        # token it wakes is ignored (Step Functions no longer knows it).
        stale = event | {"clock_version": 5, "token": "another-stale-token"}
        assert stack.invoke("PhaseStepFunction", stale) == {}
        assert store.task_token(match_id) == event["token"]
    finally:
        stack.invoke("PhaseStepFunction", event | {"token": machine_token})


# -- refusals: malformed (the command cannot be read) vs illegal (not allowed now) ------------------


def _live(stack) -> str:
    return str(create_sample(stack)["match_id"])


def _player(**fields) -> dict:
    """A two-player Crates request whose first player has these fields."""
    request = crates_request(2)
    request["players"][0] |= fields
    return request


def _abstrac(**settings) -> dict:
    return {"game": "abstrac", "players": [{"id": "a"}, {"id": "b"}], "settings": settings}


REFUSED = [
    # (what is sent, error, words every reason list must contain)
    pytest.param({"command": "launch", "match_id": "@"}, "Malformed", ["command", "launch"], id="unknown-command"),
    pytest.param({"command": "status"}, "Malformed", ["match_id", "Field required"], id="no-match-id"),
    pytest.param(
        {"command": "extend", "match_id": "@"},
        "Malformed",
        ["seconds", "Field required"],
        id="extend-no-seconds",
    ),
    pytest.param(
        {"command": "extend", "match_id": "@", "seconds": 0},
        "Malformed",
        ["seconds", "greater than 0"],
        id="extend-zero",
    ),
    pytest.param(
        {"command": "extend", "match_id": "@", "seconds": "soon"},
        "Malformed",
        ["seconds", "'soon' is not a number of seconds: write a whole number"],
        id="extend-text",
    ),
    pytest.param(
        {"command": "extend", "match_id": "@", "seconds": 10**30},
        "Malformed",
        ["seconds", "less than or equal to 31622400"],
        id="extend-beyond-a-date",
    ),
    pytest.param(
        {"command": "extend", "match_id": "@", "seconds": 366 * 86400 + 1},
        "Malformed",
        ["seconds", "less than or equal to 31622400"],
        id="extend-over-a-leap-year",
    ),
    pytest.param(
        {"command": "pause", "match_id": "@", "force": True},
        "Malformed",
        ["pause.force: no such field"],
        id="extra-field",
    ),
    pytest.param(
        {"command": "create", "match": crates_request(["a b", "c"])},
        "Malformed",
        ["players.0.id"],
        id="bad-player-id",
    ),
    pytest.param(
        {"command": "create", "match": crates_request(2) | {"phase_seconds": 0}},
        "Malformed",
        ["phase_seconds"],
        id="zero-phase",
    ),
    pytest.param(
        {"command": "create", "match": crates_request(2) | {"phase_seconds": 10**12}},
        "Malformed",
        ["phase_seconds", "less than or equal to 31622400"],
        id="phase-beyond-a-date",
    ),
    pytest.param(
        {"command": "create", "match": crates_request(2) | {"recheck_seconds": 10**12}},
        "Malformed",
        ["recheck_seconds", "less than or equal to 31622400"],
        id="recheck-beyond-a-date",
    ),
    pytest.param(
        {"command": "create", "match": crates_request(2) | {"recheck_seconds": 1}},
        "Malformed",
        ["recheck_seconds: at least 300 seconds (5 minutes), not 1"],
        id="recheck-polls",
    ),
    pytest.param(
        {"command": "create", "match": crates_request(2, settings={"rule_set": "mm5"})},
        "Malformed",
        ["settings.rule_set", "'default'"],
        id="unknown-rule-set",
    ),
    pytest.param(
        {"command": "create", "match": crates_request(2, settings={"lots": ["p1", "p2"]})},
        "Malformed",
        ["lots"],
        id="unknown-setting",
    ),
    pytest.param(
        {"command": "create", "match": crates_request(2) | {"game": "chess"}},
        "UnknownGame",
        ["chess"],
        id="unknown-game",
    ),
    pytest.param(
        {"command": "create", "match": crates_request(1)},
        "Illegal",
        ["2 to 16 players, not 1"],
        id="one-player",
    ),
    pytest.param(
        {"command": "create", "match": crates_request(["p1", "p1"])},
        "Illegal",
        ["unique"],
        id="duplicate-players",
    ),
    pytest.param(
        {"command": "create", "match": crates_request(2, settings={"lot": ["p1", "p9"]})},
        "Illegal",
        ["lot", "every player"],
        id="lot-not-the-players",
    ),
    pytest.param(
        {"command": "status", "match_id": "m-doesnotexist"},
        "NotFound",
        ["m-doesnotexist"],
        id="no-such-match",
    ),
    pytest.param({"command": "resume", "match_id": "@"}, "Illegal", ["not paused"], id="resume-unpaused"),
    pytest.param(
        {"command": "status", "match_id": "m" * 3000}, "Malformed", ["match_id", "at most 64"], id="match-id-too-long"
    ),
    pytest.param(
        {"command": "reissue_secret", "match_id": "@", "player": "x" * 500},
        "Malformed",
        ["player"],
        id="player-too-long",
    ),
    # every field of a create request is bounded at the model, before DynamoDB sees it (its
    # numbers hold 38 significant digits, its items 400 KB): Malformed, naming the field
    *(
        pytest.param({"command": "create", "match": create}, "Malformed", words, id=name)
        for name, create, words in [
            ("garnets-beyond-dynamodb", _player(garnets=10**130), ["players.0.garnets", "1000000000"]),
            ("garnets-39-digits", _player(garnets=10**38 + 1), ["players.0.garnets", "1000000000"]),
            ("name-of-120-kb", _player(name="n" * 120_000), ["players.0.name", "at most 80"]),
            ("email-too-long", _player(email="a" * 250 + "@example.com"), ["players.0.email", "at most 254"]),
            ("id-too-long", crates_request(["p" * 41, "p2"]), ["players.0.id", "pattern"]),
            ("too-many-players", crates_request(65), ["players", "at most 64"]),
            ("host-email-too-long", crates_request(2) | {"host_email": "h" * 300}, ["host_email", "at most 254"]),
            ("game-name-too-long", crates_request(2) | {"game": "g" * 1000}, ["game", "at most 40"]),
            ("seed-beyond-63-bits", crates_request(2) | {"seed": 2**63}, ["seed", "less than 9223372036854775808"]),
            (
                "too-many-reminders",
                crates_request(2, reminders=[60 * n for n in range(1, 12)]),
                ["reminders", "at most 10"],
            ),
            ("settings-too-large", crates_request(2, settings={"lot": ["p1"] * 4000}), ["settings", "at most 16000"]),
            ("abstrac-clock-beyond-a-year", _abstrac(move_seconds=10**30), ["settings.move_seconds", "31622400"]),
        ]
    ),
]


@pytest.mark.parametrize(("command", "error", "words"), REFUSED)
def test_a_refused_command_names_what_is_wrong(stack, command, error, words) -> None:
    if command.get("match_id") == "@":
        command = command | {"match_id": _live(stack)}

    reply = stack.host(command)

    assert reply["ok"] is False
    assert reply["error"] == error, reply
    said = " ".join([reply["message"], *texts(reply["reasons"])])
    for word in words:
        assert word in said, f"{word!r} not in {said!r}"


@pytest.mark.parametrize(
    ("first", "then", "error", "words"),
    [
        ("pause", "pause", "Illegal", ["already paused"]),
        ("cancel", "extend", "NotOpen", ["cancelled"]),
        ("cancel", "cancel", "NotOpen", ["cancelled"]),
        ("cancel", "resolve_now", "NotOpen", ["cancelled"]),
    ],
)
def test_a_command_that_the_match_state_forbids_is_illegal_or_not_open(stack, first, then, error, words) -> None:
    match_id = _live(stack)
    assert stack.host(load_event(f"host_{first}.json", match_id))["ok"]

    reply = stack.host(load_event(f"host_{then}.json", match_id))

    assert (reply["ok"], reply["error"]) == (False, error), reply
    assert all(word in reply["message"] for word in words), reply


def test_a_refusal_lists_at_most_20_reasons_of_at_most_200_characters(stack) -> None:
    # Given a settings file with 40 malformed player ids, one of them 5000 characters long
    players = [{"id": "x" * 5000}] + [{"id": f"bad id {i}"} for i in range(39)]
    request = crates_request(2) | {"players": players}

    reply = stack.host({"command": "create", "match": request})

    # Then the first 19 reasons are listed, and the 20th says how many more there were
    assert (reply["ok"], reply["error"]) == (False, "Malformed"), reply
    assert len(reply["reasons"]) == 20
    assert reply["reasons"][-1] == {"code": "more", "text": "... and 21 more"}
    assert all(len(reason) <= 200 for reason in texts(reply["reasons"]))


def test_an_extension_past_the_last_date_is_refused_not_a_crash(stack) -> None:
    # Given a live match whose deadline has been extended, within bounds each time, to the edge
    # of the calendar (set directly: it would take some 8000 extensions of a leap year)
    from game_core.aws.wiring import ports_from_environment
    from game_core.service.ports import Event

    match_id = _live(stack)
    store = ports_from_environment().store
    match = store.get(match_id)
    assert match.phase is not None
    edge = match.phase.model_copy(update={"deadline": datetime.max.replace(tzinfo=match.phase.deadline.tzinfo)})
    edited = match.model_copy(update={"phase": edge, "version": match.version + 1})
    store.save(match, edited, Event("extended", match.created_at, {"seconds": 0}))

    # When the host extends it once more
    reply = stack.host({"command": "extend", "match_id": match_id, "seconds": 86400})

    # Then the extension is refused with a reason, and the match is as it was
    assert (reply["ok"], reply["error"]) == (False, "Illegal"), reply
    assert "beyond the dates" in reply["message"]
    assert stack.host({"command": "status", "match_id": match_id})["ok"]


def test_a_create_request_at_every_bound_is_accepted_and_stored(stack) -> None:
    # the largest balance, an 80-character name and a 254-character address are within bounds
    request = crates_request(2)
    request["players"][0] |= {"garnets": 10**9, "name": "N" * 80, "email": "a" * 242 + "@example.com"}

    created = stack.host({"command": "create", "match": request})

    assert created["ok"], created
    from game_core.aws.wiring import ports_from_environment

    assert ports_from_environment().store.balances(("p1",)) == {"p1": 10**9}
