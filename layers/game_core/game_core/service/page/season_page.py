"""The season's page for a player of one of its matches (GET /play/{match_id}/season): the
season's standing (who is left, ToL, garnets won, each episode's ECs, namings and eliminations),
and for an Elimination Candidate whose turn it is the form to spend or keep a ToL or to name an
opponent among those they may name (POST /play/{match_id}/season). The match's page session
proves the player (its secret is their season secret); each act is `season.acts.ec_act_proven`,
taken once, a refusal shown above the form in words, nothing changed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game_core.errors import GameCoreError, NotFound
from game_core.season.naming import eligible
from game_core.season.standing import episode_line, standing
from game_core.season.state import SeasonState
from game_core.service.page import play
from game_core.service.page.html import document, esc
from game_core.service.ports import Ports
from game_core.service.season.acts import ec_act_proven

NOTICES = {"name": "Your opponent is named.", "spend": "You spent a Token of Life.", "keep": "You keep your ToL."}


@dataclass(frozen=True, kw_only=True)
class SeasonSeen(play.Signed):
    """What the season's page shows: the standing, whom the reader may name (if it is their turn),
    whether they may spend, and a notice or a refusal's reasons."""

    season: dict[str, Any]
    may_name: list[str]
    may_spend: bool
    said: list[str]


def _season_of(ports: Ports, match_id: str) -> str:
    link = ports.season_links.linked(match_id) if ports.season_links is not None else None
    if link is None or ports.seasons is None:
        raise NotFound(f"match {match_id} is no season's")
    return link.season_id


def show_season(ports: Ports, match_id: str, cookie: str | None, said: list[str] | None = None) -> SeasonSeen:
    seen = play.read(ports, match_id, cookie)
    stored = ports.seasons.season(_season_of(ports, match_id)) if ports.seasons else None
    assert stored is not None  # _season_of refused a deployment without seasons
    me = seen.session.participant
    waits = {w["kind"]: w["who"] for w in standing(stored.settings, stored.state)["waiting"]}
    return SeasonSeen(
        match=seen.match,
        session=seen.session,
        now=seen.now,
        season=standing(stored.settings, stored.state),
        may_name=_may_name(stored.state, me) if me in waits.get("naming", []) else [],
        may_spend=me in waits.get("spend", []),
        said=said or [],
    )


def _may_name(state: SeasonState, ec: str) -> list[str]:
    episode = state.episode
    return list(eligible(state, episode, ec).players) if episode is not None else []


def season_act(ports: Ports, match_id: str, cookie: str | None, fields: Mapping[str, str]) -> tuple[SeasonSeen, bool]:
    """The act the form holds, taken once; the page after it, and whether it was done."""
    seen = play.read(ports, match_id, cookie)
    act = fields.get("act", "")
    try:
        play.checked_form(seen, fields)
        if act not in NOTICES:
            raise NotFound(f"{act!r} is no act of a season: name, spend or keep")
        ec_act_proven(ports, _season_of(ports, match_id), seen.session.participant, act, fields.get("opponent", ""))  # type: ignore[arg-type]
    except GameCoreError as error:
        return show_season(ports, match_id, cookie, [reason.text for reason in error.reasons]), False
    return show_season(ports, match_id, cookie, [NOTICES[act]]), True


def season_html(seen: SeasonSeen) -> str:
    season, match_id = seen.season, seen.match.match_id
    names = {p["id"]: p["name"] for p in season["players"]}
    rows = "".join(
        f'<tr><th scope="row">{esc(p["name"])}</th><td>{p["tol"]}</td><td>{p["garnets_won"]}</td>'
        f"<td>{esc(p['status'])}</td></tr>\n"
        for p in season["players"]
    )
    episodes = "".join(f"<li>{esc(episode_line(e, names))}</li>\n" for e in season["episodes"])
    body = (
        f"<header>\n<h1>Season {esc(season['name'] or season['season_id'])}</h1>\n"
        f'<nav><a id="page-link" href="/play/{esc(match_id)}">Your page</a></nav>\n</header>\n'
        + "".join(f'<p class="notice" role="status">{esc(line)}</p>\n' for line in seen.said)
        + _act_forms(seen, names)
        + '<section aria-labelledby="standing-h"><h2 id="standing-h">Standing</h2>\n<table id="standing">\n'
        "<tr><th>Player</th><th>ToL</th><th>Garnets won</th><th>Status</th></tr>\n"
        f'{rows}</table>\n<h2>Episodes</h2>\n<ol id="episodes">\n{episodes}</ol>\n</section>'
    )
    return document(f"Season {season['season_id']}", f"<main>\n{body}\n</main>")


def _act_forms(seen: SeasonSeen, names: Mapping[str, str]) -> str:
    match_id, csrf = esc(seen.match.match_id), esc(seen.session.csrf)
    opening = (
        f'<form method="post" action="/play/{match_id}/season">\n<input type="hidden" name="csrf" value="{csrf}">\n'
    )
    forms = ""
    if seen.may_spend:
        forms += (
            f"{opening}<p>You are an Elimination Candidate holding a Token of Life.</p>\n"
            '<button type="submit" name="act" value="spend">Spend a ToL</button>\n'
            '<button type="submit" name="act" value="keep">Keep it</button>\n</form>\n'
        )
    if seen.may_name:
        options = "".join(f'<option value="{esc(p)}">{esc(names.get(p, p))}</option>' for p in seen.may_name)
        forms += (
            f'{opening}<input type="hidden" name="act" value="name">\n'
            f'<label for="opponent">Your Death Match opponent</label>\n'
            f'<select id="opponent" name="opponent">{options}</select>\n'
            '<button type="submit">Name them</button>\n</form>\n'
        )
    return f'<section id="act" aria-label="Your turn">\n{forms}</section>\n' if forms else ""
