"""Bots: one module per game, each `choose(view, phase, player, rng) -> {kind: submission JSON}`."""

from __future__ import annotations

import importlib
import random
from typing import Any, Protocol

from game_core.games.protocol import OpenPhase


class Bot(Protocol):
    def __call__(
        self, view: dict[str, Any], phase: OpenPhase, player: str, rng: random.Random
    ) -> dict[str, dict[str, Any]]: ...


def bot_for(game_id: str) -> Bot:
    chooser: Bot = importlib.import_module(f"local_stack.bots.{game_id}").choose
    return chooser
