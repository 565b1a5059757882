"""The player's page as use cases: show it, exchange a secret for a session, send a move, take an
action or a ready vote. Each reads once (`store.submission_view`, as the webhook's GET does; the
messages page `store.header_and_events`, the match's header and log) and checks the session
against the match it read before anything else; a move goes through `submit.submit`, an action
through `actions.take_action`, exactly as the webhook's do.

A move or an action carries the delivery key its form was rendered with: the browser's resend of
the same POST (a reload, a double click) gets the first reply and changes nothing again; an
action's answer is kept under that key, which the page shown after it reads in the same one read.
A message's answer is said again from its entry in the log, which its page reads anyway.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cache
from typing import Any

from game_core.errors import GameCoreError, Malformed, Reason, Unauthorized
from game_core.games import registry
from game_core.games.capabilities import ActsAtOnce
from game_core.games.protocol import AnyGame
from game_core.match.engine import game_state
from game_core.match.model import Match
from game_core.service.matches import press
from game_core.service.matches.absence import absence_action
from game_core.service.matches.actions import ActionRequest, take_action
from game_core.service.matches.ready import READY_KIND, vote
from game_core.service.matches.sheets import SubmissionView
from game_core.service.matches.submit import SubmissionRequest, submit
from game_core.service.page import session as sessions
from game_core.service.page.forms import ROWS, Form, form_for, rows_for, submission_of
from game_core.service.ports import Ports

CHANNEL = "page"
"""How the log names what came through the page."""
DELIVERY_PREFIX = "page-"
MAX_DELIVERY = 64
PRESS_FORM, ABSENCE_FORM, WITHDRAW_FORM = "press", "absence", "absence-cancel"
"""The forms of a message (on the messages page), of an absence and of its withdrawal."""
TO_FIELD, EVERYONE_FIELD, TEXT_FIELD = "f.to.", "f.everyone", "f.text"
"""The press form's fields: a box ticked per recipient (`f.to.<id>`), or everyone; the text."""
ABSENCE_NOTICES = {
    "absence-held": "Your absence is declared; the phase waits for you: its deadline above has moved.",
    "absence-declared": "Your absence is declared: a deadline that would fall while you are away waits for you.",
    "absence-unchanged": "That absence stands already; nothing changed.",
    "absence-withdrawn": "Your absence is withdrawn: deadlines no longer wait for it.",
    "absence-none": "You have no absence to withdraw; nothing changed.",
}
"""What the page says after an absence form was taken, by the query the redirect carries."""


class SignedOut(Unauthorized):
    """No session (or one that no longer holds: expired, or made with a secret since replaced)."""

    code = "signed_out"


def delivery_key() -> str:
    """A new form's delivery key (random: each rendering of a form is a new move)."""
    return DELIVERY_PREFIX + secrets.token_urlsafe(16)


def _delivery(key: str | None) -> str | None:
    """`key` if it is one of the page's delivery keys (`delivery_key`), else None."""
    if key is None or not key.startswith(DELIVERY_PREFIX) or len(key) > MAX_DELIVERY:
        return None
    return key


@dataclass(frozen=True)
class Refusal:
    """A form the service refused, shown again with its reasons and what was written in it."""

    form: str
    """The form's id: `move-<kind>`, `action-<kind>`, `ready`."""
    error: GameCoreError
    fields: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Signed:
    """A page's reader, their session checked against the match as read."""

    match: Match
    session: sessions.Session
    now: datetime
    refusal: Refusal | None = None

    @property
    def game(self) -> AnyGame:
        return registry.load(self.match.game)

    def refused(self, form: str) -> Refusal | None:
        """The refusal this page shows again, if it is of form `form`."""
        return self.refusal if self.refusal is not None and self.refusal.form == form else None

    def refused_fields(self, form: str) -> Mapping[str, str]:
        """What form `form` held when it was refused (nothing when it was not)."""
        refusal = self.refused(form)
        return refusal.fields if refusal is not None else {}


@dataclass(frozen=True, kw_only=True)
class Seen(Signed):
    """Everything the page shows, from the one read (`match` is the view's)."""

    view: SubmissionView
    answer: tuple[str, dict[str, Any]] | None = None
    """An action's kind and its answer, when the page follows one."""


@dataclass(frozen=True, kw_only=True)
class Talk(Signed):
    """Everything the messages page shows: `match` as its header holds it (no game state: the
    page shows none), the messages the reader may read, newest first, and the answer to the one
    they just sent ("" for none)."""

    messages: list[dict[str, Any]]
    answer: str = ""


def _claimed(cookie: str | None) -> str:
    """Whom `cookie` claims to be (checked once the match is read: `_signed`); SignedOut for nobody."""
    participant = sessions.claimed(cookie)
    if participant is None:
        raise SignedOut("sign in with your secret")
    return participant


def _signed(ports: Ports, match: Match, cookie: str | None) -> tuple[sessions.Session, datetime]:
    """The session `cookie` holds for `match`, and now; SignedOut when it holds none."""
    now = ports.clock.now()
    session = sessions.participant_of(match, cookie, now)
    if session is None:
        raise SignedOut("your session has ended (it expired, or your secret was replaced): sign in again")
    return session, now


def read(ports: Ports, match_id: str, cookie: str | None, delivery: str | None = None) -> Seen:
    """The page's one read, for the session `cookie` holds; SignedOut when it holds none."""
    view = ports.store.submission_view(match_id, _claimed(cookie), delivery)
    session, now = _signed(ports, view.match, cookie)
    return Seen(match=view.match, session=session, now=now, view=view)


def show(ports: Ports, match_id: str, cookie: str | None, answer_key: str | None = None) -> Seen:
    """The page; after an action (`answer_key`, its delivery key), with the action's answer."""
    seen = read(ports, match_id, cookie, _delivery(answer_key))
    reply = seen.view.delivered
    if reply is None or not isinstance(reply.get("answer"), dict):  # a message's answer is its own page's
        return seen
    return replace(seen, answer=(str(reply.get("kind")), dict(reply["answer"])))


def sign_in(ports: Ports, match_id: str, secret: str) -> sessions.Session:
    """A session for whoever `secret` belongs to (one read); Unauthorized for nobody's."""
    match = ports.store.get(match_id)
    participant = sessions.whose_secret(match, secret.strip())
    if participant is None:
        raise Unauthorized("that is not the secret of anyone in this match")
    return sessions.issue(match, participant, ports.clock.now())


def sign_out(ports: Ports, match_id: str, cookie: str | None, fields: Mapping[str, str]) -> None:
    """Raise unless the sign-out came from the session's own page (a cookie is dropped by the
    browser; nothing is stored)."""
    checked_form(read(ports, match_id, cookie), fields)


def checked_form(seen: Seen, fields: Mapping[str, str]) -> None:
    """Raise unless the form carries the token of the session's own page."""
    if not sessions.form_is_ours(seen.session, fields.get("csrf", "")):
        raise Unauthorized("this form is not from your page (or from before your session): send it again from the page")


def forms(game: AnyGame, kinds: tuple[str, ...], actions: bool = False, rows: int = ROWS) -> list[Form]:
    """The forms of `kinds`: submissions, or (`actions`) the game's immediate actions."""
    return [_form(game, kind, actions, rows) for kind in kinds]


def _form(game: AnyGame, kind: str, actions: bool, rows: int = ROWS) -> Form:
    models = game.actions if actions and isinstance(game, ActsAtOnce) else game.submissions
    if kind not in models:
        text = f"{game.title} has no {'action' if actions else 'move'} {kind!r}"
        raise Malformed(text, [Reason("kind", text)])
    return _built(game.id, kind, actions, rows)


@cache
def _built(game_id: str, kind: str, actions: bool, rows: int) -> Form:
    """A kind's form, built once a process (a schema takes pydantic milliseconds to write)."""
    game = registry.load(game_id)
    models = game.actions if actions and isinstance(game, ActsAtOnce) else game.submissions
    return form_for(game, kind, models[kind].model_json_schema(), game.text.text_help(kind), rows)


def _opened(ports: Ports, match_id: str, cookie: str | None, fields: Mapping[str, str]) -> tuple[Seen, str | None]:
    """The page's read for a posted form (with the reply kept under its delivery key, if any)."""
    delivery = _delivery(fields.get("delivery"))
    return read(ports, match_id, cookie, delivery), delivery


def send_move(ports: Ports, match_id: str, cookie: str | None, fields: Mapping[str, str]) -> Seen:
    """Submit the move a form sent; a refusal comes back as the page with its reasons."""
    seen, delivery = _opened(ports, match_id, cookie, fields)
    try:
        checked_form(seen, fields)
        submit(ports, move_request(seen, fields), seen.view, delivery)
    except GameCoreError as error:
        return replace(seen, refusal=Refusal(f"move-{fields.get('kind', '')}", error, fields))
    return seen


def move_request(seen: Seen, fields: Mapping[str, str]) -> SubmissionRequest:
    """The submission a move form's fields make (Malformed when they make none): sent, or checked."""
    match = seen.match
    kind = fields.get("kind", "")
    form = _form(seen.game, kind, False, rows_for(fields))
    accepts = match.phase.accepts if match.phase is not None else ()
    submission = submission_of(seen.game, form, fields, accepts, names(match))
    number = int(fields["number"]) if fields.get("number", "").isdigit() else None
    participant = seen.session.participant
    return SubmissionRequest(match.match_id, participant, fields.get("phase", ""), kind, submission, CHANNEL, number)


def act(ports: Ports, match_id: str, cookie: str | None, fields: Mapping[str, str]) -> tuple[Seen, str | None]:
    """Take the action (or ready vote) a form sent; with the key its answer is kept under."""
    seen, delivery = _opened(ports, match_id, cookie, fields)
    kind = fields.get("kind", "")
    participant = seen.session.participant
    try:
        checked_form(seen, fields)
        if kind == READY_KIND:
            vote(ports, match_id, participant, fields.get("ready") == "true", CHANNEL, delivery, seen.view)
            return seen, None
        action = submission_of(seen.game, _form(seen.game, kind, True, rows_for(fields)), fields, (), names(seen.match))
        take_action(ports, ActionRequest(match_id, participant, kind, action, CHANNEL), delivery, seen.view)
    except GameCoreError as error:
        return replace(seen, refusal=Refusal("ready" if kind == READY_KIND else f"action-{kind}", error, fields)), None
    return seen, delivery


def send_press(ports: Ports, match_id: str, cookie: str | None, fields: Mapping[str, str]) -> tuple[Seen, str | None]:
    """Send the message the press form holds (to everyone, or to each participant ticked), as the
    webhook's press action does, under the form's delivery key: a resend sends nothing again. The
    message's id (the messages page shows its answer from the log: `show_messages`), or the page
    with the refusal."""
    seen, delivery = _opened(ports, match_id, cookie, fields)
    try:
        checked_form(seen, fields)
        to = press_recipients(fields)
        sender = seen.session.participant
        reply = press.send(ports, match_id, sender, to, fields.get(TEXT_FIELD, ""), CHANNEL, delivery)
    except GameCoreError as error:
        return replace(seen, refusal=Refusal(PRESS_FORM, error, fields)), None
    return seen, str(reply["message_id"])


def press_recipients(fields: Mapping[str, str]) -> list[str] | None:
    """Whom the press form's ticks name: None for everyone (its own box), else each ticked id."""
    if EVERYONE_FIELD in fields:
        return None
    ticked = [name.removeprefix(TO_FIELD) for name in fields if name.startswith(TO_FIELD)]
    if not ticked:
        text = "tick whom the message goes to, or everyone"
        raise Malformed("the message has no recipient", [Reason("press_to_nobody", text)])
    return ticked


def show_messages(ports: Ports, match_id: str, cookie: str | None, message_id: str | None = None) -> Talk:
    """The messages page, in one read (`header_and_events`: the match's header and its log); after
    a message (`message_id`), the answer its sender heard, said again from its entry in the log
    (to its sender only)."""
    _claimed(cookie)  # nothing read for a cookie that names nobody
    match, events = ports.store.header_and_events(match_id)
    session, now = _signed(ports, match, cookie)
    me = session.participant
    messages = press.readable(events, me)
    sent = next((one for one in messages if one["id"] == message_id and one["from"] == me), None)
    answer = press.answer(match, sent["to"]) if sent is not None else ""
    return Talk(match=match, session=session, now=now, messages=messages[::-1], answer=answer)


def refused_message(ports: Ports, seen: Seen) -> Talk:
    """The messages page again around a refused message (`send_press`), its reasons in the form:
    the log read after the page's read."""
    messages = press.messages_for(ports, seen.match.match_id, seen.session.participant)[::-1]
    return Talk(match=seen.match, session=seen.session, now=seen.now, refusal=seen.refusal, messages=messages)


def absence(ports: Ports, match_id: str, cookie: str | None, fields: Mapping[str, str]) -> tuple[Seen, str]:
    """Declare the absence the form holds (its last day left empty: the first day alone), or
    withdraw the participant's (`cancel`), as the webhook's absence action does; the notice the
    page after it shows (`ABSENCE_NOTICES`), or the page with the refusal. Sent again, it finds
    the absence standing (or none left to withdraw) and changes nothing."""
    seen = read(ports, match_id, cookie)
    cancel = "cancel" in fields
    try:
        checked_form(seen, fields)
        first = fields.get("f.from", "").strip()
        if not (cancel or first):
            raise Malformed("the absence has no first day", [Reason("absence_from", "give your first day away")])
        said = {"cancel": True} if cancel else {"from": first, "to": fields.get("f.to", "").strip() or first}
        reply = absence_action(ports, match_id, seen.session.participant, said, CHANNEL)
    except GameCoreError as error:
        return replace(seen, refusal=Refusal(WITHDRAW_FORM if cancel else ABSENCE_FORM, error, fields)), ""
    if cancel:
        return seen, "absence-withdrawn" if reply["changed"] else "absence-none"
    if not reply["changed"]:
        return seen, "absence-unchanged"
    return seen, "absence-held" if reply["deadline_held"] else "absence-declared"


def names(match: Match) -> dict[str, str]:
    """Each participant's name by id (the id where they have none)."""
    return {p.id: p.name or p.id for p in match.players}


def view_of(seen: Seen) -> dict[str, Any]:
    """The participant's own view now (the game's `view`: nothing of anyone else's secrets)."""
    match = seen.match
    return dict(seen.game.view(game_state(seen.game, match), seen.session.participant))


def move_kinds(seen: Seen) -> tuple[str, ...]:
    """The kinds the open phase takes from this participant (none once it is closing or over)."""
    match = seen.match
    phase = match.phase
    if match.status != "running" or phase is None or seen.session.participant not in phase.actors:
        return ()
    return phase.accepts


def action_kinds(seen: Seen) -> tuple[str, ...]:
    """The immediate actions this participant may take now (Clubs' puzzles, transfers, peeks)."""
    match = seen.match
    game = seen.game
    if match.status != "running" or match.phase is None or not isinstance(game, ActsAtOnce):
        return ()
    opening = game.open_phase(game_state(game, match))
    if opening is None or seen.session.participant not in opening.actors:
        return ()
    return opening.actions


def ready_standing(seen: Seen) -> str | None:
    """Where the participant stands on a ready vote: None where votes do not count (early close
    on, a phase that closes on its moves, nothing owed by them); "owes" before their move is all
    in, then "may" vote or has "voted"."""
    match = seen.match
    phase = match.phase
    me = seen.session.participant
    if match.status != "running" or phase is None or match.early_close or phase.closes_on_submit:
        return None
    if me not in phase.owes:
        return None
    if me in phase.ready:
        return "voted"
    return "may" if me in seen.view.done else "owes"
