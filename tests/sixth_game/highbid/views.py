"""What each player of Highest Unique Bid may know: every round's winner and winning amount, and
at the end the result; their own chips and bids, to themselves alone."""

from __future__ import annotations

from typing import Any

from highbid.models import ROUNDS, HighbidState
from highbid.rules import result


def view(state: HighbidState, player: str | None) -> dict[str, Any]:
    public: dict[str, Any] = {
        "players": state.players,
        "rounds": [{"round": r.round, "winner": r.winner, "amount": r.amount} for r in state.rounds],
    }
    if len(state.rounds) == ROUNDS:
        public["result"] = result(state).to_json()
    if player is None:
        return {"public": public}
    private = {"chips": state.chips[player], "bids": [r.bids[player] for r in state.rounds]}
    return {"public": public, "private": private}


def change_private_seat(state: dict[str, Any], q: str) -> None:
    """Change, in a state's JSON, everything only `q` may know: their bids (secret for good) and
    chips left (secret until the end, when the result shows them)."""
    for record in state["rounds"]:
        record["bids"][q] += 1
    if len(state["rounds"]) < ROUNDS:
        state["chips"][q] += 5
