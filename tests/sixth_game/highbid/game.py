"""Highest Unique Bid as a `Game`: four rounds of one sealed bid each. Thin: the rules are in
`rules.py`, what leaves in `views.py`."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from game_core.errors import Reason
from game_core.games.demo import Demo
from game_core.games.protocol import Model, OpenPhase, PhaseKind, Resolution, Result, RulesText
from highbid import rules, views
from highbid.models import CHIPS, ROUNDS, SUBMISSIONS, Bid, HighbidSettings, HighbidState
from highbid.text import HighbidText


class HighbidGame:
    id: ClassVar[str] = "highbid"
    title: ClassVar[str] = "Highest Unique Bid"
    Settings = HighbidSettings
    State = HighbidState
    submissions = SUBMISSIONS
    text = HighbidText()
    rules_text = RulesText()
    demo = Demo(players=2, few=2, private_seat=views.change_private_seat)
    min_players = 2
    max_players = 4

    def timeline(self, settings: HighbidSettings) -> tuple[PhaseKind, ...]:
        return rules.TIMELINE

    def setup(self, settings: HighbidSettings, players: tuple[str, ...], rng: random.Random) -> HighbidState:
        return HighbidState(players=list(players), chips=dict.fromkeys(players, CHIPS))

    def open_phase(self, state: HighbidState) -> OpenPhase | None:
        if len(state.rounds) == ROUNDS:
            return None
        kind = rules.TIMELINE[len(state.rounds)]
        return OpenPhase(kind.name, kind.accepts, tuple(state.players))

    def check(self, state: HighbidState, player: str, kind: str, submission: Model) -> list[Reason]:
        assert isinstance(submission, Bid)
        return rules.bid_reasons(state, player, submission)

    def garnet_cost(self, kind: str, submission: Model) -> int:
        return 0

    def cost_text(self, kind: str, submission: Model) -> str:
        return "nothing"

    def resolve(self, state: HighbidState, resolution: Resolution) -> HighbidState:
        return rules.resolve_round(state, {player: resolution.sent(player, "bid", Bid) for player in state.players})

    def view(self, state: HighbidState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def result(self, state: HighbidState) -> Result:
        return rules.result(state)
