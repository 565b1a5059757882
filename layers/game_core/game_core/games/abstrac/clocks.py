"""The two clocks, as pure arithmetic on whole seconds.

Every move is timed by the match layer: `elapsed` (pauses excluded, host extensions included) and
`extension` (what the host added to this move). The extension lengthens that one move and never
counts against the player, so the time a move *used* is `elapsed - extension` (at least 0).

If the host resolves the phase before its deadline and the mover has made no move, nothing is
played: the time used so far is kept as `pending` and the same mover's move reopens with that much
less time (it is charged with the move that follows). A resolution with no move that is timed out,
or whose used time reaches the whole allowance, is a timeout.

`row` (the Death Match): every move has `move_seconds` (24 h); time beyond that is overtime and is
taken from the player's reserve (48 h for the whole match). A move's allowance is
`move_seconds + reserve_left`; a timeout means the reserve is gone.

`deal` (the original): "5 periods of 1 minute", byo-yomi periods of `period_seconds`. The periods
a player holds are all the time a move has: a move's allowance is `period * periods_left` (5
periods of 60 s: 300 s). A move made within its first period uses none up; "a move later than one
period uses up one more": every further period it *starts* uses one up, so with `used` seconds,
periods used = max(0, ceil(used / period) - 1) (exactly one period uses none, one second more
uses one). A move made in time therefore always keeps the period it is made in; using up the
last period (the allowance passing without a move) leaves none, and "with none left, the player
loses".
"""

from __future__ import annotations

from pydantic import Field

from game_core.games.protocol import Model


def used_seconds(pending: int, elapsed: int, extension: int) -> int:
    return pending + max(0, elapsed - extension)


class ReserveClock(Model):
    """A `row` player's clock."""

    reserve_left: int = Field(ge=0)
    pending: int = Field(default=0, ge=0)
    """Seconds already used on the move now owed (after a host's early resolution without a move)."""

    def allowance(self, move_seconds: int) -> int:
        return max(0, move_seconds + self.reserve_left - self.pending)

    def out_of_time(self, move_seconds: int, elapsed: int, extension: int) -> bool:
        return used_seconds(self.pending, elapsed, extension) >= move_seconds + self.reserve_left


def overtime(used: int, move_seconds: int) -> int:
    return max(0, used - move_seconds)


class PeriodClock(Model):
    """A `deal` player's clock."""

    periods_left: int = Field(ge=0)
    pending: int = Field(default=0, ge=0)

    def allowance(self, period_seconds: int) -> int:
        return max(0, period_seconds * self.periods_left - self.pending)

    def out_of_time(self, period_seconds: int, elapsed: int, extension: int) -> bool:
        return used_seconds(self.pending, elapsed, extension) >= period_seconds * self.periods_left


def periods_used(used: int, period_seconds: int) -> int:
    """Periods a move of `used` seconds uses up: every period it starts after its first."""
    started = -(-used // period_seconds)
    return max(0, started - 1)
