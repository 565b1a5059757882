"""Submissions through the webhook handler, exactly as API Gateway's HTTP API calls it.

Expected replies follow the rulings: malformed input 400 naming the field, an illegal move 422
with every reason, a late one 409; a refused submission leaves the last valid one in place; a
redelivery changes nothing; garnets are never spent below zero, are debited when the phase
resolves and awarded at the end, and carry over to the player's next match.
"""

from __future__ import annotations

import json

import pytest
from conftest import load_event, push, texts, wait_until

from game_core.aws.store import DynamoMatchStore, StoreUnavailable

ORDER = [2, 1, 1, 0, -1, -1]
"""A permutation of the multipliers: round 1 pays x2."""
STONE_TURN = {"pushes": push("p1", times=3), "ground": "stone"}


def round_one(crates_match, players=2, **options):
    """A match whose Round 1 (phase 2) is open."""
    match = crates_match(players, **options)
    match.resolve_now()
    return match


# -- who may submit ----------------------------------------------------------------------------------


def test_the_sample_webhook_event_is_accepted_with_the_players_secret(stack) -> None:
    # Given a match from the sample create event, in Round 1
    created = stack.host(load_event("host_create.json"))
    match_id = created["match_id"]
    stack.host({"command": "resolve_now", "match_id": match_id})
    wait_until(lambda: stack.host({"command": "status", "match_id": match_id})["phases_resolved"], 10, "Round 1")
    event = load_event("submit_webhook.json", match_id)
    event["headers"]["authorization"] = f"Bearer {created['secrets']['ada']}"

    # When ada's sample submission is delivered
    reply = stack.invoke("SubmitWebhookFunction", event)

    # Then it is accepted as sent: three free pushes, so no garnet
    assert reply["statusCode"] == 200, reply
    body = json.loads(reply["body"])
    sent = json.loads(event["body"])
    assert (body["accepted"], body["phase"], body["kind"], body["garnet_cost"]) == (
        True,
        "Round 1",
        "round",
        0,
    )
    assert body["submission"] == sent["submission"]


@pytest.mark.parametrize(
    ("player", "secret", "status", "error"),
    [
        ("p1", "not-the-secret", 401, "Unauthorized"),
        ("p1", "@p2", 401, "Unauthorized"),  # another player's secret
        ("p9", "@p1", 404, "NotFound"),  # not a player of the match
    ],
)
def test_a_submission_must_carry_the_players_own_secret(crates_match, player, secret, status, error) -> None:
    match = crates_match(2)
    if secret.startswith("@"):
        secret = match.secrets[secret[1:]]

    code, reply = match.submit(player, "Pregame", "multipliers", {"multipliers": ORDER}, secret=secret)

    assert (code, reply["error"], reply["accepted"]) == (status, error, False)
    assert match.stored_submissions(1) == {}


def test_a_submission_without_a_bearer_secret_is_unauthorized(crates_match, stack) -> None:
    match = crates_match(2)
    event = load_event("submit_webhook.json", match.match_id)
    del event["headers"]["authorization"]

    reply = stack.invoke("SubmitWebhookFunction", event)

    assert reply["statusCode"] == 401
    assert "Authorization: Bearer" in json.loads(reply["body"])["message"]


# -- malformed: 400, naming the field --------------------------------------------------------------


MALFORMED = [
    pytest.param("this is not json", ["body", "JSON"], id="not-json"),
    pytest.param({"phase": "Pregame", "submission": {"multipliers": ORDER}}, ["kind", "Field required"], id="no-kind"),
    pytest.param(
        {"phase": "Pregame", "kind": "multipliers", "submission": {"multipliers": ORDER}, "round": 1},
        ["round", "Extra inputs"],
        id="extra-field",
    ),
    pytest.param(
        {"phase": "Pregame", "kind": "multipliers", "submission": {"multipliers": [1, 1, 1, 1, 1, 1]}},
        ["multipliers", "permutation of [-1, -1, 0, 1, 1, 2]"],
        id="not-a-permutation",
    ),
    pytest.param(
        {"phase": "Pregame", "kind": "multipliers", "submission": {"multipliers": [2, 1, 1, 0, -1]}},
        ["multipliers", "at least 6"],
        id="five-multipliers",
    ),
    pytest.param(
        {"phase": "Pregame", "kind": "multipliers", "submission": {"multipliers": ["2", 1, 1, 0, -1, -1]}},
        ["multipliers.0", "integer"],
        id="text-multiplier",
    ),
    pytest.param(
        {"phase": "Pregame", "kind": "multipliers", "submission": {"order": ORDER}},
        ["multipliers", "Field required", "order"],
        id="wrong-field",
    ),
]


@pytest.mark.parametrize(("body", "words"), MALFORMED)
def test_a_malformed_submission_is_400_naming_the_field(crates_match, body, words) -> None:
    match = crates_match(2)

    code, reply = match.post("p1", body)

    assert (code, reply["error"]) == (400, "Malformed"), reply
    said = " ".join([reply["message"], *texts(reply["reasons"])])
    for word in words:
        assert word in said, f"{word!r} not in {said!r}"
    assert match.stored_submissions(1) == {}


MALFORMED_ROUND = [
    pytest.param({"pushes": [], "ground": "lava"}, ["ground", "'rubber', 'stone' or 'ice'"], id="unknown-ground"),
    pytest.param({"pushes": [{"crate": "p2", "direction": "up"}], "ground": "stone"}, ["pushes.0.direction"], id="up"),
    pytest.param({"pushes": [{"direction": "left"}], "ground": "stone"}, ["pushes.0.crate"], id="no-crate"),
    pytest.param({"pushes": "p2 left", "ground": "stone"}, ["pushes", "list"], id="pushes-not-a-list"),
]


def test_a_round_that_names_no_ground_is_accepted_on_stone_and_the_reply_says_so(crates_match) -> None:
    # RULINGS, crates: "a round submission that names no ground: stone (the answer to the player says so)"
    match = round_one(crates_match)

    code, reply = match.submit("p1", "Round 1", "round", {"pushes": []})

    assert (code, reply["submission"]) == (200, {"pushes": [], "ground": "stone"})
    assert match.stored_submissions(2) == {"p1": {"round": {"pushes": [], "ground": "stone"}}}


@pytest.mark.parametrize(("submission", "words"), MALFORMED_ROUND)
def test_a_malformed_round_is_400_naming_the_field(crates_match, submission, words) -> None:
    match = round_one(crates_match)

    code, reply = match.submit("p1", "Round 1", "round", submission)

    assert (code, reply["error"]) == (400, "Malformed"), reply
    said = " ".join(texts(reply["reasons"]))
    assert all(word in said for word in words), said


# -- illegal: 422, every reason ----------------------------------------------------------------------


def test_an_illegal_submission_is_422_with_every_reason(crates_match) -> None:
    # Given p1 chose ice in rounds 1 and 2 and has no garnets
    match = round_one(crates_match)
    assert match.turn("p1", "Round 1", [], "ice")[0] == 200
    match.resolve_now()
    assert match.turn("p1", "Round 2", [], "ice")[0] == 200
    match.resolve_now()

    # When p1 sends a third ice, a push of a crate nobody owns, and 4 pushes with 0 garnets
    pushes = push("p1", times=3) + push("zed", "left")
    code, reply = match.turn("p1", "Round 3", pushes, "ice")

    # Then the whole submission is refused with every reason
    assert (code, reply["error"], reply["accepted"]) == (422, "Illegal", False)
    reasons = texts(reply["reasons"])
    assert "ice may be chosen at most twice a match, and you already chose it in rounds 1 and 2" in reasons
    assert "push 4 names crate 'zed', which is not a player of this match" in reasons
    assert "4 pushes need 1 garnet (one per push beyond the free 3), but your balance is 0" in reasons
    assert match.stored_submissions(4) == {}


def test_rubber_twice_is_illegal(crates_match) -> None:
    match = round_one(crates_match)
    assert match.turn("p1", "Round 1", [], "rubber")[0] == 200
    match.resolve_now()

    code, reply = match.turn("p1", "Round 2", [], "rubber")

    assert (code, texts(reply["reasons"])) == (
        422,
        ["rubber may be chosen at most once a match, and you already chose it in round 1"],
    )


def test_a_kind_the_phase_does_not_take_is_illegal(crates_match) -> None:
    match = crates_match(2)

    code, reply = match.submit("p1", "Pregame", "round", STONE_TURN)

    assert (code, reply["error"]) == (422, "Illegal")
    assert reply["message"] == "'Pregame' does not accept a 'round' submission; it accepts multipliers"


def test_a_refused_submission_leaves_the_earlier_valid_one_in_place(crates_match) -> None:
    # Given p1's valid Round 1 submission
    match = round_one(crates_match)
    valid = {"pushes": push("p2", "left") + push("p1", times=2), "ground": "ice"}
    assert match.submit("p1", "Round 1", "round", valid)[0] == 200

    # When p1 then sends an illegal one and a malformed one
    assert match.turn("p1", "Round 1", push("nobody"), "stone")[0] == 422
    assert match.submit("p1", "Round 1", "round", {"pushes": [], "ground": "mud"})[0] == 400

    # Then the valid one stands, in the store and in the phase's record once it resolves
    assert match.stored_submissions(2) == {"p1": {"round": valid}}
    match.resolve_now()
    (round_1,) = [phase for phase in match.export()["phases"] if phase["name"] == "Round 1"]
    assert round_1["submissions"] == {"p1": {"round": valid}}
    assert len(match.events("submission_accepted")) == 1


def test_the_last_valid_submission_stands(crates_match) -> None:
    match = crates_match(2)
    assert match.multipliers("p1", ORDER)[0] == 200
    later = [-1, -1, 0, 1, 1, 2]
    assert match.multipliers("p1", later)[0] == 200

    assert match.stored_submissions(1) == {"p1": {"multipliers": {"multipliers": later}}}


# -- late and closed ---------------------------------------------------------------------------------


def test_a_submission_for_a_phase_that_has_resolved_is_late(crates_match) -> None:
    match = round_one(crates_match)

    code, reply = match.multipliers("p1", ORDER, phase="Pregame")

    assert (code, reply["error"]) == (409, "Late")
    assert "'Pregame'" in reply["message"] and "is not the open phase; 'Round 1'" in reply["message"]
    assert match.stored_submissions(1) == {} and match.stored_submissions(2) == {}


def test_nothing_is_accepted_after_the_match_is_cancelled(crates_match) -> None:
    match = crates_match(2)
    match.host("cancel")

    code, reply = match.multipliers("p1", ORDER)

    assert (code, reply["error"], reply["message"]) == (
        409,
        "NotOpen",
        "the match is cancelled; nothing can be submitted",
    )


# -- redelivery --------------------------------------------------------------------------------------


def test_a_redelivery_returns_the_first_reply_and_changes_nothing(crates_match) -> None:
    # Given p1's submission delivered with an idempotency key, then a newer one
    match = crates_match(2)
    first = {"multipliers": ORDER}
    code, reply = match.submit("p1", "Pregame", "multipliers", first, delivery_id="delivery-1")
    assert code == 200
    newer = {"multipliers": [-1, 2, 1, 1, 0, -1]}
    assert match.submit("p1", "Pregame", "multipliers", newer, delivery_id="delivery-2")[0] == 200

    # When the first delivery arrives again (as a retrying client or gateway would send it)
    again = match.submit("p1", "Pregame", "multipliers", first, delivery_id="delivery-1")

    # Then it gets the first reply, and nothing changed: the newer submission stands, and the
    # event log holds one acceptance per delivery
    assert again == (code, reply)
    assert match.stored_submissions(1) == {"p1": {"multipliers": newer}}
    assert len(match.events("submission_accepted")) == 2


def test_the_same_delivery_id_from_two_players_is_two_deliveries(crates_match) -> None:
    # Delivery ids are chosen by each player's client: they are only unique per player.
    match = crates_match(2)
    mine, theirs = {"multipliers": ORDER}, {"multipliers": [0, 2, 1, 1, -1, -1]}

    code_1, reply_1 = match.submit("p1", "Pregame", "multipliers", mine, delivery_id="1")
    code_2, reply_2 = match.submit("p2", "Pregame", "multipliers", theirs, delivery_id="1")

    assert (code_1, reply_1["submission"]) == (200, mine)
    assert (code_2, reply_2["submission"]) == (200, theirs)  # never p1's reply, which would leak p1's move
    assert match.stored_submissions(1) == {"p1": {"multipliers": mine}, "p2": {"multipliers": theirs}}


def test_a_wrong_secret_with_a_used_delivery_id_is_unauthorized_not_the_cached_reply(crates_match) -> None:
    match = crates_match(2)
    assert match.submit("p1", "Pregame", "multipliers", {"multipliers": ORDER}, delivery_id="d-7")[0] == 200

    code, reply = match.submit(
        "p1", "Pregame", "multipliers", {"multipliers": ORDER}, secret="guessed", delivery_id="d-7"
    )

    assert (code, reply["error"]) == (401, "Unauthorized")
    assert "submission" not in reply


# -- garnets -----------------------------------------------------------------------------------------


def _balances(match, *players):
    return match.ports.store.balances(players)


def _ledger(stack, player):
    items = stack.client("dynamodb").query(
        TableName="matches",
        KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player}"}, ":prefix": {"S": "LEDGER#"}},
    )["Items"]
    return {item["sk"]["S"]: int(item["amount"]["N"]) for item in items}


def test_garnets_are_refused_beyond_the_balance_spent_at_resolution_awarded_at_the_end_and_carried_over(
    crates_match, stack
) -> None:
    # Given ana starts with 1 garnet and ben with none; ana's round 1 pays x2
    match = crates_match(["ana", "ben"], garnets={"ana": 1})
    assert match.export()["starting_garnets"] == {"ana": 1, "ben": 0}
    assert match.multipliers("ana", ORDER)[0] == 200
    match.resolve_now()

    # When ben asks for a 4th push with no garnet, he is refused
    code, reply = match.turn("ben", "Round 1", push("ben", times=4), "stone")
    assert code == 422
    assert "4 pushes need 1 garnet (one per push beyond the free 3), but your balance is 0" in texts(reply["reasons"])

    # ...while ana's 4 pushes on ice cost her 1 garnet, debited only when the round resolves
    code, reply = match.turn("ana", "Round 1", push("ana", times=4), "ice")
    assert (code, reply["garnet_cost"]) == (200, 1)
    assert _balances(match, "ana", "ben") == {"ana": 1, "ben": 0}
    match.resolve_now()
    assert _balances(match, "ana", "ben") == {"ana": 0, "ben": 0}
    assert _ledger(stack, "ana") == {f"LEDGER#{match.match_id}#00002#spent": -1}
    (round_1,) = [e for e in match.events("phase_resolved") if e.data["phase"] == "Round 1"]
    assert round_1.data["garnets_spent"] == {"ana": 1}

    # Then at the end: ana moved 4 x 3 = 12, past 5 and 10, x2 = 4 points -> floor(4 / 3) = 1 garnet
    for _ in range(5):
        status = match.resolve_now()
    assert status["status"] == "finished"
    assert status["result"]["details"]["points"] == {"ana": 4, "ben": 0}
    assert status["result"]["garnets"] == {"ana": 1, "ben": 0}
    assert _balances(match, "ana", "ben") == {"ana": 1, "ben": 0}
    assert _ledger(stack, "ana") == {
        f"LEDGER#{match.match_id}#00002#spent": -1,
        f"LEDGER#{match.match_id}#award": 1,
    }
    assert _ledger(stack, "ben") == {}

    # And the balance is carried into ana's next match (a host's starting figure is ignored for
    # a player the service already knows, ben included)
    second = crates_match(["ana", "ben"], garnets={"ana": 7, "ben": 3})
    assert second.export()["starting_garnets"] == {"ana": 1, "ben": 0}
    second.resolve_now()
    code, reply = second.turn("ana", "Round 1", push("ana", times=5), "stone")
    assert code == 422
    assert "5 pushes need 2 garnets (one per push beyond the free 3), but your balance is 1" in texts(reply["reasons"])
    assert second.turn("ana", "Round 1", push("ana", times=4), "stone")[0] == 200


def test_deliveries_without_an_idempotency_key_are_each_applied(crates_match, stack) -> None:
    from local_stack.aws.api_events import http_api_event

    match = crates_match(2)
    first, second = {"multipliers": ORDER}, {"multipliers": [-1, 2, 1, 1, 0, -1]}
    for submission in (first, second):
        event = http_api_event(
            match.match_id,
            "p1",
            match.secrets["p1"],
            {"phase": "Pregame", "kind": "multipliers", "submission": submission},
            "x",
        )
        del event["headers"]["idempotency-key"]
        assert stack.invoke("SubmitWebhookFunction", event)["statusCode"] == 200

    assert match.stored_submissions(1) == {"p1": {"multipliers": second}}
    assert len(match.events("submission_accepted")) == 2


def test_a_table_that_leaves_the_read_unanswered_is_503_with_retry_after_and_stores_nothing(
    crates_match, monkeypatch
) -> None:
    # DynamoDB leaving the submission's read unprocessed after every attempt (StoreUnavailable):
    # not the sender's fault and not final, so no refusal is kept: 503, try again in a second
    match = round_one(crates_match)

    def unanswered(*_args, **_kwargs):
        raise StoreUnavailable([{"pk": {"S": f"MATCH#{match.match_id}"}, "sk": {"S": "META"}}])

    monkeypatch.setattr(DynamoMatchStore, "submission_view", unanswered)
    status, reply = match.turn("p1", "Round 1", STONE_TURN["pushes"], "stone")
    assert (status, reply["error"], reply["reasons"][0]["code"]) == (503, "Unavailable", "unavailable")
    monkeypatch.undo()
    assert match.stored_submissions(2) == {}
    assert match.turn("p1", "Round 1", STONE_TURN["pushes"], "stone")[0] == 200  # the retry is taken
