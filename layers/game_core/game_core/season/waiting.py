"""What a season waits on now, for the machine that drives it and for the host's status: each
wait names its kind, who may end it, and the match it is about."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from game_core.season.naming import eligible, naming_turn
from game_core.season.state import SeasonState

WaitKind = Literal[
    "main_match",  # the episode's Main Match to end (its result, decided)
    "spend",  # an EC holding a ToL to spend it or keep it
    "replacement_tie",  # the host to pick the next EC among those tied
    "naming",  # an EC to name an opponent (then the host, then the lot)
    "death_match",  # a Death Match to start or to end
    "death_match_tie",  # the host to name the loser of a tied Death Match
    "finals",  # the Finals to end
    "champion_tie",  # the host to pick the champion among those tied
]


@dataclass(frozen=True)
class Waiting:
    kind: WaitKind
    who: tuple[str, ...] = ()
    """The players who may act (the host may act for any wait); a tie's tied players."""
    match_id: str | None = None
    among: tuple[str, ...] = ()
    """Who a naming may name."""


def pending(state: SeasonState) -> list[Waiting]:
    """Everything the season waits on now (empty between steps, and once it is over)."""
    if state.stage == "finals":
        if state.champion_tie:
            return [Waiting("champion_tie", tuple(state.champion_tie), state.finals_match_id)]
        return [Waiting("finals", tuple(state.finals_players), state.finals_match_id)]
    episode = state.episode
    if state.stage != "episode" or episode is None:
        return []
    if episode.stage == "main_match":
        return [Waiting("main_match", tuple(episode.players), episode.main_match_id)]
    if episode.stage == "spending":
        if episode.replacement_tie:
            return [Waiting("replacement_tie", tuple(episode.replacement_tie))]
        return [Waiting("spend", (ec,)) for ec in episode.spend_pending]
    if episode.stage == "naming":
        ec = naming_turn(state)
        return [Waiting("naming", (ec,), among=eligible(state, episode, ec).players)] if ec else []
    return [
        Waiting("death_match_tie" if dm.tied else "death_match", dm.players, dm.match_id)
        for dm in episode.death_matches
        if dm.loser is None
    ]
