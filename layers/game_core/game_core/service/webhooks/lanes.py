"""A batch of queued webhook deliveries taken side by side (issue 29): a receiver that is down or
slow delays only its own deliveries.

- One lane per subscription (`lane_of`: the match and the target, so one URL): a lane's
  deliveries go one after another, in the queue's order; lanes go side by side, each on a thread
  of its own (`in_lanes`), so one URL's hanging POST holds no other URL's.
- In one batch a URL is not kept waiting on twice (`BatchPoster`): once it has not answered, or
  answered "try again" (5xx, 408, 429), its later deliveries of the batch get that same answer
  without a POST, and go back to the queue for their retry. So a batch lasts about one POST's
  timeout however many of its deliveries a dead URL has.
- No POST begins when the time the batch has left cannot hold it (the Lambda function's budget):
  it counts as unanswered and is retried like one, rather than being cut by the function's end
  (which would hand the whole batch back, to be sent twice).
"""

from __future__ import annotations

import contextvars
import json
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

from game_core.service.webhooks.bodies import Post
from game_core.service.webhooks.retries import TIMEOUT_SECONDS, verdict
from game_core.service.webhooks.sending import Poster
from game_core.service.webhooks.urls import Destination

T = TypeVar("T")


def lane_of(body: str, otherwise: str) -> str:
    """The lane of a queued delivery's body: its match and target (`otherwise`, e.g. the
    message's id, for a body that is no delivery: it fails in a lane of its own)."""
    try:
        delivery = json.loads(body)
        return f"{delivery['match_id']}/{delivery['target']}"
    except (ValueError, TypeError, KeyError):
        return otherwise


def in_lanes(items: Sequence[T], lane: Callable[[T], str], work: Callable[[T], None]) -> list[Exception | None]:
    """`work` done on each item: the items of one lane one after another, in order, the lanes side
    by side (each on a thread of its own, in a copy of the caller's context; a single lane on the
    caller's thread). What each item's work raised, in the items' order (None: nothing)."""
    lanes: dict[str, list[int]] = {}
    for number, item in enumerate(items):
        lanes.setdefault(lane(item), []).append(number)
    raised: list[Exception | None] = [None] * len(items)

    def run(numbers: list[int]) -> None:
        for number in numbers:
            try:
                work(items[number])
            except Exception as error:  # noqa: BLE001 - the item's failure, reported for it alone
                raised[number] = error

    if len(lanes) == 1:
        run(next(iter(lanes.values())))
        return raised
    threads = [
        threading.Thread(target=contextvars.copy_context().run, args=(run, numbers), name=f"webhook-lane-{key}")
        for key, numbers in lanes.items()
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return raised


class BatchPoster:
    """The POSTs of one batch (a `Poster`): a URL that did not answer, or asked to be tried again,
    is not POSTed to again in the batch (its later deliveries get the same answer at once); and no
    POST begins with less than a POST's timeout left (`seconds_left`)."""

    def __init__(self, post: Poster, seconds_left: Callable[[], float]) -> None:
        self._post = post
        self._seconds_left = seconds_left
        self._failed: dict[str, tuple[int | None, str | None]] = {}
        self._lock = threading.Lock()

    def __call__(self, where: Destination, one: Post) -> tuple[int | None, str | None]:
        with self._lock:
            failed = self._failed.get(where.url)
        if failed is not None:
            return failed
        if self._seconds_left() < TIMEOUT_SECONDS:
            return None, None
        answer = self._post(where, one)
        if verdict(answer[0]).outcome == "retry":
            with self._lock:
                self._failed.setdefault(where.url, answer)
        return answer
