"""The host's acts on a season, as forms on its page (local_stack/laptop/season_pages.py serves them):
decide (a select of whom the host may name or pick, never raw JSON), the guests of an episode
whose game seats them, extend, pause, resume, cancel, and recover a stalled season. Each form says
the `season` host command `match-host season ...` sends (service/season/commands.py), and its
answer is told in words (`answered`); a refusal goes back beside the form's field.

Each act is offered only while the season can take it (a decision while it waits on one, recover
while its machine is stopped); the service judges what is sent, as from the console.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from game_core.errors import Reason
from game_core.match.model import MAX_SECONDS
from game_core.season.death_match import next_step
from game_core.season.guests import guests_wanted
from game_core.season.waiting import Waiting
from game_core.service.page.forms import Form, Group, Input
from game_core.service.page.inputs import Choices, Given, inputs
from local_stack.laptop.new_match_form import hidden_fields
from local_stack.laptop.new_match_reading import player_id
from local_stack.laptop.season_view import OVER, SeasonSeen, listed, match_link, season_matches

TAKEN_AT_ONCE = ("pause", "resume", "guests")
"""Acts taken without a confirmation: undone by another (resume, pause), or named again before
the episode begins (guests). Every other act asks first, as the host page's commands do."""
MAX_HOURS = MAX_SECONDS // 3600
DECIDES = ("naming", "replacement_tie", "death_match_tie", "champion_tie")


@dataclass(frozen=True)
class Act:
    """One act the host may take now: its form's id, its title, its fields, and what it is for."""

    act: str
    form_id: str
    title: str
    about: str
    parts: tuple[Input | Group, ...] = ()
    choices: Mapping[str, str] | None = None
    kept: Mapping[str, str] | None = None
    """Hidden fields of its own (a tied Death Match's id)."""

    @property
    def confirms(self) -> bool:
        return self.act not in TAKEN_AT_ONCE


def _decide(seen: SeasonSeen, wait: Waiting, index: int) -> Act:
    names = seen.names
    who = listed(names, wait.who)
    if wait.kind == "naming":
        title = f"Name {who}'s Death Match opponent"
        about = f"In place of {who}: whom they may name. Until you do, {who} may still name."
        offered = wait.among
    elif wait.kind == "replacement_tie":
        title, about, offered = "Pick the next EC", f"{who} are tied for the next-lowest place.", wait.who
    elif wait.kind == "death_match_tie":
        title, about, offered = "Name the Death Match's loser", f"The Death Match of {who} ended tied.", wait.who
    else:
        title, about, offered = "Pick the champion", f"{who} are tied in first place in the Finals.", wait.who
    player = Input("player", "Who", "participant", True)
    kept = {"match_id": wait.match_id} if wait.kind == "death_match_tie" and wait.match_id else {}
    choices = {p: names.get(p, p) for p in offered}
    return Act("decide", f"season-decide-{index}", title, about, (player,), choices, kept)


def _guests_parts(seen: SeasonSeen, number: int) -> tuple[Group, ...]:
    coming = coming_players(seen)
    wanted = guests_wanted(seen.stored.settings, number)
    eliminated = tuple(p.id for p in seen.state.players if not p.left)
    groups = []
    for i, player in enumerate(coming):
        cells: tuple[Input, ...] = ()
        for k in range(wanted):
            at = f"guests.{i}.{k}"
            cells += (
                Input(f"{at}.who", "An eliminated player", "select", options=eliminated, blank="(someone new)"),
                Input(f"{at}.name", "Or someone new: their name", "text", max_length=80),
                Input(f"{at}.email", "Their e-mail (optional)", "text", max_length=254),
            )
        groups.append(Group(f"{seen.names.get(player, player)}'s guest", cells, 3))
    return tuple(groups)


def acts_now(seen: SeasonSeen) -> list[Act]:
    """Every act the season can take now, in the order a host reaches for them."""
    over = seen.state.stage in OVER
    found = [_decide(seen, wait, i) for i, wait in enumerate(w for w in seen.waits if w.kind in DECIDES)]
    if seen.guests_episode:
        about = "Each player of the coming episode brings a guest: an eliminated player, or someone new."
        found.append(Act("guests", "season-guests", "Name the guests", about, _guests_parts(seen, seen.guests_episode)))
    if any(w.kind in ("naming", "spend") for w in seen.waits):
        hours = Input("hours", "Hours to add", "number", True, 1, MAX_HOURS, hint="12 is half a day.")
        found.append(Act("extend", "season-extend", "Extend the deadlines", "The current turn's deadlines.", (hours,)))
    if not over and seen.paused_at is None:
        about = "Its deadlines stop, and so does each of its matches running; everyone is told."
        found.append(Act("pause", "season-pause", "Pause", about))
    if seen.paused_at is not None:
        about = "Its deadlines run again, put off by as long as it was paused; its matches resume."
        found.append(Act("resume", "season-resume", "Resume", about))
    if seen.stalled:
        about = "Its state machine stopped: each stalled match is recovered, then the season goes on."
        found.append(Act("recover", "season-recover", "Recover", about))
    if not over:
        found.append(Act("cancel", "season-cancel", "Cancel the season", "Nothing more is played; nor its matches."))
    return found


def act_named(seen: SeasonSeen, form_id: str) -> Act | None:
    return next((act for act in acts_now(seen) if act.form_id == form_id), None)


def act_form(act: Act, seen: SeasonSeen, csrf: str, given: Given | None = None) -> str:
    """The act's form, open and its reasons beside its fields when it was refused (`given`)."""
    kept = {"csrf": csrf, "form": act.form_id, "once": secrets.token_urlsafe(16), **(act.kept or {})}
    given = given or Given({}, ())
    unplaced = [r.text for r in given.reasons if not any(r.text.startswith(f"{one}:") for one in _names(act))]
    alert = "".join(f"<li>{escape(text)}</li>" for text in unplaced)
    alert = f'<div id="reasons" role="alert"><p>Refused:</p><ul>{alert}</ul></div>' if alert else ""
    shown = inputs(act.form_id, Form(act.form_id, "", act.parts, prefix=""), given, Choices(act.choices or {}, ""))
    opened = " open" if given.reasons or given.fields else ""
    return (
        f'<details class="command" id="{act.form_id}"{opened}><summary>{escape(act.title)}</summary>'
        f'<p>{escape(act.about)}</p>{alert}<form method="post" action="/seasons/{escape(seen.season_id)}/act">'
        f"{hidden_fields(kept)}{shown}"
        f'<p><button type="submit">{escape(act.title)}</button></p></form></details>'
    )


def _names(act: Act) -> list[str]:
    return [one.name for one in Form(act.form_id, "", act.parts, prefix="").inputs]


def coming_players(seen: SeasonSeen) -> list[str]:
    """The coming episode's players (those left and not finalists), whose guests the host names."""
    return next_step(seen.state, seen.stored.settings).players


# -- what the form says ---------------------------------------------------------------------------


def command_of(act: Act, seen: SeasonSeen, posted: Mapping[str, str]) -> tuple[dict[str, Any], list[Reason]]:
    """The season command the form says, or the reasons it cannot be sent, each at its field."""
    command: dict[str, Any] = {"command": "season", "action": act.act, "season_id": seen.season_id}
    if act.act == "decide":
        player = posted.get("player", "")
        if player not in (act.choices or {}):
            return command, [Reason("choose", "player: Choose one of those offered.")]
        return command | {"player": player} | dict(act.kept or {}), []
    if act.act == "extend":
        hours = posted.get("hours", "").strip()
        if not (hours.isdigit() and 1 <= int(hours) <= MAX_HOURS):
            return command, [Reason("hours", f"hours: A whole number of hours, from 1 to {MAX_HOURS}.")]
        return command | {"seconds": int(hours) * 3600}, []
    if act.act == "guests":
        return _guests_command(act, seen, command, posted)
    return command, []


def _guests_command(
    act: Act, seen: SeasonSeen, command: dict[str, Any], posted: Mapping[str, str]
) -> tuple[dict[str, Any], list[Reason]]:
    given: dict[str, list[Any]] = {}
    reasons = []
    players = coming_players(seen)
    for i, part in enumerate(act.parts):
        assert isinstance(part, Group)
        player, guests = players[i], []
        for k in range(len(part.inputs) // 3):
            at = f"guests.{i}.{k}"
            who, name = posted.get(f"{at}.who", "").strip(), posted.get(f"{at}.name", "").strip()
            email = posted.get(f"{at}.email", "").strip()
            if who:
                guests.append(who)
            elif name:
                guests.append({"id": player_id(name, f"guest-{i + 1}-{k + 1}"), "name": name} | _email(email))
            else:
                reasons.append(Reason("no_guest", f"{at}.name: Choose an eliminated player, or give a name."))
        given[player] = guests
    return command | {"guests": given}, reasons


def _email(email: str) -> dict[str, str]:
    return {"email": email} if email else {}


def placed(act: Act, seen: SeasonSeen, reasons: list[Mapping[str, Any]], command: Mapping[str, Any]) -> list[Reason]:
    """The service's refusal, each reason beside the act's field it is about: the one field of a
    decision or an extension; a guest's reason at that guest's field, a player's at their first guest's."""
    fields = [one.name for part in act.parts for one in (part.inputs if isinstance(part, Group) else (part,))]
    at = _guest_fields(seen, command) if act.act == "guests" else {}
    found = []
    for reason in reasons:
        text = str(reason.get("text", ""))
        where = fields[0] if len(fields) == 1 else ""
        named = next((who for who in at if text.startswith((f"{who} ", f"{who}'s "))), None)
        where = at[named] if named is not None else where
        found.append(Reason(str(reason.get("code", "")), f"{where}: {text}" if where else text))
    return found


def _guest_fields(seen: SeasonSeen, command: Mapping[str, Any]) -> dict[str, str]:
    """Where each guest sent was given on the form (by their id), then each player's first guest."""
    at: dict[str, str] = {}
    players = coming_players(seen)
    for i, player in enumerate(players):
        for k, guest in enumerate(command.get("guests", {}).get(player, [])):
            who = guest if isinstance(guest, str) else guest.get("id", "")
            at.setdefault(who, f"guests.{i}.{k}.{'who' if isinstance(guest, str) else 'name'}")
    return at | {player: f"guests.{i}.0.name" for i, player in enumerate(players) if player not in at}


# -- the answer, in words -------------------------------------------------------------------------


def answered(act: Act, seen: SeasonSeen, command: Mapping[str, Any], reply: Mapping[str, Any]) -> str:
    """What was done, in words (everyone by name; a new guest's link shown once)."""
    names = seen.names

    def matches(key: str) -> str:
        words = dict(season_matches(seen))
        return ", ".join(match_link(m, words.get(m, m)) for m in reply.get(key) or []) or "none running"

    player = escape(names.get(str(command.get("player", "")), str(command.get("player", ""))))
    said = {
        "decide": _decided(reply.get("decided", ""), player, act),
        "extend": f"The deadlines of the current turn are put off by {int(command.get('seconds', 0)) // 3600} hours.",
        "pause": f"Paused: its deadlines stop. Its matches paused: {matches('matches_paused')}.",
        "resume": f"Resumed: its deadlines run again. Its matches resumed: {matches('matches_resumed')}.",
        "cancel": f"Cancelled: nothing more is played. Its matches cancelled: {matches('matches_cancelled')}.",
        "recover": f"Its state machine runs again. Its matches recovered: {matches('matches_recovered')}.",
        "guests": f"The guests of episode {escape(str(reply.get('episode', '')))} are named.",
    }[act.act]
    return f'<p id="done">{said}</p>' + (_guest_links(reply, command) if act.act == "guests" else "")


def _decided(kind: str, player: str, act: Act) -> str:
    if kind == "naming":
        return f"{player} is named {escape(act.title.removeprefix('Name '))}."
    if kind == "replacement_tie":
        return f"{player} is the next EC."
    if kind == "death_match_tie":
        return f"{player} lost the Death Match and is eliminated."
    return f"{player} is the champion."


def _guest_links(reply: Mapping[str, Any], command: Mapping[str, Any]) -> str:
    named = {
        g["id"]: g.get("name") or g["id"]
        for guests in command.get("guests", {}).values()
        for g in guests
        if isinstance(g, dict)
    }
    links = reply.get("links") or {}
    if not links:
        return "<p>No guest is new to the season: nobody has a new link.</p>"
    rows = "".join(
        f'<tr><th scope="row">{escape(named.get(who, who))}</th>'
        f'<td><code id="link-{escape(who)}">{escape(link)}</code></td></tr>'
        for who, link in links.items()
    )
    return (
        "<p>Each new guest's link signs them in to their page: send each their own, privately. "
        f"<strong>These links are not shown again.</strong></p><table><thead><tr><th>Guest</th><th>Their page</th>"
        f"</tr></thead><tbody>{rows}</tbody></table>"
    )
