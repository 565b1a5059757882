"""Settings, state and the one submission of Highest Unique Bid."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from game_core.games.protocol import GameSettings, Model

ROUNDS = 4
"""The fewest whose resolutions meet every strike point fault injection asks for (each resolution
is struck once, at the next point; tests/statemachine/test_fault_injection.py): three leave one."""
CHIPS = 10
"""Each player's chips at the start."""


class HighbidSettings(GameSettings):
    rule_set: Literal["default"] = "default"


class Bid(Model):
    chips: StrictInt = Field(ge=0)


class RoundRecord(Model):
    round: int
    bids: dict[str, int]
    """Every player's bid (0 for one who sent none): secret for good."""
    winner: str | None
    """Who bid the highest amount nobody else bid; None when every amount was bid twice."""
    amount: int | None


class HighbidState(Model):
    players: list[str]
    chips: dict[str, int]
    """What each player has left: secret until the end."""
    rounds: list[RoundRecord] = []


SUBMISSIONS: dict[str, type[Model]] = {"bid": Bid}
"""Each submission kind's model (the game's `submissions`, the grammar's `models`)."""
