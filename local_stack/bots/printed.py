"""How bin/play prints: a line at once, a value as compact JSON cut to a length."""

from __future__ import annotations

import json
from typing import Any


def say(line: str) -> None:
    print(line, flush=True)


def compact(value: Any, limit: int = 400) -> str:
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."
