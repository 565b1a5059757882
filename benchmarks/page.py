"""The player's page (issue 21): its size per game and what one view of it costs in AWS calls.

Each game's match (its demo's players, 24-hour phases) is played by the bots on the local stack;
after every announcement each participant's page is fetched through the webhook function as API
Gateway hands it over, and the largest is reported with the style sheet and script it loads
(goal: under 100 KB uncompressed). One view's AWS calls are counted beside the GET of one's
standing (goal: the same).
"""

from __future__ import annotations

import re
import typing
from collections import Counter
from typing import Any
from urllib.parse import urlencode

from benchmarks.costs import bench_request
from game_core.games import registry
from game_core.service.page import assets
from local_stack.aws.api_events import api_gateway_event
from local_stack.aws.clock import VirtualClock
from local_stack.aws.metering import Meter
from local_stack.aws.stack import LocalStack
from local_stack.bots.runner import run_match

GOAL_BYTES = 100 * 1024
HOST = "play.example"


def page_call(
    stack: Any,
    method: str,
    route: str,
    path: str,
    *,
    cookie: str = "",
    form: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A request to the page's routes (`route` as the template has it) through the webhook
    function, as API Gateway hands it over from a browser on https://play.example; a form is
    posted urlencoded from the page's own origin."""
    sent = {"host": HOST, "x-forwarded-proto": "https"} | ({"cookie": cookie} if cookie else {})
    if form is not None:
        sent |= {"content-type": "application/x-www-form-urlencoded", "origin": f"https://{HOST}"}
    path_only, _, query = path.partition("?")
    parameters = dict(zip(re.findall(r"{(\w+)}", route), path_only.strip("/").split("/")[1:], strict=False))
    event = api_gateway_event(
        f"{method} {route}",
        path_only,
        parameters,
        headers=sent | (headers or {}),
        body=urlencode(form) if form is not None else None,
        request_id="page",
        query=query,
    )
    reply: dict[str, Any] = stack.invoke("PlayerPageFunction", event)
    return reply


def sign_in(stack: Any, match_id: str, secret: str) -> tuple[str, str]:
    """The sign-in form posted: (the Cookie header a browser sends back, the Set-Cookie)."""
    reply = page_call(stack, "POST", "/play/{match_id}/session", f"/play/{match_id}/session", form={"secret": secret})
    assert (reply["statusCode"], reply["headers"]["Location"]) == (303, f"/play/{match_id}"), reply
    set_cookie: str = reply["headers"]["Set-Cookie"]
    return set_cookie.split(";", 1)[0], set_cookie


def view_calls(stack: Any, match_id: str, participant: str, secret: str, cookie: str) -> tuple[Counter, Counter]:
    """The AWS calls of one page view and of one GET of the participant's standing."""
    stack.settle()
    meter = Meter(stack, this_thread=True)
    assert page_call(stack, "GET", "/play/{match_id}", f"/play/{match_id}", cookie=cookie)["statusCode"] == 200
    page = meter.reset()
    standing = api_gateway_event(
        "GET /matches/{match_id}/players/{player_id}",
        f"/matches/{match_id}/players/{participant}",
        {"match_id": match_id, "player_id": participant},
        headers={"authorization": f"Bearer {secret}"},
        body=None,
        request_id="standing",
    )
    assert stack.invoke("SubmitWebhookFunction", standing)["statusCode"] == 200
    return page, meter.reset()


def measure(game_id: str) -> tuple[int, Counter, Counter]:
    """(the largest page's HTML bytes, one view's calls, one standing's calls) over a bot match."""
    game = registry.load(game_id)
    rule_set = typing.get_args(game.Settings.model_fields["rule_set"].annotation)[0]
    largest = 0
    cookies: dict[str, str] = {}
    calls: list[tuple[Counter, Counter]] = []
    with LocalStack(games=(game_id,), clock=VirtualClock()) as stack:

        def observe(kind: str, data: dict[str, Any]) -> None:
            nonlocal largest
            if kind == "created":
                secrets = data["secrets"]
                cookies.update({p: sign_in(stack, data["match_id"], secret)[0] for p, secret in secrets.items()})
                first = next(iter(secrets))
                calls.append(view_calls(stack, data["match_id"], first, secrets[first], cookies[first]))
            elif kind == "announcement":
                for cookie in cookies.values():
                    path = f"/play/{data['match_id']}"
                    body = page_call(stack, "GET", "/play/{match_id}", path, cookie=cookie)["body"]
                    largest = max(largest, len(body.encode()))

        run_match(stack, bench_request(game_id, rule_set, game.demo.players), observe)
    return largest, *calls[0]


def report() -> None:
    loaded = sum(len(found[0]) for name in assets.TYPES if (found := assets.asset(name)) is not None)
    print(f"player's page: largest HTML over a bot match + {loaded:,} B of CSS and JS (goal < {GOAL_BYTES:,} B)")
    for game_id in registry.AVAILABLE:
        html, page, standing = measure(game_id)
        said = ", ".join(f"{count} {name}" for (_, name), count in sorted(page.items()))
        verdict = "the same as" if page == standing else "NOT the same as"
        print(
            f"    {game_id:11} {html:7,} + {loaded:,} = {html + loaded:7,} B; a view: {said}, {verdict} the standing's"
        )


if __name__ == "__main__":
    report()
