"""The host's decision of the ties a result left standing across the ToL or EC line (`decide`):
match-host decide, and a season's tied Death Match.
"""

from __future__ import annotations

from typing import Any

from game_core.errors import Illegal, Reason


def decide(result: dict[str, Any], order: list[str]) -> dict[str, Any]:
    """The result with the host's decision of the ties the rules left standing across the ToL or
    EC line: `order` ranks every undecided player, best first. Each tied group takes distinct
    places in that order, and its line goes to the first of them (ToL) or the last (EC)."""
    undecided = list(result.get("undecided", []))
    if not undecided:
        raise Illegal("there is no tie for the host to decide", [Reason("nothing_undecided", "the result is decided")])
    if sorted(order) != sorted(undecided) or len(set(order)) != len(order):
        text = f"rank exactly the undecided players, best first: {', '.join(undecided)}"
        raise Illegal("the decision does not rank the tied players", [Reason("not_the_undecided", text)])
    decided = dict(result) | {"undecided": [], "decision": list(order)}
    decided.pop("tied_lines")
    standings = {s["player"]: dict(s) for s in result["standings"]}
    for tied in result["tied_lines"]:
        group = [player for player in order if player in tied["players"]]
        first = min(standings[player]["place"] for player in group)
        for rank, player in enumerate(group):
            standings[player]["place"] = first + rank
            standings[player]["tied_with"] = [p for p in standings[player]["tied_with"] if p not in group]
        if tied["line"] == "tol":
            chosen = group[: tied["places"]]
            decided["tol"] = [p for p in decided["tol"] if p not in group] + chosen
            kept = {p: n for p, n in decided["tol_awarded"].items() if p not in group}
            decided["tol_awarded"] = kept | {p: tied["award"] for p in chosen}
        else:
            decided["ec"] = [p for p in decided["ec"] if p not in group] + group[len(group) - tied["places"] :]
    decided["standings"] = sorted(standings.values(), key=lambda s: s["place"])
    return decided
