"""A match's (or a season's) log entry: service/ports.py's, kept apart so the season's ports
(service/season/ports.py) can name it without importing every port."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Event:
    """One entry of a match's append-only log. Never carries submission contents."""

    type: str
    at: datetime
    data: dict[str, Any] = field(default_factory=dict)
