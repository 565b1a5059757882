"""What a season waits on now, for the machine that drives it and for the host's status: each
wait names its kind, who may end it, and the match it is about."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from game_core.season.death_match import next_step
from game_core.season.guests import guests_wanted
from game_core.season.naming import eligible, naming_turn
from game_core.season.settings import SeasonSettings
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
    "guests",  # the host to name each player's guests before the episode begins (no deadline)
    "unplayable",  # the host: the next match's game does not take the players left (`why`)
]


@dataclass(frozen=True)
class Waiting:
    kind: WaitKind
    who: tuple[str, ...] = ()
    """The players who may act (the host may act for any wait); a tie's tied players."""
    match_id: str | None = None
    among: tuple[str, ...] = ()
    """Who a naming may name; whom the host names guests for."""
    episode: int = 0
    """The episode a guests or unplayable wait holds back (0: the Finals)."""
    guests_each: int = 0
    """How many guests the host names for each player."""
    why: str = ""
    """An unplayable wait's reason, in words."""


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


def waits_now(settings: SeasonSettings, state: SeasonState) -> list[Waiting]:
    """What the season waits on now, the host's acts between episodes included (`pending`'s, or,
    between episodes, the coming episode's guests or a match its game cannot seat)."""
    waits = pending(state)
    if waits:
        return waits
    coming = next_step(state, settings)
    if coming.kind == "guests":
        each = guests_wanted(settings, coming.number)
        return [Waiting("guests", among=tuple(coming.players), episode=coming.number, guests_each=each)]
    if coming.kind == "unplayable":
        return [Waiting("unplayable", among=tuple(coming.players), episode=coming.number, why=coming.why)]
    return []


def says(wait: Waiting, season_id: str) -> str:
    """The wait in words: who acts, what they do, and how (the host's command)."""
    decide = f"match-host season decide {season_id} PLAYER"
    who, among = ", ".join(wait.who), ", ".join(wait.among)
    match wait.kind:
        case "main_match" | "finals":
            return f"the players of match {wait.match_id} to play it to its end"
        case "death_match":
            return f"{who} to play their Death Match {wait.match_id or '(starting)'} to its end"
        case "spend":
            return f"{who} to spend a ToL or keep it (then the naming begins)"
        case "naming":
            silent = f"if they are silent, the host ({decide}), then a lot"
            return f"{who} to name a Death Match opponent among {among}; {silent}"
        case "replacement_tie" | "champion_tie":
            what = "the EC" if wait.kind == "replacement_tie" else "the champion"
            return f"the host to pick {what} among {who}: {decide}"
        case "death_match_tie":
            tied = f"the tied Death Match {wait.match_id} ({who})"
            return f"the host to name the loser of {tied}: {decide} --match {wait.match_id}"
        case "guests":
            each = f"{wait.guests_each} guest{'s' if wait.guests_each != 1 else ''}"
            return (
                f"the host to name {each} for each of {among} before episode {wait.episode} begins:"
                f" match-host season guests {season_id} GUESTS.json (no deadline: the episode waits for them)"
            )
        case "unplayable":
            return (
                f"the host: {wait.why} (a tie or a spent ToL kept more in than the settings projected)."
                f" The season cannot go on as it was set: cancel it (match-host season cancel {season_id})"
                " and play the rest by hand; recover would find the same"
            )
    return wait.kind


def as_json(wait: Waiting, season_id: str) -> dict[str, Any]:
    """A wait as the season's status and standing show it, its words (`says`) included."""
    seen: dict[str, Any] = {"kind": wait.kind, "who": list(wait.who), "match_id": wait.match_id}
    seen["among"] = list(wait.among)
    if wait.kind in ("guests", "unplayable"):
        seen["episode"] = wait.episode
    if wait.kind == "guests":
        seen["guests_each"] = wait.guests_each
    return seen | {"says": says(wait, season_id)}
