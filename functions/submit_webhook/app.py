"""Players' submissions by webhook (API Gateway HTTP API).

POST /matches/{match_id}/players/{player_id}/submissions
Authorization: Bearer <the player's webhook secret>
Idempotency-Key: <an id unique per delivery of this player; a redelivery returns the first reply>
{"phase": "Round 1", "kind": "round", "submission": {...}}

In this order: the secret is checked (nothing else is read, stored or logged before), then the
body (at most `MAX_BODY_BYTES`, base64 decoded if API Gateway encoded it), then the delivery runs
once per Idempotency-Key of that player. Every refusal is a 4xx in one shape:
{"accepted": false, "error": <type>, "message": ..., "reasons": [...]}.
"""

import base64
import binascii
import json
import os
from collections.abc import Callable
from contextvars import ContextVar
from functools import cache
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response, content_types
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent_function,
)
from aws_lambda_powertools.utilities.idempotency.exceptions import IdempotencyAlreadyInProgressError
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ConfigDict, ValidationError

from game_core.aws.wiring import client, ports_from_environment
from game_core.errors import GameCoreError, InProgress, Malformed, NotFound, TooLarge, Unauthorized
from game_core.match.model import Match
from game_core.service.ports import Ports
from game_core.service.submit import SubmissionRequest, authenticate_webhook, submit

ROUTE = "/matches/{match_id}/players/{player_id}/submissions"
MAX_BODY_BYTES = 64 * 1024
"""The largest body read (decoded). The largest move of any game is a few kilobytes."""
MAX_ID = 64
"""Match and player ids are far shorter (m- and 12 hex digits; player ids at most 40)."""

logger = Logger(service="submit-webhook")
app = APIGatewayHttpResolver()
_partition: ContextVar[str] = ContextVar("delivery_partition", default="DELIVERY#")


class DeliveryRecords(DynamoDBPersistenceLayer):
    """Powertools' idempotency records, each in the partition of the match and player it is for
    (`DELIVERY#<match>#<player>`), so deliveries are never one hot partition of the table."""

    @property  # type: ignore[override]
    def static_pk_value(self) -> str:
        return _partition.get()

    @static_pk_value.setter
    def static_pk_value(self, _default: str) -> None:
        pass  # the partition is the delivery's own, set in `_once`


@cache
def _persistence(dynamodb: Any) -> DeliveryRecords:
    """A delivery is the key *and* who sent it where: two players reusing a delivery id never get
    each other's stored reply (which echoes the move). Its record is written only once the secret
    matched. Built on first use (cold start, issue 8), on the ports' own DynamoDB client."""
    return DeliveryRecords(
        table_name=os.environ["TABLE_NAME"], key_attr="pk", sort_key_attr="sk", boto3_client=dynamodb
    )


idempotency = IdempotencyConfig(expires_after_seconds=7 * 86400)


class SubmissionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phase: str
    number: int | None = None
    """The phase's number from the notice that opened it; pins a move to that opening."""
    kind: str
    submission: Any


def _reply(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    return Response(
        status_code=status, content_type=content_types.APPLICATION_JSON, body=json.dumps(body), headers=headers
    )


def _refusal(error: GameCoreError) -> dict[str, Any]:
    return {"accepted": False, "error": type(error).__name__, "message": error.message, "reasons": error.reasons}


def _who() -> dict[str, str]:
    """The only request data ever logged: the match and player of the path, cut short."""
    path = app.current_event.path_parameters or {}
    return {"match_id": str(path.get("match_id", ""))[:MAX_ID], "player": str(path.get("player_id", ""))[:MAX_ID]}


@app.exception_handler(GameCoreError)
def refused(error: GameCoreError) -> Response:
    logger.info("submission refused", extra=_who() | {"status": error.status, "error": type(error).__name__})
    retry = {"Retry-After": str(error.retry_after)} if error.retry_after else None
    return _reply(error.status, _refusal(error), retry)


@app.not_found
def no_route(_: NotFoundError) -> Response:
    method = app.current_event.http_method[:10]
    return refused(NotFound(f"nothing here answers {method}; submissions are POSTed to {ROUTE}"))


def _authenticated(ports: Ports, match_id: str, player_id: str) -> Match:
    scheme, _, secret = (app.current_event.headers.get("authorization") or "").partition(" ")
    if scheme.lower() != "bearer" or not secret:
        raise Unauthorized("send the player's webhook secret as 'Authorization: Bearer <secret>'")
    if len(match_id) > MAX_ID or len(player_id) > MAX_ID:
        raise NotFound("no such match or player")
    match = ports.store.get(match_id)
    authenticate_webhook(match, player_id, secret)
    return match


def _body() -> SubmissionBody:
    event = app.current_event
    raw = event.body or ""
    if event.is_base64_encoded:
        try:
            data = base64.b64decode(raw, validate=True)
        except (binascii.Error, ValueError):
            raise Malformed("the request body is malformed", ["body: not valid base64"]) from None
    else:
        data = raw.encode()
    if len(data) > MAX_BODY_BYTES:
        raise TooLarge(f"the request body is {len(data)} bytes; at most {MAX_BODY_BYTES} are read")
    try:
        return SubmissionBody.model_validate_json(data)
    except ValidationError as error:
        raise Malformed(
            "the request body is malformed",
            [f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in error.errors()],
        ) from None


def _once(match: Match, player_id: str, key: str | None, deliver: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run the delivery once per key of this player in this match; a repeat gets the stored reply.
    A refusal the caller may retry (`retry_after`) is not stored; it propagates."""
    if key is None:  # no key, no idempotency: each delivery is applied
        return deliver()

    def delivery(*, once: dict[str, str]) -> dict[str, Any]:
        return deliver()

    run = idempotent_function(
        delivery,
        data_keyword_argument="once",
        persistence_store=_persistence(client("dynamodb")),
        config=idempotency,
        key_prefix="delivery",
    )
    partition = _partition.set(f"DELIVERY#{match.match_id}#{player_id}")
    try:
        reply: dict[str, Any] = run(once={"match_id": match.match_id, "player_id": player_id, "key": key})
    except IdempotencyAlreadyInProgressError:
        raise InProgress("this delivery is being handled now; send it again for its reply") from None
    finally:
        _partition.reset(partition)
    return reply


@app.post("/matches/<match_id>/players/<player_id>/submissions")
def post_submission(match_id: str, player_id: str) -> Response:
    ports = ports_from_environment()
    match = _authenticated(ports, match_id, player_id)
    body = _body()
    request = SubmissionRequest(
        match_id, player_id, body.phase, body.kind, body.submission, channel="webhook", phase_number=body.number
    )

    def deliver() -> dict[str, Any]:
        try:
            reply = submit(ports, request, match)
        except GameCoreError as error:
            if error.retry_after:
                raise
            return {"status": error.status, "body": _refusal(error)}
        return {"status": 202 if reply.get("wake_pending") else 200, "body": reply}

    outcome = _once(match, player_id, app.current_event.headers.get("idempotency-key") or None, deliver)
    logger.info("submission", extra=_who() | {"status": outcome["status"], "error": outcome["body"].get("error")})
    return _reply(outcome["status"], outcome["body"])


@logger.inject_lambda_context(log_event=False)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    idempotency.register_lambda_context(context)
    return app.resolve(event, context)
