"""The season's standing as everyone may see it (every player's notices and page show it): who
is left, each player's ToL and garnets won, the episodes so far with their ECs, namings and Death
Matches, what the season waits on, and the champion. Nothing in a season is private; the cast's
secrets (hashed) are left out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game_core.season.settings import SeasonSettings
from game_core.season.state import Episode, SeasonPlayer, SeasonState
from game_core.season.waiting import as_json, waits_now


def standing(settings: SeasonSettings, state: SeasonState) -> dict[str, Any]:
    names = {member.id: member.name or member.id for member in settings.cast}
    return {
        "season_id": state.season_id,
        "name": settings.name,
        "stage": state.stage,
        "champion": state.champion,
        "players": [_player(p, names[p.id], state.champion) for p in state.players],
        "left": state.left,
        "episodes": [_episode(settings, e) for e in state.episodes],
        "episodes_planned": len(settings.episodes),
        "finals": {"match_id": state.finals_match_id, "players": state.finals_players}
        if state.finals_match_id
        else None,
        "waiting": [as_json(wait, state.season_id) for wait in waits_now(settings, state)],
        "opened_at": state.opened_at.isoformat() if state.opened_at else None,
    }


def player_status(player: SeasonPlayer, champion: str | None) -> str:
    """Where a player stands in the season, in words: champion, eliminated, finalist or in."""
    if player.id == champion:
        return "champion"
    if player.eliminated_in is not None:
        return f"eliminated in episode {player.eliminated_in}"
    if player.finalist_in is not None:
        return f"finalist (episode {player.finalist_in})"
    return "in"


def _player(player: SeasonPlayer, name: str, champion: str | None) -> dict[str, Any]:
    status = player_status(player, champion)
    return {"id": player.id, "name": name, "tol": player.tol, "garnets_won": player.garnets_won, "status": status}


def _episode(settings: SeasonSettings, episode: Episode) -> dict[str, Any]:
    return {
        "number": episode.number,
        "game": settings.episodes[episode.number - 1].main.label(),
        "main_match_id": episode.main_match_id,
        "stage": episode.stage,
        "players": episode.players,
        "places": episode.places,
        "ecs": episode.ecs,
        "safe": episode.safe,
        "namings": [n.model_dump(exclude_defaults=True) for n in episode.namings],
        "death_matches": [
            {"ec": d.ec, "opponent": d.opponent, "protected": d.protected, "match_id": d.match_id, "loser": d.loser}
            for d in episode.death_matches
        ],
        "eliminated": [d.loser for d in episode.death_matches if d.loser is not None],
    }


def episode_line(episode: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One episode of the standing in words: its game, ECs, namings and who was eliminated."""
    ecs = ", ".join(names.get(p, p) for p in episode.get("ecs", [])) or "none yet"
    named = "; ".join(
        f"{names.get(n['ec'], n['ec'])} named {names.get(n['opponent'], n['opponent'])}"
        for n in episode.get("namings", [])
        if n.get("opponent")
    )
    out = ", ".join(names.get(p, p) for p in episode.get("eliminated", []))
    return f"{episode['game']}: ECs {ecs}" + (f"; {named}" if named else "") + (f"; eliminated {out}" if out else "")
