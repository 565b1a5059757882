"""The host page's "New match" (local_stack/laptop/page.py serves it): `GET /new?game=<id>` the form
(local_stack/laptop/new_match_form.py), `POST /new` creates the match as `match-host create` does (or
shows the form again with one row more, or with what to change beside each field), and the page
that follows shows each participant's link once; `POST /links` mails each participant with an
address their own (the `mail_links` command: the service's mail, queued like the rest of it).

A form sent again (a reload, a double click) makes no second match: its `once` is remembered,
with the links, for the mail button (`KEPT` of them, in this process only).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Any
from urllib.parse import parse_qs

from game_core.errors import Reason
from game_core.games import registry
from game_core.games.protocol import AnyGame
from local_stack.laptop.new_match_form import defaults, first_rows, form_body, hidden_fields, rows_posted
from local_stack.laptop.new_match_reading import Reading, placed, read_form

KEPT = 64
"""Creations remembered (a form sent again is not a second match; its links wait to be mailed)."""
Page = tuple[str, str, int]
"""A page's title, its body (HTML) and its status."""
LOST_LINK = "a lost one: <em>Reissue secret</em> under the match gives that player a new secret, and link"


@dataclass(frozen=True)
class Made:
    """A match the page created: its links (by participant id), and each participant's name and address."""

    match_id: str
    links: dict[str, str]
    names: dict[str, str]
    addressed: frozenset[str]


def _made(reading: Reading, reply: Mapping[str, Any]) -> Made:
    entries = [entry for player in reading.match["players"] for entry in (player, *player.get("guests", ()))]
    names = {entry["id"]: entry["name"] for entry in entries}
    addressed = frozenset(entry["id"] for entry in entries if entry.get("email"))
    return Made(str(reply["match_id"]), dict(reply.get("links", {})), names, addressed)


def games_section() -> str:
    """The matches page's way in: a link to each game's form."""
    listed = "".join(
        f'<li><a href="/new?game={escape(game_id)}">{escape(registry.load(game_id).title)}</a></li>'
        for game_id in registry.AVAILABLE
    )
    return (
        '<section id="new-match-games" aria-labelledby="new-match-title"><h2 id="new-match-title">New match</h2>'
        f"<p>Start a match of:</p><ul>{listed}</ul></section>"
    )


def _game(game_id: str) -> AnyGame | None:
    return registry.load(game_id) if game_id in registry.AVAILABLE else None


class MatchCreation:
    """The pages of a new match. `host` runs a host command as the console does; `mail_out`:
    whether the server's mail leaves the laptop (a relay is set)."""

    def __init__(self, host: Callable[[dict[str, Any]], dict[str, Any]], mail_out: bool) -> None:
        self.host = host
        self.mail_out = mail_out
        self._made: OrderedDict[str, Made] = OrderedDict()
        self._creating = threading.Lock()

    def form(self, query: str, csrf: str) -> Page:
        game = _game(parse_qs(query).get("game", [""])[-1])
        if game is None:
            return "New match", games_section(), 404
        kept = {"csrf": csrf, "once": secrets.token_urlsafe(16)}
        return f"New match: {game.title}", form_body(game, first_rows(game), kept, defaults(game), []), 200

    def post(self, posted: Mapping[str, str], csrf: str) -> Page:
        game = _game(posted.get("game", ""))
        once = posted.get("once", "")
        if game is None or not once:
            return "New match", f"<p>This form names no game of this server.</p>{games_section()}", 400
        title, rows, kept = f"New match: {game.title}", rows_posted(game, posted), {"csrf": csrf, "once": once}
        if "more" in posted:  # one more row, nothing checked yet
            return title, form_body(game, min(rows + 1, game.max_players), kept, posted, []), 200
        with self._creating:
            made = self._made.get(once)
            if made is not None:
                said = f"<p>This form created match {escape(made.match_id)} already: its links were shown then"
                said += f" ({LOST_LINK}).</p>"
                return f"Match {made.match_id}", said, 200
            reading = read_form(game, rows, posted)
            reply: dict[str, Any] = (
                {"ok": False, "reasons": []}
                if reading.reasons
                else self.host({"command": "create", "match": reading.match})
            )
            if not reply.get("ok"):
                reasons = (
                    reading.reasons
                    or placed(reading, reply.get("reasons") or [])
                    or [Reason("refused", str(reply.get("message", "")))]
                )
                return f"{title}: not created", form_body(game, rows, kept, posted, reasons), 422
            made = self._made[once] = _made(reading, reply)
            while len(self._made) > KEPT:
                self._made.popitem(last=False)
        return f"Match {made.match_id}: {game.title}", self._created(made, reply, kept), 200

    def _created(self, made: Made, reply: Mapping[str, Any], kept: Mapping[str, str]) -> str:
        rows = "".join(
            f'<tr><th scope="row">{escape(made.names.get(who, who))}</th>'
            f'<td><code id="link-{escape(who)}">{escape(link)}</code></td></tr>'
            for who, link in made.links.items()
        )
        body = (
            f'<p id="created">Match <strong>{escape(made.match_id)}</strong> is created. Each link below signs '
            "its player in to their page: send each player their own, privately. <strong>These links are not "
            f"shown again</strong> ({LOST_LINK}).</p><table><thead><tr><th>Player</th><th>Their page</th></tr>"
            f"</thead><tbody>{rows}</tbody></table>"
        )
        hooks = reply.get("webhook_secrets") or {}
        if hooks:
            listed = "".join(
                f"<li>{escape(made.names.get(who, who))}: <code>{escape(secret)}</code></li>"
                for who, secret in hooks.items()
            )
            body += (
                f"<p>Each webhook's signing secret, for its bot's owner (not shown again either):</p><ul>{listed}</ul>"
            )
        body += "".join(f'<p role="alert">{escape(str(warning))}</p>' for warning in reply.get("warnings", ()))
        addressed = ", ".join(made.names[who] for who in made.names if who in made.addressed)
        if not addressed:
            return body
        if not self.mail_out:
            unsent = "no <code>--smtp-relay</code>: send each link yourself"
            return f"{body}<p>This server's mail does not leave the laptop ({unsent}).</p>"
        button = '<button type="submit" id="mail-links">Mail each player their link</button>'
        said = f"{button} (to those with an address: {escape(addressed)})"
        return f'{body}<form method="post" action="/links">{hidden_fields(kept)}<p>{said}</p></form>'

    def mail(self, posted: Mapping[str, str]) -> Page:
        """Mail the links of the match this page created (`once`), each to its participant."""
        with self._creating:
            made = self._made.get(posted.get("once", ""))
        if made is None:
            said = "<p>These links are no longer kept here (the server restarted since, or many matches were created"
            said += f" since): {LOST_LINK}.</p>"
            return "Links not kept", said, 410
        reply = self.host({"command": "mail_links", "match_id": made.match_id, "links": made.links})
        if not reply.get("ok"):
            reasons = "".join(f"<li>{escape(str(reason.get('text', '')))}</li>" for reason in reply.get("reasons", []))
            message = escape(str(reply.get("message", "")))
            said = f'<div id="reasons" role="alert"><p>Not mailed: {message}</p><ul>{reasons}</ul></div>'
            return f"Match {made.match_id}: links not mailed", said, 422
        lines = [
            ("Mailed", reply.get("mailed", ())),
            ("Mailed before (not again)", reply.get("mailed_before", ())),
            ("Refused by the mail service (see the match's status)", reply.get("refused", ())),
            ("No address: send it yourself", reply.get("no_address", ())),
        ]
        listed = "".join(
            f"<dt>{escape(what)}</dt><dd>{escape(', '.join(made.names.get(who, who) for who in whom))}</dd>"
            for what, whom in lines
            if whom
        )
        queued = f"<p>{escape(reply['mail_queued'])}</p>" if reply.get("mail_queued") else ""
        return f"Match {made.match_id}: links mailed", f'<dl id="mailed">{listed}</dl>{queued}', 200
