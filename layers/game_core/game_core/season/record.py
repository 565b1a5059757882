"""A season's exported record: its settings, its state as it stood, its log (hash-chained as a
match's is, `match.chain`, from the season's own genesis) and the record of every match it played.

Replayed (`replayed`), each match gives its result from its own record (the host's ranking of a
tie applied), and the season's log is stepped through again on those results (`season.replay`):
the same ECs, namings, lots, Death Match losers and champion, or `ReplayMismatch` at the first
step that differs. What the replay cannot redo and need not: the version, the waits' start, the
secrets' hashes and the guests' contacts (`_UNREPLAYED`)."""

from __future__ import annotations

from typing import Any

from game_core.games.protocol import Model
from game_core.match.model import MatchRecord
from game_core.match.replay import replay as replay_match
from game_core.season.replay import ReplayMismatch, replay
from game_core.season.settings import SeasonSettings
from game_core.season.state import SeasonEvent, SeasonState

_UNREPLAYED = {"version", "opened_at", "secret_hashes", "guests"}


class SeasonRecord(Model):
    """The exported season: replaying it gives the same eliminations and champion."""

    season_id: str
    settings: dict[str, Any]
    state: dict[str, Any]
    events: list[dict[str, Any]]
    """The season's log in order, each {type, at, data, prev} (`prev`: the hash chain)."""
    matches: list[MatchRecord]
    """Every match of the season, in the order it began (Main Match, Death Matches, Finals)."""


def is_season_record(loaded: Any) -> bool:
    """Whether an exported JSON is a season's (a match's has `match_id`, no `season_id`)."""
    return isinstance(loaded, dict) and "season_id" in loaded and "matches" in loaded


def match_ids(state: SeasonState) -> list[str]:
    """Every match the season began, in order: each episode's Main Match and Death Matches, then
    the Finals."""
    found: list[str] = []
    for episode in state.episodes:
        found.append(episode.main_match_id)
        found += [dm.match_id for dm in episode.death_matches if dm.match_id]
    return found + ([state.finals_match_id] if state.finals_match_id else [])


def results(record: SeasonRecord) -> dict[str, dict[str, Any]]:
    """Each finished match's result as its own record replays to (ValueError: one does not)."""
    replayed = {match.match_id: replay_match(match)["result"] for match in record.matches}
    return {match_id: result for match_id, result in replayed.items() if result is not None}


def replayed(record: SeasonRecord) -> SeasonState:
    """The season as its log and its matches' records make it again; ReplayMismatch when that is
    not the state the record holds."""
    settings = SeasonSettings.model_validate(record.settings)
    log = [SeasonEvent(event["type"], event.get("data", {})) for event in record.events]
    state = replay(settings, record.season_id, log, results(record))
    held = SeasonState.model_validate(record.state)
    if _outcome(state) != _outcome(held):
        raise ReplayMismatch("the log and the matches replay to another season than the record's state")
    return state


def _outcome(state: SeasonState) -> dict[str, Any]:
    return state.model_dump(mode="json", exclude=_UNREPLAYED)


def summary(state: SeasonState) -> list[str]:
    """The season as a person reads it: each episode's ECs, namings and who left, then the Finals."""
    lines = [f"Season {state.season_id}: {len(state.players)} players ({', '.join(p.id for p in state.players)})"]
    for episode in state.episodes:
        lines += ["", f"== Episode {episode.number}: Main Match {episode.main_match_id} =="]
        lines.append(f"Elimination Candidates: {', '.join(episode.ecs) or 'none'}")
        lines += [f"Safe by a Token of Life: {p}" for p in episode.safe]
        for naming in episode.namings:
            named = "nobody (unopposed)" if naming.unopposed else f"{naming.opponent} (by {naming.by})"
            lines.append(f"{naming.ec} named {named}")
        for dm in episode.death_matches:
            lost = f"{dm.loser} eliminated" if dm.loser else "not over"
            lines.append(f"Death Match {dm.match_id}: {dm.ec} v {dm.opponent}: {lost}")
    finalists = [p.id for p in state.players if p.finalist_in is not None or p.left]
    if state.finals_match_id:
        lines += ["", f"== Finals {state.finals_match_id}: {', '.join(state.finals_players or finalists)} =="]
    lines.append(f"Champion: {state.champion}" if state.champion else f"The season is not over ({state.stage}).")
    return lines
