"""What a match's result says for the season, read from the result as every match reports it
(`Result.to_json`, after the host's decision of a tie: `match.ties.decide`): the places, the
ToL line with each player's tokens (`tol_awarded`: "wins 2 ToL" is two), the EC line, the garnets
awarded, and what a game's details add: Clubs' `finals` (its winner goes to the Finals) and its
`death_match` pair with their `death_match_opponent` (the protected player)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game_core.season.errors import MatchUndecided, WrongMatch


@dataclass(frozen=True)
class FixedPair:
    ec: str
    opponent: str
    protected: str


@dataclass(frozen=True)
class MainOutcome:
    places: dict[str, int]
    winners: tuple[str, ...]
    """The ToL line (Clubs: its winner, who goes to the Finals)."""
    tol: dict[str, int]
    """Tokens of Life won, by player (none for a finalist: they never play a Death Match)."""
    ecs: tuple[str, ...]
    """The EC line, better-placed first (equal places in the standings' order)."""
    finalists: tuple[str, ...]
    pair: FixedPair | None
    garnets: dict[str, int]


def decided(result: Mapping[str, Any], match_id: str) -> Mapping[str, Any]:
    """The result, once no tie across a line waits for the host (MatchUndecided until then)."""
    if result.get("undecided"):
        tied = ", ".join(result["undecided"])
        raise MatchUndecided(f"match {match_id} has a tie for the host to decide first ({tied}): match-host decide")
    return result


def places_of(result: Mapping[str, Any], players: Sequence[str], match_id: str) -> dict[str, int]:
    """Each player's place; WrongMatch when the result is not of exactly these players."""
    places = {standing["player"]: int(standing["place"]) for standing in result["standings"]}
    if sorted(places) != sorted(players):
        raise WrongMatch(f"match {match_id}'s result is of {sorted(places)}, not of this season's {sorted(players)}")
    return places


def main_outcome(result: Mapping[str, Any], players: Sequence[str], match_id: str) -> MainOutcome:
    result = decided(result, match_id)
    places = places_of(result, players, match_id)
    details = result.get("details") or {}
    finalists = (details["finals"],) if details.get("finals") else ()
    awarded = result.get("tol_awarded") or {player: 1 for player in result["tol"]}
    order = {player: index for index, player in enumerate(places)}  # the standings' order
    return MainOutcome(
        places=places,
        winners=tuple(result["tol"]),
        tol={player: int(n) for player, n in awarded.items() if player not in finalists and int(n) > 0},
        ecs=tuple(sorted(result["ec"], key=lambda player: (places[player], order[player]))),
        finalists=finalists,
        pair=_fixed_pair(details),
        garnets={player: int(n) for player, n in (result.get("garnets") or {}).items()},
    )


def _fixed_pair(details: Mapping[str, Any]) -> FixedPair | None:
    pair, protected = details.get("death_match"), details.get("death_match_opponent")
    if not pair or protected is None:
        return None
    ec = next(player for player in pair if player != protected)
    return FixedPair(ec=ec, opponent=protected, protected=protected)


def loser_of(result: Mapping[str, Any], players: Sequence[str], match_id: str) -> str | None:
    """The one loser of a two-player match: its single EC (the last place alone). None when the
    result leaves them tied (no EC, both on it, or a tie for the host): the host decides."""
    places_of(result, players, match_id)
    if result.get("undecided"):
        return None
    ecs = list(result["ec"])
    return ecs[0] if len(ecs) == 1 else None


def firsts(result: Mapping[str, Any], players: Sequence[str], match_id: str) -> list[str]:
    """Every player in first place (several: a tie the host decides)."""
    places = places_of(result, players, match_id)
    return [player for player in players if places[player] == 1]
