"""What every page's HTML is built from: `esc` (every value written into the HTML goes through it,
text and attributes alike), attributes, the document around a page, the header above it, and a
form's frame (its hidden fields, the service's reasons at its top, its button).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape

from game_core.errors import Reason, in_words
from game_core.service.page import assets
from game_core.service.page.play import (
    Signed,
)

REFRESH_SECONDS = 60
"""How often an open page reloads itself while its tab is visible (and a few seconds after its
countdown reaches zero): one page view a minute, never while hidden or while a form is written in."""


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def attrs(**attributes: object) -> str:
    """` name="value"` for each attribute given (True: present without a value; None, False: absent);
    a trailing underscore is dropped (`for_`), other underscores become dashes (`data_now`)."""
    said = []
    for name, value in attributes.items():
        name = name.rstrip("_").replace("_", "-")
        if value is True:
            said.append(f" {name}")
        elif value is not None and value is not False:
            said.append(f' {name}="{esc(value)}"')
    return "".join(said)


def document(title: str, body: str, game_id: str | None = None) -> str:
    scripts = "".join(f'<script src="{assets.url(name)}" defer></script>\n' for name in assets.scripts(game_id))
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n"
        '<link rel="icon" href="data:,">\n'  # no icon: else the browser asks for /favicon.ico, a 404 in its console
        f'<link rel="stylesheet" href="{assets.url("page.css")}">\n{scripts}</head>\n<body>\n{body}\n</body>\n</html>\n'
    )


def name_list(names: Mapping[str, str], who: Iterable[str]) -> str:
    return ", ".join(esc(names.get(one, one)) for one in who)


def refresh(seen: Signed) -> str:
    """`data-refresh`: the seconds between the script's reloads of a page read by a GET (never of
    a refused form's answer to a POST, which a reload would send again)."""
    return "" if seen.refusal is not None else attrs(data_refresh=REFRESH_SECONDS)


def page_header(seen: Signed, names: Mapping[str, str]) -> str:
    me = seen.session.participant
    match_id = seen.match.match_id
    return (
        f'<header>\n<h1 id="game">{esc(seen.game.title)}</h1>\n'
        f'<p>Match <span id="match-id">{esc(match_id)}</span>; you play as '
        f'<strong id="you">{esc(names.get(me, me))}</strong>.</p>\n'
        + f'<nav><a id="page-link" href="/play/{esc(match_id)}">Your page</a> '
        f'<a id="messages-link" href="/play/{esc(match_id)}/messages">Messages between players</a>'
        + (f' <a id="season-link" href="/play/{esc(match_id)}/season">The season</a>' if seen.match.season_id else "")
        + "</nav>\n"
        + form_open(seen, "sign-out", "session", {"sign_out": "1"})
        + '<button type="submit" class="quiet">Sign out</button>\n</form>\n</header>'
    )


def own_zone(seen: Signed) -> str | None:
    """The participant's own zone (ZONE by mail, or the settings file's): the deadline there, UTC beside."""
    participant = seen.match.participant(seen.session.participant)
    return participant.zone if participant is not None else None


def notice_line(notice: str) -> str:
    return f'<p id="notice" role="status">{esc(notice)}</p>' if notice else ""


def form_open(seen: Signed, form_id: str, route: str, fields: Mapping[str, str]) -> str:
    match_id = seen.match.match_id
    hidden = {"csrf": seen.session.csrf, **fields}
    inputs = "".join(f'<input type="hidden"{attrs(name=name, value=value)}>' for name, value in hidden.items())
    return f'<form id="{esc(form_id)}" method="post" action="/play/{esc(match_id)}/{route}">\n{inputs}\n'


def submit_button(text: str) -> str:
    return f'<button type="submit">{esc(text)}</button>\n'


def refusal_reasons(seen: Signed, form_id: str) -> str:
    """The service's reasons for refusing what this form sent, at its top (read first by a screen
    reader: role alert), each with its stable code."""
    refusal = seen.refused(form_id)
    if refusal is None:
        return ""
    reasons = refusal.error.reasons or [Reason(refusal.error.code, str(refusal.error))]
    items = "".join(f"<li{attrs(data_code=reason.code)}>{esc(in_words(reason.text))}</li>" for reason in reasons)
    return f'<div id="reasons" role="alert">\n<p>{esc(refusal.error)}</p>\n<ul>{items}</ul>\n</div>\n'
