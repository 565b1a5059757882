"""Players' webhook (API Gateway HTTP API): submissions, and where they stand.

POST /matches/{match_id}/players/{player_id}/submissions
Authorization: Bearer <the player's webhook secret>
Idempotency-Key: <an id unique per delivery of this player; a redelivery returns the first reply>
{"phase": "Round 1", "kind": "round", "submission": {...}}

POST /matches/{match_id}/players/{player_id}/actions
Authorization: Bearer <the participant's webhook secret>
{"kind": "puzzle", "action": {"puzzle": 1}}

An immediate action (a game that takes them: Clubs' puzzle requests and answers, transfers and
peeks) is applied at once and answered to the sender alone: {"accepted": true, "kind", "answer"}.

GET /matches/{match_id}/players/{player_id}   (the same Bearer secret): the participant's view
now, the open phase and its deadline, what they have submitted in it, their garnets
GET /matches/{match_id}                        the public view: no secret needed

One read (the match, the sender's garnets and submissions, an earlier reply to this
Idempotency-Key), then in this order: the secret is checked (nothing is stored or logged before),
an earlier delivery's reply returned as it was, the body read (at most `MAX_BODY_BYTES`, base64
decoded if API Gateway encoded it), and the submission stored with its reply in one transaction:
two AWS calls, one or two more when it closes the phase early. Every refusal is a 4xx in one
shape: {"accepted": false, "error": <type>, "message": ..., "reasons": [{"code", "text"}, ...]}
(`HTTP_STATUS` says which status each error type gets); a refusal is not
stored, so a redelivery is judged again.
"""

import base64
import binascii
import json
from typing import Any, TypeVar

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response, content_types
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ConfigDict, ValidationError

from game_core.aws.wiring import ports_from_environment
from game_core.errors import (
    Conflict,
    GameCoreError,
    Illegal,
    Late,
    Malformed,
    NotFound,
    NotOpen,
    Reason,
    TooLarge,
    Unauthorized,
    validation_reasons,
)
from game_core.service.actions import ActionRequest, act_by_webhook
from game_core.service.submit import SubmissionRequest, submit_by_webhook
from game_core.service.views import participant_view, public_view

ROUTE = "/matches/{match_id}/players/{player_id}/submissions"
MAX_BODY_BYTES = 64 * 1024
"""The largest body read (decoded). The largest move of any game is a few kilobytes."""
MAX_ID = 64
"""Match and player ids are far shorter (m- and 12 hex digits; player ids at most 40)."""
MAX_KEY = 128
"""The longest Idempotency-Key kept (a UUID is 36 characters)."""

HTTP_STATUS: dict[type[GameCoreError], int] = {
    TooLarge: 413,
    Malformed: 400,
    Unauthorized: 401,
    NotFound: 404,
    Conflict: 409,
    Late: 409,
    NotOpen: 409,
    Illegal: 422,
    GameCoreError: 400,
}
"""How HTTP says each refusal: the nearest class in an error's ancestry decides."""

logger = Logger(service="submit-webhook")
app = APIGatewayHttpResolver()


class SubmissionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phase: str
    number: int | None = None
    """The phase's number from the notice that opened it; pins a move to that opening."""
    kind: str
    submission: Any


class ActionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str
    action: Any


def _reply(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    return Response(
        status_code=status, content_type=content_types.APPLICATION_JSON, body=json.dumps(body), headers=headers
    )


def _status(error: GameCoreError) -> int:
    return next(HTTP_STATUS[kind] for kind in type(error).__mro__ if kind in HTTP_STATUS)


def _who() -> dict[str, str]:
    """The only request data ever logged: the match and player of the path, cut short."""
    path = app.current_event.path_parameters or {}
    return {"match_id": str(path.get("match_id", ""))[:MAX_ID], "player": str(path.get("player_id", ""))[:MAX_ID]}


@app.exception_handler(GameCoreError)
def refused(error: GameCoreError) -> Response:
    status = _status(error)
    logger.info("submission refused", extra=_who() | {"status": status, "error": type(error).__name__})
    retry = {"Retry-After": str(error.retry_after)} if error.retry_after else None
    return _reply(status, {"accepted": False} | error.to_json(), retry)


@app.not_found
def no_route(_: NotFoundError) -> Response:
    method = app.current_event.http_method[:10]
    return refused(NotFound(f"nothing here answers {method}; submissions are POSTed to {ROUTE}"))


def _secret() -> str:
    scheme, _, secret = (app.current_event.headers.get("authorization") or "").partition(" ")
    if scheme.lower() != "bearer" or not secret:
        raise Unauthorized("send the player's webhook secret as 'Authorization: Bearer <secret>'")
    return secret


def _delivery() -> str | None:
    key = app.current_event.headers.get("idempotency-key") or None
    if key is not None and len(key) > MAX_KEY:
        raise Malformed(f"the Idempotency-Key is {len(key)} characters; at most {MAX_KEY}")
    return key


BodyT = TypeVar("BodyT", bound=BaseModel)


def _body(model: type[BodyT]) -> BodyT:
    event = app.current_event
    raw = event.body or ""
    if event.is_base64_encoded:
        try:
            data = base64.b64decode(raw, validate=True)
        except (binascii.Error, ValueError):
            raise Malformed("the request body is malformed", [Reason("base64", "body: not valid base64")]) from None
    else:
        data = raw.encode()
    if len(data) > MAX_BODY_BYTES:
        raise TooLarge(f"the request body is {len(data)} bytes; at most {MAX_BODY_BYTES} are read")
    try:
        return model.model_validate_json(data)
    except ValidationError as error:
        raise Malformed("the request body is malformed", validation_reasons(error, "body")) from None


@app.post("/matches/<match_id>/players/<player_id>/submissions")
def post_submission(match_id: str, player_id: str) -> Response:
    secret = _secret()
    _known_ids(match_id, player_id)

    def request() -> SubmissionRequest:  # read only once the secret has matched
        body = _body(SubmissionBody)
        return SubmissionRequest(
            match_id, player_id, body.phase, body.kind, body.submission, channel="webhook", phase_number=body.number
        )

    reply = submit_by_webhook(ports_from_environment(), match_id, player_id, secret, _delivery(), request)
    status = 202 if reply.get("wake_pending") else 200
    logger.info("submission", extra=_who() | {"status": status})
    return _reply(status, reply)


def _known_ids(*ids: str) -> None:
    if any(len(one) > MAX_ID for one in ids):
        raise NotFound("no such match or player")


@app.get("/matches/<match_id>/players/<player_id>")
def get_standing(match_id: str, player_id: str) -> Response:
    secret = _secret()
    _known_ids(match_id, player_id)
    reply = participant_view(ports_from_environment(), match_id, player_id, secret)
    logger.info("standing", extra=_who())
    return _reply(200, reply)


@app.get("/matches/<match_id>")
def get_public(match_id: str) -> Response:
    _known_ids(match_id)
    reply = public_view(ports_from_environment(), match_id)
    logger.info("public view", extra=_who())
    return _reply(200, reply)


@app.post("/matches/<match_id>/players/<player_id>/actions")
def post_action(match_id: str, player_id: str) -> Response:
    secret = _secret()
    if len(match_id) > MAX_ID or len(player_id) > MAX_ID:
        raise NotFound("no such match or participant")

    def request() -> ActionRequest:  # read only once the secret has matched
        body = _body(ActionBody)
        return ActionRequest(match_id, player_id, body.kind, body.action, channel="webhook")

    reply = act_by_webhook(ports_from_environment(), match_id, player_id, secret, request)
    logger.info("action", extra=_who() | {"status": 200})
    return _reply(200, reply)


@logger.inject_lambda_context(log_event=False)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
