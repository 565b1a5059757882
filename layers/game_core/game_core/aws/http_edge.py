"""What both HTTP functions (the webhook API and the player's page) read of API Gateway's event
and how they route it: the request, the ids' bounds, the status each refusal gets, and a route
table matched on the request's method and path as template.yaml declares them (Powertools' event
handler would do the same but costs a cold start about 65 ms to import, and the goal for each
handler's import is at most 1.3x boto3's)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import unquote

from game_core.aws.routes import route_pattern
from game_core.errors import (
    Conflict,
    GameCoreError,
    Illegal,
    Late,
    Malformed,
    NotFound,
    NotOpen,
    TooLarge,
    TooMany,
    Unauthorized,
    placeholder_hint,
)
from game_core.service.ports import Ports

MAX_BODY_BYTES = 64 * 1024
"""The largest body read (decoded). The largest move of any game is a few kilobytes."""
MAX_ID = 64
"""Match and player ids are far shorter (m- and 12 hex digits; player ids at most 40)."""

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

Reply = dict[str, Any]
"""What a function returns to API Gateway (payload 2.0): statusCode, headers, body."""
UNAVAILABLE = "the service could not read its table just now; send the same request again"
"""What either function says when the table could not be read (nothing was stored)."""


@dataclass(frozen=True)
class Request:
    """What a handler reads of the HTTP API's event (header names are lower case there)."""

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


def status_of(error: GameCoreError) -> int:
    return next(HTTP_STATUS[kind] for kind in type(error).__mro__ if kind in HTTP_STATUS)


def who(request: Request) -> dict[str, str]:
    """The only request data ever logged: the match and player of the path, cut short."""
    return {
        "match_id": request.params.get("match_id", "")[:MAX_ID],
        "player": request.params.get("player_id", "")[:MAX_ID],
    }


def known_ids(*ids: str) -> None:
    if any(len(one) > MAX_ID for one in ids):
        raise NotFound("no such match or player")


Answer = Callable[..., Reply]
Route = tuple[str, re.Pattern[str], Answer]


def route(method: str, template: str, answer: Answer) -> Route:
    """A route as the template declares it: `{name}` is one path segment, passed to the answer by
    name (after the request and where the ports come from)."""
    return method, route_pattern(template), answer


def serving(
    answer: Callable[[Request, Callable[[], Ports]], Reply], ports: Callable[[], Ports]
) -> Callable[[dict[str, Any], Any], Reply]:
    """A handler answering API Gateway's events with the ports `ports` gives (the local stack
    passes its own); each function wraps it in its Powertools logger."""

    def handler(event: dict[str, Any], context: Any) -> Reply:
        return answer(Request.of(event), ports)

    return handler


def routed(request: Request, routes: tuple[Route, ...], elsewhere: str) -> tuple[Request, Answer]:
    """The request with its path's parameters, and the route's answer; NotFound (saying
    `elsewhere`) when no route takes it, or the README's placeholder id pasted as it is."""
    for method, pattern, respond in routes:
        found = pattern.fullmatch(request.path)
        if found and method == request.method:
            request = replace(request, params=found.groupdict())
            if hint := placeholder_hint(unquote(request.params.get("match_id", ""))):
                raise NotFound(hint)
            return request, respond
    raise NotFound(f"nothing here answers {request.method[:10]}; {elsewhere}")
