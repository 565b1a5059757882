"""A season as the host reads it on the host page (local_stack/laptop/season_pages.py serves it): where
it stands (episode and its stage, the Finals, the champion), who is left with their Tokens of Life
(ToL), the finalists, what it waits on in words (an Elimination Candidate's (EC's) naming: whose
turn, until when, then the host's turn, then a lot), and a link to each of its matches on the
matches page. Everyone by name, never raw JSON.

Read from the stack's ports as the page's match status is: the season's settings and state (one
read), when it was paused, and whether its state machine still runs (a stopped one is stalled:
`recover`)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import Any

from game_core.games import registry
from game_core.match.clock import moment_text
from game_core.season.death_match import next_step
from game_core.season.guests import guests_wanted
from game_core.season.settings import GameChoice
from game_core.season.standing import player_status
from game_core.season.state import SeasonState
from game_core.season.waiting import Waiting, pending
from game_core.service.ports import Ports
from game_core.service.season.machine import deadlines
from game_core.service.season.ports import StoredSeason

OVER = ("over", "cancelled")
EPISODE_STAGES = {
    "main_match": "its Main Match",
    "spending": "the ECs say whether they spend a ToL",
    "naming": "the ECs name their opponents",
    "death_matches": "its Death Matches",
    "done": "done",
}


@dataclass(frozen=True)
class SeasonSeen:
    """One season as read for the page: stored, paused since when, its machine running or not."""

    stored: StoredSeason
    paused_at: datetime | None
    running: bool
    now: datetime

    @property
    def season_id(self) -> str:
        return self.stored.state.season_id

    @property
    def state(self) -> SeasonState:
        return self.stored.state

    @property
    def names(self) -> dict[str, str]:
        """Everyone of the season by name (the cast, and the guests the host named), else their id."""
        named = {member.id: member.name or member.id for member in self.stored.settings.cast}
        for guests in self.state.guests.values():
            for entries in guests.values():
                named |= {g["id"]: g.get("name") or g["id"] for g in entries if g["id"] not in named}
        return named

    @property
    def stalled(self) -> bool:
        """Its machine stopped before the season ended (a stalled match, a failure): `recover`."""
        return not self.running and self.state.stage not in OVER

    @property
    def waits(self) -> list[Waiting]:
        return pending(self.state)

    @property
    def guests_episode(self) -> int:
        """The coming episode whose guests the host names now (0: none to name)."""
        coming = next_step(self.state, self.stored.settings)
        if coming.kind == "guests":
            return coming.number
        number = len(self.state.episodes) + 1  # named already: the host may name them again until it begins
        settings = self.stored.settings
        if coming.kind == "episode" and number <= len(settings.episodes) and guests_wanted(settings, number):
            return number
        return 0

    def label(self) -> str:
        return f"{self.stored.settings.name} ({self.season_id})" if self.stored.settings.name else self.season_id


def read_season(ports: Ports, season_id: str) -> SeasonSeen:
    """The season as stored (NotFound for none), with its pause and whether its machine runs."""
    assert ports.seasons is not None and ports.season_links is not None, "the local stack keeps seasons"
    stored = ports.seasons.season(season_id)
    links = ports.season_links
    running = ports.workflow.season_running(season_id, links.attempt(season_id))
    return SeasonSeen(stored, links.paused_at(season_id), running, ports.clock.now())


def season_ids(dynamodb: Any) -> list[str]:
    """Every season in the table, by id (one Scan of the table's headers)."""
    pages = dynamodb.get_paginator("scan").paginate(
        TableName=os.environ["TABLE_NAME"],
        FilterExpression="sk = :header AND begins_with(pk, :season)",
        ExpressionAttributeValues={":header": {"S": "META"}, ":season": {"S": "SEASON#"}},
        ProjectionExpression="pk",
    )
    return sorted(item["pk"]["S"].removeprefix("SEASON#") for page in pages for item in page["Items"])


# -- in words -------------------------------------------------------------------------------------


def game_words(choice: GameChoice) -> str:
    """A season's game by its title, and its rule set where it names one ("Abstrac, rule set deal")."""
    title = registry.load(choice.game).title if choice.game in registry.AVAILABLE else choice.game
    return f"{title}, rule set {choice.rule_set}" if choice.rule_set else title


def listed(names: Mapping[str, str], ids: Iterable[str]) -> str:
    """Players by name: "Ada", "Ada and Bo", "Ada, Bo and Cy" ("nobody": none)."""
    said = [names.get(player, player) for player in ids]
    return " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said) or "nobody"


def match_link(match_id: str | None, text: str) -> str:
    """A link to the match's section of the matches page."""
    if not match_id:
        return escape(text)
    return f'<a href="/#match-{escape(match_id)}">{escape(text)}</a>'


def where(seen: SeasonSeen) -> str:
    """The season's stage in words: its episode and what it is at, the Finals, or over."""
    state, settings = seen.state, seen.stored.settings
    if state.stage == "over":
        return f"Over: {seen.names.get(state.champion or '', state.champion or 'nobody')} is the champion"
    if state.stage == "cancelled":
        return "Cancelled"
    if state.stage == "finals":
        return f"The Finals ({game_words(settings.final)})"
    episode = state.episode
    if episode is None:
        return "Starting its first episode"
    game = game_words(settings.episodes[episode.number - 1].main)
    return f"Episode {episode.number} of {len(settings.episodes)} ({game}): {EPISODE_STAGES[episode.stage]}"


def wait_lines(seen: SeasonSeen) -> list[str]:
    """What the season waits on, each a line of HTML (its match linked; the deadlines of a turn)."""
    names, lines = seen.names, []
    for wait in seen.waits:
        lines.append(_wait_line(seen, wait, names))
    if seen.guests_episode and str(seen.guests_episode) not in seen.state.guests:
        number = seen.guests_episode
        game = game_words(seen.stored.settings.episodes[number - 1].main)
        lines.append(f"You: name each player's guests for episode {number} ({escape(game)}), below")
    if seen.paused_at is not None:
        since = moment_text(seen.paused_at, seen.now, seen.stored.settings.host_zone)
        lines.append(f"Paused since {escape(since)}: its deadlines are put off by the pause when it resumes")
    if seen.stalled:
        lines.append("Stalled: its state machine stopped. Recover recovers each stalled match, then goes on")
    return lines


def _wait_line(seen: SeasonSeen, wait: Waiting, names: Mapping[str, str]) -> str:
    named = listed(names, wait.who)
    who = escape(named)
    if wait.kind in ("main_match", "death_match", "finals"):
        what = {"main_match": "The Main Match", "death_match": f"The Death Match of {named}", "finals": "The Finals"}
        return f"{match_link(wait.match_id, what[wait.kind])} to end"
    if wait.kind == "naming":
        turn = f"{who} to name a Death Match opponent among {escape(listed(names, wait.among))}"
        return f"{turn}: {_deadlines(seen, 'a lot names for them')}"
    if wait.kind == "spend":
        return f"{who} to spend a Token of Life or keep it: {_deadlines(seen, 'they keep it', host=False)}"
    if wait.kind == "replacement_tie":
        return f"You: pick the next EC among {who} (tied)"
    if wait.kind == "death_match_tie":
        return f"You: name the loser of the tied {match_link(wait.match_id, 'Death Match')} of {who}"
    return f"You: pick the champion among {who} (tied in the Finals)"


def _deadlines(seen: SeasonSeen, then: str, host: bool = True) -> str:
    ec, host_deadline = deadlines(seen.stored)
    zone = seen.stored.settings.host_zone
    said = f"theirs until {moment_text(ec, seen.now, zone)}"
    if host:
        said += f"; then yours until {moment_text(host_deadline, seen.now, zone)}"
    said += f"; then {then}"
    return escape(said + (" (paused)" if seen.paused_at is not None else ""))


def _rows(rows: Iterable[tuple[str, str]]) -> str:
    """Definition rows, each value HTML already."""
    return "".join(f"<dt>{escape(label)}</dt><dd>{value}</dd>" for label, value in rows)


def facts(seen: SeasonSeen) -> str:
    """The season's facts as a list: stage, who is left and their ToL, finalists, champion, waits, matches."""
    state, names = seen.state, seen.names
    left = [
        f"{names.get(p.id, p.id)} ({p.tol} ToL)" if p.tol else names.get(p.id, p.id) for p in state.players if p.left
    ]
    rows = [("Stage", escape(where(seen))), ("Left", escape(", ".join(left) or "nobody"))]
    if state.finalists:
        rows.append(("Finalists", escape(listed(names, state.finalists))))
    if state.champion:
        rows.append(("Champion", escape(names.get(state.champion, state.champion))))
    rows += [("Waiting for", line) for line in wait_lines(seen)]
    rows.append(("Matches", ", ".join(match_link(m, label) for m, label in season_matches(seen)) or "none yet"))
    return f'<dl class="season-facts">{_rows(rows)}</dl>'


def season_matches(seen: SeasonSeen) -> list[tuple[str, str]]:
    """Each match the season began, in order, with its words ("Episode 1 Main Match")."""
    found: list[tuple[str, str]] = []
    names = seen.names
    for episode in seen.state.episodes:
        found.append((episode.main_match_id, f"Episode {episode.number} Main Match"))
        found += [
            (dm.match_id, f"Episode {episode.number} Death Match of {listed(names, dm.players)}")
            for dm in episode.death_matches
            if dm.match_id
        ]
    if seen.state.finals_match_id:
        found.append((seen.state.finals_match_id, "The Finals"))
    return found


def summary(seen: SeasonSeen) -> str:
    """The season on the matches page: its facts, and the way to its page (the host's acts)."""
    season_id = escape(seen.season_id)
    return (
        f'<section class="season" id="season-{season_id}" aria-labelledby="season-title-{season_id}">'
        f'<h3 id="season-title-{season_id}"><a href="/seasons/{season_id}">{escape(seen.label())}</a></h3>'
        f"{facts(seen)}</section>"
    )


def standing_table(seen: SeasonSeen) -> str:
    """Every player of the cast: ToL held, garnets the season's matches won them, and where they stand."""
    rows = ""
    for player in seen.state.players:
        cells = (player.tol, player.garnets_won, player_status(player, seen.state.champion))
        rows += f'<tr><th scope="row">{escape(seen.names.get(player.id, player.id))}</th>'
        rows += "".join(f"<td>{escape(str(cell))}</td>" for cell in cells) + "</tr>"
    head = "".join(f'<th scope="col">{c}</th>' for c in ("Player", "Tokens of Life (ToL)", "Garnets won", "Status"))
    return f'<table id="season-standing"><caption>Standing</caption><tr>{head}</tr>{rows}</table>'


def episode_lines(seen: SeasonSeen) -> str:
    """Each episode so far: its game, ECs, namings (by whom), Death Matches and who was eliminated."""
    names, settings, items = seen.names, seen.stored.settings, []
    for episode in seen.state.episodes:
        ecs = listed(names, episode.ecs) if episode.ecs or episode.stage != "main_match" else "none yet"
        parts = [f"{game_words(settings.episodes[episode.number - 1].main)}: ECs {ecs}"]
        if episode.safe:
            parts.append(f"safe by a ToL: {listed(names, episode.safe)}")
        for naming in episode.namings:
            if naming.opponent:
                by = {"ec": "", "host": " (by you, the host)", "lot": " (by lot)"}[naming.by or "ec"]
                parts.append(f"{names.get(naming.ec, naming.ec)} named {names.get(naming.opponent)}{by}")
            elif naming.unopposed:
                parts.append(f"{names.get(naming.ec, naming.ec)} had nobody to name")
        out = [dm.loser for dm in episode.death_matches if dm.loser]
        if out:
            parts.append(f"eliminated {listed(names, out)}")
        main = match_link(episode.main_match_id, f"Episode {episode.number}")
        items.append(f"<li>{main}: {escape('; '.join(parts))}</li>")
    return f'<ol id="season-episodes">{"".join(items)}</ol>' if items else "<p>No episode has begun yet.</p>"
