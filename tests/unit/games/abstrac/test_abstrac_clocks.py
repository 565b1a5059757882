"""Clocks: the row game's 24 h a move plus a 48 h reserve, the deal game's periods."""

from __future__ import annotations

import pytest
from abstrac_support import mover, new, no_move, play
from pydantic import ValidationError

from game_core.games.abstrac import GAME
from game_core.games.abstrac.clocks import periods_used

HOUR = 3600
DAY = 86400
RESERVE = 2 * DAY
IN_ORDER = ["1R 2R 3R", "4R 5R 6R", "1Y 2Y 3Y", "4Y 5Y 6Y", "1G 2G 3G", "4G 5G 6G", "1B 2B 3B", "4B 5B 6B"]


def row_clock(state, player):
    return GAME.view(state, None)["public"]["clocks"][player]


def seconds(state):
    return GAME.open_phase(state).seconds


# ---------------------------------------------------------------- row


def test_a_move_opens_with_its_day_plus_the_reserve_left():
    state = new()
    assert seconds(state) == DAY + RESERVE


@pytest.mark.parametrize(
    ("elapsed", "extension", "reserve_after"),
    [
        (0, 0, RESERVE),
        (DAY, 0, RESERVE),  # exactly 24 h: no overtime
        (DAY + 1, 0, RESERVE - 1),
        (DAY + HOUR, 0, RESERVE - HOUR),
        (DAY + 2 * HOUR, 2 * HOUR, RESERVE),  # the host's extension is not overtime
        (DAY + 2 * HOUR + 100, 2 * HOUR, RESERVE - 100),
        (HOUR, 2 * HOUR, RESERVE),  # an extension never adds to the reserve
        (DAY + RESERVE, 0, 0),  # made at the last second: the reserve is used up
    ],
)
def test_overtime_eats_the_reserve_and_extensions_do_not(elapsed, extension, reserve_after):
    state = play(new(), "starter", {"starter": "B"}, elapsed=elapsed, extension=extension)
    assert row_clock(state, "A")["reserve_left"] == reserve_after
    assert row_clock(state, "B")["reserve_left"] == RESERVE
    state = play(state, "lay", {"cards": ["1R"]})
    assert mover(state) == "A"
    assert seconds(state) == DAY + reserve_after


def test_overtime_adds_up_over_moves():
    state = play(new(), "starter", {"starter": "A"}, elapsed=DAY + HOUR)  # A: 1 h over
    state = play(state, "lay", {"cards": ["1R"]}, elapsed=DAY + 5 * HOUR)  # A: 5 h over
    state = play(state, "lay", {"cards": ["1Y"]}, elapsed=DAY + 2 * HOUR)  # B: 2 h over
    assert row_clock(state, "A")["reserve_left"] == RESERVE - 6 * HOUR
    assert row_clock(state, "B")["reserve_left"] == RESERVE - 2 * HOUR
    # A: 10 h over, 4 h of it the host's extension: 6 h more
    state = play(state, "lay", {"cards": ["1G"]}, elapsed=DAY + 10 * HOUR, extension=4 * HOUR)
    assert row_clock(state, "A")["reserve_left"] == RESERVE - 12 * HOUR
    assert mover(state) == "B"
    assert seconds(state) == DAY + RESERVE - 2 * HOUR


@pytest.mark.parametrize("stage", ["starter", "lay", "pick"])
def test_out_of_time_loses_by_default(stage):
    state = new()
    if stage != "starter":
        state = play(state, "starter", {"starter": "B"})
    if stage == "pick":
        for lay in IN_ORDER:
            state = play(state, "lay", {"cards": lay.split()})
        # A laid last, so B picks first; B takes 3, then A runs out of time.
        state = play(state, "pick", {"count": 3})
    loser = mover(state)
    state = no_move(state, elapsed=DAY + RESERVE)
    assert GAME.open_phase(state) is None
    outcome = GAME.result(state)
    winner = "B" if loser == "A" else "A"
    assert [(s.player, s.place) for s in outcome.standings] == [(winner, 1), (loser, 2)]
    assert outcome.ec == (loser,)
    assert outcome.details["ended_by"] == "clock"
    assert outcome.details["lost_on_time"] == loser
    assert row_clock(state, loser)["reserve_left"] == 0
    if stage == "pick":
        # B has 1R 2R 3R (3/3) and wins on the clock anyway; A took nothing.
        assert {s.player: s.score for s in outcome.standings} == {"B": "1", "A": "0"}


def test_out_of_time_with_smallest_move_the_service_plays_for_the_player():
    state = new(on_empty_reserve="smallest_move")
    # The starter choice: the protected player (A) starts.
    state = no_move(state, elapsed=DAY + RESERVE)
    public = GAME.view(state, None)["public"]
    assert public["starter"] == "A"
    assert public["moves"][-1]["by_service"] is True
    assert row_clock(state, "A")["reserve_left"] == 0
    # A's lay now has just the day; out of time again: the lowest unused card, 1R.
    assert mover(state) == "A"
    assert seconds(state) == DAY
    state = no_move(state, elapsed=DAY)
    assert GAME.view(state, None)["public"]["laid"] == ["1R"]
    state = play(state, "lay", {"cards": ["1Y", "1G"]})
    # lowest unused is now 1B (number first, then colour R, Y, G, B)
    state = no_move(state, elapsed=DAY)
    assert GAME.view(state, None)["public"]["laid"] == ["1R", "1Y", "1G", "1B"]
    state = play(state, "lay", {"cards": ["2R", "3R"]})
    # A moves in time (within the day): still no reserve, still a day a move.
    state = play(state, "lay", {"cards": ["2Y"]}, elapsed=DAY - 1)
    assert row_clock(state, "A")["reserve_left"] == 0
    state = play(state, "lay", {"cards": ["2G"]})
    assert seconds(state) == DAY
    assert GAME.open_phase(state) is not None


def test_out_of_time_when_picking_with_smallest_move_takes_one_card():
    state = new(on_empty_reserve="smallest_move")
    state = play(state, "starter", {"starter": "A"})
    for lay in IN_ORDER:
        state = play(state, "lay", {"cards": lay.split()})
    # B laid last: A picks first and runs out of time: one card, 1R.
    assert mover(state) == "A"
    state = no_move(state, elapsed=DAY + RESERVE)
    public = GAME.view(state, None)["public"]
    assert public["taken"]["A"]["cards"] == ["1R"]
    assert public["row"][0] == "2R"
    assert mover(state) == "B"
    assert GAME.open_phase(state) is not None


def test_resolving_early_without_a_move_keeps_the_time_used_and_reopens_the_move():
    state = new()
    state = no_move(state, elapsed=HOUR + 600, extension=600, timed_out=False)
    assert mover(state) == "A"
    assert row_clock(state, "A")["used_on_current_move"] == HOUR
    assert seconds(state) == DAY + RESERVE - HOUR
    state = play(state, "starter", {"starter": "A"}, elapsed=DAY)
    # one hour before plus a day now: an hour of overtime
    assert row_clock(state, "A")["reserve_left"] == RESERVE - HOUR
    assert row_clock(state, "A")["used_on_current_move"] == 0


def test_resolving_without_a_move_after_the_whole_allowance_is_a_timeout():
    state = no_move(new(), elapsed=DAY + RESERVE, timed_out=False)
    assert GAME.open_phase(state) is None
    assert GAME.result(state).details["lost_on_time"] == "A"


# ---------------------------------------------------------------- deal


@pytest.mark.parametrize(
    ("used", "expected"),
    [(0, 0), (1, 0), (59, 0), (60, 0), (61, 1), (119, 1), (120, 1), (121, 2), (180, 2), (181, 3), (360, 5)],
)
def test_periods_used_by_a_move(used, expected):
    # a move's first period is free; every further period it starts uses one up
    assert periods_used(used, 60) == expected


def deal_clock(state, player):
    return GAME.view(state, None)["public"]["clocks"][player]


@pytest.mark.parametrize(
    ("elapsed", "extension", "left"),
    [
        (60, 0, 5),
        (61, 0, 4),
        (150, 0, 3),
        (150, 100, 5),  # an extension uses no period
        (190, 100, 4),
        (300, 0, 1),  # at the last second of the last period: the move stands, that period kept
        (400, 100, 1),  # the same with a 100 s extension
    ],
)
def test_periods_are_used_up_by_slow_moves(elapsed, extension, left):
    state = new(rule_set="deal", period_seconds=60)
    state = play(state, "take", {"count": 1}, elapsed=elapsed, extension=extension)
    assert deal_clock(state, "A")["periods_left"] == left
    assert deal_clock(state, "B")["periods_left"] == 5
    state = play(state, "take", {"count": 1})
    assert seconds(state) == 60 * left


def test_each_later_deal_adds_a_period():
    state = new(rule_set="deal", period_seconds=60)
    state = play(state, "take", {"count": 3}, elapsed=150)  # A: 5 -> 3
    for _ in range(7):
        state = play(state, "take", {"count": 3})
    public = GAME.view(state, None)["public"]
    assert public["deal"] == 2
    assert (deal_clock(state, "A")["periods_left"], deal_clock(state, "B")["periods_left"]) == (4, 6)


@pytest.mark.parametrize("start_periods", [5, 1])
def test_a_deal_player_out_of_periods_loses(start_periods):
    state = new(rule_set="deal", period_seconds=60, start_periods=start_periods)
    state = play(state, "take", {"count": 2})
    assert mover(state) == "B"
    assert seconds(state) == 60 * start_periods
    state = no_move(state, elapsed=60 * start_periods)
    assert GAME.open_phase(state) is None
    outcome = GAME.result(state)
    assert [(s.player, s.place, s.score) for s in outcome.standings] == [("A", 1, "0"), ("B", 2, "0")]
    assert outcome.ec == ("B",)
    assert outcome.details["ended_by"] == "clock"
    assert outcome.details["lost_on_time"] == "B"


def test_deal_early_resolution_without_a_move_keeps_the_time_used():
    state = new(rule_set="deal", period_seconds=60)
    state = no_move(state, elapsed=100, timed_out=False)
    assert mover(state) == "A"
    assert deal_clock(state, "A")["used_on_current_move"] == 100
    assert seconds(state) == 300 - 100
    state = play(state, "take", {"count": 1}, elapsed=30)  # 130 s in all: 2 periods
    assert deal_clock(state, "A")["periods_left"] == 3


# Deal text: "Time controls: 5 periods of 1 minute". RULINGS, Abstrac `deal`: "a move later than one
# period uses up one more; with none left, the player loses". The periods are all the time a move
# has (byo-yomi): with 5 periods of 60 s a move may last 5 x 60 = 300 s; one later than 60 s uses
# a period up, and using up the last one (none left) loses. Never a sixth, free period.


def test_periods_are_the_whole_time_of_a_move():
    # 5 periods of 60 s: 300 s, not 360
    assert seconds(new(rule_set="deal", period_seconds=60)) == 300
    assert seconds(new(rule_set="deal", period_seconds=60, start_periods=2)) == 120


@pytest.mark.parametrize(
    ("elapsed", "left"),
    [
        (60, 5),  # within the first period: nothing used
        (61, 4),  # later than one period: one used up
        (240, 2),  # in the fourth period: three used up
        (300, 1),  # at the last second of the fifth: four used up, the last one still held
    ],
)
def test_a_move_keeps_the_period_it_is_made_in(elapsed, left):
    state = play(new(rule_set="deal", period_seconds=60), "take", {"count": 1}, elapsed=elapsed)
    assert deal_clock(state, "A")["periods_left"] == left
    state = play(state, "take", {"count": 1})
    # A's next move has all the periods left: 60 s each
    assert seconds(state) == 60 * left


def test_using_up_the_last_period_loses():
    state = new(rule_set="deal", period_seconds=60)
    # A's move at 300 s leaves one period (60 s) for each of A's later moves
    state = play(state, "take", {"count": 1}, elapsed=300)
    state = play(state, "take", {"count": 1})
    assert seconds(state) == 60
    state = play(state, "take", {"count": 1}, elapsed=60)  # within it: the period is kept
    assert deal_clock(state, "A")["periods_left"] == 1
    state = play(state, "take", {"count": 1})
    # 60 s pass without a move: the last period is used up, none is left, A loses
    state = no_move(state, elapsed=60)
    assert GAME.open_phase(state) is None
    assert deal_clock(state, "A")["periods_left"] == 0
    assert GAME.result(state).details["lost_on_time"] == "A"


def test_a_deal_match_cannot_start_without_a_period():
    # 0 periods would be no time at all for the first move
    with pytest.raises(ValidationError):
        GAME.Settings(rule_set="deal", start_periods=0)
