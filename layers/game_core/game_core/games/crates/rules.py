"""The rules of Pushing Crates as pure functions: movement and points, what a round may hold,
resolving the pregame and a round, and the final ranking and result."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from game_core.errors import Reason
from game_core.games.crates.models import (
    MULTIPLIERS,
    ROUNDS,
    CratesState,
    MultipliersSubmission,
    RoundRecord,
    RoundSubmission,
)
from game_core.games.protocol import PhaseKind, Result
from game_core.games.standings import lines, standings

TIMELINE = (
    PhaseKind("Pregame", ("multipliers",)),
    PhaseKind("Round 1", ("round", "multipliers")),
    *(PhaseKind(f"Round {number}", ("round",)) for number in range(2, ROUNDS + 1)),
)
"""Round 1 also takes a late change of multipliers."""

GROUND_MULTIPLIER = {"rubber": 0, "stone": 1, "ice": 3}
GROUND_LIMIT = {"rubber": 1, "ice": 2}
"""How many times a match a ground may be chosen; stone is unlimited."""
FREE_PUSHES = 3
TOL_COUNT, EC_COUNT = 3, 2
"""The top three receive Tokens of Life, the bottom two are Elimination Candidates."""

_TIMES = {1: "once", 2: "twice"}


def movement(rights: int, lefts: int, ground: str) -> int:
    """Steps a crate moves right: nothing unless right pushes outnumber left ones."""
    if rights <= lefts:
        return 0
    return (rights - lefts) * GROUND_MULTIPLIER[ground]


def multiples_of_five_crossed(start: int, end: int) -> int:
    """How many multiples of 5 lie in (start, end]: crossed or met, the start excluded."""
    return end // 5 - start // 5


def round_points(start: int, end: int, multiplier: int) -> int:
    return multiples_of_five_crossed(start, end) * multiplier


def extra_pushes(count: int) -> int:
    """Garnets a round of `count` pushes spends: one per push beyond the free three."""
    return max(0, count - FREE_PUSHES)


def extra_pushes_text(count: int) -> str:
    needed = extra_pushes(count)
    garnets = "garnet" if needed == 1 else "garnets"
    return f"{count} pushes need {needed} {garnets} (one per push beyond the free {FREE_PUSHES})"


def garnets_for(points: int) -> int:
    return max(0, points // 3)


def _rounds_text(rounds: list[int]) -> str:
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    return "rounds " + ", ".join(str(r) for r in rounds[:-1]) + f" and {rounds[-1]}"


def round_reasons(state: CratesState, player: str, move: RoundSubmission) -> list[Reason]:
    """Every reason a round submission is illegal for `player` now (a multipliers submission is
    legal whenever it is accepted: its model enforces the permutation)."""
    reasons = []
    for number, push in enumerate(move.pushes, start=1):
        if push.crate not in state.players:
            text = f"push {number} names crate {push.crate!r}, which is not a player of this match"
            reasons.append(Reason("crate_unknown", text))
    limit = GROUND_LIMIT.get(move.ground)
    if limit is not None:
        used = [r for r, record in enumerate(state.records[player], start=1) if record.ground == move.ground]
        if len(used) >= limit:
            text = (
                f"{move.ground} may be chosen at most {_TIMES[limit]} a match, "
                f"and you already chose it in {_rounds_text(used)}"
            )
            reasons.append(Reason("ground_used_up", text))
    return reasons


def resolve_pregame(state: CratesState, sent: Mapping[str, MultipliersSubmission | None]) -> CratesState:
    pregame = dict(state.pregame_multipliers)
    for player in state.players:
        chosen = sent[player]
        if chosen is not None:
            pregame[player] = list(chosen.multipliers)
    return state.model_copy(update={"pregame_multipliers": pregame, "phase": 1})


def _fixed_multipliers(
    state: CratesState, late_multipliers: Mapping[str, MultipliersSubmission | None]
) -> dict[str, Any]:
    """Round 1 fixes each player's multipliers: those sent with it, else the pregame's, else the
    default; the state's update."""
    round1 = dict(state.round1_multipliers)
    multipliers = dict(state.multipliers)
    for player in state.players:
        chosen = late_multipliers[player]
        if chosen is not None:
            round1[player] = list(chosen.multipliers)
        multipliers[player] = list(round1.get(player) or state.pregame_multipliers.get(player) or MULTIPLIERS)
    return {"round1_multipliers": round1, "multipliers": multipliers}


def resolve_round(
    state: CratesState,
    moves: Mapping[str, RoundSubmission | None],
    late_multipliers: Mapping[str, MultipliersSubmission | None],
    rng: random.Random,
) -> CratesState:
    """Round `state.phase`: fix the multipliers (round 1), push, move, score and reveal mod 5; after
    round 6 draw the lot. Rulings: a player who sent nothing pushes nothing on stone.

    The new state shares with `state` everything the round does not change (no deep copy): each
    list that grows is a new list, so `state` itself is never changed."""
    round_number = state.phase
    update: dict[str, Any] = _fixed_multipliers(state, late_multipliers) if round_number == 1 else {}
    multipliers = update.get("multipliers", state.multipliers)
    rights = dict.fromkeys(state.players, 0)
    lefts = dict.fromkeys(state.players, 0)
    records = dict(state.records)
    for player in state.players:
        move = moves[player]
        if move is None:
            record = RoundRecord(pushes=[], ground="stone", submitted=False)
        else:
            record = RoundRecord(pushes=list(move.pushes), ground=move.ground, submitted=True)
        records[player] = [*state.records[player], record]
        for push in record.pushes:
            (rights if push.direction == "right" else lefts)[push.crate] += 1

    reveal = {}
    locations = dict(state.locations)
    points = dict(state.points)
    for player in state.players:
        start = state.locations[player][-1] if state.locations[player] else 0
        end = start + movement(rights[player], lefts[player], records[player][-1].ground)
        locations[player] = [*state.locations[player], end]
        points[player] = [*state.points[player], round_points(start, end, multipliers[player][round_number - 1])]
        reveal[player] = end % 5
    update |= {
        "records": records,
        "locations": locations,
        "points": points,
        "reveals": [*state.reveals, reveal],
        "phase": round_number + 1,
    }
    if round_number == ROUNDS:
        if state.lot_override is not None:
            update["lot"] = list(state.lot_override)
        else:
            lot = list(state.players)
            rng.shuffle(lot)
            update["lot"] = lot
    return state.model_copy(update=update)


def total(state: CratesState, player: str) -> int:
    return sum(state.points[player])


def result(state: CratesState) -> Result:
    """Points first, then the location at the end of round 6, 5, ..., 1 (further right is better),
    then the lot (earlier in it is better). The top three are ToL, the bottom two EC; the second
    to last picks a Death Match opponent first."""
    totals = {p: total(state, p) for p in state.players}
    lot = state.lot or state.players
    merits: dict[str, tuple[int, ...]] = {p: (totals[p], *reversed(state.locations[p])) for p in state.players}
    order = sorted(state.players, key=lambda p: (tuple(-x for x in merits[p]), lot.index(p)))
    lot_decided = len(set(merits.values())) < len(merits)
    placed = {p: (merits[p], -lot.index(p)) for p in order}
    tol, ec = lines(order, TOL_COUNT, EC_COUNT)
    return Result(
        standings=standings(order, placed, {p: str(totals[p]) for p in order}),
        tol=tol,
        ec=ec,
        garnets={p: garnets_for(totals[p]) for p in state.players},
        details={
            "points": totals,
            "lot_decided": lot_decided,
            "lot": list(state.lot or []),
            "first_to_pick_opponent": order[-2] if len(ec) == 2 else None,
        },
    )
