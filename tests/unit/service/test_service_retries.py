"""The read-decide-write loop every use case that writes a match runs (service/retries.py)."""

from __future__ import annotations

import pytest

from game_core.errors import Conflict, Illegal, InProgress, Late, NotOpen
from game_core.service.matches.sheets import HeaderMoved
from game_core.service.retries import ATTEMPTS, until_stored


class Script:
    """Reads count up from 1; each attempt raises the next planned error, or answers what it read."""

    def __init__(self, errors: list[Exception]) -> None:
        self.errors = list(errors)
        self.reads = 0
        self.attempts: list[int] = []

    def read(self) -> int:
        self.reads += 1
        return self.reads

    def attempt(self, seen: int) -> str:
        self.attempts.append(seen)
        if self.errors:
            raise self.errors.pop(0)
        return f"stored on read {seen}"


def conflicts(count: int) -> list[Exception]:
    return [Conflict("the version moved") for _ in range(count)]


# ATTEMPTS is 5: four conflicts leave the fifth attempt to succeed, a fifth conflict ends it.
@pytest.mark.parametrize(
    ("errors", "reads"),
    [
        ([], 1),
        (conflicts(1), 2),
        (conflicts(4), 5),
    ],
    ids=["first time", "after one conflict", "after four conflicts"],
)
def test_each_conflict_reads_again_and_decides_on_what_was_read(errors: list[Exception], reads: int) -> None:
    script = Script(errors)
    assert until_stored(script.read, script.attempt, match_id="m-1", what="nothing was stored") == (
        f"stored on read {reads}"
    )
    assert script.reads == reads
    assert script.attempts == list(range(1, reads + 1))  # every attempt on a fresh read


def test_a_first_read_given_is_used_before_reading_again() -> None:
    script = Script(conflicts(1))
    # The given read (0) is attempted first; the conflict makes the first read of the store (1).
    assert until_stored(script.read, script.attempt, match_id="m-1", what="x", seen=0) == "stored on read 1"
    assert script.attempts == [0, 1]


def test_it_gives_up_with_the_named_error_after_the_last_attempt() -> None:
    script = Script(conflicts(ATTEMPTS + 1))
    with pytest.raises(Conflict) as raised:
        until_stored(script.read, script.attempt, match_id="m-1", what="phase 2 was not resolved")
    assert type(raised.value) is Conflict
    assert raised.value.message == "phase 2 was not resolved: match m-1 kept changing; try again"
    assert script.reads == ATTEMPTS == 5


@pytest.mark.parametrize(
    "refusal",
    [
        Late("phase 1 has already resolved"),
        Illegal("not allowed"),
        NotOpen("the match is finished"),
        InProgress("this delivery is being handled now"),  # a Conflict only its sender's resend collects
    ],
    ids=lambda error: type(error).__name__,
)
def test_a_refusal_is_never_retried(refusal: Exception) -> None:
    script = Script([refusal])
    with pytest.raises(type(refusal)):
        until_stored(script.read, script.attempt, match_id="m-1", what="x")
    assert script.reads == 1


def test_only_the_named_conflict_is_retried() -> None:
    # A submission reads again only when the header moved; its sheet's Conflict is the sender's.
    moved = Script([HeaderMoved(), Conflict("another submission of yours arrived meanwhile")])
    with pytest.raises(Conflict, match="another submission"):
        until_stored(moved.read, moved.attempt, match_id="m-1", what="x", retried=HeaderMoved)
    assert moved.reads == 2
