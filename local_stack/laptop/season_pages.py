"""The host page's seasons (local_stack/laptop/page.py serves them, logged in and guarded as the
rest of it): the "Seasons" list on the matches page, `GET /seasons/<id>` a season's page with
the host's acts, `POST /seasons/<id>/act` an act, and a new season: `GET`/`POST /seasons/new`
(the form) and `POST /seasons/file` (its settings file, pasted or uploaded).

Each act and each creation is the `season` host command, sent as `match-host season ...` sends
it (through the host commands' function: the same use case); a form sent again (a reload, a
double click) is answered as the first time and does nothing twice (its `once`, remembered here).
A creation's answer shows each player's secret and link, and the webhook signing secrets, once.
"""

from __future__ import annotations

import os
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from html import escape
from typing import Any

from game_core.errors import NotFound, Reason
from game_core.service.page.inputs import Given
from game_core.service.season.machine import season_match_id
from game_core.service.telling.links import PLAYERS_URL, play_path
from local_stack.laptop.access import is_token
from local_stack.laptop.http_serving import Request
from local_stack.laptop.new_match_form import hidden_fields
from local_stack.laptop.new_season_form import FIRST_CAST, FIRST_EPISODES, defaults, file_form, form_body, rows_posted
from local_stack.laptop.new_season_reading import SeasonReading, form_values, placed, read_file, read_form, sent
from local_stack.laptop.season_act_forms import Act, act_form, act_named, acts_now, answered, command_of
from local_stack.laptop.season_act_forms import placed as placed_at_act
from local_stack.laptop.season_view import (
    OVER,
    SeasonSeen,
    episode_lines,
    facts,
    read_season,
    season_ids,
    standing_table,
)
from local_stack.laptop.season_view import summary as season_summary

Page = tuple[str, str, int]
"""A page's title, its body (HTML) and its status (local_stack/laptop/create_page.py's)."""
KEPT = 256
"""Answers remembered for forms sent again."""
SEASON_PATH = re.compile(r"/seasons/(s-[0-9a-z-]{1,40})(/act)?")
FORBIDDEN = "Forbidden", "<p>This form is not from this page: reload the page and send it again.</p>", 403


class SeasonPages:
    """The seasons' pages on the stack `stack` (its ports read, its table listed); `host` runs a
    host command as the console does."""

    def __init__(self, stack: Any, host: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        self.stack = stack
        self.host = host
        self._answered: OrderedDict[str, Page] = OrderedDict()
        self._sending = threading.Lock()

    def section(self) -> str:
        """The matches page's "Seasons": each season's facts (running first), and "New season"."""
        ports = self.stack.ports()
        seen = [read_season(ports, season_id) for season_id in season_ids(self.stack.client("dynamodb"))]
        seen.sort(key=lambda one: (one.state.stage in OVER, one.season_id))
        listed = "".join(season_summary(one) for one in seen) or "<p>No season yet.</p>"
        return (
            '<section id="seasons" aria-labelledby="seasons-title"><h2 id="seasons-title">Seasons</h2>'
            f'<p><a href="/seasons/new">New season</a></p>{listed}</section>'
        )

    def __call__(self, request: Request, form: Mapping[str, str], csrf: str) -> Page:
        posting = request.method == "POST"
        if request.path == "/seasons/file" and posting:
            values = form_values(request.body, request.headers.get("content-type", ""))
            return self._file(values, csrf) if is_token(values.get("csrf", ""), csrf) else FORBIDDEN
        if posting and not is_token(form.get("csrf", ""), csrf):
            return FORBIDDEN
        if request.path == "/seasons/new":
            return self._create(form, csrf) if posting else self._new(csrf)
        found = SEASON_PATH.fullmatch(request.path)
        if found is None or posting != bool(found.group(2)):
            return "Not found", '<p><a href="/">The matches and seasons</a></p>', 404
        try:
            seen = read_season(self.stack.ports(), found.group(1))
        except NotFound:
            return "No such season", '<p><a href="/">The matches and seasons</a></p>', 404
        return self._act(seen, form, csrf) if posting else season_page(seen, csrf)

    # -- a new season -----------------------------------------------------------------------------

    def _new(self, csrf: str) -> Page:
        body = form_body(FIRST_CAST, FIRST_EPISODES, _kept(csrf), defaults(), []) + file_form(_kept(csrf))
        return "New season", body, 200

    def _create(self, posted: Mapping[str, str], csrf: str) -> Page:
        once = posted.get("once", "")
        cast_rows, episode_rows = rows_posted(posted)
        kept = {"csrf": csrf, "once": once}
        if "more" in posted:  # one more row, nothing checked yet
            cast_rows += posted["more"] == "cast"
            episode_rows += posted["more"] == "episodes"
            return "New season", form_body(cast_rows, episode_rows, kept, posted, []) + file_form(_kept(csrf)), 200
        with self._sending:
            if once in self._answered:
                return self._answered[once]
            reading = read_form(cast_rows, episode_rows, posted)
            reply = self._sent_create(reading)
            if not reply.get("ok"):
                reasons = reading.reasons or placed(reading.settings, _reasons(reply), cast_rows, episode_rows)
                body = form_body(cast_rows, episode_rows, kept, posted, reasons) + file_form(_kept(csrf))
                return "New season: not created", body, 422
            return self._remember(once, created(sent(reading.settings), reply))

    def _file(self, values: Mapping[str, str], csrf: str) -> Page:
        once = values.get("once", "")
        text = values.get("upload", "").strip() or values.get("settings_file", "")
        with self._sending:
            if once in self._answered:
                return self._answered[once]
            reading = read_file(text)
            reply = self._sent_create(reading)
            if not reply.get("ok"):
                reasons = reading.reasons or [Reason(str(r.get("code")), str(r.get("text"))) for r in _reasons(reply)]
                form = form_body(FIRST_CAST, FIRST_EPISODES, _kept(csrf), defaults(), [])
                return (
                    "New season: not created",
                    form + file_form({"csrf": csrf, "once": once}, text, tuple(reasons)),
                    422,
                )
            return self._remember(once, created(reading.settings, reply))

    def _sent_create(self, reading: SeasonReading) -> dict[str, Any]:
        """The create command's reply, or a refusal without sending when the reading has reasons."""
        if reading.reasons:
            return {"ok": False}
        command = {"command": "season", "action": "create", "season": sent(reading.settings)}
        return self.host(command | ({"season_id": reading.season_id} if reading.season_id else {}))

    def _remember(self, once: str, page: Page) -> Page:
        if once:
            self._answered[once] = _once_more(page)
            while len(self._answered) > KEPT:
                self._answered.popitem(last=False)
        return page

    # -- an act on a season -----------------------------------------------------------------------

    def _act(self, seen: SeasonSeen, posted: Mapping[str, str], csrf: str) -> Page:
        once = posted.get("once", "")
        with self._sending:
            if once and once in self._answered:
                return self._answered[once]
            act = act_named(seen, posted.get("form", ""))
            if act is None or not once:
                said = "<p>The season has moved on: this act is not open now. Its page says what is.</p>"
                return f"Season {seen.label()}", said + season_body(seen, csrf), 409
            command, reasons = command_of(act, seen, posted)
            if reasons:
                return (
                    f"Season {seen.label()}: refused",
                    season_body(seen, csrf, act, Given(posted, tuple(reasons), False)),
                    422,
                )
            if act.confirms and posted.get("confirmed") != "yes":
                return confirmation(act, seen, posted)
            reply = self.host(command)
            if not reply.get("ok"):
                given = Given(posted, tuple(placed_at_act(act, seen, _reasons(reply), command)), False)
                return f"Season {seen.label()}: refused", season_body(seen, csrf, act, given), 422
            after = read_season(self.stack.ports(), seen.season_id)
            body = answered(act, seen, command, reply) + facts(after) + _to_season(seen)
            return self._remember(once, (f"{act.title}: done", body, 200))


def _kept(csrf: str) -> dict[str, str]:
    return {"csrf": csrf, "once": secrets.token_urlsafe(16)}


def _reasons(reply: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A refusal's reasons (its message when it gives none)."""
    return list(reply.get("reasons") or []) or [{"code": reply.get("error", ""), "text": reply.get("message", "")}]


def _once_more(page: Page) -> Page:
    """A page answered again for a form sent again: what was told once (secrets, links) is not told twice."""
    title, body, status = page
    if '<code id="' not in body:  # nothing told once on it
        return page
    said = "<p>This form was sent already and done then; what it told once (secrets, links) is not shown again.</p>"
    return title, said, status


def _to_season(seen: SeasonSeen) -> str:
    return f'<p><a href="/seasons/{escape(seen.season_id)}">Back to the season</a></p>'


def season_body(seen: SeasonSeen, csrf: str, refused: Act | None = None, given: Given | None = None) -> str:
    """The season's page: its facts, the host's acts (a refused one open, its reasons beside its
    fields), the standing and the episodes so far."""
    forms = "".join(
        act_form(act, seen, csrf, given if refused is not None and act.form_id == refused.form_id else None)
        for act in acts_now(seen)
    )
    acts = f'<section id="season-acts" aria-labelledby="acts-title"><h2 id="acts-title">Your acts</h2>{forms}</section>'
    return (
        f"{facts(seen)}{acts if forms else ''}{standing_table(seen)}"
        '<section aria-labelledby="episodes-title"><h2 id="episodes-title">Episodes</h2>'
        f"{episode_lines(seen)}</section>"
    )


def season_page(seen: SeasonSeen, csrf: str) -> Page:
    return f"Season {seen.label()}", season_body(seen, csrf), 200


def confirmation(act: Act, seen: SeasonSeen, posted: Mapping[str, str]) -> Page:
    """The second step of an act that cannot be undone: what it will do (everyone by name), and
    one button to do it."""
    shown = []
    for one in (one for part in act.parts for one in getattr(part, "inputs", (part,))):
        value = posted.get(one.name, "")
        shown.append((one.label, (act.choices or {}).get(value, value) or "-"))
    given = "".join(f"<dt>{escape(label)}</dt><dd>{escape(value)}</dd>" for label, value in shown)
    kept = {key: value for key, value in posted.items() if key != "confirmed"} | {"confirmed": "yes"}
    body = (
        f"<p>{escape(act.title)} in season {escape(seen.label())}? This cannot be undone.</p>"
        + (f"<dl>{given}</dl>" if given else "")
        + f'<form method="post" action="/seasons/{escape(seen.season_id)}/act">{hidden_fields(kept)}'
        f'<p><button type="submit">Yes: {escape(act.title[:1].lower() + act.title[1:])}</button></p></form>'
        + _to_season(seen)
    )
    return f"{act.title}: are you sure?", body, 200


def created(settings: Mapping[str, Any], reply: Mapping[str, Any]) -> Page:
    """The season created: each player by name with their secret and their page's link (the first
    Main Match's: every match of the season takes the secret), and the webhook signing secrets,
    each shown this once."""
    season_id = str(reply["season_id"])
    names = {m.get("id"): m.get("name") or m.get("id") for m in settings.get("cast", []) if isinstance(m, dict)}
    first = season_match_id(season_id, "e1-main")
    base = os.environ.get(PLAYERS_URL, "").rstrip("/")
    rows = "".join(
        f'<tr><th scope="row">{escape(str(names.get(who, who)))}</th><td><code id="secret-{escape(who)}">'
        f'{escape(secret)}</code></td><td><code id="link-{escape(who)}">{escape(base + play_path(first, secret))}'
        "</code></td></tr>"
        for who, secret in reply.get("secrets", {}).items()
    )
    body = (
        f'<p id="created">Season <strong>{escape(season_id)}</strong> is created; its machine starts its first '
        "episode within moments. Each player's secret signs them in to every match of the season: send each "
        "their own, privately, with their link (the first Main Match's page, open once it begins). "
        "<strong>These secrets are not shown again.</strong></p><table><thead><tr><th>Player</th>"
        f"<th>Their secret</th><th>Their page</th></tr></thead><tbody>{rows}</tbody></table>"
    )
    hooks = reply.get("webhook_secrets") or {}
    if hooks:
        listed = "".join(
            f'<li>{escape(str(names.get(who, who)))}: <code id="webhook-{escape(who)}">{escape(secret)}</code></li>'
            for who, secret in hooks.items()
        )
        body += f"<p>Each webhook's signing secret, for its bot's owner (not shown again either):</p><ul>{listed}</ul>"
    body += "".join(f'<p role="alert">{escape(str(warning))}</p>' for warning in reply.get("warnings", ()))
    body += f'<p><a href="/seasons/{escape(season_id)}">The season\'s page</a></p>'
    return f"Season {season_id} created", body, 200
