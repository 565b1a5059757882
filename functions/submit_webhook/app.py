"""Players' webhook (API Gateway HTTP API): submissions, and where they stand.

POST /matches/{match_id}/players/{player_id}/submissions
Authorization: Bearer <the player's webhook secret>
Idempotency-Key: <an id unique per delivery of this player; a redelivery returns the first reply>
{"phase": "Round 1", "kind": "round", "submission": {...}}

POST /matches/{match_id}/players/{player_id}/actions
Authorization: Bearer <the participant's webhook secret>
Idempotency-Key: <as for submissions, and from the same keys: a redelivery returns the first reply>
{"kind": "puzzle", "action": {"puzzle": 1}}

An immediate action (a game that takes them: Clubs' puzzle requests and answers, transfers and
peeks) is applied at once and answered to the sender alone: {"accepted": true, "kind", "answer"}.

PUT /matches/{match_id}/players/{player_id}/webhook   (the same Bearer secret) {"url": "https://..."}
DELETE the same: the participant's notices POSTed to their URL, signed per Standard Webhooks with
the `whsec_` secret the PUT's reply holds, once (service/webhooks.py)

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

The routes are matched here, on the request's method and path, in a few lines: Powertools' event
handler would do the same but costs a cold start about 65 ms (a third of what boto3 costs) to
import, and the goal for each handler's import is at most 1.3x boto3's.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from game_core.aws.routes import route_pattern
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
    Unavailable,
    validation_reasons,
)
from game_core.service.actions import ActionRequest, act_by_webhook
from game_core.service.ports import Ports
from game_core.service.submit import SubmissionBody, SubmissionRequest, submit_by_webhook
from game_core.service.views import participant_view, public_view
from game_core.service.webhooks import MAX_URL, participant_subscribes

ROUTE = "/matches/{match_id}/players/{player_id}/submissions"
WEBHOOK_ROUTE = "/matches/{match_id}/players/{player_id}/webhook"
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

Reply = dict[str, Any]
"""What the function returns to API Gateway (payload 2.0): statusCode, headers, body."""


@dataclass(frozen=True)
class Request:
    """What the handler reads of the HTTP API's event (header names are lower case there)."""

    method: str
    path: str
    headers: dict[str, str]
    body: str
    base64: bool
    params: dict[str, str]

    @classmethod
    def of(cls, event: dict[str, Any]) -> Request:
        http = (event.get("requestContext") or {}).get("http") or {}
        return cls(
            method=str(http.get("method") or "GET").upper(),
            path=str(event.get("rawPath") or http.get("path") or "/"),
            headers={str(name).lower(): str(value) for name, value in (event.get("headers") or {}).items()},
            body=str(event.get("body") or ""),
            base64=bool(event.get("isBase64Encoded")),
            params={},
        )


class WebhookBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str = Field(max_length=MAX_URL)


class ActionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str
    action: Any


def _reply(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> Reply:
    return {
        "statusCode": status,
        "headers": {"Content-Type": "application/json"} | (headers or {}),
        "body": json.dumps(body),
        "isBase64Encoded": False,
    }


def _status(error: GameCoreError) -> int:
    return next(HTTP_STATUS[kind] for kind in type(error).__mro__ if kind in HTTP_STATUS)


def _who(request: Request) -> dict[str, str]:
    """The only request data ever logged: the match and player of the path, cut short."""
    return {
        "match_id": request.params.get("match_id", "")[:MAX_ID],
        "player": request.params.get("player_id", "")[:MAX_ID],
    }


def refused(error: GameCoreError, request: Request) -> Reply:
    status = _status(error)
    logger.info("submission refused", extra=_who(request) | {"status": status, "error": type(error).__name__})
    retry = {"Retry-After": str(error.retry_after)} if error.retry_after else None
    return _reply(status, {"accepted": False} | error.to_json(), retry)


def _secret(request: Request) -> str:
    scheme, _, secret = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not secret:
        raise Unauthorized("send the player's webhook secret as 'Authorization: Bearer <secret>'")
    return secret


def _delivery(request: Request) -> str | None:
    key = request.headers.get("idempotency-key") or None
    if key is not None and len(key) > MAX_KEY:
        raise Malformed(f"the Idempotency-Key is {len(key)} characters; at most {MAX_KEY}")
    return key


BodyT = TypeVar("BodyT", bound=BaseModel)


def _body(request: Request, model: type[BodyT]) -> BodyT:
    if request.base64:
        try:
            data = base64.b64decode(request.body, validate=True)
        except (binascii.Error, ValueError):
            raise Malformed("the request body is malformed", [Reason("base64", "body: not valid base64")]) from None
    else:
        data = request.body.encode()
    if len(data) > MAX_BODY_BYTES:
        raise TooLarge(f"the request body is {len(data)} bytes; at most {MAX_BODY_BYTES} are read")
    try:
        return model.model_validate_json(data)
    except ValidationError as error:
        raise Malformed("the request body is malformed", validation_reasons(error, "body")) from None


def _known_ids(*ids: str) -> None:
    if any(len(one) > MAX_ID for one in ids):
        raise NotFound("no such match or player")


def post_submission(request: Request, ports: Callable[[], Ports], match_id: str, player_id: str) -> Reply:
    secret = _secret(request)
    _known_ids(match_id, player_id)

    def submission() -> SubmissionRequest:  # read only once the secret has matched
        body = _body(request, SubmissionBody)
        return SubmissionRequest(
            match_id, player_id, body.phase, body.kind, body.submission, channel="webhook", phase_number=body.number
        )

    reply = submit_by_webhook(ports(), match_id, player_id, secret, _delivery(request), submission)
    status = 202 if reply.get("wake_pending") else 200
    logger.info("submission", extra=_who(request) | {"status": status})
    return _reply(status, reply)


def get_standing(request: Request, ports: Callable[[], Ports], match_id: str, player_id: str) -> Reply:
    secret = _secret(request)
    _known_ids(match_id, player_id)
    reply = participant_view(ports(), match_id, player_id, secret)
    logger.info("standing", extra=_who(request))
    return _reply(200, reply)


def get_public(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    _known_ids(match_id)
    reply = public_view(ports(), match_id)
    logger.info("public view", extra=_who(request))
    return _reply(200, reply)


def post_action(request: Request, ports: Callable[[], Ports], match_id: str, player_id: str) -> Reply:
    secret = _secret(request)
    _known_ids(match_id, player_id)

    def action() -> ActionRequest:  # read only once the secret has matched
        body = _body(request, ActionBody)
        return ActionRequest(match_id, player_id, body.kind, body.action, channel="webhook")

    reply = act_by_webhook(ports(), match_id, player_id, secret, _delivery(request), action)
    logger.info("action", extra=_who(request) | {"status": 200})
    return _reply(200, reply)


def put_webhook(request: Request, ports: Callable[[], Ports], match_id: str, player_id: str) -> Reply:
    """The participant's subscription: their notices POSTed to `url`; the reply holds its `whsec_`
    signing secret, once."""
    secret = _secret(request)
    _known_ids(match_id, player_id)

    def url() -> str:  # read only once the secret has matched
        return _body(request, WebhookBody).url

    reply = participant_subscribes(ports(), match_id, player_id, secret, url)
    logger.info("webhook set", extra=_who(request))
    return _reply(200, reply)


def delete_webhook(request: Request, ports: Callable[[], Ports], match_id: str, player_id: str) -> Reply:
    secret = _secret(request)
    _known_ids(match_id, player_id)
    reply = participant_subscribes(ports(), match_id, player_id, secret, None)
    logger.info("webhook removed", extra=_who(request))
    return _reply(200, reply)


def _route(
    method: str, template: str, answer: Callable[..., Reply]
) -> tuple[str, re.Pattern[str], Callable[..., Reply]]:
    """A route as the template declares it: `{name}` is one path segment, passed by name (after
    the request and where the ports come from)."""
    return method, route_pattern(template), answer


ROUTES = (
    _route("POST", ROUTE, post_submission),
    _route("POST", "/matches/{match_id}/players/{player_id}/actions", post_action),
    _route("PUT", WEBHOOK_ROUTE, put_webhook),
    _route("DELETE", WEBHOOK_ROUTE, delete_webhook),
    _route("GET", "/matches/{match_id}/players/{player_id}", get_standing),
    _route("GET", "/matches/{match_id}", get_public),
)


def answer(request: Request, ports: Callable[[], Ports]) -> Reply:
    """The route's answer, or the refusal that says why not."""
    try:
        for method, pattern, respond in ROUTES:
            found = pattern.fullmatch(request.path)
            if found and method == request.method:
                request = replace(request, params=found.groupdict())
                return respond(request, ports, **found.groupdict())
        raise NotFound(f"nothing here answers {request.method[:10]}; submissions are POSTed to {ROUTE}")
    except GameCoreError as error:
        return refused(error, request)
    except Unavailable as error:
        logger.warning("table unavailable", extra=_who(request))
        message = "the service could not read its table just now; send the same request again"
        reasons = [Reason("unavailable", message).to_json()]
        body = {"accepted": False, "error": "Unavailable", "message": message, "reasons": reasons}
        return _reply(503, body, {"Retry-After": str(error.retry_after)})


def handler_for(ports: Callable[[], Ports]) -> Callable[[dict[str, Any], LambdaContext], Reply]:
    """The handler, serving with the ports `ports` gives (the local stack passes its own)."""

    @logger.inject_lambda_context(log_event=False)
    def handler(event: dict[str, Any], context: LambdaContext) -> Reply:
        return answer(Request.of(event), ports)

    return handler


handler = handler_for(ports_from_environment)
