"""The match's event log as a hash chain: each event carries `prev`, the SHA-256 of the event
before it (its canonical JSON, `prev` included), the first a genesis value from the match id, so
an edit, a deletion, an insertion or a reordering anywhere breaks every link after it; the last
event's hash (the head) vouches for the whole log."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from game_core.match.replay import canonical_json


class ChainBroken(ValueError):
    """The log does not chain: `position` (from 0) is the first event whose `prev` is wrong."""

    def __init__(self, position: int, message: str) -> None:
        super().__init__(message)
        self.position = position


def genesis(match_id: str) -> str:
    return hashlib.sha256(f"genesis:{match_id}".encode()).hexdigest()


def event_hash(event: Mapping[str, Any]) -> str:
    """SHA-256 of the event's canonical JSON (sorted keys, no spaces, UTF-8), `prev` included."""
    return hashlib.sha256(canonical_json(event).encode()).hexdigest()


def chained(match_id: str, events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The events in order, each with `prev` set to the hash of the one before."""
    links: list[dict[str, Any]] = []
    prev = genesis(match_id)
    for event in events:
        link = dict(event) | {"prev": prev}
        links.append(link)
        prev = event_hash(link)
    return links


def _named(position: int, event: Mapping[str, Any]) -> str:
    return f"event {position + 1} ({event.get('type', '?')} at {event.get('at', '?')})"


def head(match_id: str, events: Sequence[Mapping[str, Any]]) -> str:
    """The chain's head after checking every link; ChainBroken names the first that fails."""
    prev = genesis(match_id)
    for position, event in enumerate(events):
        if event.get("prev") != prev:
            after = "the match's genesis" if position == 0 else _named(position - 1, events[position - 1])
            raise ChainBroken(
                position,
                f"{_named(position, event)} does not follow {after}: an event was changed, removed, "
                "inserted or moved there",
            )
        prev = event_hash(event)
    return prev
