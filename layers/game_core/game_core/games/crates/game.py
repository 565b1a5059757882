"""Pushing Crates as a `Game`: a pregame for multipliers, then six rounds of pushes and ground.

Secrets and when they leave: a player's multipliers, pushes and grounds never leave except in
that player's own view; exact locations never leave (only each crate's location mod 5, publicly,
after each round); each player's running total is told privately after each round; at the end
every final score and the standings are public, with the lot when it decided a tie.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel

from game_core.errors import Illegal
from game_core.games.crates.models import (
    MULTIPLIERS,
    ROUNDS,
    CratesSettings,
    CratesState,
    MultipliersSubmission,
    RoundRecord,
    RoundSubmission,
)
from game_core.games.crates.rules import (
    FREE_PUSHES,
    GROUND_LIMIT,
    extra_pushes,
    garnets_for,
    line_counts,
    movement,
    rank,
    round_points,
)
from game_core.games.protocol import GameSettings, Model, OpenPhase, PhaseKind, Resolution, Result, Standing

TIMELINE = (
    PhaseKind("Pregame", ("multipliers",)),
    PhaseKind("Round 1", ("round", "multipliers")),
    *(PhaseKind(f"Round {number}", ("round",)) for number in range(2, ROUNDS + 1)),
)

_TIMES = {1: "once", 2: "twice"}


M = TypeVar("M", bound=BaseModel)


def _parse(model: type[M], value: Any) -> M:
    return value if isinstance(value, model) else model.model_validate(value)


def _rounds_text(rounds: list[int]) -> str:
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    return "rounds " + ", ".join(str(r) for r in rounds[:-1]) + f" and {rounds[-1]}"


def _total(state: CratesState, player: str) -> int:
    return sum(state.points[player])


class CratesGame:
    id: ClassVar[str] = "crates"
    title: ClassVar[str] = "Pushing Crates"
    Settings = CratesSettings
    State = CratesState
    submissions: dict[str, type[Model]] = {"multipliers": MultipliersSubmission, "round": RoundSubmission}
    min_players = 2
    max_players = 16

    # -- timeline -------------------------------------------------------------------------------

    def timeline(self, settings: GameSettings) -> tuple[PhaseKind, ...]:
        return TIMELINE

    def setup(self, settings: GameSettings, players: tuple[str, ...], rng: random.Random) -> CratesState:
        if not isinstance(settings, CratesSettings):
            base = settings.model_dump() if isinstance(settings, GameSettings) else settings
            settings = CratesSettings.model_validate(base)
        if not self.min_players <= len(players) <= self.max_players:
            raise Illegal(f"Pushing Crates takes {self.min_players} to {self.max_players} players, not {len(players)}")
        if len(set(players)) != len(players):
            raise Illegal("a player is listed twice")
        if settings.lot is not None and sorted(settings.lot) != sorted(players):
            raise Illegal("the lot must name every player of the match exactly once")
        return CratesState(
            players=list(players),
            lot_override=None if settings.lot is None else list(settings.lot),
            records={p: [] for p in players},
            locations={p: [] for p in players},
            points={p: [] for p in players},
        )

    def open_phase(self, state: CratesState) -> OpenPhase | None:
        if state.phase > ROUNDS:
            return None
        kind = TIMELINE[state.phase]
        # Round 1 also takes a late change of multipliers, but early close waits only for the round.
        expects = ("multipliers",) if kind.name == "Pregame" else ("round",)
        return OpenPhase(name=kind.name, accepts=kind.accepts, actors=tuple(state.players), expects=expects)

    # -- submissions ----------------------------------------------------------------------------

    def check(self, state: CratesState, player: str, kind: str, submission: Model, garnets: int) -> list[str]:
        phase = self.open_phase(state)
        if phase is None or kind not in phase.accepts:
            return [f"{kind!r} submissions are not accepted now"]
        if player not in state.players:
            return [f"{player!r} is not a player of this match"]
        if kind == "multipliers":
            _parse(MultipliersSubmission, submission)  # the model itself enforces the permutation
            return []
        move = _parse(RoundSubmission, submission)
        reasons = []
        for number, push in enumerate(move.pushes, start=1):
            if push.crate not in state.players:
                reasons.append(f"push {number} names crate {push.crate!r}, which is not a player of this match")
        ground = move.ground
        if ground in GROUND_LIMIT:
            limit = GROUND_LIMIT[ground]
            used = [r for r, record in enumerate(state.records[player], start=1) if record.ground == ground]
            if len(used) >= limit:
                reasons.append(
                    f"{ground} may be chosen at most {_TIMES[limit]} a match, "
                    f"and you already chose it in {_rounds_text(used)}"
                )
        count = len(move.pushes)
        needed = extra_pushes(count)
        if needed > garnets:
            reasons.append(
                f"{count} pushes need {needed} garnet{'s' if needed != 1 else ''} "
                f"(one per push beyond the free {FREE_PUSHES}), but your balance is {garnets}"
            )
        return reasons

    def garnet_cost(self, kind: str, submission: Model) -> int:
        if kind != "round":
            return 0
        return extra_pushes(len(_parse(RoundSubmission, submission).pushes))

    # -- resolution -----------------------------------------------------------------------------

    def resolve(self, state: CratesState, resolution: Resolution) -> CratesState:
        """The new state shares with `state` everything the phase does not change (no deep copy):
        each list that grows is a new list, so `state` itself is never changed."""
        if state.phase > ROUNDS:
            raise ValueError("the match is over; there is no phase to resolve")
        submitted = resolution.submissions

        def sent(player: str, kind: str) -> Any:
            value = submitted.get(player, {}).get(kind)
            return None if value is None else _parse(self.submissions[kind], value)

        if state.phase == 0:
            pregame = dict(state.pregame_multipliers)
            for player in state.players:
                chosen = sent(player, "multipliers")
                if chosen is not None:
                    pregame[player] = list(chosen.multipliers)
            return state.model_copy(update={"pregame_multipliers": pregame, "phase": 1})

        round_number = state.phase
        update: dict[str, Any] = {}
        multipliers = state.multipliers
        if round_number == 1:
            round1 = dict(state.round1_multipliers)
            multipliers = dict(state.multipliers)
            for player in state.players:
                chosen = sent(player, "multipliers")
                if chosen is not None:
                    round1[player] = list(chosen.multipliers)
                multipliers[player] = list(round1.get(player) or state.pregame_multipliers.get(player) or MULTIPLIERS)
            update |= {"round1_multipliers": round1, "multipliers": multipliers}

        rights = dict.fromkeys(state.players, 0)
        lefts = dict.fromkeys(state.players, 0)
        records = dict(state.records)
        for player in state.players:
            chosen = sent(player, "round")
            if chosen is None:
                record = RoundRecord(pushes=[], ground="stone", submitted=False)
            else:
                record = RoundRecord(pushes=list(chosen.pushes), ground=chosen.ground, submitted=True)
            records[player] = [*state.records[player], record]
            for push in record.pushes:
                if push.crate in rights:
                    (rights if push.direction == "right" else lefts)[push.crate] += 1

        reveal = {}
        locations = dict(state.locations)
        points = dict(state.points)
        for player in state.players:
            start = state.locations[player][-1] if state.locations[player] else 0
            ground = records[player][-1].ground
            end = start + movement(rights[player], lefts[player], ground)
            multiplier = multipliers[player][round_number - 1]
            locations[player] = [*state.locations[player], end]
            points[player] = [*state.points[player], round_points(start, end, multiplier)]
            reveal[player] = end % 5
        update |= {
            "records": records,
            "locations": locations,
            "points": points,
            "reveals": [*state.reveals, reveal],
            "phase": round_number + 1,
        }
        if round_number + 1 > ROUNDS:
            if state.lot_override is not None:
                update["lot"] = list(state.lot_override)
            else:
                lot = list(state.players)
                resolution.rng.shuffle(lot)
                update["lot"] = lot
        return state.model_copy(update=update)

    # -- what leaves ----------------------------------------------------------------------------

    def _ranking(self, state: CratesState) -> tuple[list[str], bool]:
        totals = {p: _total(state, p) for p in state.players}
        return rank(state.players, totals, state.locations, state.lot or state.players)

    def view(self, state: CratesState, player: str | None) -> dict[str, Any]:
        over = state.phase > ROUNDS
        public: dict[str, Any] = {
            "game": self.id,
            "phase": None if over else TIMELINE[state.phase].name,
            "round": None if over else state.phase,
            "round_count": ROUNDS,
            "over": over,
            "players": list(state.players),
            "multipliers_to_assign": list(MULTIPLIERS),
            "reveals": [
                {"round": number, "mod5": dict(reveal)} for number, reveal in enumerate(state.reveals, start=1)
            ],
        }
        if over:
            order, lot_decided = self._ranking(state)
            tol_count, ec_count = line_counts(len(order))
            final: dict[str, Any] = {
                "scores": {p: _total(state, p) for p in state.players},
                "standings": [
                    {"place": place, "player": p, "score": str(_total(state, p))}
                    for place, p in enumerate(order, start=1)
                ],
                "tol": order[:tol_count],
                "ec": order[len(order) - ec_count :],
                "lot_decided": lot_decided,
            }
            if lot_decided:
                final["lot"] = list(state.lot or [])
            public["final"] = final
        if player is None:
            return {"public": public}
        if player not in state.players:
            return {"public": public, "private": {}}

        running = 0
        rounds = []
        for number, (record, points) in enumerate(
            zip(state.records[player], state.points[player], strict=True), start=1
        ):
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
        private = {
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
        return {"public": public, "private": private}

    def result(self, state: CratesState) -> Result:
        if state.phase <= ROUNDS:
            raise ValueError("the match is not over")
        order, lot_decided = self._ranking(state)
        totals = {p: _total(state, p) for p in state.players}
        tol_count, ec_count = line_counts(len(order))
        return Result(
            standings=tuple(
                Standing(player=p, place=place, score=str(totals[p])) for place, p in enumerate(order, start=1)
            ),
            tol=tuple(order[:tol_count]),
            ec=tuple(order[len(order) - ec_count :]),
            garnets={p: garnets_for(totals[p]) for p in state.players},
            details={
                "points": totals,
                "lot_decided": lot_decided,
                "lot": list(state.lot or []),
                "first_to_pick_opponent": order[-2] if ec_count == 2 else None,
            },
        )
