"""Puzzler's Clubs as a `Game` that hosts guests and takes immediate actions.

Thin: the rules are in `rules.py`, what leaves in `views.py`.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from game_core.errors import Reason
from game_core.games.capabilities import Acted
from game_core.games.clubs import actions, rules, views
from game_core.games.clubs.models import (
    ACTIONS,
    SUBMISSIONS,
    BuildSubmission,
    ClubsSettings,
    ClubsState,
    DraftSubmission,
    GuessSubmission,
)
from game_core.games.clubs.text import ClubsText
from game_core.games.demo import Demo
from game_core.games.protocol import Model, OpenPhase, PhaseKind, Resolution, Result, RulesText


class ClubsGame:
    id: ClassVar[str] = "clubs"
    title: ClassVar[str] = "Puzzler's Clubs"
    Settings = ClubsSettings
    State = ClubsState
    submissions = SUBMISSIONS
    actions = ACTIONS
    text = ClubsText()
    rules_text = RulesText()
    demo = Demo(
        players=3,
        few=3,
        private_seat=views.change_private_seat,
        # The round's number; a hand's points follow from the public ranking of the hands.
        public_parts=frozenset({"rounds.round", "rounds.hand_points"}),
    )
    min_players = 3
    max_players = 3
    guests_per_player = 1

    def timeline(self, settings: ClubsSettings) -> tuple[PhaseKind, ...]:
        return rules.TIMELINE

    def setup(self, settings: ClubsSettings, players: tuple[str, ...], rng: random.Random) -> ClubsState:
        return rules.setup(settings, players, rng)

    def open_phase(self, state: ClubsState) -> OpenPhase | None:
        return actions.open_phase(state)

    def check(self, state: ClubsState, player: str, kind: str, submission: Model) -> list[Reason]:
        return rules.check(state, player, submission)

    def garnet_cost(self, kind: str, submission: Model) -> int:
        return rules.draft_cost(submission) if isinstance(submission, DraftSubmission) else 0

    def cost_text(self, kind: str, submission: Model) -> str:
        assert isinstance(submission, DraftSubmission)
        lowered = len(submission.lowered)
        priorities = "priority" if lowered == 1 else "priorities"
        return f"lowering {lowered} {priorities} takes {rules.draft_cost(submission)} garnets"

    def act(self, state: ClubsState, actor: str | None, kind: str, action: Model, at_ms: int) -> Acted:
        return actions.act(state, actor, kind, action, at_ms)

    def resolve(self, state: ClubsState, resolution: Resolution) -> ClubsState:
        participants = state.participants
        return rules.resolve(
            state,
            {p: resolution.sent(p, "draft", DraftSubmission) for p in participants},
            {p: resolution.sent(p, "build", BuildSubmission) for p in participants},
            {p: resolution.sent(p, "guess", GuessSubmission) for p in participants},
            resolution.rng,
        )

    def view(self, state: ClubsState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def result(self, state: ClubsState) -> Result:
        if state.phase <= rules.PHASES:
            raise ValueError("the match is not over")
        return rules.result(state)
