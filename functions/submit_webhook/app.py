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

GET /play/{match_id}, POST /play/{match_id}/session|move|check|action|press|absence, GET
/play/{match_id}/messages, GET /static/{asset}: the player's page (HTML;
`game_core.service.page`): a session cookie for the secret, never the secret in a URL; each page
view one read, as the GET of one's standing (the messages page's: its header and log, one Query).

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

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
    TooMany,
    Unauthorized,
    Unavailable,
    placeholder_hint,
    validation_reasons,
)
from game_core.service.actions import ActionRequest, act_by_webhook
from game_core.service.page import assets, board, check, play, render, session
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
    TooMany: 429,
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
    query: str = ""
    cookies: tuple[str, ...] = ()
    """`name=value` each (payload 2.0 moves the Cookie header here; a header is read too)."""

    @classmethod
    def of(cls, event: dict[str, Any]) -> Request:
        http = (event.get("requestContext") or {}).get("http") or {}
        headers = {str(name).lower(): str(value) for name, value in (event.get("headers") or {}).items()}
        return cls(
            method=str(http.get("method") or "GET").upper(),
            path=str(event.get("rawPath") or http.get("path") or "/"),
            headers=headers,
            body=str(event.get("body") or ""),
            base64=bool(event.get("isBase64Encoded")),
            params={},
            query=str(event.get("rawQueryString") or ""),
            cookies=(*(str(c) for c in event.get("cookies") or ()), *headers.get("cookie", "").split(";")),
        )

    def cookie(self, name: str) -> str | None:
        found = [value for key, _, value in (c.strip().partition("=") for c in self.cookies) if key == name]
        return found[-1] if found else None


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


# -- the player's page ------------------------------------------------------------------------------

PAGE_HEADERS = {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
"""Every page's headers: no inline script or style anywhere, no framing, no referrer sent on; the
script reaches its own origin only (the check of a move as it is written)."""
NOTICES = {
    "sent": "Your {} submission is in; sending it again replaces it.",  # "multipliers" or "place" alike
    "ready": "Your ready vote is recorded.",
} | play.ABSENCE_NOTICES


def _html(status: int, html: str, headers: Mapping[str, str] | None = None) -> Reply:
    return {"statusCode": status, "headers": PAGE_HEADERS | dict(headers or {}), "body": html, "isBase64Encoded": False}


def _see_other(location: str, headers: Mapping[str, str] | None = None) -> Reply:
    """Redirect after a POST: a reload shows the page again and sends nothing twice."""
    return _html(303, "", {"Location": location} | dict(headers or {}))


def _form_fields(request: Request) -> dict[str, str]:
    """The urlencoded form a page posted (the last of a repeated name)."""
    try:
        data = base64.b64decode(request.body, validate=True) if request.base64 else request.body.encode()
        if len(data) > MAX_BODY_BYTES:
            raise TooLarge(f"the form is {len(data)} bytes; at most {MAX_BODY_BYTES} are read")
        return dict(parse_qsl(data.decode("utf-8"), keep_blank_values=True))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise Malformed("the form is malformed", [Reason("form", "send the form from the page")]) from None


def _same_site(request: Request) -> None:
    """A POST from another site is refused (beside SameSite=Strict and the form token): by the
    browser's own Sec-Fetch-Site and Origin, where it sends them (a page sent with Referrer-Policy
    no-referrer posts its forms with `Origin: null`, which says nothing)."""
    fetched = request.headers.get("sec-fetch-site", "same-origin")
    origin = request.headers.get("origin", "null")
    host = request.headers.get("host", "")
    if fetched not in ("same-origin", "none") or (origin != "null" and urlsplit(origin).netloc != host):
        raise Unauthorized("forms are taken from this site's own pages only")


def _page_form(request: Request, match_id: str) -> tuple[dict[str, str], str | None]:
    """A page's POST, once its ids and its site are checked: its form and the session cookie."""
    _known_ids(match_id)
    _same_site(request)
    return _form_fields(request), request.cookie(session.cookie_name(match_id))


def _set_cookie(request: Request, match: str, value: str, age: int = session.MAX_AGE, name: str = "") -> dict[str, str]:
    """The session's cookie (or `name`d): HttpOnly, SameSite=Strict, this match's paths; Secure but on HTTP."""
    secure = "" if request.headers.get("x-forwarded-proto") == "http" else "; Secure"
    cookie = f"{name or session.cookie_name(match)}={value}; Path=/play/{match}"
    return {"Set-Cookie": f"{cookie}; Max-Age={age}; HttpOnly; SameSite=Strict{secure}"}


def _page_refused(error: GameCoreError, request: Request, match_id: str) -> Reply:
    status = _status(error)
    logger.info("page refused", extra=_who(request) | {"status": status, "error": type(error).__name__})
    return _html(status, render.sign_in_page(match_id, str(error)))


def get_page(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    _known_ids(match_id)
    cookie, seen_cookie = request.cookie(session.cookie_name(match_id)), board.cookie_name(match_id)
    query = dict(parse_qsl(request.query, keep_blank_values=True))  # "?ready": a notice by its name alone
    try:
        seen = play.show(ports(), match_id, cookie, query.get("answer"))
    except play.SignedOut as error:
        return _html(200, render.sign_in_page(match_id, str(error) if cookie else ""))
    notice = NOTICES["sent"].format(query["sent"][:40]) if "sent" in query else NOTICES.get(next(iter(query), ""), "")
    logger.info("page", extra=_who(request))
    shown, marks = render.marked_page(seen, "" if "answer" in query else notice, request.cookie(seen_cookie))
    return _html(200, shown, _set_cookie(request, match_id, marks, name=seen_cookie) if marks else None)


def post_session(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    fields, cookie = _page_form(request, match_id)
    if "sign_out" in fields:  # the session's own form (its token checked): the cookie dropped
        play.sign_out(ports(), match_id, cookie, fields)
        logger.info("page signed out", extra=_who(request))
        return _see_other(f"/play/{match_id}", _set_cookie(request, match_id, "", 0))
    made = play.sign_in(ports(), match_id, fields.get("secret", ""))
    logger.info("page signed in", extra=_who(request))
    return _see_other(f"/play/{match_id}", _set_cookie(request, match_id, made.cookie))


def _posted(request: Request, match_id: str, seen: play.Seen, after: str) -> Reply:
    if seen.refusal is not None:
        return refused_page(seen, request)
    logger.info("page sent", extra=_who(request))
    return _see_other(f"/play/{match_id}?{after}")


def refused_page(seen: play.Seen, request: Request) -> Reply:
    assert seen.refusal is not None
    status = _status(seen.refusal.error)
    logger.info(
        "page move refused", extra=_who(request) | {"status": status, "error": type(seen.refusal.error).__name__}
    )
    return _html(status, render.page(seen))


def post_page_move(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    fields, cookie = _page_form(request, match_id)
    seen = play.send_move(ports(), match_id, cookie, fields)
    return _posted(request, match_id, seen, urlencode({"sent": fields.get("kind", "")}))


def post_page_check(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    """The service's verdict on a move form as it stands, for the page's script: stores nothing."""
    fields, cookie = _page_form(request, match_id)
    verdict = check.check_move(ports(), match_id, cookie, fields)
    logger.info("page move checked", extra=_who(request) | {"legal": verdict.legal})
    return _reply(200, verdict.to_json(), {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})


def post_page_action(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    fields, cookie = _page_form(request, match_id)
    seen, key = play.act(ports(), match_id, cookie, fields)
    return _posted(request, match_id, seen, urlencode({"answer": key}) if key else "ready")


def get_messages(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    """The participant's messages and the form to write one, in one read, made only when asked;
    after a message, with its answer (`message`: its id)."""
    _known_ids(match_id)
    cookie = request.cookie(session.cookie_name(match_id))
    try:
        talk = play.show_messages(ports(), match_id, cookie, dict(parse_qsl(request.query)).get("message"))
    except play.SignedOut as error:
        return _html(200, render.sign_in_page(match_id, str(error) if cookie else ""))
    logger.info("page messages", extra=_who(request))
    return _html(200, render.messages_page(talk))


def post_page_press(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    fields, cookie = _page_form(request, match_id)
    seen, message_id = play.send_press(ports(), match_id, cookie, fields)
    if seen.refusal is not None:
        status = _status(seen.refusal.error)
        logger.info("page press refused", extra=_who(request) | {"status": status})
        return _html(status, render.messages_page(play.refused_message(ports(), seen)))
    logger.info("page press sent", extra=_who(request))
    return _see_other(f"/play/{match_id}/messages?{urlencode({'message': message_id})}")


def post_page_absence(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    fields, cookie = _page_form(request, match_id)
    seen, notice = play.absence(ports(), match_id, cookie, fields)
    return _posted(request, match_id, seen, notice)


def get_asset(request: Request, ports: Callable[[], Ports], asset: str) -> Reply:
    found = assets.asset(asset)
    if found is None:
        raise NotFound(f"no asset {asset[:MAX_ID]!r}")
    data, content_type = found
    headers = {
        "Content-Type": content_type,
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "public, max-age=31536000",  # pages link it by its content's hash (assets.url)
    }
    return {"statusCode": 200, "headers": headers, "body": data.decode(), "isBase64Encoded": False}


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
    _route("GET", "/play/{match_id}", get_page),
    _route("POST", "/play/{match_id}/session", post_session),
    _route("POST", "/play/{match_id}/move", post_page_move),
    _route("POST", "/play/{match_id}/check", post_page_check),
    _route("POST", "/play/{match_id}/action", post_page_action),
    _route("GET", "/play/{match_id}/messages", get_messages),
    _route("POST", "/play/{match_id}/press", post_page_press),
    _route("POST", "/play/{match_id}/absence", post_page_absence),
    _route("GET", "/static/{asset}", get_asset),
)


def answer(request: Request, ports: Callable[[], Ports]) -> Reply:
    """The route's answer, or the refusal that says why not."""
    try:
        for method, pattern, respond in ROUTES:
            found = pattern.fullmatch(request.path)
            if found and method == request.method:
                request = replace(request, params=found.groupdict())
                if hint := placeholder_hint(unquote(request.params.get("match_id", ""))):  # the README's, pasted
                    raise NotFound(hint)
                return respond(request, ports, **found.groupdict())
        raise NotFound(f"nothing here answers {request.method[:10]}; submissions are POSTed to {ROUTE}")
    except GameCoreError as error:
        if request.path.startswith("/play/"):
            return _page_refused(error, request, request.params.get("match_id", "")[:MAX_ID])
        return refused(error, request)
    except Unavailable as error:
        logger.warning("table unavailable", extra=_who(request))
        message = "the service could not read its table just now; send the same request again"
        if request.path.startswith("/play/"):  # a browser: the same words, as a page (nothing was stored)
            page = render.document("Try again", f"<main><p>{render.esc(message)}.</p></main>")
            return _html(503, page, {"Retry-After": str(error.retry_after)})
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
