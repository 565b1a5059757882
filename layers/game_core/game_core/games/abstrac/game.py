"""Abstrac as a `protocol.Game`: two players, move by move, both rule sets."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from game_core.errors import Illegal
from game_core.games.abstrac import deal, row
from game_core.games.abstrac.models import Lay, Pick, Settings, Starter, State, Take
from game_core.games.protocol import GameSettings, Model, OpenPhase, PhaseKind, Resolution, Result


class Abstrac:
    id: ClassVar[str] = "abstrac"
    title: ClassVar[str] = "Abstrac"
    Settings = Settings
    State = State
    submissions: dict[str, type[Model]] = {"starter": Starter, "lay": Lay, "pick": Pick, "take": Take}
    min_players = 2
    max_players = 2

    def timeline(self, settings: GameSettings) -> tuple[PhaseKind, ...]:
        assert isinstance(settings, Settings)
        return row.TIMELINE if settings.rule_set == "row" else deal.TIMELINE

    def setup(self, settings: GameSettings, players: tuple[str, ...], rng: random.Random) -> State:
        assert isinstance(settings, Settings)
        reasons = []
        if len(players) != 2 or len(set(players)) != 2:
            reasons.append(f"Abstrac is for exactly 2 different players, not {len(players)}")
        for field in ("protected", "first_starter"):
            named = getattr(settings, field)
            if named is not None and named not in players:
                reasons.append(f"{field} names {named}, who is not a player in this match")
        if reasons:
            raise Illegal("these settings do not fit this match", reasons)
        state = State(settings=settings, players=list(players))
        if settings.rule_set == "row":
            state.row = row.setup(state)
        else:
            state.deal = deal.setup(state, rng)
        return state

    def _rules(self, state: Model) -> Any:
        assert isinstance(state, State)
        return row if state.settings.rule_set == "row" else deal

    def open_phase(self, state: Model) -> OpenPhase | None:
        phase: OpenPhase | None = self._rules(state).open_phase(state)
        return phase

    def check(self, state: Model, player: str, kind: str, submission: Model, garnets: int) -> list[str]:
        reasons: list[str] = self._rules(state).check(state, player, kind, submission)
        return reasons

    def garnet_cost(self, kind: str, submission: Model) -> int:
        return 0

    def resolve(self, state: Model, resolution: Resolution) -> State:
        resolved: State = self._rules(state).resolve(state, resolution)
        return resolved

    def view(self, state: Model, player: str | None) -> dict[str, Any]:
        """Perfect information: everyone sees everything; a player's private part is empty."""
        public = self._rules(state).view(state)
        return {"public": public} if player is None else {"public": public, "private": {}}

    def result(self, state: Model) -> Result:
        outcome: Result = self._rules(state).result(state)
        return outcome


GAME = Abstrac()
