"""One batch of webhook deliveries side by side (service/webhooks/lanes.py; issue 29): each lane in
order, the lanes at once, an item's failure its own; a URL that does not answer POSTed to once a
batch; no POST begun that the batch's time cannot hold. Nothing is timed: a lane that must run
beside another waits on an event only the other sets."""

from __future__ import annotations

import threading

import pytest

from game_core.service.webhooks.bodies import Post
from game_core.service.webhooks.lanes import BatchPoster, in_lanes, lane_of
from game_core.service.webhooks.queue import Delivery
from game_core.service.webhooks.retries import TIMEOUT_SECONDS
from game_core.service.webhooks.urls import Destination

EVENT_WAIT = 60
"""How long a lane waits for an event that comes at once when lanes run side by side."""


def test_a_lane_is_a_subscription_and_a_body_that_is_no_delivery_a_lane_of_its_own() -> None:
    body = Delivery("m-1", "ana", "m-1/begins/ana", {}, 0).to_json()
    assert lane_of(body, "message-1") == "m-1/ana"
    assert lane_of("not json", "message-2") == "message-2"
    assert lane_of('{"match_id": "m-1"}', "message-3") == "message-3"


def test_lanes_run_side_by_side_each_in_order_and_a_failure_is_its_items_alone() -> None:
    # Lane "a" holds its first item until lane "b" has done its last: were the lanes taken one
    # after another, "a" would wait in vain
    b_done = threading.Event()
    done: list[str] = []
    lock = threading.Lock()

    def work(item: str) -> None:
        if item == "a1" and not b_done.wait(EVENT_WAIT):
            raise AssertionError("lane b never ran beside lane a")
        if item == "b1":
            raise ValueError("b1 fails")
        with lock:
            done.append(item)
        if item == "b2":
            b_done.set()

    items = ["a1", "b1", "a2", "b2", "a3"]
    raised = in_lanes(items, lambda item: item[0], work)

    assert [type(error).__name__ if error else None for error in raised] == [None, "ValueError", None, None, None]
    assert [item for item in done if item[0] == "a"] == ["a1", "a2", "a3"]  # in order
    assert done.index("b2") < done.index("a1")  # b finished while a1 was held


HOOK = Destination("https://hooks.example.com/in", "hooks.example.com", 443, "93.184.215.14", True)
OTHER = Destination("https://other.example.com/in", "other.example.com", 443, "93.184.215.15", True)
ONE = Post(b"{}", {})


@pytest.mark.parametrize(
    ("first", "posts_made"),
    [
        ((None, None), 1),  # no answer: not waited on again
        ((503, None), 1),  # "try again"
        ((429, "120"), 1),
        ((200, None), 3),  # answered: every notice is POSTed
        ((400, None), 3),  # refused for good: that notice alone
    ],
)
def test_a_url_that_asks_for_a_retry_is_posted_to_once_a_batch(first, posts_made) -> None:
    made: list[Destination] = []

    def post(where: Destination, one: Post) -> tuple[int | None, str | None]:
        made.append(where)
        return first if where == HOOK else (204, None)

    poster = BatchPoster(post, lambda: 60)
    answers = [poster(HOOK, ONE) for _ in range(3)]

    # By hand: the later notices get the first answer (a retry after its Retry-After), unposted;
    # another URL is POSTed to as ever
    assert answers == [first] * 3
    assert made.count(HOOK) == posts_made
    assert poster(OTHER, ONE) == (204, None) and made[-1] == OTHER


def test_no_post_begins_that_the_time_left_cannot_hold() -> None:
    made: list[Destination] = []
    left = [TIMEOUT_SECONDS + 1.0]

    def post(where: Destination, one: Post) -> tuple[int | None, str | None]:
        made.append(where)
        left[0] -= 2  # the POST took two seconds
        return 204, None

    poster = BatchPoster(post, lambda: left[0])

    # By hand: with the timeout and a second left, a POST begins; then a second short of the
    # timeout is left, and the next counts as unanswered, unposted
    assert poster(HOOK, ONE) == (204, None)
    assert poster(OTHER, ONE) == (None, None)
    assert made == [HOOK]
