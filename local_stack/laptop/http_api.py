"""The host server's HTTP: every HttpApi route of template.yaml served as API Gateway serves it
(`ApiRoutes`: each request becomes the HTTP API's payload 2.0 event for its function, the
function's reply the response), and the host's commands on loopback (`HostCommands`: POST /host,
with the host token, never from a web page).
"""

from __future__ import annotations

import base64
import json
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from game_core.aws.routes import route_pattern
from game_core.cli.host import HOST_TOKEN_FILE
from local_stack.aws.api_events import api_gateway_event
from local_stack.aws.stack import LocalStack
from local_stack.aws.template import template_routes
from local_stack.laptop.access import (
    bearer_is_token,
    foreign_refusal,
)
from local_stack.laptop.http_serving import Reply, Request, json_reply
from local_stack.laptop.match_locks import MatchLocks

logger = logging.getLogger("host-server")


TEXT_TYPES = ("text/", "application/json", "+json", "application/xml", "+xml", "application/x-www-form-urlencoded")
"""Content types whose body an HTTP API hands over as text; any other body is base64-encoded."""


@dataclass(frozen=True)
class Route:
    """One route of the HTTP API: "METHOD /path/{name}/..." and the function it invokes."""

    key: str
    function: str

    def parameters(self, method: str, path: str) -> dict[str, str] | None:
        """The path parameters if the request is this route's, else None."""
        route_method, _, template = self.key.partition(" ")
        if route_method not in ("ANY", method):
            return None
        found = route_pattern(template).fullmatch(path)
        return None if found is None else {name: unquote(value) for name, value in found.groupdict().items()}


class ApiRoutes:
    """The HTTP API: every route of the template, as API Gateway invokes its function."""

    def __init__(self, stack: LocalStack, matches: MatchLocks) -> None:
        self.stack = stack
        self.routes = [Route(key, function) for key, function in template_routes().items()]
        self.matches = matches

    def __call__(self, request: Request) -> Reply:
        for route in self.routes:
            parameters = route.parameters(request.method, request.path)
            if parameters is not None:
                break
        else:
            return json_reply(404, {"message": "Not Found"})
        event = api_gateway_event(
            route.key,
            request.path,
            parameters,
            headers=request.headers | {"x-forwarded-proto": "http"},  # served over plain HTTP (the page's cookie)
            body=_as_text_if_textual(request.body, request.headers.get("content-type", "")),
            request_id=str(uuid.uuid4()),
            query=request.query,
            source_ip=request.source_ip,
            method=request.method,
        )
        try:
            with self.matches.holding(parameters.get("match_id")):
                reply = self.stack.invoke(route.function, event)
        except RuntimeError:  # the function failed: API Gateway says no more than this
            logger.exception("%s failed", route.function)
            return json_reply(500, {"message": "Internal Server Error"})
        return _http_response(reply)


class HostCommands:
    """The host's commands: POST /host with the command, as the console's sample events have it,
    from the host's own console on this laptop (`foreign_refusal`: 403) with the host token (401).
    `port`: the loopback port they are served on, once bound."""

    def __init__(self, act: Callable[[dict[str, Any]], dict[str, Any]], token: str) -> None:
        self.act = act
        self.token = token
        self.port = 0

    def __call__(self, request: Request) -> Reply:
        refusal = foreign_refusal(request.headers, self.port)
        if refusal is not None:
            return json_reply(403, {"ok": False, "error": "Forbidden", "message": refusal})
        if not bearer_is_token(request.headers.get("authorization", ""), self.token):
            message = f"the host token is missing or wrong: match-host sends the data folder's {HOST_TOKEN_FILE}"
            refused = {"ok": False, "error": "Unauthorized", "message": message}
            return json_reply(401, refused, {"www-authenticate": "Bearer"})
        if request.path != "/host":
            return json_reply(404, {"message": "Not Found"})
        if request.method != "POST":
            return json_reply(405, {"message": "Method Not Allowed"}, {"allow": "POST"})
        try:
            command = json.loads(request.body)
        except ValueError:
            command = None
        if not isinstance(command, dict):
            message = 'the command as a JSON object: {"command": "status", "match_id": ...}'
            return json_reply(400, {"ok": False, "error": "Malformed", "message": message})
        try:
            reply = self.act(command)
        except RuntimeError as error:
            return json_reply(500, {"ok": False, "error": "FunctionError", "message": str(error)})
        return json_reply(200, reply)


def _as_text_if_textual(body: bytes, content_type: str) -> str | bytes | None:
    if not body:
        return None
    if any(kind in content_type.lower() for kind in TEXT_TYPES):
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            pass
    return body


def _http_response(reply: Any) -> tuple[int, bytes, dict[str, str]]:
    """A function's reply as API Gateway's HTTP API (payload 2.0) turns it into a response: a
    reply without a statusCode is the body of a 200 as JSON."""
    if not (isinstance(reply, dict) and "statusCode" in reply):
        return 200, json.dumps(reply).encode(), {"content-type": "application/json"}
    body = reply.get("body") or ""
    raw = base64.b64decode(body) if reply.get("isBase64Encoded") else body.encode()
    headers = {str(name): str(value) for name, value in (reply.get("headers") or {}).items()}
    if not any(name.lower() == "content-type" for name in headers):
        headers["content-type"] = "application/json"
    return int(reply["statusCode"]), raw, headers
