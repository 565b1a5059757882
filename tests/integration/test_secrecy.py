"""Nothing secret leaves the service: not in the host's status, not in the logs, not in any message.

The rulings: each participant may see only what the rules reveal to everyone, what they are told
privately, and their own submissions. In Pushing Crates a player's multipliers, pushes and grounds
are never revealed to anyone else; each player's total is told to them alone after each round;
the public learns every crate's location mod 5 after each round and all scores at the end.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from conftest import Capture, CratesMatch, crates_request, push, walk
from webhook_receiver import Receiver

PLAYERS = ["ana", "ben", "cat", "dan"]
MULTIPLIERS = {
    "ana": [2, 1, 1, 0, -1, -1],
    "ben": [1, 2, 1, 0, -1, -1],
    "cat": [0, 1, 2, 1, -1, -1],
    "dan": [1, 1, 2, -1, 0, -1],
}
DEFAULT_ORDER = [-1, -1, 0, 1, 1, 2]
"""The listed order, public as `multipliers_to_assign`; nobody above submits it."""
TURNS: dict[str, dict[str, dict[str, Any]]] = {
    "Round 1": {
        "ana": {"pushes": push("ana", times=3), "ground": "ice"},
        "ben": {"pushes": push("ben", times=2) + push("ana", "left"), "ground": "stone"},
        "cat": {"pushes": push("cat") + push("dan"), "ground": "ice"},
        "dan": {"pushes": push("dan"), "ground": "rubber"},
    },
    "Round 2": {
        "ana": {"pushes": push("ben", times=2) + push("cat", "left"), "ground": "stone"},
        "ben": {"pushes": push("ben"), "ground": "ice"},
        "cat": {"pushes": [], "ground": "ice"},
    },
}
# By hand, from the rules (movement = (R - L) x ground when R > L; points = multiples of 5 in
# (start, end] x the round's multiplier):
#   Round 1  ana R3 L1 ice 0->6 (5: 1 x2 = 2)  ben R2 stone 0->2  cat R1 ice 0->3  dan R2 rubber 0->0
#   Round 2  ana -      6           ben R3 ice 2->11 (5, 10: 2 x2 = 4)  cat L1 3   dan 0
#   Rounds 3-6: nobody submits (no pushes, stone): nothing moves.
MOD5 = [{"ana": 1, "ben": 2, "cat": 3, "dan": 0}] + [{"ana": 1, "ben": 1, "cat": 3, "dan": 0}] * 5
RUNNING_TOTALS = {"ana": [2] * 6, "ben": [0] + [4] * 5, "cat": [0] * 6, "dan": [0] * 6}
GROUNDS = {
    "ana": ["ice", "stone"] + ["stone"] * 4,
    "ben": ["stone", "ice"] + ["stone"] * 4,
    "cat": ["ice", "ice"] + ["stone"] * 4,
    "dan": ["rubber", "stone"] + ["stone"] * 4,
}


def is_push_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(p, dict) and "crate" in p for p in value)


def is_multiplier_list(value: Any) -> bool:
    return isinstance(value, list) and all(type(v) is int for v in value) and sorted(value) == sorted(DEFAULT_ORDER)


def play_scripted_match(match) -> None:
    """The script above, phase by phase, the host resolving each phase when all is in."""
    for player in PLAYERS:
        assert match.multipliers(player, MULTIPLIERS[player])[0] == 200
    match.resolve_now()
    for phase in ("Round 1", "Round 2"):
        for player, turn in TURNS[phase].items():
            assert match.submit(player, phase, "round", turn)[0] == 200
        match.resolve_now()
    assert match.host("extend", seconds=60)["ok"]  # a clock notice, too
    for _ in range(4):
        match.resolve_now()


@pytest.fixture
def played(stack, crates_match):
    """The scripted match played to the end, with every message each inbox received."""
    inbox = stack.subscribe(PLAYERS)
    match = crates_match(PLAYERS)
    play_scripted_match(match)
    assert match.status()["status"] == "finished"
    # The last notices go out after the final resolution is stored: wait for the machine to end.
    assert match.wait_for_execution(timeout=60) == "SUCCEEDED"
    return match, inbox.receive(None), {player: inbox.receive(player) for player in PLAYERS}


def test_the_public_learns_the_mod5_reveals_and_at_the_end_the_scores_and_nothing_else(played) -> None:
    match, public, _ = played
    progress = [m for m in public if "view" in m]

    # One announcement at the start and one per resolved phase: 1 + 7.
    assert len(progress) == 8
    assert [m["view"]["public"]["reveals"] for m in progress][-1] == [
        {"round": number, "mod5": mod5} for number, mod5 in enumerate(MOD5, start=1)
    ]
    for message in public:
        check_public_message(message)
    final = progress[-1]
    assert final["view"]["public"]["final"]["scores"] == {"ana": 2, "ben": 4, "cat": 0, "dan": 0}
    assert [s["player"] for s in final["result"]["standings"]] == ["ben", "ana", "cat", "dan"]
    assert (final["result"]["tol"], final["result"]["ec"]) == (["ben", "ana"], ["cat", "dan"])
    assert final["result"]["garnets"] == {"ana": 0, "ben": 1, "cat": 0, "dan": 0}


def check_public_message(message: dict) -> None:
    """What everyone may know: the mod-5 reveals, and the scores only at the end."""
    assert "you" not in message
    final = message["status"] == "finished"
    for path, value in walk(message):
        key = path[-1] if path else ""
        forbidden = {"private", "pushes", "ground", "grounds_used", "total", "locations", "opened", "salt"}
        assert key not in forbidden, path  # Crates reveals no move: no receipt is opened publicly
        assert not is_push_list(value), path
        if is_multiplier_list(value):
            assert key == "multipliers_to_assign" and value == DEFAULT_ORDER, path
        if key in {"scores", "standings", "result", "points"}:
            assert final, f"{path} before the end"


def check_private_messages(player: str, messages: list[dict], secrets: set[str]) -> None:
    own_pushes = [turns[player]["pushes"] for turns in TURNS.values() if player in turns]
    # Each resolution opens the receipts of this player's own moves it counted, to them alone
    sent = {"Pregame": {"multipliers": MULTIPLIERS[player]}} | {
        phase: turns[player] for phase, turns in TURNS.items() if player in turns
    }
    opened = [opening for message in messages for opening in message.get("opened", [])]
    assert [(o["player"], o["phase"], o["submission"]) for o in opened] == [
        (player, phase, move) for phase, move in sent.items()
    ]
    assert all(len(bytes.fromhex(o["salt"])) == 32 for o in opened)

    # One private notice at the start and one per resolved phase, all addressed to this player.
    assert len(messages) == 8
    for message in messages:
        assert message["you"] == player
        text = json.dumps(message)
        assert not any(secret in text for secret in secrets)
        for path, value in walk(message | {"opened": []}):  # the openings: checked above
            key = path[-1] if path else ""
            if is_push_list(value):
                assert value in own_pushes, f"{path}: {value} is not {player}'s"
            if is_multiplier_list(value):
                assert value in (MULTIPLIERS[player], DEFAULT_ORDER), path
                if value == DEFAULT_ORDER:
                    assert key == "multipliers_to_assign", path
            if key == "ground":
                assert path[:3] == ("view", "private", "rounds"), path
                assert value == GROUNDS[player][int(path[3])], path
            if key == "total":
                assert path[:2] == ("view", "private"), f"{path}: a total outside {player}'s private view"

    # The running total told after each round is this player's own, as computed by hand.
    after_rounds = [m["view"]["private"]["total"] for m in messages[2:]]
    assert after_rounds == RUNNING_TOTALS[player]


def test_each_players_private_messages_hold_only_their_own_secrets(played) -> None:
    match, _, private = played
    salts = {player: {o["salt"] for m in private[player] for o in m.get("opened", [])} for player in PLAYERS}
    for player in PLAYERS:
        others = set().union(*(salts[other] for other in PLAYERS if other != player))
        check_private_messages(player, private[player], set(match.secrets.values()) | others)


def test_each_webhook_gets_only_what_its_subscribers_view_allows(stack, monkeypatch) -> None:
    # Given the scripted match with a URL for each player and one for the public channel, on a
    # receiver verifying every signature
    monkeypatch.setenv("WEBHOOKS_ALLOW_LOOPBACK", "1")
    stack.cold_start()
    with Receiver() as receiver:
        urls = {player: receiver.url(player) for player in PLAYERS} | {"@public": receiver.url("public")}
        created = stack.host({"command": "create", "match": crates_request(PLAYERS) | {"webhooks": urls}})
        assert created["ok"], created
        stack.settle()
        for target, secret in created["webhook_secrets"].items():
            receiver.secrets[target.removeprefix("@")] = secret
        match = CratesMatch(stack, created["match_id"], created["secrets"], PLAYERS, created)
        play_scripted_match(match)
        assert match.wait_for_execution(timeout=60) == "SUCCEEDED"
        stack.webhooks.deliver()

    # Then every POST verified; the public URL got the public notices (1 + 7 and the clock
    # notice), each player's URL their own 8 and the clock notice, and nothing beyond their view
    assert receiver.received and all(one.verified for one in receiver.received)
    public = [one.payload for one in receiver.accepted("public")]
    assert len(public) == 9
    for message in public:
        check_public_message(message)
    secrets = set(match.secrets.values()) | set(created["webhook_secrets"].values())
    for player in PLAYERS:
        payloads = [one.payload for one in receiver.accepted(player)]
        own = [payload for payload in payloads if "you" in payload]
        check_private_messages(player, own, secrets)
        (clock,) = [payload for payload in payloads if "you" not in payload]
        check_public_message(clock)
        assert "view" not in clock and not any(secret in json.dumps(clock) for secret in secrets)


def test_status_shows_who_has_submitted_never_what(crates_match) -> None:
    match = crates_match(PLAYERS)
    for player in ("ana", "ben"):
        assert match.multipliers(player, MULTIPLIERS[player])[0] == 200
    match.resolve_now()
    assert match.turn("cat", "Round 1", push("dan", "left", times=2), "rubber")[0] == 200

    status = match.status()

    assert status["submitted"] == ["cat"]
    assert status["waiting_for"] == ["ana", "ben", "dan"]
    assert set(status) == {
        "ok",
        "match_id",
        "game",
        "status",
        "phases_resolved",
        "open",
        "submitted",
        "waiting_for",
        "still_owed",
        "checked_at",
    }
    # who still owes which kind (every player owes Round 1 its round), never what anyone sent
    assert status["still_owed"] == {"ana": ["round"], "ben": ["round"], "dan": ["round"]}
    open_keys = {"phase", "number", "deadline", "paused", "accepts", "actors", "owes", "waiting_for", "ready"}
    assert set(status["open"]) == open_keys  # who voted ready is public, as who still owes is
    text = json.dumps(status)
    for content in (
        '"left"',
        '"right"',
        "direction",
        '"crate"',
        "rubber",
        "pushes",
        "ground",
        '"multipliers":',
    ):
        assert content not in text, content
    for values in MULTIPLIERS.values():
        assert json.dumps(values) not in text and ",".join(map(str, values)) not in text.replace(" ", "")


@pytest.mark.log_level("INFO")  # what template.yaml deploys
def test_logs_carry_no_submission_contents(crates_match, capfd) -> None:
    capture = Capture()
    loggers = [logging.getLogger()] + [
        logger for logger in logging.Logger.manager.loggerDict.values() if isinstance(logger, logging.Logger)
    ]
    for logger in loggers:
        logger.addHandler(capture)
    try:
        # Given a match with valid, refused, malformed and redelivered submissions, and a resolution
        match = crates_match(PLAYERS)
        for player in PLAYERS:
            assert match.multipliers(player, MULTIPLIERS[player], phase="Pregame")[0] == 200
        match.resolve_now()
        turn = {"pushes": push("dan", "left") + push("cat", times=2), "ground": "rubber"}
        assert match.submit("ana", "Round 1", "round", turn, delivery_id="once")[0] == 200
        assert match.submit("ana", "Round 1", "round", turn, delivery_id="once")[0] == 200
        assert match.turn("ben", "Round 1", push("zed", "left"), "ice")[0] == 422
        assert match.submit("cat", "Round 1", "round", {"pushes": [], "ground": "mud"})[0] == 400
        assert match.turn("dan", "Round 1", push("ana", "right", times=4), "ice")[0] == 422
        match.resolve_now()
    finally:
        for logger in loggers:
            logger.removeHandler(capture)
    out, err = capfd.readouterr()
    logged = "\n".join([out, err, *capture.lines])

    # The logs say what happened (so the capture did see them) ...
    assert '"message":"submission"' in logged.replace(" ", "") and "submit-webhook" in logged
    # ... but never what anyone submitted, nor a secret.
    flat = logged.replace(" ", "")
    for player, values in MULTIPLIERS.items():
        assert ",".join(map(str, values)) not in flat, player
    for content in (
        '"left"',
        '"right"',
        '"direction"',
        '"crate"',
        "rubber",
        '"ice"',
        "mud",
        '"pushes"',
        "zed",
    ):
        assert content not in logged, content
    for secret in match.secrets.values():
        assert secret not in logged


SECRET_TALK = "ben: meet me at crate 3, I push it left"
"""What ana tells ben alone (issue 22 item 5): nobody else may read it, nor any log."""


def press_by_webhook(match, player: str, action: dict[str, Any], key: str) -> tuple[int, dict[str, Any], dict]:
    """POST the press action through the real webhook function, with an Idempotency-Key."""
    from local_stack.aws.api_events import api_gateway_event
    from local_stack.bots.runner import ACTION_ROUTE

    event = api_gateway_event(
        ACTION_ROUTE,
        f"/matches/{match.match_id}/players/{player}/actions",
        {"match_id": match.match_id, "player_id": player},
        headers={"authorization": f"Bearer {match.secrets[player]}", "idempotency-key": key},
        body=json.dumps({"kind": "press", "action": action}),
        request_id=f"{player}-{key}",
    )
    reply = match.stack.invoke("SubmitWebhookFunction", event)
    return int(reply["statusCode"]), json.loads(reply["body"]), reply["headers"]


def test_a_private_message_reaches_its_recipient_alone_once_and_no_log(stack, crates_match, capfd) -> None:
    inbox = stack.subscribe(PLAYERS)
    match = crates_match(PLAYERS)
    inbox.receive(None), [inbox.receive(player) for player in PLAYERS]  # the opening notices, read

    # ana to ben (by name, another case), sent twice under one key: told once
    for _ in range(2):
        status, reply, _ = press_by_webhook(match, "ana", {"to": ["BEN"], "text": SECRET_TALK}, "k-1")
        assert (status, reply["to"]) == (200, ["ben"]), reply
    # The host allows one an hour: ana's next is refused, 429, saying when the next may go
    assert match.host("press_mode", mode="on", per_hour=1)["ok"]
    status, refusal, headers = press_by_webhook(match, "ana", {"to": "all", "text": "hello all"}, "k-2")
    assert status == 429 and refusal["reasons"][0]["code"] == "press_rate"
    assert 0 < int(headers["Retry-After"]) <= 3600

    [told] = inbox.receive("ben")
    assert told["message"] == {"id": reply["message_id"], "from": "ana", "to": ["ben"], "text": SECRET_TALK}
    public = inbox.receive(None)
    assert [message.get("press_mode") for message in public] == ["on"]  # the host's setting, told to all
    for player in ("ana", "cat", "dan"):
        assert "crate 3" not in json.dumps(inbox.receive(player)), player
    assert "crate 3" not in json.dumps(public) and "crate 3" not in json.dumps(match.status())
    out, err = capfd.readouterr()
    assert "crate 3" not in out + err  # no log line carries a message's text
    # The host's export keeps it, in the log
    assert [event["data"]["text"] for event in match.export()["events"] if event["type"] == "press"] == [SECRET_TALK]
