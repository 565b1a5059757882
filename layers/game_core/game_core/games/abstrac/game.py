"""Abstrac as a `protocol.Game`: two players, move by move, both rule sets."""

from __future__ import annotations

import random
from typing import Any, ClassVar, Protocol

from game_core.errors import Illegal, Reason
from game_core.games.abstrac import deal, row
from game_core.games.abstrac.models import Lay, Pick, Starter, Take
from game_core.games.abstrac.models import Settings as AbstracSettings
from game_core.games.abstrac.models import State as AbstracState
from game_core.games.protocol import Game, GameSettings, Model, OpenPhase, PhaseKind, Resolution, Result


class Rules(Protocol):
    """What each rule set's module (`row`, `deal`) provides."""

    def open_phase(self, state: AbstracState) -> OpenPhase | None: ...

    def check(self, state: AbstracState, player: str, kind: str, submission: Model) -> list[str]: ...

    def resolve(self, state: AbstracState, resolution: Resolution) -> AbstracState: ...

    def view(self, state: AbstracState) -> dict[str, Any]: ...

    def result(self, state: AbstracState) -> Result: ...


def _rules(state: Model) -> tuple[Rules, AbstracState]:
    """The state's rule set module, and the state as Abstrac's own."""
    assert isinstance(state, AbstracState)
    # Two statements, not `row if ... else deal`: mypy joins two modules to `ModuleType`, which
    # would satisfy any protocol; each module on its own is checked against `Rules`.
    rules: Rules
    if state.settings.rule_set == "row":
        rules = row
    else:
        rules = deal
    return rules, state


class Abstrac:
    id: ClassVar[str] = "abstrac"
    title: ClassVar[str] = "Abstrac"
    Settings = AbstracSettings
    State = AbstracState
    submissions: dict[str, type[Model]] = {"starter": Starter, "lay": Lay, "pick": Pick, "take": Take}
    min_players = 2
    max_players = 2

    def timeline(self, settings: GameSettings) -> tuple[PhaseKind, ...]:
        assert isinstance(settings, AbstracSettings)
        return row.TIMELINE if settings.rule_set == "row" else deal.TIMELINE

    def setup(self, settings: GameSettings, players: tuple[str, ...], rng: random.Random) -> AbstracState:
        assert isinstance(settings, AbstracSettings)
        reasons = []
        if len(players) != 2 or len(set(players)) != 2:
            reasons.append(f"Abstrac is for exactly 2 different players, not {len(players)}")
        for field in ("protected", "first_starter"):
            named = getattr(settings, field)
            if named is not None and named not in players:
                reasons.append(f"{field} names {named}, who is not a player in this match")
        if reasons:
            raise Illegal("these settings do not fit this match", [Reason("settings", r) for r in reasons])
        state = AbstracState(settings=settings, players=list(players))
        if settings.rule_set == "row":
            state.row = row.setup(state)
        else:
            state.deal = deal.setup(state, rng)
        return state

    def open_phase(self, state: Model) -> OpenPhase | None:
        rules, own = _rules(state)
        return rules.open_phase(own)

    def check(self, state: Model, player: str, kind: str, submission: Model, garnets: int) -> list[str]:
        rules, own = _rules(state)
        return rules.check(own, player, kind, submission)

    def garnet_cost(self, kind: str, submission: Model) -> int:
        return 0

    def resolve(self, state: Model, resolution: Resolution) -> AbstracState:
        rules, own = _rules(state)
        return rules.resolve(own, resolution)

    def view(self, state: Model, player: str | None) -> dict[str, Any]:
        """Perfect information: everyone sees everything; a player's private part is empty."""
        rules, own = _rules(state)
        public = rules.view(own)
        return {"public": public} if player is None else {"public": public, "private": {}}

    def result(self, state: Model) -> Result:
        rules, own = _rules(state)
        return rules.result(own)


GAME: Game[AbstracSettings, AbstracState] = Abstrac()
