"""The player's page (API Gateway HTTP API, the same API as the webhook's): HTML, never JSON.

GET /play/{match_id}, POST /play/{match_id}/session|move|check|action|press|absence, GET
/play/{match_id}/messages, GET /static/{asset}: `game_core.service.page` draws and takes it. A
session cookie holds the secret's place, never the secret in a URL; each page view one read, as
the GET of one's standing (the messages page's: its header and log, one Query). A refusal is the
page again with its reason in words, in the status `HTTP_STATUS` gives it; a POST answered is a
303 to the page, so a reload sends nothing twice.

Its own function (issue 30), so the webhook API's cold start carries no page and the page's no
submission parser: each handler parses, makes one call into the page's service, and shapes the
reply.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from game_core.aws.http_edge import (
    MAX_BODY_BYTES,
    MAX_ID,
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
from game_core.errors import GameCoreError, Malformed, NotFound, Reason, TooLarge, Unauthorized, Unavailable
from game_core.service.page import assets, board, check, html, messages, play, render, season_page, session
from game_core.service.ports import Ports

logger = Logger(service="player-page")

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
AUTO_RELOAD = "auto"
"""The query word page.js adds to the page's own reload (every minute, or as its countdown ends)."""
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
    known_ids(match_id)
    _same_site(request)
    return _form_fields(request), request.cookie(session.cookie_name(match_id))


def _set_cookie(request: Request, match: str, value: str, age: int = session.MAX_AGE, name: str = "") -> dict[str, str]:
    """The session's cookie (or `name`d): HttpOnly, SameSite=Strict, this match's paths; Secure but on HTTP."""
    secure = "" if request.headers.get("x-forwarded-proto") == "http" else "; Secure"
    cookie = f"{name or session.cookie_name(match)}={value}; Path=/play/{match}"
    return {"Set-Cookie": f"{cookie}; Max-Age={age}; HttpOnly; SameSite=Strict{secure}"}


def _page_refused(error: GameCoreError, request: Request, match_id: str) -> Reply:
    status = status_of(error)
    logger.info("page refused", extra=who(request) | {"status": status, "error": type(error).__name__})
    return _html(status, render.sign_in_page(match_id, str(error)))


def get_page(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    known_ids(match_id)
    cookie, seen_cookie = request.cookie(session.cookie_name(match_id)), board.cookie_name(match_id)
    query = dict(parse_qsl(request.query, keep_blank_values=True))  # "?ready": a notice by its name alone
    try:
        seen = play.show(ports(), match_id, cookie, query.get("answer"))
    except play.SignedOut as error:
        return _html(200, render.sign_in_page(match_id, str(error) if cookie else ""))
    notice = NOTICES["sent"].format(query["sent"][:40]) if "sent" in query else NOTICES.get(next(iter(query), ""), "")
    logger.info("page", extra=who(request))
    shown, marks = render.marked_page(seen, "" if "answer" in query else notice, request.cookie(seen_cookie))
    # The page's own reload ("?auto", page.js) is no visit: what is new stays marked until the
    # participant loads the page themselves (board.py).
    remembered = marks and AUTO_RELOAD not in query
    return _html(200, shown, _set_cookie(request, match_id, marks, name=seen_cookie) if remembered else None)


def post_session(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    fields, cookie = _page_form(request, match_id)
    if "sign_out" in fields:  # the session's own form (its token checked): the cookie dropped
        play.sign_out(ports(), match_id, cookie, fields)
        logger.info("page signed out", extra=who(request))
        return _see_other(f"/play/{match_id}", _set_cookie(request, match_id, "", 0))
    made = play.sign_in(ports(), match_id, fields.get("secret", ""))
    logger.info("page signed in", extra=who(request))
    return _see_other(f"/play/{match_id}", _set_cookie(request, match_id, made.cookie))


def _posted(request: Request, match_id: str, seen: play.Seen, after: str) -> Reply:
    if seen.refusal is not None:
        return refused_page(seen, request)
    logger.info("page sent", extra=who(request))
    return _see_other(f"/play/{match_id}?{after}")


def refused_page(seen: play.Seen, request: Request) -> Reply:
    assert seen.refusal is not None
    status = status_of(seen.refusal.error)
    logger.info(
        "page move refused", extra=who(request) | {"status": status, "error": type(seen.refusal.error).__name__}
    )
    return _html(status, render.page(seen))


def post_page_move(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    fields, cookie = _page_form(request, match_id)
    seen = play.send_move(ports(), match_id, cookie, fields)
    return _posted(request, match_id, seen, urlencode({"sent": fields.get("kind", "")}))


def post_page_check(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    """The service's verdict on a move form as it stands, for the page's own script (its one JSON
    reply): stores nothing."""
    fields, cookie = _page_form(request, match_id)
    verdict = check.check_move(ports(), match_id, cookie, fields)
    logger.info("page move checked", extra=who(request) | {"legal": verdict.legal})
    headers = {"Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
    return {"statusCode": 200, "headers": headers, "body": json.dumps(verdict.to_json()), "isBase64Encoded": False}


def post_page_action(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    fields, cookie = _page_form(request, match_id)
    seen, key = play.act(ports(), match_id, cookie, fields)
    return _posted(request, match_id, seen, urlencode({"answer": key}) if key else "ready")


def get_messages(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    """The participant's messages and the form to write one, in one read, made only when asked;
    after a message, with its answer (`message`: its id)."""
    message = dict(parse_qsl(request.query)).get("message")
    return _signed_page(
        request,
        match_id,
        lambda cookie: messages.messages_page(play.show_messages(ports(), match_id, cookie, message)),
        "page messages",
    )


def _signed_page(request: Request, match_id: str, shown: Callable[[str | None], str], logged: str) -> Reply:
    """A page of the signed-in participant's (`shown` for their cookie), or the sign-in page."""
    known_ids(match_id)
    cookie = request.cookie(session.cookie_name(match_id))
    try:
        html = shown(cookie)
    except play.SignedOut as error:
        return _html(200, render.sign_in_page(match_id, str(error) if cookie else ""))
    logger.info(logged, extra=who(request))
    return _html(200, html)


def post_page_press(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    fields, cookie = _page_form(request, match_id)
    seen, message_id = play.send_press(ports(), match_id, cookie, fields)
    if seen.refusal is not None:
        status = status_of(seen.refusal.error)
        logger.info("page press refused", extra=who(request) | {"status": status})
        return _html(status, messages.messages_page(play.refused_message(ports(), seen)))
    logger.info("page press sent", extra=who(request))
    return _see_other(f"/play/{match_id}/messages?{urlencode({'message': message_id})}")


def post_page_absence(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    fields, cookie = _page_form(request, match_id)
    seen, notice = play.absence(ports(), match_id, cookie, fields)
    return _posted(request, match_id, seen, notice)


def get_season(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    """The season's standing, and an EC's forms when it is their turn (service/page/season_page.py)."""
    return _signed_page(
        request,
        match_id,
        lambda cookie: season_page.season_html(season_page.show_season(ports(), match_id, cookie)),
        "page season",
    )


def post_season(request: Request, ports: Callable[[], Ports], match_id: str) -> Reply:
    fields, cookie = _page_form(request, match_id)
    seen, done = season_page.season_act(ports(), match_id, cookie, fields)
    logger.info("page season act", extra=who(request) | {"done": done})
    return _html(200 if done else 422, season_page.season_html(seen))


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


ROUTES = (
    route("GET", "/play/{match_id}", get_page),
    route("POST", "/play/{match_id}/session", post_session),
    route("POST", "/play/{match_id}/move", post_page_move),
    route("POST", "/play/{match_id}/check", post_page_check),
    route("POST", "/play/{match_id}/action", post_page_action),
    route("GET", "/play/{match_id}/messages", get_messages),
    route("POST", "/play/{match_id}/press", post_page_press),
    route("POST", "/play/{match_id}/absence", post_page_absence),
    route("GET", "/play/{match_id}/season", get_season),
    route("POST", "/play/{match_id}/season", post_season),
    route("GET", "/static/{asset}", get_asset),
)


def answer(request: Request, ports: Callable[[], Ports]) -> Reply:
    """The route's page, or the page that says why not (a sign-in page under /play/)."""
    try:
        request, respond = routed(request, ROUTES, "the player's page is GET /play/{match_id}")
        return respond(request, ports, **request.params)
    except GameCoreError as error:
        if request.path.startswith("/play/"):
            return _page_refused(error, request, request.params.get("match_id", "")[:MAX_ID])
        logger.info("asset refused", extra={"status": status_of(error), "error": type(error).__name__})
        return _html(status_of(error), html.document("Not found", f"<main><p>{html.esc(str(error))}</p></main>"))
    except Unavailable as error:  # the same words as the webhook's, as a page (nothing was stored)
        logger.warning("table unavailable", extra=who(request))
        page = html.document("Try again", f"<main><p>{html.esc(UNAVAILABLE)}.</p></main>")
        return _html(503, page, {"Retry-After": str(error.retry_after)})


def handler_for(ports: Callable[[], Ports]) -> Callable[[dict[str, Any], LambdaContext], Reply]:
    """The handler, serving with the ports `ports` gives (the local stack passes its own)."""
    return logger.inject_lambda_context(log_event=False)(serving(answer, ports))


handler = handler_for(ports_from_environment)
