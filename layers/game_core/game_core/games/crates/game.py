"""Pushing Crates as a `Game`: a pregame for multipliers, then six rounds of pushes and ground.

Thin: the rules are in `rules.py`, what leaves in `views.py`.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from game_core.errors import Illegal, Reason
from game_core.games.crates import rules, views
from game_core.games.crates.models import (
    SUBMISSIONS,
    CratesSettings,
    CratesState,
    MultipliersSubmission,
    RoundSubmission,
)
from game_core.games.crates.text import CratesText
from game_core.games.demo import Demo
from game_core.games.protocol import Model, OpenPhase, PhaseKind, Resolution, Result, RulesText


class CratesGame:
    id: ClassVar[str] = "crates"
    title: ClassVar[str] = "Pushing Crates"
    Settings = CratesSettings
    State = CratesState
    submissions = SUBMISSIONS
    text = CratesText()
    rules_text = RulesText()
    demo = Demo(players=12, few=4, private_seat=views.change_private_seat, public_parts=frozenset({"rounds.round"}))
    min_players = 2
    max_players = 16

    def timeline(self, settings: CratesSettings) -> tuple[PhaseKind, ...]:
        return rules.TIMELINE

    def setup(self, settings: CratesSettings, players: tuple[str, ...], rng: random.Random) -> CratesState:
        if settings.lot is not None and sorted(settings.lot) != sorted(players):
            text = "the lot must name every player of the match exactly once"
            raise Illegal(text, [Reason("lot_players", text)])
        return CratesState(
            players=list(players),
            lot_override=None if settings.lot is None else list(settings.lot),
            records={p: [] for p in players},
            locations={p: [] for p in players},
            points={p: [] for p in players},
        )

    def open_phase(self, state: CratesState) -> OpenPhase | None:
        if state.phase > rules.ROUNDS:
            return None
        kind = rules.TIMELINE[state.phase]
        # Round 1 also takes a late change of multipliers, but it waits only for the round.
        owed = ("multipliers",) if kind.name == "Pregame" else ("round",)
        players = tuple(state.players)
        return OpenPhase(kind.name, kind.accepts, players, owes={player: owed for player in players})

    def check(self, state: CratesState, player: str, kind: str, submission: Model) -> list[Reason]:
        if isinstance(submission, RoundSubmission):
            return rules.round_reasons(state, player, submission)
        return []  # multipliers: the model itself enforces the permutation

    def garnet_cost(self, kind: str, submission: Model) -> int:
        return rules.extra_pushes(len(submission.pushes)) if isinstance(submission, RoundSubmission) else 0

    def cost_text(self, kind: str, submission: Model) -> str:
        assert isinstance(submission, RoundSubmission)
        return rules.extra_pushes_text(len(submission.pushes))

    def resolve(self, state: CratesState, resolution: Resolution) -> CratesState:
        multipliers = {p: resolution.sent(p, "multipliers", MultipliersSubmission) for p in state.players}
        if state.phase == 0:
            return rules.resolve_pregame(state, multipliers)
        moves = {p: resolution.sent(p, "round", RoundSubmission) for p in state.players}
        return rules.resolve_round(state, moves, multipliers, resolution.rng)

    def view(self, state: CratesState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def result(self, state: CratesState) -> Result:
        if state.phase <= rules.ROUNDS:
            raise ValueError("the match is not over")
        return rules.result(state)
