"""The settings file (a `MatchRequest`'s JSON) of each match a season starts: the episode's Main
Match among its players, a Death Match between its pair, the Finals among the players left. Each
with its own seed derived from the season's (`settings.derived_seed`), so the same season replays
the same matches; the caller adds what it draws itself (secrets)."""

from __future__ import annotations

from typing import Any

from game_core.games import registry
from game_core.season.death_match import next_step
from game_core.season.episode import episode_players
from game_core.season.errors import NotNow
from game_core.season.settings import SeasonSettings, derived_seed, match_request
from game_core.season.state import DeathMatch, SeasonState


def main_request(
    settings: SeasonSettings, state: SeasonState, number: int, guests: dict[str, list[dict[str, Any]]] | None = None
) -> dict[str, Any]:
    """Episode `number`'s Main Match among its players (those of the episode once it has begun,
    else those it will have), each with the guests the host named for it (`guests.name_guests`;
    `guests` in their place)."""
    if not 1 <= number <= len(settings.episodes):
        raise NotNow(f"the season has no episode {number} (it has {len(settings.episodes)})")
    episode = next((e for e in state.episodes if e.number == number), None)
    players = episode.players if episode is not None else episode_players(state)
    request = match_request(
        settings, settings.episodes[number - 1].main, players, _seed(state, f"episode {number} main")
    )
    named = guests if guests is not None else state.guests.get(str(number), {})
    for entry in request["players"]:
        entry["guests"] = list(named.get(entry["id"], []))
    return request


def death_match_request(settings: SeasonSettings, state: SeasonState, number: int, dm: DeathMatch) -> dict[str, Any]:
    """The Death Match of `dm`'s pair in episode `number`: the protected player first, and named
    as the game's protected player where it has one (Abstrac `row`: they name who starts)."""
    choice = settings.episodes[number - 1].death_match
    fields = registry.load(choice.game).Settings.model_fields
    extra = {"protected": dm.protected} if "protected" in fields else {}
    players = [dm.protected, dm.ec if dm.protected == dm.opponent else dm.opponent]
    return match_request(settings, choice, players, _seed(state, f"episode {number} death match {dm.ec}"), extra)


def finals_request(settings: SeasonSettings, state: SeasonState) -> dict[str, Any]:
    """The Finals among every player left, in cast order."""
    players = state.finals_players or next_step(state, settings).players
    return match_request(settings, settings.final, players, _seed(state, "finals"))


def _seed(state: SeasonState, label: str) -> int:
    return derived_seed(state.seed, label)
