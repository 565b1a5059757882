"""A webhook subscription (`Hook`) and one notice on its way to it (`Delivery`), and the port
that keeps the one beside the match and queues the other (`Hooks`; `aws.webhooks` on AWS). What
is sent and when is `webhooks`'.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

HOP_SECONDS = 900
"""SQS's longest delay of a message."""


@dataclass(frozen=True)
class Hook:
    """One subscription: where to POST, and the secret the standard's signature is made with."""

    url: str
    secret: str


@dataclass(frozen=True)
class Delivery:
    """One notice on its way to one subscription: what the queue carries (never a secret). A
    delivery to try again is queued again as a copy that says how many attempts failed and when
    the next is due (`later`)."""

    match_id: str
    target: str
    webhook_id: str
    payload: dict[str, Any]
    queued_at: float
    """When the notice was first queued (epoch seconds): the retry window starts then."""
    attempts: int = 0
    """Attempts that failed so far."""
    due: float = 0
    """Not to be attempted before (epoch seconds)."""
    parts_sent: int = 0
    """Of a long Discord message, the parts already accepted: a retry sends the rest, in order."""

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Delivery:
        return cls(**json.loads(text))

    @property
    def told_as(self) -> str:
        """What `tell` remembers when a failed step had queued it (one per notice and target)."""
        return f"{self.webhook_id}/hook/{self.target}"


class Hooks(Protocol):
    """Where subscriptions are kept (beside the match in its table) and deliveries queued (SQS)."""

    allow_loopback: bool
    """The laptop's host server behind its explicit flag: `http://127.0.0.1` URLs are taken too."""

    def put_hook(self, match_id: str, target: str, hook: Hook) -> None: ...

    def hook(self, match_id: str, target: str) -> Hook | None: ...

    def drop_hook(self, match_id: str, target: str) -> None: ...

    def enqueue(self, deliveries: Sequence[Delivery], delay: int = 0) -> None:
        """Queue the deliveries (at least once each), each held back `delay` seconds (at most
        `HOP_SECONDS`)."""

    def resolve(self, host: str) -> list[str]:
        """The addresses a host name resolves to now (what a delivery would connect to)."""
