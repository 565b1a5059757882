"""Results as matches report them (`Result.to_json`), written by hand from each game's results
rule, and settings for the seasons the tests play."""

from __future__ import annotations

from typing import Any

from game_core.games.protocol import Result, Standing, TiedLine
from game_core.season.death_match import death_match_ended, finals_ended, start_death_match, start_finals
from game_core.season.episode import main_match_ended, new_season, start_episode
from game_core.season.naming import name_opponent
from game_core.season.settings import SeasonSettings, read_settings
from game_core.season.state import SeasonState
from game_core.service.season.lifecycle import Step

CAST = ["ada", "bo", "cy", "di", "ed", "fay"]
DOMINO_FINAL = {"game": "domino"}
"""A final for seasons spending ToL: Domino takes 2 to 8 players, as many as a spend that lapses
may leave (RULINGS.md, "Seasons": each EC's spend with nobody to replace them keeps a player in)."""


def result(
    order: list[str],
    tol: dict[str, int] | None = None,
    ec: list[str] | None = None,
    garnets: dict[str, int] | None = None,
    details: dict[str, Any] | None = None,
    places: dict[str, int] | None = None,
    tied_lines: tuple[TiedLine, ...] = (),
) -> dict[str, Any]:
    """A match's result JSON: `order` best first, each in the next place unless `places` says
    (equal places are a tie: each names the others of its place)."""
    placed = places or {player: index for index, player in enumerate(order, start=1)}
    standings = tuple(
        Standing(
            player=player,
            place=placed[player],
            score=str(len(order) - index),
            tied_with=tuple(other for other in order if other != player and placed[other] == placed[player]),
        )
        for index, player in enumerate(order)
    )
    return Result(
        standings=standings,
        tol=tuple(tol or {}),
        ec=tuple(ec or ()),
        garnets=garnets or {player: 0 for player in order},
        tied_lines=tied_lines,
        details=details or {},
        tol_awarded=dict(tol or {}),
    ).to_json()


def duel(winner: str, loser: str) -> dict[str, Any]:
    """A two-player match (Abstrac) won by `winner`: the loser alone on the EC line."""
    return result([winner, loser], ec=[loser], details={"winner": winner, "loser": loser})


def settings(*mains: str, cast: list[str] = CAST, **options: Any) -> SeasonSettings:
    """A season of `cast` playing one episode per game in `mains`, seed 7 unless given."""
    episodes = [{"main": {"game": game}} for game in mains]
    return read_settings({"cast": [{"id": p} for p in cast], "episodes": episodes, "seed": 7} | options)


# -- the 6-player season of issue 31 (worked by hand in test_season_run.py) -------------------------

DOMINO = result(CAST, tol={"ada": 2}, ec=["fay"], garnets={"ada": 10, "bo": 8, "cy": 8, "di": 6, "ed": 6, "fay": 4})
"""Domino among all six: ada's square is 5 (2k = 10 garnets) and she wins 2 ToL; fay's is 2, EC."""
CRATES = result(["bo", "cy", "ada", "di", "ed"], tol={"bo": 1, "cy": 1, "ada": 1}, ec=["ed", "di"])
"""Crates among five: ToL to the top min(3, 5 - 2) = 3, EC the bottom min(2, 5 - 1) = 2."""
CLUBS = result(
    ["ed", "ada", "bo"],
    tol={"ed": 1},
    ec=["ada", "bo"],
    details={"finals": "ed", "death_match": ["ada", "bo"], "death_match_opponent": "ada"},
)
"""Clubs among ada, bo, ed: ed's team wins (to the Finals); ada, second, is bo's protected opponent."""


def six_player_steps() -> list[Step]:
    """Every step of the season, in order: what its machine and its players do."""
    return [
        lambda _settings, s: start_episode(s, 1, "m-dom"),
        lambda settings, s: main_match_ended(s, settings, "m-dom", DOMINO),
        lambda _settings, s: name_opponent(s, "fay", "di"),
        lambda _settings, s: start_death_match(s, "fay", "m-dm1"),
        lambda _settings, s: death_match_ended(s, "m-dm1", duel("di", "fay")),
        lambda _settings, s: start_episode(s, 2, "m-cr"),
        lambda settings, s: main_match_ended(s, settings, "m-cr", CRATES),
        lambda _settings, s: name_opponent(s, "di", "bo"),
        lambda _settings, s: name_opponent(s, "ed", "cy", by="host"),
        lambda _settings, s: start_death_match(s, "di", "m-dm2"),
        lambda _settings, s: start_death_match(s, "ed", "m-dm3"),
        lambda _settings, s: death_match_ended(s, "m-dm3", duel("ed", "cy")),
        lambda _settings, s: death_match_ended(s, "m-dm2", duel("bo", "di")),
        lambda _settings, s: start_episode(s, 3, "m-cl"),
        lambda settings, s: main_match_ended(s, settings, "m-cl", CLUBS),
        lambda _settings, s: start_death_match(s, "bo", "m-dm4"),
        lambda _settings, s: death_match_ended(s, "m-dm4", duel("bo", "ada")),
        lambda settings, s: start_finals(s, settings, "m-fin"),
        lambda _settings, s: finals_ended(s, "m-fin", duel("ed", "bo")),
    ]


def played(chosen: SeasonSettings, *steps: Step) -> SeasonState:
    """The season of `chosen` after `steps`, each taken once."""
    state = new_season(chosen, "s-test").state
    for step in steps:
        state = step(chosen, state).state
    return state


CAST7 = [*CAST, "gus"]


def first_episode(main: dict[str, Any], ec: str, opponent: str) -> list[Step]:
    """Episode 1 with the Main Match result `main`: its one EC names `opponent` and loses the
    Death Match; then episode 2 begins."""
    return [
        lambda _settings, s: start_episode(s, 1, "m-1"),
        lambda settings, s: main_match_ended(s, settings, "m-1", main),
        lambda _settings, s: name_opponent(s, ec, opponent),
        lambda _settings, s: start_death_match(s, ec, "m-1-dm"),
        lambda _settings, s: death_match_ended(s, "m-1-dm", duel(opponent, ec)),
        lambda _settings, s: start_episode(s, 2, "m-2"),
    ]


def first_domino_of_seven() -> list[Step]:
    """Episode 1 of a 7-player season: Domino won by fay (2 ToL), gus last (EC) names ed, and
    loses their Death Match."""
    return first_episode(result(["fay", "ada", "bo", "cy", "di", "ed", "gus"], tol={"fay": 2}, ec=["gus"]), "gus", "ed")


TOP_PLACES = {"fay": 1, "ed": 1, "ada": 3, "bo": 4, "cy": 5, "di": 6, "gus": 7}
TOP_TIED = result(list(TOP_PLACES), tol={"fay": 1, "ed": 1}, ec=["gus"], places=TOP_PLACES)
"""Palindrome among seven: fay and ed tie at the top ("players tied at the top win 1 ToL each"),
gus lowest is EC."""


def first_palindrome_of_seven() -> list[Step]:
    """Episode 1 of a 7-player season: `TOP_TIED`; gus names di and loses."""
    return first_episode(TOP_TIED, "gus", "di")


BOTTOM_TIED = result(
    ["ada", "bo", "cy", "di", "ed", "fay"],
    tol={"ada": 2},
    ec=["ed", "fay"],
    places={"ada": 1, "bo": 2, "cy": 3, "di": 3, "ed": 5, "fay": 5},
)
"""Palindrome among six: ada wins (2 ToL); cy and di share 3rd; ed and fay share the lowest
score, both EC ("players tied at the bottom are all named")."""


TWO_MAY_SPEND = {
    "cast": [{"id": p} for p in CAST7],
    "episodes": [{"main": {"game": g}} for g in ("palindrome", "palindrome", "domino", "domino", "domino")],
    "tol_spending": True,
    "final": DOMINO_FINAL,  # Domino takes 2 to 8; spent ToL may leave up to 6 for the Finals
}
"""Seven players, ToL spending on: with `two_may_spend`'s steps, both ECs of episode 2 may spend."""


def two_may_spend() -> list[Step]:
    """Episode 1 left fay and ed a ToL each (`first_palindrome_of_seven`); episode 2's Palindrome
    (`BOTTOM_TIED`) makes both EC, so both may spend."""
    return [*first_palindrome_of_seven(), lambda settings, s: main_match_ended(s, settings, "m-2", BOTTOM_TIED)]


SIX_RESULTS = {  # each match of `six_player_steps`, by id
    "m-dom": DOMINO,
    "m-dm1": duel("di", "fay"),
    "m-cr": CRATES,
    "m-dm2": duel("bo", "di"),
    "m-dm3": duel("ed", "cy"),
    "m-cl": CLUBS,
    "m-dm4": duel("bo", "ada"),
    "m-fin": duel("ed", "bo"),
}


def domino_ended() -> list[Step]:
    """The six-player season's first steps: Domino begins and ends (ada 2 ToL, fay EC)."""
    return six_player_steps()[:2]
