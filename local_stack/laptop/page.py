"""The host's page on bin/host-server's host port (127.0.0.1 only): every match with its phase,
deadline and who owes what (the `status` command's answer, participants by name), and the host's
commands as forms, each one that cannot be undone asking for confirmation on a second page.

- The forms are made from the host commands' models (`service.commands.HostCommand`): every
  command on one match whose fields a form can hold (numbers, words, participants: a choice of
  the match's, lists of them) is offered, so a command added there appears here; the service
  checks what is sent, as from the console.
- Logged in with the host token (the data folder's host-token) once per browser: a session
  cookie (HttpOnly, SameSite=Strict) signed with the token, and each form carries a token of the
  session (CSRF). The host port also refuses a foreign Host or Origin (`foreign_refusal`): another
  site the host visits, or a page of the players' port (same site: ports do not count), cannot
  drive it.
- A new match is started here too (local_stack/laptop/create_page.py): a form per game, each
  player's page link shown once after, and mailed to them on request.
- In AWS there is no such page: the host uses the console's sample events or `match-host`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache
from html import escape
from typing import Any, get_args
from urllib.parse import parse_qs

from game_core.match.clock import moment_text
from game_core.match.model import Match
from game_core.service.commands import HostCommand
from game_core.service.matches.lifecycle import match_status
from game_core.service.page import assets
from game_core.service.page.forms import Form, Group, Input, filled_in, parts_of
from game_core.service.page.inputs import Choices, Given, inputs
from game_core.service.page.play import names
from local_stack.laptop.access import foreign_refusal, is_loopback, is_token
from local_stack.laptop.create_page import MatchCreation, games_section
from local_stack.laptop.http_serving import Reply, Request
from local_stack.laptop.new_match_form import hidden_fields
from local_stack.laptop.result import answer_list, result_table
from local_stack.laptop.season_pages import SeasonPages

SESSION_COOKIE = "host_session"
STYLE = "/static/page.css"
"""The players' page's style sheet, served here too."""
PAGE_OMITS = ("status", "export")
"""Commands the page does not offer: status is the page itself; a record is for a file (`match-host export`)."""
REVERSIBLE = ("pause", "resume")
"""Commands taken at once; every other one (a new command too) asks for confirmation first."""
BACK = '<a href="/">Back to the matches</a>'
KEPT_ANSWERS = 256
"""How many answers are kept for forms sent again (a reload of the answer comes soon after)."""
HEADERS = {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": (
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "referrer-policy": "same-origin",  # no-referrer would make a form's Origin "null", refused
    "x-content-type-options": "nosniff",
}


@dataclass(frozen=True)
class CommandForm:
    title: str
    form: Form
    """The command's fields (its kind is the command), built as the player's page's forms are, each
    posted under its own name."""

    @property
    def command(self) -> str:
        return self.form.kind

    @property
    def confirms(self) -> bool:
        return self.command not in REVERSIBLE

    def command_from(self, match_id: str, posted: Mapping[str, str]) -> dict[str, Any]:
        """The command the form says: the service checks it (and names what is wrong)."""
        return {"command": self.command, "match_id": match_id} | filled_in(self.form, posted)


def _marked(part: Input | Group) -> Input | Group:
    """A field the host may leave empty, said so in its label."""
    return replace(part, label=f"{part.label} (optional)") if isinstance(part, Input) and not part.required else part


@cache
def command_forms() -> tuple[CommandForm, ...]:
    """A form for each host command on one match whose fields a form can hold (`forms.parts_of`:
    a participant a choice of the match's, lists of words one a line)."""
    forms = []
    for model in get_args(get_args(HostCommand)[0]):
        schema = model.model_json_schema()
        properties = dict(schema["properties"])
        command = properties.pop("command")["const"]
        if command in PAGE_OMITS or properties.pop("match_id", None) is None:
            continue
        parts = parts_of(schema | {"properties": properties}, one_a_line=True)
        if parts is None:
            continue
        form = Form(command, schema.get("description", ""), tuple(map(_marked, parts)), prefix="")
        forms.append(CommandForm(command.replace("_", " ").capitalize(), form))
    return tuple(forms)


def _form_named(command: str) -> CommandForm | None:
    return next((form for form in command_forms() if form.command == command), None)


# -- pages ----------------------------------------------------------------------------------------


def _page(title: str, body: str, status: int = 200, headers: Mapping[str, str] = {}) -> Reply:
    html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel="stylesheet" href="{assets.url("page.css")}"></head>'
        f"<body><main><h1>{escape(title)}</h1>{body}</main></body></html>"
    )
    return status, html.encode(), HEADERS | dict(headers)


def _back(page: tuple[str, str, int]) -> Reply:
    """A new match's page, with the way back to the matches."""
    title, body, status = page
    return _page(title, f"{body}<p>{BACK}</p>", status)


def _names(match: Match, ids: Iterable[str]) -> list[str]:
    """Participants as the host knows them: by name (their id when they have none)."""
    return [getattr(match.participant(player), "name", "") or player for player in ids]


def match_section(match: Match, status: Mapping[str, Any], csrf: str) -> str:
    """One match as the host reads it: the status answer, participants by name, and the forms."""
    match_id = str(status.get("match_id", ""))
    rows = [("Game", status.get("game", "")), ("Status", status.get("status", ""))]
    opened = status.get("open")
    if opened:
        now = datetime.fromisoformat(status["checked_at"])
        deadline = moment_text(datetime.fromisoformat(opened["deadline"]), now, match.host_zone)
        rows += [("Phase", f"{opened['phase']} (phase {opened['number']})"), ("Deadline", deadline)]
        rows += [("Paused", "yes")] if opened.get("paused") else []
    owed = status.get("still_owed", {})
    if owed:
        owing = zip(_names(match, owed), owed.values(), strict=True)
        rows.append(("Waiting for", "; ".join(f"{name}: {', '.join(kinds)}" for name, kinds in owing)))
    elif status.get("status") == "running":
        rows.append(("Waiting for", "nobody"))
    if opened and opened.get("ready"):
        rows.append(("Ready", ", ".join(_names(match, opened["ready"]))))
    undecided = (status.get("result") or {}).get("undecided")
    if undecided:  # the host's to rank (decide), best first
        rows.append(("Tie to decide", ", ".join(_names(match, undecided))))
    rows += [("Mail not delivered", line) for line in status.get("mail_bounced", ())]
    if status.get("stalled"):
        rows.append(("Stalled", status["stalled"].get("what_to_do", "")))
    listing = "".join(f"<dt>{escape(k)}</dt><dd>{escape(str(v))}</dd>" for k, v in rows)
    result = result_table(status["result"], names(match)) if "standings" in (status.get("result") or {}) else ""
    choices = Choices(names(match), "")
    forms = "".join(_command_form(form, match_id, csrf, choices) for form in command_forms())
    return (
        f'<section class="match" id="match-{escape(match_id)}" aria-labelledby="title-{escape(match_id)}">'
        f'<h2 id="title-{escape(match_id)}">{escape(match_id)}</h2><dl>{listing}</dl>{result}{forms}</section>'
    )


def _command_form(command: CommandForm, match_id: str, csrf: str, choices: Choices) -> str:
    form = command.form
    kept = {"csrf": csrf, "match_id": match_id, "command": command.command, "once": secrets.token_urlsafe(16)}
    about = f"<p>{escape(form.description)}</p>" if form.description else ""
    return (
        f'<details class="command"><summary>{escape(command.title)}</summary>{about}'
        f'<form method="post" action="/command">{hidden_fields(kept)}'
        f"{inputs(command.command, form, Given({}, ()), choices)}"
        f'<p><button type="submit">{escape(command.title)}</button></p></form></details>'
    )


def confirmation_page(
    command: CommandForm, match_id: str, posted: Mapping[str, str], csrf: str, once: str, named: Mapping[str, str]
) -> Reply:
    """The second step of a command that cannot be undone: what it will do (a participant by
    name, never the id sent), and one button to do it."""
    shown = []
    for part in command.form.parts:  # a group's places left empty are not sent: not shown either
        filled = [one for one in part.inputs if posted.get(one.name)] if isinstance(part, Group) else [part]
        for one in filled:
            value = posted.get(one.name, "") or "-"
            shown.append((one.label, named.get(value, value) if one.widget == "participant" else value))
    given = "".join(f"<dt>{escape(label)}</dt><dd>{escape(value)}</dd>" for label, value in shown)
    kept = {"csrf": csrf, "match_id": match_id, "command": command.command, "confirmed": "yes", "once": once}
    kept |= {one.name: posted[one.name] for one in command.form.inputs if one.name in posted}
    body = (
        f"<p>{escape(command.title)} in match {escape(match_id)}? This cannot be undone.</p>"
        + (f"<dl>{given}</dl>" if given else "")
        + f'<form method="post" action="/command">{hidden_fields(kept)}'
        f'<p><button type="submit">Yes: {escape(command.title.lower())}</button> {BACK}</p></form>'
    )
    return _page(f"{command.title}: are you sure?", body)


def result_page(command: Mapping[str, Any], reply: Mapping[str, Any], named: Mapping[str, str] = {}) -> Reply:
    """What the service answered: done, with what it says (a reissued secret, once; a result as a
    table, its players `named`), or refused with its reasons."""
    title = str(command["command"]).replace("_", " ").capitalize()
    if reply.get("ok"):
        said = {key: value for key, value in reply.items() if key not in ("ok", "result")}
        body = "<p>Done.</p>" + (
            result_table(reply["result"], named) if "standings" in (reply.get("result") or {}) else ""
        )
        body += answer_list(said, named)
        return _page(f"{title} in {command['match_id']}", f"{body}<p>{BACK}</p>")
    reasons = "".join(f"<li>{escape(str(reason.get('text', '')))}</li>" for reason in reply.get("reasons", []))
    body = f'<div id="reasons" role="alert"><p>Refused: {escape(str(reply.get("message", "")))}</p>'
    body += (f"<ul>{reasons}</ul>" if reasons else "") + "</div>"
    return _page(f"{title} in {command['match_id']}: refused", f"{body}<p>{BACK}</p>", 422)


def login_page(status: int = 200, refusal: str = "") -> Reply:
    said = f'<p id="reasons" role="alert">{escape(refusal)}</p>' if refusal else ""
    body = (
        f"{said}<p>The host token is in the data folder's <code>host-token</code> file "
        "(<code>local-data/host-token</code> by default).</p>"
        '<form method="post" action="/login"><div class="field"><label for="token">Host token</label> '
        '<input id="token" name="token" type="password" autocomplete="off" required></div>'
        '<p><button type="submit">Log in</button></p></form>'
    )
    return _page("Host: log in", body, status)


# -- the port -------------------------------------------------------------------------------------


class HostPage:
    """The host port's pages: GET / (log in, or every match), POST /login, POST /command, and a new
    match's: GET and POST /new, POST /links (`MatchCreation`); the seasons' under /seasons/ (`SeasonPages`).

    `matches` lists the matches in the table; `status` is the status command's answer for a match
    as `matches` read it (not read again); `host` runs a host command as the console does;
    `mail_out`: whether the server's mail leaves the laptop."""

    METHODS = {
        "/": ("GET",),
        "/login": ("POST",),
        "/command": ("POST",),
        "/new": ("GET", "POST"),
        "/links": ("POST",),
        "/favicon.ico": ("GET",),
        STYLE: ("GET",),
    }

    def __init__(
        self,
        token: str,
        matches: Callable[[], list[Match]],
        status: Callable[[Match], dict[str, Any]],
        host: Callable[[dict[str, Any]], Any],
        mail_out: bool = False,
        seasons: SeasonPages | None = None,
    ) -> None:
        self.token = token
        self.seasons = seasons
        self.matches = matches
        self.status = status
        self.host = host
        self.creation = MatchCreation(host, mail_out)
        self.port = 0
        self._sent: OrderedDict[str, Reply] = OrderedDict()
        """The answer to each form sent lately, by the form's `once`: sent again (a reload, a
        double click), it is answered the same and nothing is done twice."""
        self._sending = threading.Lock()

    def _signature(self, purpose: str, session: str) -> str:
        return hmac.new(self.token.encode(), f"{purpose}:{session}".encode(), hashlib.sha256).hexdigest()

    def _session(self, request: Request) -> str | None:
        """The request's session, if its cookie was signed with the host token."""
        for cookie in request.headers.get("cookie", "").split(";"):
            name, _, value = cookie.strip().partition("=")
            session, _, signature = value.partition(".")
            if name == SESSION_COOKIE and session and is_token(signature, self._signature("session", session)):
                return session
        return None

    def __call__(self, request: Request) -> Reply:
        if not is_loopback(request.source_ip):
            return _page("Forbidden", "<p>The host's page is served to this laptop alone.</p>", 403)
        refusal = foreign_refusal(request.headers, self.port)
        if refusal is not None:
            return _page("Forbidden", f"<p>{escape(refusal)}</p>", 403)
        methods = self.METHODS.get(request.path, ("GET", "POST") if request.path.startswith("/seasons/") else None)
        if methods is None:
            return _page("Not found", '<p><a href="/">The matches</a></p>', 404)
        if request.method not in (*methods, *(("HEAD",) if "GET" in methods else ())):
            return _page("Method not allowed", "", 405, {"allow": ", ".join(methods)})
        if request.path == "/favicon.ico":  # no icon: said without a 404 in the browser's console
            return 204, b"", {"cache-control": "max-age=86400"}
        if request.path == STYLE:
            content, content_type = assets.asset(STYLE.rpartition("/")[2]) or (b"", "")
            # linked by its content's hash (assets.url): a new version is a new address, so kept a year
            return 200, content, {"content-type": content_type, "cache-control": "public, max-age=31536000"}
        form = {name: values[-1] for name, values in parse_qs(request.body.decode("utf-8", "replace")).items()}
        if request.path == "/login":
            return self._login(form)
        session = self._session(request)
        if session is None:
            return login_page(401 if request.method == "POST" else 200, "Log in first." if form else "")
        csrf = self._signature("csrf", session)
        if request.path == "/":
            return self._matches_page(csrf)
        if self.seasons is not None and request.path.startswith("/seasons/"):  # checks its forms' csrf itself
            return _back(self.seasons(request, form, csrf))
        if request.path == "/new" and request.method != "POST":
            return _back(self.creation.form(request.query, csrf))
        if not is_token(form.get("csrf", ""), csrf):
            return _page("Forbidden", "<p>This form is not from this page: reload the page and send it again.</p>", 403)
        if request.path == "/new":
            return _back(self.creation.post(form, csrf))
        if request.path == "/links":
            return _back(self.creation.mail(form))
        return self._command(form, csrf)

    def _login(self, form: Mapping[str, str]) -> Reply:
        if not is_token(form.get("token", "").strip(), self.token):
            return login_page(401, "That is not the host token.")
        session = secrets.token_urlsafe(24)
        cookie = f"{SESSION_COOKIE}={session}.{self._signature('session', session)}; HttpOnly; SameSite=Strict; Path=/"
        return 303, b"", {"location": "/", "set-cookie": cookie, "cache-control": "no-store"}

    def _matches_page(self, csrf: str) -> Reply:
        matches = sorted(self.matches(), key=lambda match: (match.status != "running", match.match_id))
        sections = "".join(match_section(match, self.status(match), csrf) for match in matches)
        none = (
            "<p>No matches yet: start one above (or <code>bin/match-host --server ... create settings.json</code>).</p>"
        )
        seasons = self.seasons.section() if self.seasons is not None else ""
        return _page("Matches", games_section() + seasons + (sections or none))

    def _names(self, match_id: str) -> dict[str, str]:
        """The match's participants by name (none for a match not in the table)."""
        return next((names(match) for match in self.matches() if match.match_id == match_id), {})

    def _command(self, form: Mapping[str, str], csrf: str) -> Reply:
        chosen = _form_named(form.get("command", ""))
        once = form.get("once", "")
        if chosen is None or not once:
            return _page("Not a command", "<p>The page offers no such command.</p>", 400)
        match_id = form.get("match_id", "")
        if chosen.confirms and form.get("confirmed") != "yes":
            return confirmation_page(chosen, match_id, form, csrf, once, self._names(match_id))
        with self._sending:
            if once not in self._sent:
                command = chosen.command_from(match_id, form)
                reply = self.host(command)
                self._sent[once] = result_page(command, reply, self._names(match_id))
                while len(self._sent) > KEPT_ANSWERS:
                    self._sent.popitem(last=False)
            return self._sent[once]


def host_page(token: str, stack: Any, matches: Callable[[], list[Match]], host: Any, mail_out: bool) -> HostPage:
    """The host port's pages on the local stack `stack`: each match's status and the seasons read from its ports."""
    status = lambda match: match_status(stack.ports(), match.match_id, match)  # noqa: E731
    return HostPage(token, matches, status, host, mail_out, SeasonPages(stack, host))
