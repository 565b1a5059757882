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

POST /seasons/{season_id}/players/{player_id}/acts
Authorization: Bearer <the player's season secret>
{"act": "name", "opponent": "bo"}   (or {"act": "spend"}, {"act": "keep"}: the ToL)

An Elimination Candidate's act in a season (service/season/acts.py): answered with the season's
standing after it, {"accepted": true, "act", "naming_turn", "season"}; sent again, it changes
nothing more and is answered alike (no Idempotency-Key needed); refused in the shape below.

PUT /matches/{match_id}/players/{player_id}/webhook   (the same Bearer secret) {"url": "https://..."}
DELETE the same: the participant's notices POSTed to their URL, signed per Standard Webhooks with
the `whsec_` secret the PUT's reply holds, once (service/webhooks/sending.py)

GET /matches/{match_id}/players/{player_id}   (the same Bearer secret): the participant's view
now, the open phase and its deadline, what they have submitted in it, their garnets
GET /matches/{match_id}                        the public view: no secret needed

The player's page (HTML, under /play/ and /static/) is its own function: functions/player_page.

One read (the match, the sender's garnets and submissions, an earlier reply to this
Idempotency-Key), then in this order: the secret is checked (nothing is stored or logged before),
an earlier delivery's reply returned as it was, the body read (at most `MAX_BODY_BYTES`, base64
decoded if API Gateway encoded it), and the submission stored with its reply in one transaction:
two AWS calls, one or two more when it closes the phase early. Every refusal is a 4xx in one
shape: {"accepted": false, "error": <type>, "message": ..., "reasons": [{"code", "text"}, ...]}
(`http_edge.HTTP_STATUS` says which status each error type gets); a refusal is not
stored, so a redelivery is judged again.

The routes are matched as template.yaml declares them (`game_core.aws.http_edge`, shared with the
page's function).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from game_core.aws.http_edge import (
    MAX_BODY_BYTES,
    UNAVAILABLE,
    Reply,
    Request,
    known_ids,
    route,
    routed,
    serving,
    status_of,
    who,
)
from game_core.aws.wiring import ports_from_environment
from game_core.errors import GameCoreError, Malformed, Reason, TooLarge, Unauthorized, Unavailable, validation_reasons
from game_core.service.matches.actions import ActionRequest, act_by_webhook
from game_core.service.matches.submit import SubmissionBody, SubmissionRequest, submit_by_webhook
from game_core.service.matches.views import participant_view, public_view
from game_core.service.ports import Ports
from game_core.service.season.acts import ec_act_reply
from game_core.service.webhooks.sending import participant_subscribes
from game_core.service.webhooks.urls import MAX_URL

ROUTE = "/matches/{match_id}/players/{player_id}/submissions"
WEBHOOK_ROUTE = "/matches/{match_id}/players/{player_id}/webhook"
SEASON_ACT_ROUTE = "/seasons/{season_id}/players/{player_id}/acts"
MAX_KEY = 128
"""The longest Idempotency-Key kept (a UUID is 36 characters)."""

logger = Logger(service="submit-webhook")


class WebhookBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str = Field(max_length=MAX_URL)


class SeasonActBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    act: Literal["name", "spend", "keep"]
    opponent: str = Field(default="", max_length=200)


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


def refused(error: GameCoreError, request: Request) -> Reply:
    status = status_of(error)
    logger.info("submission refused", extra=who(request) | {"status": status, "error": type(error).__name__})
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


def post_submission(request: Request, ports: Callable[[], Ports], match_id: str, player_id: str) -> Reply:
    secret = _secret(request)
    known_ids(match_id, player_id)

    def submission() -> SubmissionRequest:  # read only once the secret has matched
        body = _body(request, SubmissionBody)
        return SubmissionRequest(
            match_id, player_id, body.phase, body.kind, body.submission, channel="webhook", phase_number=body.number
        )

    reply = submit_by_webhook(ports(), match_id, player_id, secret, _delivery(request), submission)
    status = 202 if reply.get("wake_pending") else 200
    logger.info("submission", extra=who(request) | {"status": status})
    return _reply(status, reply)


def get_standing(request: Request, ports: Callable[[], Ports], match_id: str, player_id: str) -> Reply:
    secret = _secret(request)
    known_ids(match_id, player_id)
    reply = participant_view(ports(), match_id, player_id, secret)
    logger.info("standing", extra=who(request))
    return _reply(200, reply)


def get_public(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    known_ids(match_id)
    reply = public_view(ports(), match_id)
    logger.info("public view", extra=who(request))
    return _reply(200, reply)


def post_action(request: Request, ports: Callable[[], Ports], match_id: str, player_id: str) -> Reply:
    secret = _secret(request)
    known_ids(match_id, player_id)

    def action() -> ActionRequest:  # read only once the secret has matched
        body = _body(request, ActionBody)
        return ActionRequest(match_id, player_id, body.kind, body.action, channel="webhook")

    reply = act_by_webhook(ports(), match_id, player_id, secret, _delivery(request), action)
    logger.info("action", extra=who(request) | {"status": 200})
    return _reply(200, reply)


def post_season_act(request: Request, ports: Callable[[], Ports], season_id: str, player_id: str) -> Reply:
    secret = _secret(request)
    known_ids(season_id, player_id)
    body = _body(request, SeasonActBody)
    reply = ec_act_reply(ports(), season_id, player_id, secret, body.act, body.opponent)
    logger.info("season act", extra=who(request) | {"status": 200})
    return _reply(200, reply)


def put_webhook(request: Request, ports: Callable[[], Ports], match_id: str, player_id: str) -> Reply:
    """The participant's subscription: their notices POSTed to `url`; the reply holds its `whsec_`
    signing secret, once."""
    secret = _secret(request)
    known_ids(match_id, player_id)

    def url() -> str:  # read only once the secret has matched
        return _body(request, WebhookBody).url

    reply = participant_subscribes(ports(), match_id, player_id, secret, url)
    logger.info("webhook set", extra=who(request))
    return _reply(200, reply)


def delete_webhook(request: Request, ports: Callable[[], Ports], match_id: str, player_id: str) -> Reply:
    secret = _secret(request)
    known_ids(match_id, player_id)
    reply = participant_subscribes(ports(), match_id, player_id, secret, None)
    logger.info("webhook removed", extra=who(request))
    return _reply(200, reply)


ROUTES = (
    route("POST", ROUTE, post_submission),
    route("POST", "/matches/{match_id}/players/{player_id}/actions", post_action),
    route("POST", SEASON_ACT_ROUTE, post_season_act),
    route("PUT", WEBHOOK_ROUTE, put_webhook),
    route("DELETE", WEBHOOK_ROUTE, delete_webhook),
    route("GET", "/matches/{match_id}/players/{player_id}", get_standing),
    route("GET", "/matches/{match_id}", get_public),
)


def answer(request: Request, ports: Callable[[], Ports]) -> Reply:
    """The route's answer, or the refusal that says why not."""
    try:
        request, respond = routed(request, ROUTES, f"submissions are POSTed to {ROUTE}")
        return respond(request, ports, **request.params)
    except GameCoreError as error:
        return refused(error, request)
    except Unavailable as error:
        logger.warning("table unavailable", extra=who(request))
        reasons = [Reason("unavailable", UNAVAILABLE).to_json()]
        body = {"accepted": False, "error": "Unavailable", "message": UNAVAILABLE, "reasons": reasons}
        return _reply(503, body, {"Retry-After": str(error.retry_after)})


def handler_for(ports: Callable[[], Ports]) -> Callable[[dict[str, Any], LambdaContext], Reply]:
    """The handler, serving with the ports `ports` gives (the local stack passes its own)."""
    return logger.inject_lambda_context(log_event=False)(serving(answer, ports))


handler = handler_for(ports_from_environment)
