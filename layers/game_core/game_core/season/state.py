"""The season's carried state: who is in it with what, each episode as it went, and where the
season stands. Every transition (`episode`, `naming`, `death_match`) takes a `SeasonState` and
returns a `Stepped`: the new state and the events to record. No events: the step was applied
already (a retried or duplicated step), and nothing is to be written."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from game_core.games.protocol import Model
from game_core.season.errors import NotNow

Stage = Literal["episode", "finals", "over", "cancelled"]
EpisodeStage = Literal["main_match", "spending", "naming", "death_matches", "done"]
NamedBy = Literal["ec", "host", "lot"]
_EPISODE_AT: dict[str, str] = {
    "main_match": "'s Main Match is being played",
    "spending": "'s ECs are saying whether they spend a Token of Life",
    "naming": "'s ECs are naming their opponents",
    "death_matches": "'s Death Matches are being played",
    "done": " is over",
}
"""Where an episode stands, in words (a refusal of an act the season does not wait for)."""
_SEASON_AT: dict[str, str] = {
    "episode": "no episode has begun",
    "finals": "the Finals are being played",
    "over": "the season is over",
    "cancelled": "the season is cancelled",
}


class SeasonPlayer(Model):
    id: str
    tol: int = 0
    """Tokens of Life held now (won, less spent)."""
    garnets_won: int = 0
    """Garnets the season's matches awarded them (the balance itself is the player's, across
    every match: the store's garnets)."""
    eliminated_in: int | None = None
    """The episode whose Death Match they lost."""
    finalist_in: int | None = None
    """The episode whose Main Match sent them to the Finals."""

    @property
    def left(self) -> bool:
        return self.eliminated_in is None


class Naming(Model):
    """An EC's pick of their Death Match opponent."""

    ec: str
    opponent: str | None = None
    by: NamedBy | None = None
    lapsed: bool = False
    """Nobody eligible held no ToL: the ToL rule lapsed for this pick."""
    among: list[str] = Field(default_factory=list)
    """Who the pick was among (a lot's draw, recorded)."""
    unopposed: bool = False
    """Nobody was left to name: no Death Match for this EC."""

    @property
    def done(self) -> bool:
        return self.opponent is not None or self.unopposed


class DeathMatch(Model):
    ec: str
    opponent: str
    protected: str
    """The named player (or the game's "Death Match Opponent"): in Abstrac `row` they name who starts."""
    match_id: str | None = None
    loser: str | None = None
    by_host: bool = False
    tied: bool = False
    """The result left it tied: the host decides the loser."""

    @property
    def players(self) -> tuple[str, str]:
        return (self.ec, self.opponent)


class Episode(Model):
    number: int
    players: list[str]
    main_match_id: str
    stage: EpisodeStage = "main_match"
    places: dict[str, int] = Field(default_factory=dict)
    winners: list[str] = Field(default_factory=list)
    """The result's ToL line (a replacement EC is never one of them)."""
    ecs: list[str] = Field(default_factory=list)
    """The ECs in naming order: better-placed first."""
    safe: list[str] = Field(default_factory=list)
    """ECs who spent a ToL."""
    spend_pending: list[str] = Field(default_factory=list)
    """ECs holding a ToL who have not yet said whether they spend one."""
    replacement_tie: list[str] = Field(default_factory=list)
    """Tied for the next-lowest place after a spent ToL: the host decides who becomes EC."""
    namings: list[Naming] = Field(default_factory=list)
    death_matches: list[DeathMatch] = Field(default_factory=list)
    fixed_pair: bool = False

    def death_match(self, match_id: str) -> DeathMatch | None:
        return next((dm for dm in self.death_matches if dm.match_id == match_id), None)


class SeasonState(Model):
    season_id: str
    seed: int
    players: list[SeasonPlayer]
    """The cast, in its order."""
    episodes: list[Episode] = Field(default_factory=list)
    stage: Stage = "episode"
    finals_match_id: str | None = None
    finals_players: list[str] = Field(default_factory=list)
    champion_tie: list[str] = Field(default_factory=list)
    champion: str | None = None
    version: int = 0
    opened_at: datetime | None = None
    """When the season's current waits (`waiting.pending`) began: a naming turn's deadline is
    `naming_hours` after it, the host's `host_hours` after that (set by the service's step)."""
    guests: dict[str, dict[str, list[dict[str, Any]]]] = Field(default_factory=dict)
    """The guests the host named for an episode to come whose game hosts them: by episode number
    (as text), each player's guests' entries (`guests.name_guests`)."""
    secret_hashes: dict[str, str] = Field(default_factory=dict)
    """Each cast member's secret, hashed: every match of the season seats them with it."""

    def player(self, player_id: str) -> SeasonPlayer:
        found = next((p for p in self.players if p.id == player_id), None)
        if found is None:
            raise NotNow(f"{player_id} is not in season {self.season_id}")
        return found

    @property
    def left(self) -> list[str]:
        """The players still in the season (finalists included), in cast order."""
        return [p.id for p in self.players if p.left]

    @property
    def finalists(self) -> list[str]:
        return [p.id for p in self.players if p.finalist_in is not None]

    @property
    def episode(self) -> Episode | None:
        """The episode under way or last played; None before the first."""
        return self.episodes[-1] if self.episodes else None

    def current(self, *stages: EpisodeStage) -> Episode:
        """The episode under way, in one of `stages`; NotNow otherwise."""
        episode = self.episode
        if self.stage != "episode" or episode is None or episode.stage not in stages:
            where = (
                f"episode {episode.number}{_EPISODE_AT[episode.stage]}"
                if episode and self.stage == "episode"
                else _SEASON_AT[self.stage]
            )
            raise NotNow(f"season {self.season_id} is not waiting for that now: {where}")
        return episode


@dataclass(frozen=True)
class SeasonEvent:
    """One entry of the season's log (the service stamps its time)."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Stepped:
    """What a transition returns: the new state and the events to record (none: nothing changed)."""

    state: SeasonState
    events: tuple[SeasonEvent, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.events)


def unchanged(state: SeasonState) -> Stepped:
    return Stepped(state, ())


def copy(state: SeasonState) -> SeasonState:
    """A deep copy to change: a transition never changes the state it was given."""
    return state.model_copy(deep=True)
