"""The page's HTML: one participant's page, and the sign-in page. Every value written into the
HTML goes through `esc` (`html`: text and attributes alike); nothing is inline but the HTML itself
(no script, no style, no style attribute), so the Content-Security-Policy needs no `unsafe-inline`.
The page's parts of their own: `away` (absences), `inputs` (a form's inputs); the messages page
is `messages`'.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from game_core.errors import GameCoreError
from game_core.games.capabilities import AnswersInText
from game_core.match.clock import day_text, duration_text, iso
from game_core.match.engine import EPOCH, parse_submission
from game_core.match.grace import graces_count
from game_core.service.matches.ready import READY_KIND
from game_core.service.page import board
from game_core.service.page.away import away
from game_core.service.page.forms import Form, fields_of, rows_for
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
from game_core.service.page.inputs import Choices, Given, inputs
from game_core.service.page.play import (
    Seen,
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
        page_header(seen, named),
        notice_line(notice),
        drawn.html,
        _phase(seen, named),
        _answer(seen, named),
        _sent(seen),
        _moves(seen, view),
        board.view_text(seen, view, named),
        _garnets(seen),
        away(seen, named),
    ]
    body = '<a class="skip" href="#moves">Skip to your moves</a>\n' + "\n".join(part for part in sections if part)
    title = f"{seen.game.title} {match.match_id}: {named.get(me, me)}"
    return document(title, f"<main{refresh(seen)}>\n{body}\n</main>", seen.game.id), drawn.seen_cookie


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
        clock = attrs(datetime=iso(phase.deadline), data_now=iso(seen.now))
        closes = esc(day_text(phase.deadline, own_zone(seen)))
        lines.append(
            f'<p id="deadline">Closes <time id="countdown"{clock}>{closes}</time>: '
            f'<span id="countdown-left">{esc(duration_text(left))} left</span>.<span id="countdown-local"></span></p>'
        )
    waiting = summary["waiting_for"]
    owes = f"Waiting for: {name_list(names, waiting)}." if waiting else "Nobody owes this phase anything more."
    lines.append(f'<p id="owes">{owes}</p>')
    if phase.grace_held:
        lines.append(f'<p id="grace-held">The deadline is held for a grace: {name_list(names, phase.grace_held)}.</p>')
    if phase.held_for:
        held = name_list(names, phase.held_for)
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


def _ready(seen: Seen, names: Mapping[str, str], ready: list[str]) -> str:
    standing = ready_standing(seen)
    if standing is None:
        return ""
    votes = f"Ready to resolve early: {name_list(names, ready)}." if ready else "Nobody has voted ready yet."
    lines = [f'<p id="ready-votes">{votes}</p>']
    if standing == "owes":
        lines.append('<p id="ready-hint">Send what you owe first; then you may vote the phase ready.</p>')
    else:
        voted = standing == "voted"
        fields = {"kind": READY_KIND, "ready": "false" if voted else "true", "delivery": delivery_key()}
        button = "Take back my ready vote" if voted else "I am ready: resolve early once everyone is"
        lines.append(
            form_open(seen, "ready", "action", fields)
            + refusal_reasons(seen, "ready")
            + submit_button(button)
            + "</form>"
        )
    return "\n".join(lines)


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
        clock = attrs(id=f"puzzle-{number}-clock", class_="elapsed", datetime=iso(started), data_now=iso(seen.now))
        lines.append(
            f"<li>Puzzle {esc(number)}: sent {esc(day_text(started))}; "
            f"<time{clock}>{_span(taken)}</time> taken so far.</li>"
        )
    if not lines:
        return ""
    return '<ul id="puzzle-clocks">\n' + "\n".join(lines) + "\n</ul>"


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
    parts = [heading + described + form_open(seen, form_id, route, fields), refusal_reasons(seen, form_id)]
    parts.append(inputs(form_id, form, given, Choices(names(seen.match), seen.session.participant)))
    if form.help:  # its example naming a participant of this match
        open_now = seen.match.phase.name if seen.match.phase is not None else None
        said = kind_help(seen.game, form.kind, names(seen.match), seen.session.participant, open_now)
        parts.append(f"<details>\n<summary>The game's help for {esc(form.kind)} (as a mail writes it)</summary>\n")
        parts.append(f"<pre>{esc(chr(10).join(said))}</pre>\n</details>\n")
    parts.append(submit_button(button) + "</form>")
    return "".join(parts)


def _span(seconds: int) -> str:
    """ "1 min 35 s", "35 s": a puzzle's time to the second, as the script counts it on."""
    minutes, rest = divmod(max(0, seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def _garnets(seen: Seen) -> str:
    view = seen.view
    return f'<p id="garnets">Garnets: {view.balance} ({view.available} not held by a move waiting for its phase).</p>'
