"""The press a match allows and keeps count of, as the match holds it (`model.Match`): the host's
mode and rate, and each sender's messages of the last hour that the rate is counted on
(`PressSent`). What is done with them is `match.press`'s.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from game_core.games.protocol import Model

PressMode = Literal["on", "public", "off"]
"""What the host allows: messages to anyone, to everyone only, or none."""
DEFAULT_PER_HOUR = 10
MAX_PER_HOUR = 30
"""The most a host may allow: every entry is kept on the match header for an hour."""


class PressSent(Model):
    """One of a sender's messages of the last hour, as the match header keeps it."""

    at: datetime
    id: str
    told: bool = True
    """False while a retry of it may have to finish telling it: from its record (made before
    anyone is told, so the rate holds) until all its recipients were told. A message no retry can
    name (sent without a delivery key) is recorded told; an entry stored before records came
    first was told already."""
