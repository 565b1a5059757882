"""Domino Auction as a `Game`: three auctions of 20 polyominoes for chips, each round's tiles
placed on a 12x12 board in the next phase, the largest fully covered square wins.

Thin: the rules are in `rules.py`, what leaves in `views.py`.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from game_core.errors import Reason
from game_core.games.demo import Demo
from game_core.games.domino import rules, views
from game_core.games.domino.models import (
    BID,
    PLACE,
    SQUARE_GARNETS,
    SUBMISSIONS,
    BidSubmission,
    DominoSettings,
    DominoState,
    PlaceSubmission,
)
from game_core.games.domino.text import DominoText
from game_core.games.protocol import Model, OpenPhase, PhaseKind, Resolution, Result, RulesText


class DominoGame:
    id: ClassVar[str] = "domino"
    title: ClassVar[str] = "Domino Auction"
    Settings = DominoSettings
    State = DominoState
    submissions = SUBMISSIONS
    text = DominoText()
    rules_text = RulesText()
    demo = Demo(players=6, few=3, private_seat=views.change_private_seat, public_parts=frozenset({"bids.round"}))
    revealed_kinds = frozenset({PLACE})  # every board is revealed each round; bids stay secret
    min_players = 2
    max_players = 8

    def timeline(self, settings: DominoSettings) -> tuple[PhaseKind, ...]:
        return rules.TIMELINE

    def setup(self, settings: DominoSettings, players: tuple[str, ...], rng: random.Random) -> DominoState:
        return DominoState(
            players=list(players),
            tiles=rules.draw_tiles(settings, rng),
            boards={p: [] for p in players},
            forfeited={p: [] for p in players},
            bids={p: [] for p in players},
        )

    def open_phase(self, state: DominoState) -> OpenPhase | None:
        spec = rules.current(state)
        if spec is None:
            return None
        owes = {player: rules.owed(state, spec, player) for player in state.players}
        return OpenPhase(spec.kind.name, spec.kind.accepts, tuple(state.players), owes=owes)

    def check(self, state: DominoState, player: str, kind: str, submission: Model) -> list[Reason]:
        if isinstance(submission, BidSubmission):
            return rules.bid_reasons(state, player, submission)
        assert isinstance(submission, PlaceSubmission)
        return rules.place_reasons(state, player, submission)

    def garnet_cost(self, kind: str, submission: Model) -> int:
        return rules.garnets_for(submission) if isinstance(submission, PlaceSubmission) else 0

    def cost_text(self, kind: str, submission: Model) -> str:
        cost = self.garnet_cost(kind, submission)
        return f"{cost // SQUARE_GARNETS} squares need {cost} garnets ({SQUARE_GARNETS} each)"

    def resolve(self, state: DominoState, resolution: Resolution) -> DominoState:
        bids = {p: resolution.sent(p, BID, BidSubmission) for p in state.players}
        placements = {p: resolution.sent(p, PLACE, PlaceSubmission) for p in state.players}
        return rules.resolve(state, bids, placements)

    def view(self, state: DominoState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def result(self, state: DominoState) -> Result:
        return rules.result(state)
