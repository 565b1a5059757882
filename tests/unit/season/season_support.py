"""Results as matches report them (`Result.to_json`), written by hand from each game's results
rule, and settings for the seasons the tests play."""

from __future__ import annotations

from typing import Any

from game_core.games.protocol import Result, Standing, TiedLine
from game_core.season.settings import SeasonSettings, read_settings

CAST = ["ada", "bo", "cy", "di", "ed", "fay"]


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
