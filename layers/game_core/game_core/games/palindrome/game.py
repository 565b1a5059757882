"""Palindrome Construction as a `Game`: bid for packs of digits and items, build three strings,
score the palindromes. Thin: the rules are in `rules.py`, what leaves in `views.py`."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from game_core.errors import Reason
from game_core.games.demo import Demo
from game_core.games.palindrome import rules, views
from game_core.games.palindrome.bidding import check_bid
from game_core.games.palindrome.construction import Construction, run
from game_core.games.palindrome.models import (
    BID,
    CONSTRUCTION,
    SUBMISSIONS,
    Bid,
    PalindromeSettings,
    PalindromeState,
    Seat,
)
from game_core.games.palindrome.text import PalindromeText
from game_core.games.protocol import Model, OpenPhase, PhaseKind, Resolution, Result, RulesText


class PalindromeGame:
    id: ClassVar[str] = "palindrome"
    title: ClassVar[str] = "Palindrome Construction"
    Settings = PalindromeSettings
    State = PalindromeState
    submissions = SUBMISSIONS
    text = PalindromeText()
    rules_text = RulesText()
    demo = Demo(
        players=9,
        few=3,
        rule_set_players={"mm5": 5},
        private_seat=views.change_private_seat,
        # Who received each item is revealed when its bidding resolves (RULINGS, Reveals); its use is not.
        public_parts=frozenset({"items.name", "items.round"}),
    )
    min_players = 2
    max_players = 12

    def timeline(self, settings: PalindromeSettings) -> tuple[PhaseKind, ...]:
        return tuple(spec.kind for spec in rules.schedule(settings.rules))

    def setup(self, settings: PalindromeSettings, players: tuple[str, ...], rng: random.Random) -> PalindromeState:
        state = PalindromeState(settings=settings, players=list(players), seats={p: Seat() for p in players})
        if rules.schedule(settings.rules)[0].bid_round == 1:
            rules.open_round(state, 1, rng)
        return state

    def open_phase(self, state: PalindromeState) -> OpenPhase | None:
        spec = rules.current(state)
        if spec is None:
            return None
        # The pregame owes nothing (it accepts nothing): it runs its time, or until the host says.
        owes = {player: rules.owed(state, spec, player) for player in state.players}
        return OpenPhase(spec.kind.name, spec.kind.accepts, tuple(state.players), owes=owes)

    def check(self, state: PalindromeState, player: str, kind: str, submission: Model) -> list[Reason]:
        if isinstance(submission, Bid):
            return check_bid(state.settings.rules, submission)
        assert isinstance(submission, Construction)
        return run(rules.bench(state, player), submission.steps)

    def garnet_cost(self, kind: str, submission: Model) -> int:
        return submission.garnets if isinstance(submission, Bid) else 0

    def cost_text(self, kind: str, submission: Model) -> str:
        return f"you bid {self.garnet_cost(kind, submission)} garnets"

    def resolve(self, state: PalindromeState, resolution: Resolution) -> PalindromeState:
        bids = {p: resolution.sent(p, BID, Bid) for p in state.players}
        constructions = {p: resolution.sent(p, CONSTRUCTION, Construction) for p in state.players}
        return rules.resolve(state, bids, constructions, resolution.rng)

    def view(self, state: PalindromeState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def result(self, state: PalindromeState) -> Result:
        return rules.result(state)
