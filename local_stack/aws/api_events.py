"""The events API Gateway's HTTP API (payload 2.0) gives a function, built for one request: what
the local stack's `submit` and bin/host-server's routes hand the real handlers."""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import parse_qsl

HTTP_API_ROUTE = "POST /matches/{match_id}/players/{player_id}/submissions"


def http_api_event(
    match_id: str, player: str, secret: str, body: dict[str, Any] | str, delivery_id: str
) -> dict[str, Any]:
    return api_gateway_event(
        HTTP_API_ROUTE,
        f"/matches/{match_id}/players/{player}/submissions",
        {"match_id": match_id, "player_id": player},
        headers={
            "authorization": f"Bearer {secret}",
            "content-type": "application/json",
            "idempotency-key": delivery_id,
        },
        body=body if isinstance(body, str) else json.dumps(body),
        request_id=delivery_id,
    )


def api_gateway_event(
    route_key: str,
    path: str,
    path_parameters: dict[str, str],
    *,
    headers: dict[str, str],
    body: str | bytes | None,
    request_id: str,
    query: str = "",
    source_ip: str = "127.0.0.1",
    method: str | None = None,
) -> dict[str, Any]:
    """The event an HTTP API (payload 2.0) gives a function for one request on `route_key`
    ("POST /matches/{match_id}/..."; the request's `method` if the route's is ANY): header names
    lower-case, repeated query parameters joined with commas, a bytes body (not text)
    base64-encoded, as API Gateway does."""
    method = method or route_key.split(" ", 1)[0]
    headers = {name.lower(): value for name, value in headers.items()}
    query_parameters: dict[str, str] = {}
    for name, value in parse_qsl(query, keep_blank_values=True):
        query_parameters[name] = f"{query_parameters[name]},{value}" if name in query_parameters else value
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": route_key,
        "rawPath": path,
        "rawQueryString": query,
        "headers": headers,
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "local",
            "domainName": "local.execute-api",
            "http": {
                "method": method,
                "path": path,
                "protocol": "HTTP/1.1",
                "sourceIp": source_ip,
                "userAgent": headers.get("user-agent", "local-stack"),
            },
            "requestId": request_id,
            "routeKey": route_key,
            "stage": "$default",
            "time": "30/Nov/2026:00:00:00 +0000",
            "timeEpoch": 0,
        },
        "isBase64Encoded": isinstance(body, bytes),
    }
    if query_parameters:
        event["queryStringParameters"] = query_parameters
    if path_parameters:
        event["pathParameters"] = path_parameters
    if body is not None:
        event["body"] = base64.b64encode(body).decode() if isinstance(body, bytes) else body
    return event
