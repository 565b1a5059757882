"""Bots: one module per game, each `choose(view, phase, player, rng) -> {kind: submission JSON}`;
a game with immediate actions also has `act(view, phase, player, rng, acting)`, run first.

And what drives them: `runner` (one match, a bot in every seat), `season_play` (a whole season),
`play` and `play_season` (bin/play), `printed` (how bin/play prints).

May import `game_core` and `local_stack.aws`; nothing of `local_stack.laptop`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
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


BOT_MODULES: dict[str, str] = {}
"""Bots kept elsewhere than `local_stack.bots.<game id>` (a test's throwaway game's): id -> module."""


class MissingBot(LookupError):
    """A game without a bot: nothing can play it on the local stack or in the tests."""


def bot_module(game_id: str) -> ModuleType:
    name = BOT_MODULES.get(game_id, f"local_stack.bots.{game_id}")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise
        raise MissingBot(
            f"no bot for {game_id!r}: add local_stack/bots/{game_id}.py defining "
            "choose(view, phase, player, rng) -> {kind: submission} (docs/GAME_AUTHORING.md, Bots)"
        ) from None


def bot_for(game_id: str) -> Bot:
    chooser: Bot = bot_module(game_id).choose
    return chooser


def acting_bot_for(game_id: str) -> ActingBot | None:
    """The bot's immediate actions (`act`), for a game that takes them; None for any other."""
    acts: ActingBot | None = getattr(bot_module(game_id), "act", None)
    return acts


@contextmanager
def registered(game_id: str, module: str) -> Iterator[None]:
    """The bot in `module` plays `game_id` for the duration (a game `registry.registered` adds)."""
    BOT_MODULES[game_id] = module
    try:
        yield
    finally:
        del BOT_MODULES[game_id]
