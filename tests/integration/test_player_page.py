"""The player's page through the real webhook function on the local stack, as API Gateway (HTTP
API, payload 2.0) hands it requests (`benchmarks.page.page_call`): the secret exchanged for a
cookie, the page and its headers, a move sent by its form (redirect after POST), a POST from
another site refused, the assets; and what one page view costs in AWS calls: the same as the GET
of one's standing (one read)."""

from __future__ import annotations

import json
import logging
import re
from collections import Counter

import pytest
from conftest import Capture

from benchmarks.page import page_call, sign_in, view_calls

READ = ("dynamodb", "BatchGetItem")
ORDER = [2, 1, 1, 0, -1, -1]


def move_form(body: str) -> dict[str, str]:
    """The multipliers form of a page as a browser posts it, filled in with ORDER."""
    form = body.split('id="move-multipliers"')[1].split("</form>")[0]
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))
    return hidden | {f"f.multipliers.{i}": str(v) for i, v in enumerate(ORDER)}


def test_a_player_signs_in_sees_the_page_and_sends_a_move_through_its_form(stack, crates_match) -> None:
    match = crates_match(2)
    page_route, path = "/play/{match_id}", f"/play/{match.match_id}"
    # Without a session: the sign-in form.
    first = page_call(stack, "GET", page_route, path)
    assert first["statusCode"] == 200 and 'id="sign-in"' in first["body"]

    cookie, set_cookie = sign_in(stack, match.match_id, match.secrets["p1"])
    attributes = {part.strip() for part in set_cookie.split(";")[1:]}
    assert {"HttpOnly", "SameSite=Strict", "Secure", f"Path=/play/{match.match_id}"} <= attributes
    assert match.secrets["p1"] not in set_cookie

    page = page_call(stack, "GET", page_route, path, cookie=cookie)
    headers = page["headers"]
    assert page["statusCode"] == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    csp = headers["Content-Security-Policy"]
    assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert (headers["X-Content-Type-Options"], headers["Referrer-Policy"]) == ("nosniff", "no-referrer")
    body = page["body"]
    assert '<h2 id="phase-name">Pregame</h2>' in body and '<p id="owes">Waiting for: p1, p2.</p>' in body
    assert "<script>" not in body and " style=" not in body and "<style" not in body

    fields = move_form(body)
    sent = page_call(stack, "POST", "/play/{match_id}/move", f"{path}/move", cookie=cookie, form=fields)
    assert (sent["statusCode"], sent["headers"]["Location"]) == (303, f"{path}?sent=multipliers")
    after = page_call(stack, "GET", page_route, f"{path}?sent=multipliers", cookie=cookie)["body"]
    assert '<p id="owes">Waiting for: p2.</p>' in after and 'id="notice"' in after
    assert match.status()["open"]["waiting_for"] == ["p2"]

    # The browser sends the same POST again (a reload): the first reply, nothing stored again.
    again = page_call(stack, "POST", "/play/{match_id}/move", f"{path}/move", cookie=cookie, form=fields)
    assert again["statusCode"] == 303
    accepted = [e for e in match.export()["events"] if e["type"] == "submission_accepted"]
    assert [(e["data"]["player"], e["data"]["channel"]) for e in accepted] == [("p1", "page")]


def test_a_form_posted_from_another_site_is_refused(stack, crates_match) -> None:
    match = crates_match(2)
    cookie, _ = sign_in(stack, match.match_id, match.secrets["p1"])
    path = f"/play/{match.match_id}"
    fields = move_form(page_call(stack, "GET", "/play/{match_id}", path, cookie=cookie)["body"])
    # A form of the page itself, sent with Referrer-Policy no-referrer, says `Origin: null`: taken.
    for foreign in ({"origin": "https://evil.example"}, {"sec-fetch-site": "cross-site", "origin": "null"}):
        reply = page_call(
            stack, "POST", "/play/{match_id}/move", f"{path}/move", cookie=cookie, form=fields, headers=foreign
        )
        assert reply["statusCode"] == 401 and "this site&#x27;s own pages only" in reply["body"]
    assert match.status()["open"]["waiting_for"] == ["p1", "p2"]
    own = {"origin": "null", "sec-fetch-site": "same-origin"}
    reply = page_call(stack, "POST", "/play/{match_id}/move", f"{path}/move", cookie=cookie, form=fields, headers=own)
    assert reply["statusCode"] == 303 and match.status()["open"]["waiting_for"] == ["p2"]


def test_a_page_view_costs_what_the_get_of_ones_standing_costs(stack, crates_match) -> None:
    match = crates_match(2)
    cookie, _ = sign_in(stack, match.match_id, match.secrets["p1"])
    page, standing = view_calls(stack, match.match_id, "p1", match.secrets["p1"], cookie)
    assert page == standing == Counter({READ: 1})


def test_the_assets_are_served_by_the_service_and_nothing_else_is(stack) -> None:
    css = page_call(stack, "GET", "/static/{asset}", "/static/page.css")
    js = page_call(stack, "GET", "/static/{asset}", "/static/page.js")
    assert (css["statusCode"], css["headers"]["Content-Type"]) == (200, "text/css; charset=utf-8")
    assert (js["statusCode"], js["headers"]["Content-Type"]) == (200, "text/javascript; charset=utf-8")
    assert "#countdown-left" in css["body"] and "countdown" in js["body"]
    for name in ("app.py", "..%2Fsession.py", "page.html"):
        assert page_call(stack, "GET", "/static/{asset}", f"/static/{name}")["statusCode"] == 404


@pytest.mark.log_level("INFO")  # what template.yaml deploys
def test_the_logs_carry_no_secret_cookie_or_move_from_the_page(stack, crates_match, capfd) -> None:
    capture = Capture()
    root = logging.getLogger()
    root.addHandler(capture)
    try:
        match = crates_match(2)
        cookie, set_cookie = sign_in(stack, match.match_id, match.secrets["p1"])
        path = f"/play/{match.match_id}"
        refused = move_form(page_call(stack, "GET", "/play/{match_id}", path, cookie=cookie)["body"])
        refused["f.multipliers.0"] = "-7"  # not one of the six values: refused with reasons
        assert page_call(stack, "POST", "/play/{match_id}/move", f"{path}/move", cookie=cookie, form=refused)[
            "statusCode"
        ] in (400, 422)
        fields = move_form(page_call(stack, "GET", "/play/{match_id}", path, cookie=cookie)["body"])
        assert (
            page_call(stack, "POST", "/play/{match_id}/move", f"{path}/move", cookie=cookie, form=fields)["statusCode"]
            == 303
        )
    finally:
        root.removeHandler(capture)
    out, err = capfd.readouterr()
    logged = "\n".join([out, err, *capture.lines])
    assert "page sent" in logged and "page move refused" in logged  # the capture saw the page's lines
    session = cookie.split("=", 1)[1]
    for secret in (match.secrets["p1"], session, session.rsplit(".", 1)[1], fields["csrf"]):
        assert secret not in logged
    assert json.dumps(ORDER) not in logged and json.dumps([-7, *ORDER[1:]]) not in logged
