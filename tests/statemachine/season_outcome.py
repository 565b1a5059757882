"""What a season played by bots on the local stack came to, for the season tests to assert on."""

from __future__ import annotations

from typing import Any

from local_stack.aws.stack import LocalStack
from local_stack.bots.season_play import SeasonRun

DOMINO = {"game": "domino"}


def on_domino(settings: dict[str, Any]) -> dict[str, Any]:
    """`settings` with every Death Match and the Finals on Domino, the cheapest game a season
    allows there (RULINGS.md, "Seasons": each episode's Death Match game and the Finals' are the
    host's): 4 phases of two submissions, where the defaults' Abstrac takes 20 to 35 phases of one
    move. For the tests whose subject is the season, not Abstrac (the defaults are played by
    test_season_machine.py's silent EC)."""
    episodes = [episode | {"death_match": DOMINO} for episode in settings["episodes"]]
    return settings | {"episodes": episodes, "final": DOMINO}


def outcome(stack: LocalStack, run: SeasonRun) -> dict[str, Any]:
    """The season's run, state and log; each of its matches, in the order begun, and the status of
    its execution on its game's machine."""
    ports = stack.ports()
    assert ports.seasons is not None
    matches = [ports.store.get(match_id) for match_id in run.matches]
    return {
        "run": run,
        "state": ports.seasons.season(run.season_id).state,
        "events": ports.seasons.season_events(run.season_id),
        "matches": matches,
        "executions": [str(stack.execution(m.match_id, m.game)["status"]) for m in matches],
    }


def logged(events: list[Any], kind: str, *keys: str) -> list[tuple[Any, ...]]:
    """The `keys` of each event of the season's log of type `kind`, in order."""
    return [tuple(e.data.get(k) for k in keys) for e in events if e.type == kind]
