"""The player's page through the real webhook function on the local stack, as API Gateway (HTTP
API, payload 2.0) hands it requests (`benchmarks.page.page_call`), in one match (one local-stack
test for the piece): the secret exchanged for a cookie (a base64 form too), the page and its
headers, a refused and an accepted move by its form (redirect after POST), the same POST again,
POSTs from another site, signing out, a table that does not answer, the assets, what one page
view costs in AWS calls (the same as the GET of one's standing: one read), and logs that hold no
secret, cookie or move."""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from urllib.parse import urlencode

import pytest
from conftest import Capture

from benchmarks.page import HOST, page_call, sign_in, view_calls
from game_core.aws.store import DynamoMatchStore, StoreUnavailable
from local_stack.aws.api_events import api_gateway_event

READ = ("dynamodb", "BatchGetItem")
ORDER = [2, 1, 1, 0, -1, -1]
PAGE, MOVE = "/play/{match_id}", "/play/{match_id}/move"


def move_form(body: str, order: list[int]) -> dict[str, str]:
    """The multipliers form of a page as a browser posts it, filled in with `order`."""
    form = body.split('id="move-multipliers"')[1].split("</form>")[0]
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))
    return hidden | {f"f.multipliers.{i}": str(v) for i, v in enumerate(order)}


@pytest.mark.log_level("INFO")  # what template.yaml deploys
def test_a_player_signs_in_sees_the_page_and_sends_moves_through_its_forms(
    stack, crates_match, capfd, monkeypatch
) -> None:
    capture = Capture()
    logging.getLogger().addHandler(capture)
    try:
        match = crates_match(2)
        path = f"/play/{match.match_id}"
        # Without a session: the sign-in form.
        first = page_call(stack, "GET", PAGE, path)
        assert first["statusCode"] == 200 and 'id="sign-in"' in first["body"]

        cookie, set_cookie = sign_in(stack, match.match_id, match.secrets["p1"])
        attributes = {part.strip() for part in set_cookie.split(";")[1:]}
        assert {"HttpOnly", "SameSite=Strict", "Secure", f"Path={path}"} <= attributes
        assert match.secrets["p1"] not in set_cookie

        page = page_call(stack, "GET", PAGE, path, cookie=cookie)
        headers = page["headers"]
        assert page["statusCode"] == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
        csp = headers["Content-Security-Policy"]
        assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
        assert (headers["X-Content-Type-Options"], headers["Referrer-Policy"]) == ("nosniff", "no-referrer")
        body = page["body"]
        assert '<h2 id="phase-name">Pregame</h2>' in body and '<p id="owes">Waiting for: p1, p2.</p>' in body

        # -7 is not one of the six values (the model refuses it: 400): the page again, with the reasons.
        refused = page_call(stack, "POST", MOVE, f"{path}/move", cookie=cookie, form=move_form(body, [-7, *ORDER[1:]]))
        assert refused["statusCode"] == 400 and '<div id="reasons" role="alert">' in refused["body"]

        fields = move_form(refused["body"], ORDER)
        # From another site (Origin, or Sec-Fetch-Site): refused, whatever the form carries.
        for foreign in ({"origin": "https://evil.example"}, {"sec-fetch-site": "cross-site", "origin": "null"}):
            reply = page_call(stack, "POST", MOVE, f"{path}/move", cookie=cookie, form=fields, headers=foreign)
            assert reply["statusCode"] == 401 and "this site&#x27;s own pages only" in reply["body"]
        assert match.status()["open"]["waiting_for"] == ["p1", "p2"]

        # The page's own form says Origin: null (Referrer-Policy no-referrer): taken, then redirected.
        own = {"origin": "null", "sec-fetch-site": "same-origin"}
        sent = page_call(stack, "POST", MOVE, f"{path}/move", cookie=cookie, form=fields, headers=own)
        assert (sent["statusCode"], sent["headers"]["Location"]) == (303, f"{path}?sent=multipliers")
        after = page_call(stack, "GET", PAGE, f"{path}?sent=multipliers", cookie=cookie)["body"]
        assert '<p id="owes">Waiting for: p2.</p>' in after and 'id="notice"' in after
        # One sentence for every kind, plural or singular ("Your multipliers is in" read wrong)
        assert "Your multipliers submission is in; sending it again replaces it." in after
        # The browser sends the same POST again (a reload): the first reply, nothing stored again.
        assert page_call(stack, "POST", MOVE, f"{path}/move", cookie=cookie, form=fields)["statusCode"] == 303
        accepted = [e for e in match.export()["events"] if e["type"] == "submission_accepted"]
        assert [(e["data"]["player"], e["data"]["channel"]) for e in accepted] == [("p1", "page")]

        view, standing = view_calls(stack, match.match_id, "p1", match.secrets["p1"], cookie)
        assert view == standing == Counter({READ: 1})

        # API Gateway may hand a form over base64-encoded (isBase64Encoded): read the same.
        encoded = api_gateway_event(
            "POST /play/{match_id}/session",
            f"{path}/session",
            {"match_id": match.match_id},
            headers={"host": HOST, "content-type": "application/x-www-form-urlencoded"},
            body=urlencode({"secret": match.secrets["p2"]}).encode(),
            request_id="encoded",
        )
        assert encoded["isBase64Encoded"] is True
        reply = stack.invoke("PlayerPageFunction", encoded)
        assert reply["statusCode"] == 303 and reply["headers"]["Set-Cookie"].startswith(f"genius_{match.match_id}=p2.")

        # Signing out takes the page's own form (its token); the cookie is dropped, the page asks again.
        session_route = "/play/{match_id}/session"
        forged = page_call(stack, "POST", session_route, f"{path}/session", cookie=cookie, form={"sign_out": "1"})
        assert forged["statusCode"] == 401 and "Set-Cookie" not in forged["headers"]
        signed_out = page_call(
            stack,
            "POST",
            session_route,
            f"{path}/session",
            cookie=cookie,
            form={"sign_out": "1", "csrf": fields["csrf"]},
        )
        assert signed_out["statusCode"] == 303
        assert signed_out["headers"]["Set-Cookie"].startswith(f"genius_{match.match_id}=; Path={path}; Max-Age=0;")

        # A table that leaves the read unanswered: a page saying to try again (503, Retry-After).
        def unanswered(*_args, **_kwargs):
            raise StoreUnavailable([{"pk": {"S": f"MATCH#{match.match_id}"}, "sk": {"S": "META"}}])

        monkeypatch.setattr(DynamoMatchStore, "submission_view", unanswered)
        busy = page_call(stack, "GET", PAGE, path, cookie=cookie)
        monkeypatch.undo()
        assert (busy["statusCode"], busy["headers"]["Content-Type"]) == (503, "text/html; charset=utf-8")
        assert int(busy["headers"]["Retry-After"]) > 0 and "send the same request again" in busy["body"]

        css = page_call(stack, "GET", "/static/{asset}", "/static/page.css")
        js = page_call(stack, "GET", "/static/{asset}", "/static/page.js")
        assert (css["statusCode"], css["headers"]["Content-Type"]) == (200, "text/css; charset=utf-8")
        assert (js["statusCode"], js["headers"]["Content-Type"]) == (200, "text/javascript; charset=utf-8")
        for name in ("app.py", "..%2Fsession.py", "page.html"):
            assert page_call(stack, "GET", "/static/{asset}", f"/static/{name}")["statusCode"] == 404
    finally:
        logging.getLogger().removeHandler(capture)
    out, err = capfd.readouterr()
    logged = "\n".join([out, err, *capture.lines])
    assert "page sent" in logged and "page move refused" in logged  # the capture saw the page's lines
    session = cookie.split("=", 1)[1]
    for secret in (match.secrets["p1"], session, session.rsplit(".", 1)[1], fields["csrf"]):
        assert secret not in logged
    assert json.dumps(ORDER) not in logged and json.dumps([-7, *ORDER[1:]]) not in logged
