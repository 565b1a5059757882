"""What a game declares about how it is played by bots and checked, beyond its rules: the tests,
`bin/play` and the benchmarks read it from the registry, so no list elsewhere names a game."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Demo:
    players: int
    """Players of a typical match: `bin/play`'s default, the whole bot match on the real ASL, the
    cost benchmark."""
    few: int
    """The fewest players whose bot match still meets every phase: the e-mail and fault-injection
    matches (each runs the real ASL, so every player costs)."""
    rule_set_players: Mapping[str, int] = field(default_factory=dict)
    """A typical match's players for a rule set made for another count than `players`."""
    private_seat: Callable[[dict[str, Any], str], None] | None = None
    """Changes, in a state's JSON, everything the rules let one participant alone know (their
    private seat): the conformance test checks that nobody else's view changes, and that the
    participant's own does in every part of it. None: perfect information, no view has a private
    part."""
    public_parts: frozenset[str] = frozenset()
    """Parts of a private view ("rounds.round": its first two keys) holding nothing secret, so no
    change of the seat touches them."""

    def players_in(self, rule_set: str) -> int:
        return self.rule_set_players.get(rule_set, self.players)
