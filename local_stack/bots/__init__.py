"""Bots: one module per game, each `choose(view, phase, player, rng) -> {kind: submission JSON}`;
a game with immediate actions also has `act(view, phase, player, rng, acting)`, run first."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from game_core.games.protocol import OpenPhase


class Bot(Protocol):
    def __call__(
        self, view: dict[str, Any], phase: OpenPhase, player: str, rng: random.Random
    ) -> dict[str, dict[str, Any]]: ...


class ActingBot(Protocol):
    def __call__(
        self, view: dict[str, Any], phase: OpenPhase, player: str, rng: random.Random, acting: Acting
    ) -> None: ...


@dataclass(frozen=True)
class Acting:
    """What a bot may do at once in an open phase."""

    send: Callable[[str, dict[str, Any]], dict[str, Any]]
    """Send one immediate action (kind, action); returns its answer (empty when refused)."""
    think: Callable[[float], None]
    """Let the match's clock run on while the bot thinks (seconds)."""
    standing: Callable[[], dict[str, Any]]
    """The bot's own standing as the webhook's GET gives it: its view, the open phase, its garnets."""


def bot_for(game_id: str) -> Bot:
    chooser: Bot = importlib.import_module(f"local_stack.bots.{game_id}").choose
    return chooser


def acting_bot_for(game_id: str) -> ActingBot | None:
    """The bot's immediate actions (`act`), for a game that takes them; None for any other."""
    acts: ActingBot | None = getattr(importlib.import_module(f"local_stack.bots.{game_id}"), "act", None)
    return acts
