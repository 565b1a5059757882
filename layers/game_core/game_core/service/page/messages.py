"""The participant's messages page (press, issue 22 item 5): the form to write one, as the host
allows, and every message they may read.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from game_core.match.clock import day_text
from game_core.match.press import MAX_PRESS_CHARS, MODE_TEXT
from game_core.service.page.html import (
    attrs,
    document,
    esc,
    form_open,
    name_list,
    notice_line,
    own_zone,
    page_header,
    refresh,
    refusal_reasons,
    submit_button,
)
from game_core.service.page.play import (
    EVERYONE_FIELD,
    PRESS_FORM,
    TEXT_FIELD,
    TO_FIELD,
    Signed,
    Talk,
    delivery_key,
    names,
)


def messages_page(talk: Talk) -> str:
    """The participant's messages page: the form to write one (as the host allows), the answer to
    the one just sent, and every message they may read (sent by them, to them, to everyone),
    newest first."""
    match = talk.match
    named = names(match)
    me = talk.session.participant
    zone = own_zone(talk)
    items = []
    for message in talk.messages:
        to = message["to"]
        whom = "everyone" if to == "all" else name_list(named, to)
        when = esc(day_text(datetime.fromisoformat(message["at"]), zone))
        said = attrs(id=f"message-{message['id']}", class_="sent" if message["from"] == me else None)
        items.append(
            f"<li{said}><p><strong>{esc(named.get(message['from'], message['from']))}</strong> to {whom}, "
            f"{when}:</p>\n<pre>{esc(message['text'])}</pre></li>"
        )
    listed = f'<ol id="messages">\n{"".join(items)}\n</ol>' if items else '<p id="messages">No messages yet.</p>'
    body = "\n".join(
        [
            page_header(talk, named),
            notice_line(talk.answer),
            _press_form(talk, named),
            '<section id="inbox" aria-labelledby="inbox-h">\n<h2 id="inbox-h">Your messages</h2>\n'
            f"{listed}\n</section>",
        ]
    )
    return document(f"Messages: {match.match_id}: {named.get(me, me)}", f"<main{refresh(talk)}>\n{body}\n</main>")


def _press_form(seen: Signed, names: Mapping[str, str]) -> str:
    match = seen.match
    head = '<section id="write" aria-labelledby="write-h">\n<h2 id="write-h">Write a message</h2>\n'
    if match.status != "running":
        return f'{head}<p id="press-off">Messages go only while the match runs.</p>\n</section>'
    if match.press == "off":
        return f'{head}<p id="press-off">The host has turned messages between players off.</p>\n</section>'
    refused = seen.refused_fields(PRESS_FORM)
    rate = f"; at most {match.press_per_hour} an hour each"
    parts = [head + f'<p id="press-mode">{esc(MODE_TEXT[match.press].capitalize())}{esc(rate)}.</p>\n']
    parts.append(form_open(seen, PRESS_FORM, "press", {"delivery": delivery_key()}) + refusal_reasons(seen, PRESS_FORM))
    if match.press == "public":
        parts.append(f'<input type="hidden" name="{EVERYONE_FIELD}" value="true">\n<p>To everyone.</p>\n')
    else:
        ticks = [(f"{PRESS_FORM}-everyone", EVERYONE_FIELD, "Everyone (the whole table reads it)")]
        ticks += [
            (f"{PRESS_FORM}-to-{p.id}", f"{TO_FIELD}{p.id}", names.get(p.id, p.id))
            for p in match.players
            if p.id != seen.session.participant
        ]
        boxes = "".join(
            '<div class="field check"><input type="checkbox" value="true"'
            f'{attrs(id=box, name=name, checked=name in refused)}><label for="{esc(box)}">{esc(label)}</label></div>\n'
            for box, name, label in ticks
        )
        parts.append(f"<fieldset>\n<legend>To (tick one or several, or everyone)</legend>\n{boxes}</fieldset>\n")
    text = attrs(id=f"{PRESS_FORM}-text", name=TEXT_FIELD, required=True, maxlength=MAX_PRESS_CHARS)
    parts.append(
        f'<div class="field"><label for="{PRESS_FORM}-text">Your message</label>\n'
        f'<textarea rows="5"{text}>{esc(refused.get(TEXT_FIELD, ""))}</textarea>\n</div>\n'
    )
    parts.append(submit_button("Send the message") + "</form>\n</section>")
    return "".join(parts)
