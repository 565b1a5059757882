"""The player's page through the real webhook function on the local stack, as API Gateway (HTTP
API, payload 2.0) hands it requests: the secret exchanged for a cookie, the page and its headers,
a move sent by its form (redirect after POST), the assets; and what one page view costs in AWS
calls: the same as the GET of one's standing (one read)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any
from urllib.parse import urlencode

from local_stack.metering import Meter
from local_stack.stack import api_gateway_event

READ = ("dynamodb", "BatchGetItem")


def call(
    stack: Any, method: str, route: str, path: str, *, cookie: str = "", form: dict[str, str] | None = None
) -> dict:
    headers = {"host": "play.example", "x-forwarded-proto": "https"}
    if cookie:
        headers["cookie"] = cookie
    if form is not None:
        headers |= {"content-type": "application/x-www-form-urlencoded", "origin": "https://play.example"}
    path_part, _, query = path.partition("?")
    parameters = dict(zip(re.findall(r"{(\w+)}", route), [p for p in path_part.split("/") if p][1:], strict=False))
    event = api_gateway_event(
        f"{method} {route}",
        path_part,
        parameters,
        headers=headers,
        body=urlencode(form) if form is not None else None,
        request_id="r-1",
        query=query,
    )
    reply: dict = stack.invoke("SubmitWebhookFunction", event)
    return reply


def signed_in(stack: Any, match: Any, player: str) -> tuple[str, str]:
    """Post the player's secret as the sign-in form does: (the Cookie header to send, Set-Cookie)."""
    reply = call(
        stack,
        "POST",
        "/play/{match_id}/session",
        f"/play/{match.match_id}/session",
        form={"secret": match.secrets[player]},
    )
    assert (reply["statusCode"], reply["headers"]["Location"]) == (303, f"/play/{match.match_id}")
    set_cookie = reply["headers"]["Set-Cookie"]
    return set_cookie.split(";", 1)[0], set_cookie


def test_a_player_signs_in_sees_the_page_and_sends_a_move_through_its_form(stack, crates_match) -> None:
    match = crates_match(2)
    page_route, path = "/play/{match_id}", f"/play/{match.match_id}"
    # Without a session: the sign-in form, and the secret nowhere in it.
    first = call(stack, "GET", page_route, path)
    assert first["statusCode"] == 200 and 'id="sign-in"' in first["body"]

    cookie, set_cookie = signed_in(stack, match, "p1")
    attributes = {part.strip() for part in set_cookie.split(";")[1:]}
    assert {"HttpOnly", "SameSite=Strict", "Secure", f"Path=/play/{match.match_id}"} <= attributes
    assert match.secrets["p1"] not in set_cookie

    page = call(stack, "GET", page_route, path, cookie=cookie)
    headers = page["headers"]
    assert page["statusCode"] == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    csp = headers["Content-Security-Policy"]
    assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert (headers["X-Content-Type-Options"], headers["Referrer-Policy"]) == ("nosniff", "no-referrer")
    body = page["body"]
    assert '<h2 id="phase-name">Pregame</h2>' in body and '<p id="owes">Waiting for: p1, p2.</p>' in body
    assert "<script>" not in body and " style=" not in body and "<style" not in body

    hidden = dict(
        re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', body.split('id="move-multipliers"')[1])
    )
    fields = hidden | {f"f.multipliers.{i}": str(v) for i, v in enumerate([2, 1, 1, 0, -1, -1])}
    sent = call(stack, "POST", "/play/{match_id}/move", f"{path}/move", cookie=cookie, form=fields)
    assert (sent["statusCode"], sent["headers"]["Location"]) == (303, f"{path}?sent=multipliers")
    after = call(stack, "GET", page_route, f"{path}?sent=multipliers", cookie=cookie)["body"]
    assert '<p id="owes">Waiting for: p2.</p>' in after and 'id="notice"' in after
    assert match.status()["open"]["waiting_for"] == ["p2"]

    # The browser sends the same POST again (a reload): the first reply, nothing stored again.
    again = call(stack, "POST", "/play/{match_id}/move", f"{path}/move", cookie=cookie, form=fields)
    assert again["statusCode"] == 303
    accepted = [e for e in match.export()["events"] if e["type"] == "submission_accepted"]
    assert [(e["data"]["player"], e["data"]["channel"]) for e in accepted] == [("p1", "page")]


def test_a_page_view_costs_what_the_get_of_ones_standing_costs(stack, crates_match) -> None:
    match = crates_match(2)
    cookie, _ = signed_in(stack, match, "p1")
    stack.settle()
    meter = Meter(stack, this_thread=True)
    assert call(stack, "GET", "/play/{match_id}", f"/play/{match.match_id}", cookie=cookie)["statusCode"] == 200
    page = meter.reset()
    standing = api_gateway_event(
        "GET /matches/{match_id}/players/{player_id}",
        f"/matches/{match.match_id}/players/p1",
        {"match_id": match.match_id, "player_id": "p1"},
        headers={"authorization": f"Bearer {match.secrets['p1']}"},
        body=None,
        request_id="r-2",
    )
    assert stack.invoke("SubmitWebhookFunction", standing)["statusCode"] == 200
    assert page == meter.reset() == Counter({READ: 1})


def test_a_form_posted_from_another_site_is_refused(stack, crates_match) -> None:
    match = crates_match(2)
    cookie, _ = signed_in(stack, match, "p1")
    path = f"/play/{match.match_id}"
    body = call(stack, "GET", "/play/{match_id}", path, cookie=cookie)["body"]
    hidden = dict(
        re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', body.split('id="move-multipliers"')[1])
    )
    fields = hidden | {f"f.multipliers.{i}": str(v) for i, v in enumerate([2, 1, 1, 0, -1, -1])}
    event = api_gateway_event(
        "POST /play/{match_id}/move",
        f"{path}/move",
        {"match_id": match.match_id},
        headers={"host": "play.example", "origin": "https://evil.example", "cookie": cookie},
        body=urlencode(fields),
        request_id="r-3",
    )
    reply = stack.invoke("SubmitWebhookFunction", event)
    assert reply["statusCode"] == 401 and "this site&#x27;s own pages only" in reply["body"]
    assert match.status()["open"]["waiting_for"] == ["p1", "p2"]


def test_the_assets_are_served_by_the_service_and_nothing_else_is(stack) -> None:
    css = call(stack, "GET", "/static/{asset}", "/static/page.css")
    js = call(stack, "GET", "/static/{asset}", "/static/page.js")
    assert (css["statusCode"], css["headers"]["Content-Type"]) == (200, "text/css; charset=utf-8")
    assert (js["statusCode"], js["headers"]["Content-Type"]) == (200, "text/javascript; charset=utf-8")
    assert "#countdown-left" in css["body"] and "countdown" in js["body"]
    for name in ("app.py", "..%2Fsession.py", "page.html"):
        assert call(stack, "GET", "/static/{asset}", f"/static/{name}")["statusCode"] == 404
