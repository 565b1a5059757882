"""The page's HTML: one participant's page, and the sign-in page. Every value written into the
HTML goes through `esc` (text and attributes alike); nothing is inline but the HTML itself (no
script, no style, no style attribute), so the Content-Security-Policy needs no `unsafe-inline`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from html import escape
from typing import Any

from game_core.errors import GameCoreError, Reason, in_words
from game_core.games.capabilities import AnswersInText
from game_core.match import absence
from game_core.match.clock import day_text, duration_text, iso
from game_core.match.engine import EPOCH, parse_submission
from game_core.match.grace import graces_count
from game_core.match.press import MAX_PRESS_CHARS, MODE_TEXT
from game_core.service.matches.ready import READY_KIND
from game_core.service.page import assets, board
from game_core.service.page.forms import LONG_TEXT, Form, Group, Input, fields_of, rows_for
from game_core.service.page.play import (
    ABSENCE_FORM,
    EVERYONE_FIELD,
    PRESS_FORM,
    TEXT_FIELD,
    TO_FIELD,
    WITHDRAW_FORM,
    Seen,
    Signed,
    Talk,
    action_kinds,
    delivery_key,
    forms,
    move_kinds,
    names,
    ready_standing,
    view_of,
)
from game_core.service.page.receipt_view import receipt
from game_core.service.telling.named import kind_help
from game_core.service.telling.notices import open_phase_summary

REFRESH_SECONDS = 60
"""How often an open page reloads itself while its tab is visible (and a few seconds after its
countdown reaches zero): one page view a minute, never while hidden or while a form is written in."""


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def _attrs(**attributes: object) -> str:
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


def _name_list(names: Mapping[str, str], who: Iterable[str]) -> str:
    return ", ".join(esc(names.get(one, one)) for one in who)


def sign_in_page(match_id: str, problem: str = "") -> str:
    """The page without a session: the secret asked for by a form (the page's script sends the one
    a link carries in its fragment through the same form)."""
    alert = f'<p id="reasons" role="alert">{esc(problem)}</p>\n' if problem else ""
    body = (
        f"<main>\n<h1>Match {esc(match_id)}</h1>\n{alert}"
        f'<form id="sign-in" method="post" action="/play/{esc(match_id)}/session">\n'
        '<label for="secret">Your secret (the host gave it to you; it never goes in an address)</label>\n'
        '<input id="secret" name="secret" type="password" autocomplete="current-password" required>\n'
        '<button type="submit">Open my page</button>\n</form>\n</main>'
    )
    return document(f"Match {match_id}", body)


def page(seen: Seen, notice: str = "") -> str:
    """The participant's page, nothing marked new (a refused form's answer, a test's look)."""
    return marked_page(seen, notice, None)[0]


def marked_page(seen: Seen, notice: str, last_seen: str | None) -> tuple[str, str | None]:
    """The participant's page: the game drawn (what changed since `last_seen`, the board cookie
    of their last visit, marked), the phase and its clock, who is awaited, ready votes, what they
    sent, their forms, their own view in words, garnets; and the board cookie to set."""
    match = seen.match
    named = names(match)
    view = view_of(seen)
    me = seen.session.participant
    drawn = board.section(seen, view, named, last_seen)
    sections = [
        _header(seen, named),
        _notice(notice),
        drawn.html,
        _phase(seen, named),
        _answer(seen, named),
        _sent(seen),
        _moves(seen, view),
        board.view_text(seen, view, named),
        _garnets(seen),
        _away(seen, named),
    ]
    body = '<a class="skip" href="#moves">Skip to your moves</a>\n' + "\n".join(part for part in sections if part)
    title = f"{seen.game.title} {match.match_id}: {named.get(me, me)}"
    return document(title, f"<main{_refresh(seen)}>\n{body}\n</main>", seen.game.id), drawn.seen_cookie


def _refresh(seen: Signed) -> str:
    """`data-refresh`: the seconds between the script's reloads of a page read by a GET (never of
    a refused form's answer to a POST, which a reload would send again)."""
    return "" if seen.refusal is not None else _attrs(data_refresh=REFRESH_SECONDS)


def _header(seen: Signed, names: Mapping[str, str]) -> str:
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
        + _form_open(seen, "sign-out", "session", {"sign_out": "1"})
        + '<button type="submit" class="quiet">Sign out</button>\n</form>\n</header>'
    )


def _phase(seen: Seen, names: Mapping[str, str]) -> str:
    match = seen.match
    summary = open_phase_summary(match)
    phase = match.phase
    if summary is None or phase is None:
        over = "The match is over." if match.status == "finished" else "The match was cancelled."
        return f'<section id="phase">\n<h2 id="phase-name">{esc(over)}</h2>\n</section>'
    accepts = ", ".join(phase.accepts) or "no move"
    lines = [
        f'<h2 id="phase-name">{esc(phase.name)}</h2>',
        f'<p id="phase-words">Phase {phase.number} of the match is open; it takes: {esc(accepts)}.</p>',
    ]
    if phase.paused:
        lines.append('<p id="deadline">The host has paused the clock; the deadline moves when it runs again.</p>')
    else:
        left = max(0, int((phase.deadline - seen.now).total_seconds()))
        clock = _attrs(datetime=iso(phase.deadline), data_now=iso(seen.now))
        closes = esc(day_text(phase.deadline, _zone(seen)))
        lines.append(
            f'<p id="deadline">Closes <time id="countdown"{clock}>{closes}</time>: '
            f'<span id="countdown-left">{esc(duration_text(left))} left</span>.<span id="countdown-local"></span></p>'
        )
    waiting = summary["waiting_for"]
    owes = f"Waiting for: {_name_list(names, waiting)}." if waiting else "Nobody owes this phase anything more."
    lines.append(f'<p id="owes">{owes}</p>')
    if phase.grace_held:
        lines.append(f'<p id="grace-held">The deadline is held for a grace: {_name_list(names, phase.grace_held)}.</p>')
    if phase.held_for:
        held = _name_list(names, phase.held_for)
        lines.append(f'<p id="held-for">The deadline is held for an announced absence: {held}.</p>')
    lines.append(_graces(seen))
    lines.append(_ready(seen, names, summary["ready"]))
    return '<section id="phase" aria-labelledby="phase-name">\n' + "\n".join(filter(None, lines)) + "\n</section>"


def _graces(seen: Seen) -> str:
    """The participant's graces left, where the match has graces (`match.grace`)."""
    match = seen.match
    if not match.grace_seconds:
        return ""
    left = match.graces_left.get(seen.session.participant, 0)
    each = (
        f": each holds a deadline {duration_text(match.grace_seconds)} for you when your move is missing"
        if left
        else ""
    )
    return f'<p id="graces">You have {esc(graces_count(left))}{esc(each)}.</p>'


def _away(seen: Seen, names: Mapping[str, str]) -> str:
    """Who is away during the open phase (everyone's, public), the participant's own absences to
    come, and the forms to declare one or withdraw theirs, while the match runs."""
    match = seen.match
    if match.status != "running" or match.phase is None:
        return ""
    zone = _zone(seen)
    me = seen.session.participant
    parts = ['<section id="absences" aria-labelledby="absences-h">\n<h2 id="absences-h">Away</h2>']
    public = [a for a in sorted(match.absences, key=lambda a: a.start) if a.end > match.phase.opened_at]
    if public:
        parts.append('<ul id="away">')
        for one in public:
            who = names.get(one.participant, one.participant)
            parts.append(f"<li>{esc(who)} is away {_between(one, zone)}.</li>")
        parts.append("</ul>")
    rules = match.absence_rules
    if rules.days == 0:
        return "\n".join([*parts, '<p id="absence-rules">The host allows no absences in this match.</p>', "</section>"])
    parts.append(
        f'<p id="absence-rules">Going away? Declare it: a deadline that waits for your move and would fall while you '
        f"are away waits until {rules.margin_hours} hours after your return, for everyone. At most "
        f"{rules.longest_days} days at once, {rules.days} in the whole match.</p>"
    )
    own = absence.standing(match.absences, me, seen.now)
    if own:
        mine = "".join(f"<li>Away {_between(one, zone)}.</li>" for one in own)
        parts.append(f'<h3>Your absences</h3>\n<ul id="your-absences">{mine}</ul>')
        parts.append(
            _form_open(seen, WITHDRAW_FORM, "absence", {"cancel": "1"})
            + _reasons(seen, WITHDRAW_FORM)
            + '<button type="submit" class="quiet">Withdraw my absences (one under way ends now)</button>\n</form>'
        )
    parts.append(_absence_form(seen, zone))
    return "\n".join(parts) + "\n</section>"


def _between(away: absence.Absence, zone: str | None) -> str:
    return f"from {esc(day_text(away.start, zone))} until {esc(day_text(away.end, zone))}"


def _absence_form(seen: Seen, zone: str | None) -> str:
    refused = seen.refused_fields(ABSENCE_FORM)
    where = f"your time zone, {zone}" if zone else "UTC (you have set no time zone; ZONE by mail sets one)"
    fields = []
    for name, label in (("from", "Your first day away"), ("to", "Your last day away (empty: that one day)")):
        input_id = f"{ABSENCE_FORM}-{name}"
        attributes = _attrs(
            id=input_id,
            name=f"f.{name}",
            required=name == "from",
            aria_describedby=f"{ABSENCE_FORM}-zone",
            value=refused.get(f"f.{name}"),
        )
        fields.append(
            f'<div class="field"><label for="{input_id}">{label}</label>\n<input type="date"{attributes}>\n</div>\n'
        )
    return (
        f'<h3 id="{ABSENCE_FORM}-h">Declare an absence</h3>\n'
        + _form_open(seen, ABSENCE_FORM, "absence", {})
        + _reasons(seen, ABSENCE_FORM)
        + "".join(fields)
        + f'<p class="hint" id="{ABSENCE_FORM}-zone">Whole days, read in {esc(where)}.</p>\n'
        + _button("Declare my absence")
        + "</form>"
    )


def messages_page(talk: Talk) -> str:
    """The participant's messages page: the form to write one (as the host allows), the answer to
    the one just sent, and every message they may read (sent by them, to them, to everyone),
    newest first."""
    match = talk.match
    named = names(match)
    me = talk.session.participant
    zone = _zone(talk)
    items = []
    for message in talk.messages:
        to = message["to"]
        whom = "everyone" if to == "all" else _name_list(named, to)
        when = esc(day_text(datetime.fromisoformat(message["at"]), zone))
        said = _attrs(id=f"message-{message['id']}", class_="sent" if message["from"] == me else None)
        items.append(
            f"<li{said}><p><strong>{esc(named.get(message['from'], message['from']))}</strong> to {whom}, "
            f"{when}:</p>\n<pre>{esc(message['text'])}</pre></li>"
        )
    listed = f'<ol id="messages">\n{"".join(items)}\n</ol>' if items else '<p id="messages">No messages yet.</p>'
    body = "\n".join(
        [
            _header(talk, named),
            _notice(talk.answer),
            _press_form(talk, named),
            '<section id="inbox" aria-labelledby="inbox-h">\n<h2 id="inbox-h">Your messages</h2>\n'
            f"{listed}\n</section>",
        ]
    )
    return document(f"Messages: {match.match_id}: {named.get(me, me)}", f"<main{_refresh(talk)}>\n{body}\n</main>")


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
    parts.append(_form_open(seen, PRESS_FORM, "press", {"delivery": delivery_key()}) + _reasons(seen, PRESS_FORM))
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
            f'{_attrs(id=box, name=name, checked=name in refused)}><label for="{esc(box)}">{esc(label)}</label></div>\n'
            for box, name, label in ticks
        )
        parts.append(f"<fieldset>\n<legend>To (tick one or several, or everyone)</legend>\n{boxes}</fieldset>\n")
    text = _attrs(id=f"{PRESS_FORM}-text", name=TEXT_FIELD, required=True, maxlength=MAX_PRESS_CHARS)
    parts.append(
        f'<div class="field"><label for="{PRESS_FORM}-text">Your message</label>\n'
        f'<textarea rows="5"{text}>{esc(refused.get(TEXT_FIELD, ""))}</textarea>\n</div>\n'
    )
    parts.append(_button("Send the message") + "</form>\n</section>")
    return "".join(parts)


def _zone(seen: Signed) -> str | None:
    """The participant's own zone (ZONE by mail, or the settings file's): the deadline there, UTC beside."""
    participant = seen.match.participant(seen.session.participant)
    return participant.zone if participant is not None else None


def _ready(seen: Seen, names: Mapping[str, str], ready: list[str]) -> str:
    standing = ready_standing(seen)
    if standing is None:
        return ""
    votes = f"Ready to resolve early: {_name_list(names, ready)}." if ready else "Nobody has voted ready yet."
    lines = [f'<p id="ready-votes">{votes}</p>']
    if standing == "owes":
        lines.append('<p id="ready-hint">Send what you owe first; then you may vote the phase ready.</p>')
    else:
        voted = standing == "voted"
        fields = {"kind": READY_KIND, "ready": "false" if voted else "true", "delivery": delivery_key()}
        button = "Take back my ready vote" if voted else "I am ready: resolve early once everyone is"
        lines.append(
            _form_open(seen, "ready", "action", fields) + _reasons(seen, "ready") + _button(button) + "</form>"
        )
    return "\n".join(lines)


def _notice(notice: str) -> str:
    return f'<p id="notice" role="status">{esc(notice)}</p>' if notice else ""


def _answer(seen: Seen, names: Mapping[str, str]) -> str:
    if seen.answer is None:
        return ""
    kind, answer = seen.answer
    text = seen.game.text
    if isinstance(text, AnswersInText):
        lines = text.render_answer(kind, answer, names)
    else:
        lines = json.dumps(answer, indent=2).splitlines()
    return (
        f'<section id="answer" aria-labelledby="answer-h">\n<h2 id="answer-h">The answer to your {esc(kind)}</h2>\n'
        f"<pre>{esc(chr(10).join(lines))}</pre>\n</section>"
    )


def _sent(seen: Seen) -> str:
    phase = seen.match.phase
    sheet = seen.view.open_sheet
    if phase is None or sheet is None or not sheet.kinds:
        return ""
    parts = [f'<section id="sent" aria-labelledby="sent-h">\n<h2 id="sent-h">What you sent in {esc(phase.name)}</h2>']
    roster = seen.match.roster()
    for kind, submission in sheet.kinds.items():
        try:
            lines = seen.game.text.write_text(kind, parse_submission(seen.game, kind, submission, roster))
        except GameCoreError:
            lines = json.dumps(submission, indent=2).splitlines()
        parts.append(f'<h3>{esc(kind)}</h3>\n<pre id="sent-{esc(kind)}">{esc(chr(10).join(lines))}</pre>')
        parts.append(receipt(seen, kind))
    return "\n".join(filter(None, parts)) + "\n</section>"


def _moves(seen: Seen, view: Mapping[str, Any]) -> str:
    kinds = move_kinds(seen)
    actions = action_kinds(seen)
    if not kinds and not actions:
        return '<section id="moves">\n<h2>Your moves</h2>\n<p>Nothing is yours to send now.</p>\n</section>'
    parts = ['<section id="moves" aria-labelledby="moves-h">\n<h2 id="moves-h">Your moves</h2>']
    phase = seen.match.phase
    assert phase is not None
    hidden = {"phase": phase.name, "number": str(phase.number)}
    sheet = seen.view.open_sheet
    for kind in kinds:
        standing = sheet.kinds.get(kind) if sheet is not None else None
        refused = seen.refused_fields(f"move-{kind}")
        [form] = forms(seen.game, (kind,), rows=rows_for(refused, standing))
        parts.append(_form(seen, form, "move", hidden, "Send (replaces what you sent before)", standing))
    for form in forms(seen.game, actions, actions=True):
        parts.append(_form(seen, form, "action", {}, f"{form.kind.capitalize()} now"))
        parts.append(_puzzle_clocks(seen, view) if form.kind == "answer" else "")
    return "\n".join(filter(None, parts)) + "\n</section>"


def _puzzle_clocks(seen: Seen, view: Mapping[str, Any]) -> str:
    """Beside the answer box, each of the participant's puzzles of the round (Clubs; from their own
    view): the time taken since it was first sent, counted on (the script counts each `elapsed`
    clock from the server's now), or solved."""
    private = view.get("private") or {}
    sent, status = private.get("puzzles_sent_ms") or {}, private.get("puzzles") or {}
    lines = []
    for number, at_ms in sent.items():
        started = EPOCH + timedelta(milliseconds=at_ms)
        if status.get(number) == "solved":
            lines.append(f"<li>Puzzle {esc(number)}: solved.</li>")
            continue
        taken = int((seen.now - started).total_seconds())
        clock = _attrs(id=f"puzzle-{number}-clock", class_="elapsed", datetime=iso(started), data_now=iso(seen.now))
        lines.append(
            f"<li>Puzzle {esc(number)}: sent {esc(day_text(started))}; "
            f"<time{clock}>{_span(taken)}</time> taken so far.</li>"
        )
    if not lines:
        return ""
    return '<ul id="puzzle-clocks">\n' + "\n".join(lines) + "\n</ul>"


def _form_open(seen: Signed, form_id: str, route: str, fields: Mapping[str, str]) -> str:
    match_id = seen.match.match_id
    hidden = {"csrf": seen.session.csrf, **fields}
    inputs = "".join(f'<input type="hidden"{_attrs(name=name, value=value)}>' for name, value in hidden.items())
    return f'<form id="{esc(form_id)}" method="post" action="/play/{esc(match_id)}/{route}">\n{inputs}\n'


def _button(text: str) -> str:
    return f'<button type="submit">{esc(text)}</button>\n'


def _form(
    seen: Seen,
    form: Form,
    route: str,
    hidden: Mapping[str, str],
    button: str,
    standing: Mapping[str, Any] | None = None,
) -> str:
    form_id = f"{route}-{form.kind}"
    refusal = seen.refused(form_id)
    if refusal is not None:
        given = Given(refusal.fields, tuple(refusal.error.reasons))
    else:  # what stands of this kind, to edit and send again
        given = Given(fields_of(seen.game, form, standing) if standing is not None else {}, ())
    fields = {"kind": form.kind, "delivery": delivery_key(), **hidden}
    heading = f'<h3 id="{esc(form_id)}-h">{esc(form.kind.capitalize())}</h3>\n'
    described = f"<p>{esc(form.description)}</p>\n" if form.description else ""
    parts = [heading + described + _form_open(seen, form_id, route, fields), _reasons(seen, form_id)]
    parts.append(inputs(form_id, form, given, Choices(names(seen.match), seen.session.participant)))
    if form.help:  # its example naming a participant of this match
        open_now = seen.match.phase.name if seen.match.phase is not None else None
        said = kind_help(seen.game, form.kind, names(seen.match), seen.session.participant, open_now)
        parts.append(f"<details>\n<summary>The game's help for {esc(form.kind)} (as a mail writes it)</summary>\n")
        parts.append(f"<pre>{esc(chr(10).join(said))}</pre>\n</details>\n")
    parts.append(_button(button) + "</form>")
    return "".join(parts)


def inputs(form_id: str, form: Form, given: Given, choices: Choices) -> str:
    """`form`'s inputs, each labelled, with its hint and the service's reason naming it; a group's
    in a fieldset, its rows side by side: the player's page's forms and the host's alike."""
    parts = []
    for part in form.parts:
        if isinstance(part, Group):
            shown = part.inputs[: len(choices.named)] if part.ranking else part.inputs
            rows = [shown[i : i + part.columns] for i in range(0, len(shown), part.columns)]
            cells = "".join(
                '<div class="row">\n' + "".join(_input(form_id, form, one, given, choices) for one in row) + "</div>\n"
                for row in rows
            )
            parts.append(f"<fieldset>\n<legend>{esc(part.legend)}</legend>\n{cells}</fieldset>\n")
        else:
            parts.append(_input(form_id, form, part, given, choices))
    return "".join(parts)


@dataclass(frozen=True)
class Given:
    """What a refused form held, and the service's reasons: each shown again at its field."""

    fields: Mapping[str, str]
    reasons: tuple[Reason, ...]
    field_named: bool = True
    """Whether a reason beside its field still names the field ("multipliers, number 6: ...");
    the host's new-match form, whose labels say it already, leaves the name off."""

    def beside(self, one: Input) -> str:
        """The reasons naming this field, as shown beside it."""
        said = [in_words(reason.text) for reason in self.at(one)]
        return " ".join(text if self.field_named else text.partition(": ")[2] for text in said)

    def at(self, one: Input) -> list[Reason]:
        """The reasons naming this field (the service's reasons name a field by its path)."""
        return [reason for reason in self.reasons if reason.text.startswith(f"{one.name}:")]


@dataclass(frozen=True)
class Choices:
    """The participants a field naming one offers, in seating order: each by name, the id sent."""

    named: Mapping[str, str]
    me: str

    def options(self, one: Input, value: str | None) -> str:
        """A blank choice first (a row left empty; where one is required, none chosen yet: the
        browser asks for one), then each participant, the viewer marked; a value that names
        nobody (posted by hand, refused) kept as written, to correct."""
        blank = "(choose one)" if one.required else "(none)"
        said = f'<option value="">{blank}</option>'
        for participant, name in self.named.items():
            shown = f"{name} (you)" if participant == self.me else name
            said += f"<option{_attrs(value=participant, selected=value == participant)}>{esc(shown)}</option>"
        if value and value not in self.named:
            said += f"<option{_attrs(value=value, selected=True)}>{esc(value)}</option>"
        return said


def _input(form_id: str, form: Form, one: Input, given: Given, choices: Choices) -> str:
    input_id = f"{form_id}-{one.name.replace('.', '-')}"
    name = form.prefix + one.name
    value = given.fields.get(name)
    hint = f'<span class="hint" id="{esc(input_id)}-hint">{esc(one.hint)}</span>\n' if one.hint else ""
    wrong = given.beside(one)
    hint += f'<span class="error" id="{esc(input_id)}-error">{esc(wrong)}</span>\n' if wrong else ""
    described = " ".join(f"{input_id}-{what}" for what, shown in (("hint", one.hint), ("error", wrong)) if shown)
    label = f'<label for="{esc(input_id)}">{esc(one.label)}</label>\n'
    common = _attrs(
        id=input_id,
        name=name,
        required=one.required,
        aria_describedby=described or None,
        aria_invalid="true" if wrong else None,
    )
    if one.widget == "select":
        options = "" if one.blank is None else f'<option value="">{esc(one.blank)}</option>'
        offered = [*one.options, *([value] if value and value not in one.options else [])]  # posted by hand: kept
        options += "".join(f"<option{_attrs(value=o, selected=value == o)}>{esc(o)}</option>" for o in offered)
        control = f"<select{common}>{options}</select>\n"
    elif one.widget == "participant":
        control = f"<select{common}>{choices.options(one, value)}</select>\n"
    elif one.widget == "checkbox":
        control = f'<input type="checkbox" value="true"{common}{_attrs(checked=value is not None)}>\n'
        return f'<div class="field check">{control}{label}{hint}</div>\n'
    elif one.widget == "lines":
        control = f'<textarea rows="6"{common}>{esc(value or "")}</textarea>\n'
    elif one.one_a_line or (one.max_length or 0) > LONG_TEXT:
        control = f'<textarea rows="3"{common}{_attrs(maxlength=one.max_length)}>{esc(value or "")}</textarea>\n'
    else:
        kind = "number" if one.widget == "number" else "text"
        limits = _attrs(
            min=one.minimum,
            max=one.maximum,
            pattern=one.pattern,
            maxlength=one.max_length,
            inputmode="numeric" if one.widget == "list" and one.integers else None,
            value=value,
        )
        control = f'<input type="{kind}"{common}{limits}>\n'
    return f'<div class="field">{label}{control}{hint}</div>\n'


def _reasons(seen: Signed, form_id: str) -> str:
    """The service's reasons for refusing what this form sent, at its top (read first by a screen
    reader: role alert), each with its stable code."""
    refusal = seen.refused(form_id)
    if refusal is None:
        return ""
    reasons = refusal.error.reasons or [Reason(refusal.error.code, str(refusal.error))]
    items = "".join(f"<li{_attrs(data_code=reason.code)}>{esc(in_words(reason.text))}</li>" for reason in reasons)
    return f'<div id="reasons" role="alert">\n<p>{esc(refusal.error)}</p>\n<ul>{items}</ul>\n</div>\n'


def _span(seconds: int) -> str:
    """ "1 min 35 s", "35 s": a puzzle's time to the second, as the script counts it on."""
    minutes, rest = divmod(max(0, seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def _garnets(seen: Seen) -> str:
    view = seen.view
    return f'<p id="garnets">Garnets: {view.balance} ({view.available} not held by a move waiting for its phase).</p>'
