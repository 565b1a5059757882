"""The webhooks' port (`service.webhooks.queue.Hooks`) in memory: subscriptions kept, deliveries
listed as queued, every host name resolving to one public address (or, under `internal.`, to a
private one)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from game_core.service.webhooks.queue import Delivery, Hook

PUBLIC_V4 = "93.184.215.14"
"""A public address (example.com's)."""


@dataclass
class MemoryHooks:
    """The Hooks port in memory: subscriptions kept, deliveries listed as queued."""

    allow_loopback: bool = False
    kept: dict[tuple[str, str], Hook] = field(default_factory=dict)
    queued: list[Delivery] = field(default_factory=list)

    def put_hook(self, match_id: str, target: str, hook: Hook) -> None:
        self.kept[(match_id, target)] = hook

    def hook(self, match_id: str, target: str) -> Hook | None:
        return self.kept.get((match_id, target))

    def drop_hook(self, match_id: str, target: str) -> None:
        self.kept.pop((match_id, target), None)

    def enqueue(self, deliveries: Sequence[Delivery], delay: int = 0) -> None:
        self.queued.extend(deliveries)

    def resolve(self, host: str) -> list[str]:
        return ["10.0.0.9"] if host.startswith("internal.") else [PUBLIC_V4]
