"""What the service costs, counted on the local stack: the AWS calls each handler makes, the state
machines' transitions, and DynamoDB item sizes as DynamoDB bills them.

    meter = Meter(stack)            # counts every AWS call the handlers make from now on
    ...                             # play a match
    meter.calls                     # Counter of (service, operation)
    item_size(item)                 # an item's billed size in bytes (low-level DynamoDB JSON)
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


def _value_size(value: dict[str, Any]) -> int:
    """A DynamoDB attribute value's size (the rules of the Developer Guide's "Item sizes")."""
    (kind, content), *_ = value.items()
    if kind == "S":
        return len(content.encode())
    if kind == "B":
        return len(content)
    if kind == "N":
        digits = content.lstrip("-").replace(".", "").lstrip("0") or "0"
        return math.ceil(len(digits) / 2) + 1
    if kind in ("BOOL", "NULL"):
        return 1
    if kind in ("SS", "BS", "NS"):
        return sum(_value_size({kind[0]: element}) for element in content)
    if kind == "L":
        return 3 + sum(1 + _value_size(element) for element in content)
    if kind == "M":
        return 3 + sum(len(name.encode()) + 1 + _value_size(element) for name, element in content.items())
    raise ValueError(f"unknown DynamoDB type {kind}")


def item_size(item: dict[str, dict[str, Any]]) -> int:
    """An item's size in bytes: each attribute's name plus its value."""
    return sum(len(name.encode()) + _value_size(value) for name, value in item.items())


@dataclass
class Meter:
    """Counts the AWS calls made through the handlers' clients (the ports'), by operation;
    `reset()` starts again. With `this_thread`, only the calls of the thread that made the meter
    (a test's own handler invocations run on it; the state machines run on threads of their own)."""

    stack: Any
    this_thread: bool = False
    clients: list[Any] | None = None
    """The clients counted on; the ports' (`stack.port_clients()`) unless given."""
    calls: Counter[tuple[str, str]] = field(default_factory=Counter)
    _thread: int = field(default_factory=threading.get_ident)

    def __post_init__(self) -> None:
        for client in self.stack.port_clients() if self.clients is None else self.clients:
            client.meta.events.register("before-call", self._count)

    def _count(self, model: Any, **_kwargs: Any) -> None:
        if not self.this_thread or threading.get_ident() == self._thread:
            self.calls[(model.service_model.service_name, model.name)] += 1

    def reset(self) -> Counter[tuple[str, str]]:
        counted, self.calls = self.calls, Counter()
        return counted
