"""The bot of Highest Unique Bid (tests/sixth_game): bids some of the chips its view shows it."""

from __future__ import annotations

import random
from typing import Any

from game_core.games.protocol import OpenPhase


def choose(view: dict[str, Any], phase: OpenPhase, player: str, rng: random.Random) -> dict[str, dict[str, Any]]:
    return {"bid": {"chips": rng.randint(0, view["private"]["chips"])}}
