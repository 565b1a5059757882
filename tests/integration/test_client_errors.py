"""Every client error is a 4xx with a reason (issue 7, part 4), through the real webhook handler.

The secret is checked before anything else is read, stored or logged; a body is read only up to
64 KB and base64 bodies are decoded; what a refusal says is capped (20 reasons of 200 characters);
a redelivery still in progress is 409 with Retry-After; a submission stored but unable to wake the
state machine is 202; the router's own 404 has the shape of every other refusal.
"""

from __future__ import annotations

import base64
import json
import logging

import pytest
from botocore.exceptions import ClientError
from conftest import Capture, texts

ORDER = {"multipliers": [2, 1, 1, 0, -1, -1]}
PREGAME = {"phase": "Pregame", "kind": "multipliers", "submission": ORDER}


def event_for(match, player="p1", body=PREGAME, *, secret=None, delivery_id="delivery-1", base64_encoded=False):
    """The HTTP API event of one delivery, as API Gateway sends it."""
    from local_stack.aws.api_events import http_api_event

    text = body if isinstance(body, str) else json.dumps(body)
    event = http_api_event(
        match.match_id, player, match.secrets.get(player, "x") if secret is None else secret, text, delivery_id
    )
    if base64_encoded:
        event["body"] = base64.b64encode(text.encode()).decode() if base64_encoded is True else base64_encoded
        event["isBase64Encoded"] = True
    return event


def deliver(stack, event) -> tuple[int, dict, dict]:
    reply = stack.invoke("SubmitWebhookFunction", event)
    return reply["statusCode"], json.loads(reply["body"]), reply.get("headers") or {}


def refusal_shape(body: dict) -> None:
    assert set(body) == {"accepted", "error", "message", "reasons"}, body
    assert body["accepted"] is False and body["reasons"], body


def other_items(stack) -> list[dict]:
    """The deliveries' records (their replies), and anything else that is not a match's own."""
    items = stack.client("dynamodb").scan(TableName="matches")["Items"]
    return [
        item
        for item in items
        if item["sk"]["S"].startswith("DELIVERY#") or not item["pk"]["S"].startswith(("MATCH#", "PLAYER#"))
    ]


# -- authenticate first ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "secret"),
    [
        pytest.param("this is not json", "wrong", id="malformed-body"),
        pytest.param({"phase": "Pregame"}, "wrong", id="missing-fields"),
        pytest.param("x" * 1_000_000, "wrong", id="one-megabyte"),
        pytest.param(PREGAME, "wrong", id="valid-body"),
    ],
)
def test_a_wrong_secret_is_401_whatever_the_body_and_stores_nothing(crates_match, stack, body, secret) -> None:
    match = crates_match(2)
    before = other_items(stack)

    code, reply, _ = deliver(stack, event_for(match, body=body, secret=secret, delivery_id="new-key"))

    assert (code, reply["error"]) == (401, "Unauthorized"), reply
    refusal_shape(reply)
    assert other_items(stack) == before  # no idempotency record for an unauthenticated caller
    assert match.stored_submissions(1) == {}


def test_a_delivery_record_is_the_players_own_in_the_matchs_partition(crates_match, stack) -> None:
    match = crates_match(2)

    assert deliver(stack, event_for(match, "p1", delivery_id="k-1"))[0] == 200
    assert deliver(stack, event_for(match, "p2", delivery_id="k-1"))[0] == 200

    keys = sorted((item["pk"]["S"], item["sk"]["S"]) for item in other_items(stack))
    assert keys == [(f"MATCH#{match.match_id}", "DELIVERY#p1#k-1"), (f"MATCH#{match.match_id}", "DELIVERY#p2#k-1")]


@pytest.mark.log_level("INFO")  # what template.yaml deploys
def test_neither_the_kind_nor_anything_else_sent_is_logged(crates_match, stack, capfd) -> None:
    match = crates_match(2)
    kind = "KIND-" + "k" * 50_000  # well within the body limit
    capture = Capture()
    loggers = [logging.getLogger()] + [
        logger for logger in logging.Logger.manager.loggerDict.values() if isinstance(logger, logging.Logger)
    ]
    for logger in loggers:
        logger.addHandler(capture)
    try:
        refused = deliver(stack, event_for(match, body=PREGAME | {"kind": kind}))
        wrong = deliver(stack, event_for(match, body=PREGAME | {"kind": kind}, secret="wrong", delivery_id="2"))
        accepted = deliver(stack, event_for(match, delivery_id="3"))
    finally:
        for logger in loggers:
            logger.removeHandler(capture)
    out, err = capfd.readouterr()
    logged = "\n".join([out, err, *capture.lines])

    assert (refused[0], wrong[0], accepted[0]) == (422, 401, 200)
    assert len(json.dumps(refused[1])) < 2_000  # the reply quotes at most a capped message
    assert "submission" in logged and match.match_id in logged  # the capture saw the handler's lines
    assert "KIND-" not in logged
    assert "2,1,1,0,-1,-1" not in logged.replace(" ", "")  # nor the accepted move


# -- size, encoding, caps ------------------------------------------------------------------------------


def test_a_body_over_64_kb_is_413_with_a_reason_and_can_be_sent_again(crates_match, stack) -> None:
    match = crates_match(2)
    huge = {"phase": "Pregame", "kind": "multipliers", "submission": {"multipliers": [1] * 500_000}}

    first = deliver(stack, event_for(match, body=huge, delivery_id="big"))
    again = deliver(stack, event_for(match, body=huge, delivery_id="big"))

    code, reply, _ = first
    assert (code, reply["error"]) == (413, "TooLarge"), reply
    refusal_shape(reply)
    assert "65536" in reply["message"]
    assert again[:2] == first[:2]  # not stuck in progress
    assert match.stored_submissions(1) == {}


@pytest.mark.parametrize(
    ("body", "count", "last"),
    [
        pytest.param(PREGAME | {f"extra_{i}": i for i in range(100)}, 20, "... and 81 more", id="hundred-extra-fields"),
        pytest.param(
            {"phase": "Pregame", "kind": "multipliers", "submission": ORDER | {f"z{i}": i for i in range(4_000)}},
            20,
            "... and 3981 more",
            id="four-thousand-extra-fields-in-the-submission",
        ),
        pytest.param(PREGAME | {"y" * 5_000: 1}, 1, None, id="one-long-field-name"),
    ],
)
def test_reasons_are_capped_in_number_and_length(crates_match, stack, body, count, last) -> None:
    match = crates_match(2)

    code, reply, _ = deliver(stack, event_for(match, body=body))

    assert (code, reply["error"]) == (400, "Malformed"), reply
    assert len(reply["reasons"]) == count
    assert all(len(reason) <= 200 for reason in texts(reply["reasons"]))
    if last:
        assert reply["reasons"][-1] == {"code": "more", "text": last}


@pytest.mark.parametrize(
    ("encoded", "status", "error", "words"),
    [
        pytest.param(True, 200, None, [], id="valid-json"),
        pytest.param("not base64!!", 400, "Malformed", ["base64"], id="bad-base64"),
        pytest.param(base64.b64encode(b"\xff\xfe{").decode(), 400, "Malformed", ["body"], id="not-utf8"),
    ],
)
def test_a_base64_body_is_decoded(crates_match, stack, encoded, status, error, words) -> None:
    match = crates_match(2)

    code, reply, _ = deliver(stack, event_for(match, base64_encoded=encoded))

    assert code == status, reply
    if error:
        assert reply["error"] == error
        assert all(word in " ".join(texts(reply["reasons"])) for word in words), reply
    else:
        assert reply["submission"] == ORDER
        assert match.stored_submissions(1) == {"p1": {"multipliers": ORDER}}


# -- concurrency and the state machine ---------------------------------------------------------------


def test_a_redelivery_racing_the_first_is_applied_once_and_both_get_one_reply(crates_match, stack, monkeypatch) -> None:
    # Given p1's delivery, during which (just before its submission is stored) the same delivery
    # arrives again and completes, as a client retrying a slow request would send it
    match = crates_match(2)
    event = event_for(match, delivery_id="slow")
    store = match.ports.store  # the handler's own (one set of ports per container)
    real_put = store.put_submission
    meanwhile = []

    def put_submission(*args, **kwargs):
        monkeypatch.setattr(store, "put_submission", real_put)
        meanwhile.append(deliver(stack, event))
        return real_put(*args, **kwargs)

    monkeypatch.setattr(store, "put_submission", put_submission)

    # When the first delivery completes
    first = deliver(stack, event)

    # Then the one stored first is the one reply: both are told it, and it was stored once
    ((code, reply, _headers),) = meanwhile
    assert code == 200 and reply["accepted"] is True
    assert first[:2] == (code, reply)
    assert deliver(stack, event)[:2] == (code, reply)
    assert len(match.events("submission_accepted")) == 1


def test_a_delivery_whose_transaction_collides_is_409_with_retry_after(crates_match, stack, monkeypatch) -> None:
    # Given DynamoDB cancels p1's transaction for a concurrent one on the same items
    from botocore.exceptions import ClientError

    match = crates_match(2)
    client = match.ports.store.client
    real = client.transact_write_items

    def collide(**kwargs):
        monkeypatch.setattr(client, "transact_write_items", real)
        reasons = [{"Code": "None"}, {"Code": "TransactionConflict"}] + [{"Code": "None"}] * 3
        error = {"Code": "TransactionCanceledException", "Message": "Transaction cancelled"}
        raise ClientError({"Error": error, "CancellationReasons": reasons}, "TransactWriteItems")

    monkeypatch.setattr(client, "transact_write_items", collide)

    # When it is delivered, then delivered again
    code, reply, headers = deliver(stack, event_for(match, delivery_id="k-9"))
    again = deliver(stack, event_for(match, delivery_id="k-9"))

    # Then it is told to send it again, and the second time it is stored
    assert (code, reply["error"]) == (409, "InProgress"), reply
    refusal_shape(reply)
    assert int(headers["Retry-After"]) > 0
    assert again[0] == 200
    assert len(match.events("submission_accepted")) == 1


def test_a_stored_submission_that_cannot_wake_the_machine_is_202_and_the_phase_still_closes(
    crates_match, stack, monkeypatch
) -> None:
    # Given an early-close match in which p1 has submitted, and Step Functions throttling the
    # wake that p2's submission (the last one) sends the waiting machine
    match = crates_match(2, early_close=True, recheck_seconds=300)
    assert match.multipliers("p1", ORDER["multipliers"])[0] == 200
    workflow = match.ports.workflow  # the handler's own (one set of ports per container)
    real_wake = workflow.wake
    throttled = []

    def wake(token: str):
        monkeypatch.setattr(workflow, "wake", real_wake)
        throttled.append(match.match_id)
        raise ClientError({"Error": {"Code": "ThrottlingException", "Message": "Rate exceeded"}}, "SendTaskSuccess")

    monkeypatch.setattr(workflow, "wake", wake)

    # When p2 submits
    code, reply, _ = deliver(stack, event_for(match, "p2"))

    # Then p2 is told it is stored (202), and the machine closes the phase at its next check
    assert code == 202, reply
    assert (reply["accepted"], reply["wake_pending"]) == (True, True)
    assert reply["message"] == "stored; the phase will close on the machine's next check"
    assert match.stored_submissions(1) == {"p1": {"multipliers": ORDER}, "p2": {"multipliers": ORDER}}
    assert throttled == [match.match_id]
    match.advance(300)  # the machine's next check (recheck_seconds=300; the phase's deadline is an hour away)
    status = match.wait_resolved(1)
    assert status["open"]["phase"] == "Round 1"


# -- the router ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        pytest.param("POST", "/nothing/here", id="unknown-path"),
        pytest.param("GET", "/matches/m-0123456789ab/players/ada/submissions", id="wrong-method"),
    ],
)
def test_the_routers_own_404_is_shaped_like_every_refusal(crates_match, stack, method, path) -> None:
    match = crates_match(2)
    event = event_for(match)
    event["rawPath"] = event["requestContext"]["http"]["path"] = path
    event["requestContext"]["http"]["method"] = method

    code, reply, _ = deliver(stack, event)

    assert (code, reply["error"]) == (404, "NotFound"), reply
    refusal_shape(reply)
    assert "/matches/{match_id}/players/{player_id}/submissions" in reply["message"]
