"""The page's routes for messages and absences through the page function's own handler (as
API Gateway hands it requests, `benchmarks.page.page_call`), served from the fakes: each form
posted, redirected, and the page after it saying what was done."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from talk_table import Talk

from benchmarks.page import page_call, sign_in
from local_stack.aws.lambda_adapter import FakeContext, load_handler

ROOT = Path(__file__).resolve().parents[3]


class Served:
    """The page function over the fakes, as `page_call` invokes a stack's."""

    def __init__(self, table: Talk) -> None:
        self.handler = load_handler(ROOT / "functions" / "player_page", "app.handler", lambda: table.ports)

    def invoke(self, name: str, event: dict[str, Any]) -> dict[str, Any]:
        reply: dict[str, Any] = self.handler(event, FakeContext(name))
        return reply


def hidden(body: str, form_id: str) -> dict[str, str]:
    """A form's hidden fields as the page rendered them."""
    form = body.split(f'<form id="{form_id}"')[1].split("</form>")[0]
    return dict(re.findall(r'<input type="hidden" name="([\w.]+)" value="([^"]*)">', form))


def test_an_absence_and_a_message_posted_through_the_routes_are_said_done_on_the_page_after() -> None:
    table = Talk.open()
    served, mid = Served(table), table.match_id
    cookie, _ = sign_in(served, mid, table.secrets["ada"])
    page = f"/play/{mid}"
    body = page_call(served, "GET", "/play/{match_id}", page, cookie=cookie)["body"]

    # Ada away on the 1st (Paris): the 13:00 deadline waits; the page after says so.
    form = hidden(body, "absence") | {"f.from": "2026-12-01"}
    sent = page_call(served, "POST", "/play/{match_id}/absence", f"{page}/absence", cookie=cookie, form=form)
    assert (sent["statusCode"], sent["headers"]["Location"]) == (303, f"{page}?absence-held")
    after = page_call(served, "GET", "/play/{match_id}", f"{page}?absence-held", cookie=cookie)["body"]
    assert '<p id="notice" role="status">Your absence is declared; the phase waits for you' in after

    # A refused one: the page again with its reasons (422: the rules refuse it), nothing stored.
    form = hidden(after, "absence") | {"f.from": "2026-12-05", "f.to": "2026-12-03"}
    refused = page_call(served, "POST", "/play/{match_id}/absence", f"{page}/absence", cookie=cookie, form=form)
    assert refused["statusCode"] == 422 and 'data-code="ends_before_it_begins"' in refused["body"]

    # A message to Bo from the messages page: redirected to it with the answer under the form's key.
    messages = page_call(served, "GET", "/play/{match_id}/messages", f"{page}/messages", cookie=cookie)["body"]
    form = hidden(messages, "press") | {"f.to.bo": "true", "f.text": "Truce?"}
    sent = page_call(served, "POST", "/play/{match_id}/press", f"{page}/press", cookie=cookie, form=form)
    [logged] = [event.data for event in table.fakes.store.events(mid) if event.type == "press"]
    location = f"{page}/messages?message={logged['id']}"  # the message's id: its answer is in the log
    assert (sent["statusCode"], sent["headers"]["Location"]) == (303, location)
    shown = page_call(served, "GET", "/play/{match_id}/messages", location, cookie=cookie)["body"]
    assert '<p id="notice" role="status">Your message went to Bo Baggins.</p>' in shown and "Truce?" in shown
