"""Messages between players on the page (issue 22 item 5), on the fakes: the messages page's form
sends through `press.send` under the form's delivery key (sent twice, told once), to one,
several or everyone as ticked; the form as the host's setting allows it; each refusal's reasons
in the form, with what was written kept; each participant's messages page lists what they may
read, newest first."""

from __future__ import annotations

from html import escape

import pytest
from talk_table import Talk

SECRET_TALK = "Meet me at crate 3?\nI push it left, you push it up."


def told(table: Talk) -> list:
    """The notices of messages (not the match's own)."""
    return [notice for notice in table.fakes.notifier.notices() if "message" in notice.body]


def test_a_message_to_bo_from_adas_page_reaches_bo_once_and_both_pages_list_it() -> None:
    table = Talk.open()
    form = table.form("ada", **{"f.to.bo": "true", "f.text": SECRET_TALK})
    seen, sent = table.press("ada", form)
    assert seen.refusal is None
    assert table.press("ada", form)[0].refusal is None  # the browser's resend (a reload): nothing again
    [logged] = table.logged("press")
    assert sent == logged["id"]  # what the redirect carries: the message's id, not the form's key
    assert (logged["from"], logged["to"], logged["text"], logged["channel"]) == ("ada", ["bo"], SECRET_TALK, "page")
    assert [notice.recipient for notice in told(table)] == ["bo"]  # Bo alone, once

    # The page the redirect shows Ada: the service's answer, naming Bo by name, and her message.
    ada = table.messages_page("ada", sent)
    assert '<p id="notice" role="status">Your message went to Bo Baggins.</p>' in ada
    # Sent at 12:00 UTC on Tuesday 1 December: 13:00 in Paris, Ada's zone; UTC for Bo.
    line = "<p><strong>Ada Lovelace</strong> to Bo Baggins, {}:</p>\n<pre>{}</pre>"
    assert line.format("Tuesday 1 December, 13:00 (Europe/Paris) - 12:00 UTC", escape(SECRET_TALK)) in ada
    assert f'<li id="message-{logged["id"]}" class="sent">' in ada
    bo = table.messages_page("bo")
    assert line.format("Tuesday 1 December, 12:00 UTC", escape(SECRET_TALK)) in bo
    assert f'<li id="message-{logged["id"]}">' in bo and 'id="notice"' not in bo
    # Bo's page with Ada's message id shows no answer: it is said to its sender alone.
    assert 'id="notice"' not in table.messages_page("bo", sent)


def test_to_several_and_to_everyone_as_ticked_newest_first() -> None:
    table = Talk.open()
    table.press("bo", table.form("bo", **{"f.to.ada": "true", "f.to.cy": "true", "f.text": "Truce?"}))
    table.fakes.clock.advance(60)
    table.press("cy", table.form("cy", **{"f.everyone": "true", "f.to.bo": "true", "f.text": "Good luck, all."}))
    # Everyone ticked wins over a name: a public message.
    assert [(m["from"], m["to"]) for m in table.logged("press")] == [("bo", ["ada", "cy"]), ("cy", "all")]
    page = table.messages_page("ada")
    everyone = page.index("<strong>Cy Twombly</strong> to everyone, Tuesday 1 December, 13:01")
    several = page.index("<strong>Bo Baggins</strong> to Ada Lovelace, Cy Twombly, Tuesday 1 December, 13:00")
    assert everyone < several  # the newest first


@pytest.mark.parametrize(
    ("settings", "fields", "code", "said"),
    [
        ({}, {"f.text": "Hello?"}, "press_to_nobody", "tick whom the message goes to, or everyone"),
        ({}, {"f.to.bo": "true", "f.text": "  \n"}, "press_empty", "the message has no text"),
        ({}, {"f.to.zed": "true", "f.text": "Hi"}, "not_found", "'zed' is not a participant"),
        (
            {},
            {"f.to.bo": "true", "f.text": "x" * 2001},
            "press_too_long",
            "the message is 2001 characters; at most 2000",
        ),
        ({"press": "public"}, {"f.to.bo": "true", "f.text": "Hi"}, "press_public_only", "to everyone only"),
        ({"press": "off"}, {"f.everyone": "true", "f.text": "Hi"}, "press_off", "turned messages between players off"),
    ],
)
def test_a_refused_message_shows_why_in_the_form_keeping_what_was_written(
    settings: dict, fields: dict[str, str], code: str, said: str
) -> None:
    table = Talk.open(**settings)
    seen, sent = table.press("ada", table.form("ada", **fields))
    assert sent is None and seen.refusal is not None and seen.refusal.form == "press"
    reasons = [(reason.code, reason.text) for reason in seen.refusal.error.reasons]
    assert any(found == code and said in text for found, text in reasons), reasons
    assert table.logged("press") == [] and told(table) == []


def test_the_refusal_is_shown_in_the_form_with_the_text_and_ticks_kept() -> None:
    from game_core.service.page import messages, play

    table = Talk.open(press_per_hour=1)
    table.press("ada", table.form("ada", **{"f.to.bo": "true", "f.text": "One."}))
    table.fakes.clock.advance(600)
    seen, _ = table.press("ada", table.form("ada", **{"f.to.cy": "true", "f.text": "Two & more"}))
    page = messages.messages_page(play.refused_message(table.ports, seen))
    # One an hour: the first went at 12:00, so the next may go at 13:00 UTC, 14:00 in Paris, 50 min on.
    assert '<li data-code="press_rate">you have sent 1 messages in the last hour' in page
    assert "the next may go Tuesday 1 December, 14:00 (Europe/Paris) - 13:00 UTC, in 50 minutes" in page
    form = page.split('<form id="press"')[1].split("</form>")[0]
    assert 'id="reasons" role="alert"' in form and ">Two &amp; more</textarea>" in form
    assert 'id="press-to-cy" name="f.to.cy" checked>' in form and 'id="press-to-bo" name="f.to.bo">' in form
    assert "data-refresh" not in page  # a refused POST's answer: reloading it would send it again


@pytest.mark.parametrize(
    ("press", "offered", "absent"),
    [
        (
            "on",
            ['id="press-everyone"', 'id="press-to-bo"', 'id="press-to-cy"', 'id="press-text"'],
            ['id="press-to-ada"'],
        ),
        ("public", ['name="f.everyone" value="true"', "<p>To everyone.</p>", 'id="press-text"'], ['id="press-to-bo"']),
        ("off", ['<p id="press-off">The host has turned messages between players off.</p>'], ['<form id="press"']),
    ],
)
def test_the_form_offers_what_the_hosts_setting_allows(press: str, offered: list[str], absent: list[str]) -> None:
    page = Talk.open(press=press).messages_page("ada")
    assert all(one in page for one in offered) and not any(one in page for one in absent)
    assert '<p id="messages">No messages yet.</p>' in page and '<main data-refresh="60">' in page


def test_the_page_itself_links_the_messages_and_reads_no_log() -> None:
    table = Talk.open()
    table.press("ada", table.form("ada", **{"f.to.bo": "true", "f.text": SECRET_TALK}))
    reads = []
    events = table.fakes.store.events
    table.fakes.store.events = lambda match_id: reads.append(match_id) or events(match_id)  # type: ignore[method-assign]
    page = table.page("bo")
    assert reads == [] and "crate 3" not in page  # the messages are on their own page, read when asked
    assert f'<a id="messages-link" href="/play/{table.match_id}/messages">Messages between players</a>' in page
