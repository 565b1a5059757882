"""What one view of the player's messages page costs in AWS calls, counted on the local stack
through the real webhook function: one Query of the match's sort keys from EVENT# to META (its
log, its webhooks' items, its header), the answer to a message just sent said again from its
sender's entry in that log; and what the same read must never show (another's private message,
a webhook's URL or signing secret)."""

from __future__ import annotations

import re
from collections import Counter

from benchmarks.page import page_call, sign_in
from game_core.aws.store.items import match_pk
from game_core.aws.store.table import Table
from local_stack.aws.metering import Meter

MESSAGES, PRESS = "/play/{match_id}/messages", "/play/{match_id}/press"
SAID = "Crate 3: I push left, you push up?"
HOOK = {"url": "https://hooks.example/p2-private", "secret": "whsec_c2VjcmV0LW9mLXAy"}


def hidden(body: str, form_id: str) -> dict[str, str]:
    """A form's hidden fields as the page rendered them."""
    form = body.split(f'<form id="{form_id}"')[1].split("</form>")[0]
    return dict(re.findall(r'<input type="hidden" name="([\w.]+)" value="([^"]*)">', form))


def test_a_view_of_the_messages_page_is_one_query_and_shows_a_message_to_its_party_only(stack, crates_match) -> None:
    match = crates_match(3)
    path = f"/play/{match.match_id}/messages"
    cookies = {p: sign_in(stack, match.match_id, match.secrets[p])[0] for p in ("p1", "p2", "p3")}
    form = hidden(page_call(stack, "GET", MESSAGES, path, cookie=cookies["p1"])["body"], "press")
    form |= {"f.to.p2": "true", "f.text": SAID}
    sent = page_call(stack, "POST", PRESS, f"/play/{match.match_id}/press", cookie=cookies["p1"], form=form)
    [logged] = [event["data"] for event in match.export()["events"] if event["type"] == "press"]
    # The redirect carries the message's id (what the log keys its answer by), not the form's key
    location = f"{path}?message={logged['id']}"
    assert (sent["statusCode"], sent["headers"]["Location"]) == (303, location)
    # p2's webhook subscription, in the range the page reads (HOOK# sorts between EVENT# and META)
    Table(stack.client("dynamodb"), "matches").put({"pk": match_pk(match.match_id), "sk": "HOOK#p2"} | HOOK)
    stack.settle()

    meter = Meter(stack, this_thread=True)
    views = {p: page_call(stack, "GET", MESSAGES, location, cookie=cookie)["body"] for p, cookie in cookies.items()}
    # Three views, each one Query: the match's log (a handful of small events), one HOOK# item and
    # its header are far under the 1 MB a Query page reads, so no second page; nothing else is read
    # (before: a BatchGetItem of six items, then a Query of the log, per view)
    assert meter.reset() == Counter({("dynamodb", "Query"): 3})

    # p1, who sent it: the answer, naming p2 (p2 has no name: its id), and the message as theirs
    assert '<p id="notice" role="status">Your message went to p2.</p>' in views["p1"]
    assert f'<li id="message-{logged["id"]}" class="sent">' in views["p1"] and SAID in views["p1"]
    # p2, to whom it went: the message, but no answer (the id in the address is p1's message)
    assert f'<li id="message-{logged["id"]}">' in views["p2"] and 'id="notice"' not in views["p2"]
    # p3: nothing of it, not even with its id in the address
    assert SAID not in views["p3"] and logged["id"] not in views["p3"] and 'id="notice"' not in views["p3"]
    assert '<p id="messages">No messages yet.</p>' in views["p3"]
    for body in views.values():
        assert HOOK["url"] not in body and HOOK["secret"] not in body
