"""The host's settings for a season (RULINGS.md, "Seasons"): the cast, once, and the episodes;
every default is the ruling's. `read_settings` refuses settings that cannot make a season with
every reason, each naming the episode it is about, before anything is stored."""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any

from pydantic import Field, ValidationError, field_validator

from game_core.errors import GameCoreError, Reason, validation_reasons
from game_core.games import registry
from game_core.games.protocol import Model
from game_core.match.email_address import Email
from game_core.match.model import MAX_GARNETS, MAX_PLAYERS, MAX_SETTINGS_CHARS, MatchRequest, Name, ParticipantId, Zone
from game_core.season.errors import SettingsRefused
from game_core.season.shape import shape_of

MAX_SEASON_CHARS = 200_000
"""The season's settings as JSON at most: room for every game's largest fixed deals in several
episodes, and, compressed, far inside the 400 KB of the DynamoDB item that holds them."""
MAX_EPISODES = 32
"""More episodes than a cast of `MAX_PLAYERS` can play, each removing at least one player."""
HOURS = Annotated[int, Field(ge=1, le=366 * 24)]


class CastMember(Model):
    """A player of the season, as the host lists them once for every match of it."""

    id: ParticipantId
    name: Name = ""
    email: Email | None = None
    zone: Zone | None = None
    webhook: Annotated[str, Field(max_length=2048)] | None = None
    """The URL their notices are POSTed to (the match's `webhooks` entry for them)."""
    garnets: int = Field(default=0, ge=0, le=MAX_GARNETS)
    """Starting balance for a player the service has never seen (as a match's player entry)."""


class GameChoice(Model):
    """A game of the season: its id, its rule set (None: the game's default) and its settings."""

    game: str = Field(max_length=40)
    rule_set: str | None = Field(default=None, max_length=40)
    settings: dict[str, Any] = Field(default_factory=dict)

    @field_validator("settings")
    @classmethod
    def _settings_fit_a_match(cls, settings: dict[str, Any]) -> dict[str, Any]:
        size = len(json.dumps(settings, separators=(",", ":")))
        if size > MAX_SETTINGS_CHARS:  # what a match's settings file takes
            raise ValueError(f"the settings take {size} characters as JSON; at most {MAX_SETTINGS_CHARS}")
        return settings

    def match_settings(self) -> dict[str, Any]:
        """The match's `settings`: the game's settings with the rule set among them."""
        return self.settings | ({"rule_set": self.rule_set} if self.rule_set is not None else {})

    def label(self) -> str:
        return self.game if self.rule_set is None else f"{self.game} {self.rule_set}"


def _abstrac(rule_set: str) -> GameChoice:
    return GameChoice(game="abstrac", rule_set=rule_set)


class EpisodeSettings(Model):
    """One episode: its Main Match, and the game of its Death Matches (two players each)."""

    main: GameChoice
    death_match: GameChoice = Field(default_factory=lambda: _abstrac("row"))


class SeasonSettings(Model):
    name: Name = ""
    cast: list[CastMember] = Field(min_length=2, max_length=MAX_PLAYERS)
    episodes: list[EpisodeSettings] = Field(min_length=1, max_length=MAX_EPISODES)
    naming_hours: HOURS = 24
    """How long an EC has to name an opponent (and to spend a ToL) before the host names."""
    host_hours: HOURS = 24
    """How long the host then has before a lot names (drawn with the season's seed)."""
    tol_spending: bool = False
    """An EC holding a ToL may spend one to be safe; the next-lowest becomes EC in their place."""
    finals_at: int = Field(default=2, ge=2, le=MAX_PLAYERS)
    """The Finals begin when this many players are left (finalists included)."""
    final: GameChoice = Field(default_factory=lambda: _abstrac("deal"))
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    """As the service draws one (63 random bits) when none is given: every match's seed and every
    lot derive from it."""
    host_email: Email | None = None
    host_zone: Zone | None = None
    match_options: dict[str, Any] = Field(default_factory=dict)
    """What every match of the season is created with besides its game, players and seed (a
    match settings file's other fields: phase_seconds, early_close, reminders, press, ...)."""

    @field_validator("cast")
    @classmethod
    def _cast_told_apart(cls, cast: list[CastMember]) -> list[CastMember]:
        named: dict[str, str] = {}
        for member in cast:
            for word in dict.fromkeys((member.id.lower(), (member.name or member.id).lower())):
                if named.get(word, member.id) != member.id:
                    raise ValueError(
                        f"{word!r} would name both {named[word]!r} and {member.id!r}: give each a name of their own"
                    )
                named[word] = member.id
        return cast


OWN_FIELDS = frozenset({"game", "settings", "players", "seed", "host_email", "host_zone", "webhooks"})
"""A match request's fields the season fills itself (not `match_options`)."""


def derived_seed(seed: int, label: str) -> int:
    """A seed of its own for each match and lot of the season ("episode 2 main"), drawn from the
    season's: the same season seed gives the same matches and lots on replay."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{label}".encode()).digest()[:8], "big") >> 1


def match_request(
    settings: SeasonSettings, game: GameChoice, players: list[str], seed: int, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The match settings file (a `MatchRequest`'s JSON) of a season's match among `players`, in
    that order: the cast's contacts, the season's host and options, `extra` game settings (the
    Death Match's protected player) over the choice's."""
    cast = {member.id: member for member in settings.cast}
    entries = [cast[player].model_dump(exclude={"webhook"}, exclude_none=True) for player in players]
    hooks = {player: cast[player].webhook for player in players if cast[player].webhook}
    host = {"host_email": settings.host_email, "host_zone": settings.host_zone}
    return settings.match_options | {
        "game": game.game,
        "settings": game.match_settings() | (extra or {}),
        "players": entries,
        "seed": seed,
        **{key: value for key, value in host.items() if value is not None},
        **({"webhooks": hooks} if hooks else {}),
    }


def read_settings(data: Any) -> SeasonSettings:
    """The season's settings from the host's file, or `SettingsRefused` with every reason."""
    try:
        settings = SeasonSettings.model_validate(data)
    except ValidationError as error:
        raise SettingsRefused("the season's settings are not valid", validation_reasons(error, "settings")) from None
    size = len(settings.model_dump_json())
    if size > MAX_SEASON_CHARS:
        text = f"the settings take {size} characters as JSON; at most {MAX_SEASON_CHARS}"
        raise SettingsRefused("the season's settings are too large", [Reason("too_large", text)])
    reasons = _option_reasons(settings) + _game_reasons(settings) + projection_reasons(settings)
    if reasons:
        raise SettingsRefused("these settings cannot make a season", reasons)
    return settings


def _option_reasons(settings: SeasonSettings) -> list[Reason]:
    taken = sorted(OWN_FIELDS & settings.match_options.keys())
    if taken:
        text = f"match_options may not set {', '.join(taken)}: the season sets them itself"
        return [Reason("season_owns_field", text)]
    trial = match_request(settings, settings.final, [m.id for m in settings.cast], 0)
    try:
        MatchRequest.model_validate(trial | {"game": "crates", "settings": {}})
    except ValidationError as error:
        return validation_reasons(error, "match_options", prefix="match_options.")
    return []


def _choice_reasons(choice: GameChoice, where: str) -> list[Reason]:
    try:
        game = registry.load(choice.game)
        game.Settings.model_validate(choice.match_settings())
    except GameCoreError as error:
        return [Reason(reason.code, f"{where}: {reason.text}") for reason in error.reasons]
    except ValidationError as error:
        return validation_reasons(error, where, prefix=f"{where} ({choice.label()}) settings.")
    return []


def _game_reasons(settings: SeasonSettings) -> list[Reason]:
    reasons: list[Reason] = []
    for number, episode in enumerate(settings.episodes, start=1):
        reasons += _choice_reasons(episode.main, f"episode {number} main match")
        reasons += _choice_reasons(episode.death_match, f"episode {number} death match")
        reasons += _count_reasons(episode.death_match, 2, 2, f"episode {number} death match")
    return reasons + _choice_reasons(settings.final, "final")


def _count_reasons(choice: GameChoice, fewest: int, most: int, where: str) -> list[Reason]:
    """Why `choice` cannot be played by every count from `fewest` to `most` (none when it can, or
    is no known game)."""
    text = count_refused(choice, fewest, most, where)
    return [Reason("player_count", text)] if text else []


def count_refused(choice: GameChoice, fewest: int, most: int, where: str) -> str | None:
    """Why `choice` cannot be played by every count from `fewest` to `most`, in words (None when
    it can, or is no known game)."""
    if choice.game not in registry.AVAILABLE:
        return None
    game = registry.load(choice.game)
    if game.min_players <= fewest and most <= game.max_players:
        return None
    takes = _between(game.min_players, game.max_players)
    if fewest == most:
        return f"{where} ({choice.label()}) would have {fewest} players; {game.id} takes {takes}"
    return (
        f"{where} ({choice.label()}) may have {_between(fewest, most)} players (an EC who spends a ToL with"
        f" nobody to replace them stays in the season); {game.id} takes {takes}: turn tol_spending off, or"
        f" choose a game that takes {_between(fewest, most)}"
    )


def _between(low: int, high: int) -> str:
    return str(low) if low == high else f"{low} to {high}"


def projected_players(settings: SeasonSettings) -> list[int]:
    """The players of each episode at fewest (`projected_spans`)."""
    return [fewest for fewest, _most in projected_spans(settings)[0]]


def projected_spans(settings: SeasonSettings) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """The players of each episode at fewest and at most, and the players left after the last.
    Fewest: as the games' shapes (`shape`) say, every Death Match eliminating its loser: the players
    left, less the finalists, less one per Death Match of each episode before. Most: with
    `tol_spending`, every EC's spend lapsing once a Main Match before has given ToL
    (`Shape.fewest_death_matches`)."""
    spans, fewest, most, finalists, tol_given = [], len(settings.cast), len(settings.cast), 0, False
    for episode in settings.episodes:
        shape = shape_of(episode.main.game)
        spans.append((fewest - finalists, most - finalists))
        fewest -= shape.death_matches(fewest - finalists)
        most -= shape.fewest_death_matches(most - finalists, settings.tol_spending and tol_given)
        finalists += shape.finalists
        tol_given = tol_given or shape.awards_tol
    return spans, (fewest, most)


def projection_reasons(settings: SeasonSettings) -> list[Reason]:
    """Each episode's game for every count it may see; the Finals reached exactly after the last
    episode at fewest (none listed past them, none short of them) and their game for every count
    from `finals_at` to the most left after the last episode."""
    reasons: list[Reason] = []
    left = len(settings.cast)
    spans, (fewest, most) = projected_spans(settings)
    for number, ((players, most_players), episode) in enumerate(zip(spans, settings.episodes, strict=True), 1):
        if left <= settings.finals_at:
            at = settings.finals_at
            text = f"episode {number} would never be played: {left} left before it; the Finals begin at {at}"
            reasons.append(Reason("past_the_finals", text))
            break
        reasons += _count_reasons(episode.main, players, most_players, f"episode {number} main match")
        left -= shape_of(episode.main.game).death_matches(players)
    if left > settings.finals_at:
        last, finals_at = len(settings.episodes), settings.finals_at
        text = f"after episode {last} {left} players would be left, more than finals_at ({finals_at}): add episodes"
        reasons.append(Reason("short_of_the_finals", text))
    elif left < settings.finals_at:
        text = (
            f"episode {len(settings.episodes)} would leave {left} players, fewer than finals_at ({settings.finals_at})"
        )
        reasons.append(Reason("below_the_finals", text))
    spread = most - fewest  # the players spent ToL may keep in (none without tol_spending)
    return reasons + _count_reasons(settings.final, settings.finals_at, settings.finals_at + spread, "final")
