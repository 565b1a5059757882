"""What each participant of Pushing Crates may know.

Public: the phase, every crate's location mod 5 after each round and, once the match is over, the
final scores, standings and lines (from `result`), with the lot when it decided a tie. Private to
a player: their own multipliers, pushes, grounds and running total. Exact locations never leave.
"""

from __future__ import annotations

from typing import Any

from game_core.games.crates.models import MULTIPLIERS, ROUNDS, CratesState
from game_core.games.crates.rules import GROUND_LIMIT, TIMELINE, result
from game_core.games.protocol import Result


def final_view(outcome: Result) -> dict[str, Any]:
    """The public account of a finished match, read off its result."""
    details = outcome.details
    final: dict[str, Any] = {
        "scores": dict(details["points"]),
        "standings": [{"place": s.place, "player": s.player, "score": s.score} for s in outcome.standings],
        "tol": list(outcome.tol),
        "ec": list(outcome.ec),
        "lot_decided": details["lot_decided"],
    }
    if details["lot_decided"]:
        final["lot"] = list(details["lot"])
    return final


def private_view(state: CratesState, player: str) -> dict[str, Any]:
    running = 0
    rounds = []
    for number, (record, points) in enumerate(zip(state.records[player], state.points[player], strict=True), start=1):
        running += points
        rounds.append(
            {
                "round": number,
                "pushes": [push.model_dump(mode="json") for push in record.pushes],
                "ground": record.ground,
                "submitted": record.submitted,
                "total": running,
            }
        )
    used = {ground: 0 for ground in ("rubber", "stone", "ice")}
    for record in state.records[player]:
        used[record.ground] += 1
    return {
        "multipliers": {
            "pregame": state.pregame_multipliers.get(player),
            "round_1": state.round1_multipliers.get(player),
            "standing": state.multipliers.get(player),
        },
        "rounds": rounds,
        "total": running,
        "grounds_used": used,
        "grounds_left": {ground: limit - used[ground] for ground, limit in GROUND_LIMIT.items()},
    }


def view(state: CratesState, player: str | None) -> dict[str, Any]:
    over = state.phase > ROUNDS
    public: dict[str, Any] = {
        "game": "crates",
        "phase": None if over else TIMELINE[state.phase].name,
        "round": None if over else state.phase,
        "round_count": ROUNDS,
        "over": over,
        "players": list(state.players),
        "multipliers_to_assign": list(MULTIPLIERS),
        "reveals": [{"round": number, "mod5": dict(reveal)} for number, reveal in enumerate(state.reveals, start=1)],
    }
    if over:
        public["final"] = final_view(result(state))
    if player is None:
        return {"public": public}
    if player not in state.players:
        return {"public": public, "private": {}}
    return {"public": public, "private": private_view(state, player)}


def change_private_seat(state: dict[str, Any], q: str) -> None:
    """Change, in a state's JSON, everything only `q` may know (`Demo.private_seat`).

    Secret for good: multipliers (every version), pushes and grounds. Secret until the end: the
    exact location (only mod 5 is revealed) and the running points (told to the owner only)."""
    for key in ("pregame_multipliers", "round1_multipliers", "multipliers"):
        state[key][q] = _other_permutation(state[key].get(q))
    for record in state["records"][q]:
        record["pushes"] = [{"crate": q, "direction": "left"}] * 4
        record["ground"] = "rubber" if record["ground"] != "rubber" else "ice"
        record["submitted"] = not record["submitted"]
    if state["phase"] <= ROUNDS:
        state["locations"][q] = [location + 5 for location in state["locations"][q]]
        state["points"][q] = [points + 1 for points in state["points"][q]]


def _other_permutation(multipliers: list[int] | None) -> list[int]:
    return [1, 2, 1, 0, -1, -1] if multipliers == [2, 1, 1, 0, -1, -1] else [2, 1, 1, 0, -1, -1]
