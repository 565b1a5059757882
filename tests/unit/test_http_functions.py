"""The HTTP API's two functions (issue 30, item 6): the webhook's serves the JSON API and no page;
the player's page serves HTML under /play/ and /static/ and no JSON API route. Read both from
template.yaml (what API Gateway routes to each) and from each handler (what it answers when a
request of the other's reaches it): a 404 in its own kind, before anything is read."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NoReturn

import pytest

from local_stack.aws.lambda_adapter import FakeContext, load_handler
from local_stack.aws.template import template_routes

ROOT = Path(__file__).resolve().parents[2]
PAGE_PREFIXES = ("/play/", "/static/")
"""The page's paths, as the issue and README name them."""
MATCH = "m-0123456789ab"


def _routes_of(function: str) -> list[str]:
    return sorted(key for key, name in template_routes().items() if name == function)


def _read_nothing() -> NoReturn:
    raise AssertionError("a request no route takes reads nothing")


def _handler(folder: str) -> Any:
    return load_handler(ROOT / "functions" / folder, "app.handler", _read_nothing)


def _event(route_key: str) -> dict[str, Any]:
    """A request on the route's path, each `{name}` filled in (by hand: one segment each)."""
    method, _, template = route_key.partition(" ")
    path = re.sub(r"{\w+}", lambda found: MATCH if found[0] == "{match_id}" else "ada", template)
    return {"rawPath": path, "requestContext": {"http": {"method": method}}, "headers": {}, "body": ""}


def test_the_template_gives_the_page_its_paths_and_the_webhook_the_rest() -> None:
    page, webhook = _routes_of("PlayerPageFunction"), _routes_of("SubmitWebhookFunction")
    # The count: 14 routes, 8 of them the page (GET /play, its 5 POSTs, messages, assets),
    # and since then the page's move check (POST /play/{match_id}/check, item 2).
    # and the season's EC acts, POST /seasons/{season_id}/players/{player_id}/acts (issue 31, item 3).
    # and its season page, GET and POST /play/{match_id}/season (issue 31, item 3).
    assert (len(page), len(webhook)) == (11, 7)
    assert all(key.partition(" ")[2].startswith(PAGE_PREFIXES) for key in page), page
    assert not any(key.partition(" ")[2].startswith(PAGE_PREFIXES) for key in webhook), webhook


@pytest.mark.parametrize("route_key", _routes_of("PlayerPageFunction"))
def test_the_webhook_function_answers_no_page_route(route_key: str) -> None:
    reply = _handler("submit_webhook")(_event(route_key), FakeContext("SubmitWebhook"))

    body = json.loads(reply["body"])
    assert (reply["statusCode"], body["error"]) == (404, "NotFound"), body
    assert body["message"].startswith("nothing here answers"), body


@pytest.mark.parametrize("route_key", _routes_of("SubmitWebhookFunction"))
def test_the_page_function_answers_no_json_api_route(route_key: str) -> None:
    reply = _handler("player_page")(_event(route_key), FakeContext("PlayerPage"))

    assert reply["statusCode"] == 404
    assert reply["headers"]["Content-Type"].startswith("text/html")
    assert "nothing here answers" in reply["body"] and not reply["body"].lstrip().startswith("{")
