"""Abstrac as a `Game`: two players, move by move, in either rule set. Thin: each rule set's
rules are in `row.py` and `deal.py`, what leaves in `views.py`."""

from __future__ import annotations

import random
from typing import Any, ClassVar, Protocol

from game_core.errors import Illegal, Reason
from game_core.games.abstrac import deal, row, views
from game_core.games.abstrac.models import SUBMISSIONS, AbstracSettings, AbstracState
from game_core.games.abstrac.text import AbstracText
from game_core.games.demo import Demo
from game_core.games.protocol import Model, OpenPhase, PhaseKind, Resolution, Result, RulesText


class RuleSet(Protocol):
    """What each rule set's module (`row`, `deal`) provides."""

    def open_phase(self, state: AbstracState) -> OpenPhase | None: ...

    def check(self, state: AbstracState, player: str, kind: str, submission: Model) -> list[Reason]: ...

    def resolve(self, state: AbstracState, resolution: Resolution) -> AbstracState: ...

    def result(self, state: AbstracState) -> Result: ...


def rule_set(state: AbstracState) -> RuleSet:
    """The module of the state's rule set."""
    # Two statements, not `row if ... else deal`: mypy joins two modules to `ModuleType`, which
    # would satisfy any protocol; each module on its own is checked against `RuleSet`.
    rules: RuleSet
    if state.settings.rule_set == "row":
        rules = row
    else:
        rules = deal
    return rules


class AbstracGame:
    id: ClassVar[str] = "abstrac"
    title: ClassVar[str] = "Abstrac"
    Settings = AbstracSettings
    State = AbstracState
    submissions = SUBMISSIONS
    text = AbstracText()
    rules_text = RulesText()
    demo = Demo(players=2, few=2)  # perfect information: no private seat
    revealed_kinds = frozenset(SUBMISSIONS)  # every move is made in the open
    min_players = 2
    max_players = 2

    def timeline(self, settings: AbstracSettings) -> tuple[PhaseKind, ...]:
        return row.TIMELINE if settings.rule_set == "row" else deal.TIMELINE

    def setup(self, settings: AbstracSettings, players: tuple[str, ...], rng: random.Random) -> AbstracState:
        if reasons := _settings_reasons(settings, players):
            raise Illegal("these settings do not fit this match", reasons)
        state = AbstracState(settings=settings, players=list(players))
        if settings.rule_set == "row":
            state.row = row.setup(state)
        else:
            state.deal = deal.setup(state, rng)
        return state

    def open_phase(self, state: AbstracState) -> OpenPhase | None:
        return rule_set(state).open_phase(state)

    def check(self, state: AbstracState, player: str, kind: str, submission: Model) -> list[Reason]:
        return rule_set(state).check(state, player, kind, submission)

    def garnet_cost(self, kind: str, submission: Model) -> int:
        return 0

    def cost_text(self, kind: str, submission: Model) -> str:
        return "nothing"  # never asked: nothing in Abstrac costs garnets

    def resolve(self, state: AbstracState, resolution: Resolution) -> AbstracState:
        return rule_set(state).resolve(state, resolution)

    def view(self, state: AbstracState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def result(self, state: AbstracState) -> Result:
        return rule_set(state).result(state)


def _settings_reasons(settings: AbstracSettings, players: tuple[str, ...]) -> list[Reason]:
    """Every way the settings do not fit the match's players: a named player who is not in it."""
    reasons = []
    for field in ("protected", "first_starter"):
        named = getattr(settings, field)
        if named is not None and named not in players:
            reasons.append(Reason("not_a_player", f"{field} names {named}, who is not a player in this match"))
    return reasons
