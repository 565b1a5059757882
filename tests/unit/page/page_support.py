"""Each game's bot match (its default rule set, seed 7), played once per test process for the
page's tests (the forms' round trip and the leak test read the same match)."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from game_core.games import registry

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
from bot_matches import Played, play_through  # noqa: E402


@cache
def played(game_id: str) -> Played:
    return play_through(game_id, str(registry.load(game_id).Settings().rule_set), 7)
