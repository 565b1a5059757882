"""One bot match per request a test process, for the modules that check the same match: the
Clubs match test_full_matches.py plays (every game's common checks) is test_clubs_match.py's
(its garnets, thoughts and secrets), and a match takes a Clubs match's 12 seconds to play."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack
from local_stack.bots.play import seat
from local_stack.bots.runner import MatchRun, run_match

CLUBS_GARNETS = {"p01": 4, "p02": 2, "p03": 0}
CLUBS = {
    "game": "clubs",
    "settings": {"rule_set": "default"},
    "players": [seat(player, 1) | {"garnets": garnets} for player, garnets in CLUBS_GARNETS.items()],
    "phase_seconds": 3600,  # room for the bots' thinking; early close ends each phase once all is in
    "early_close": True,
    "seed": 77,
}
"""Puzzler's Clubs among three players, each with a guest and garnets to move (one with none)."""


@dataclass(frozen=True)
class Played:
    run: MatchRun
    exported: dict[str, Any]
    """The host's export of the match (its reply's "ok" taken out)."""
    items: list[dict[str, Any]]
    """Every item of the table once the match ended, as DynamoDB returns them."""
    live_state: Any
    """The match's state as the store holds it at the end."""
    balances: dict[str, int]
    """Each player's garnet balance at the end, and what is left in each purse of the match (a
    guest's)."""


def played(request: dict[str, Any]) -> Played:
    """The bot match of `request` played to its end on a stack of its own, once a process (each
    caller gets its own copy: nothing one test does shows in another's)."""
    return copy.deepcopy(_played(json.dumps(request, sort_keys=True)))


@cache
def _played(request_json: str) -> Played:
    request = json.loads(request_json)
    players = tuple(player["id"] for player in request["players"])
    with LocalStack(clock=VirtualClock()) as stack:
        # The clock moves only once every bot has acted and the machine waits: no bot is late.
        run = run_match(stack, request, timeout=240)
        exported = stack.host({"command": "export", "match_id": run.match_id})
        items = stack.client("dynamodb").scan(TableName="matches")["Items"]
        store = stack.ports().store
        live_state = store.get(run.match_id).state
        balances = store.balances(players) | store.purses(run.match_id)
    assert exported.pop("ok") is True
    return Played(run, exported, items, live_state, balances)
