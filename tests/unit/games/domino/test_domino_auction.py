"""Bids: who wins each tile, what is spent, and every refusal. Expected values worked by hand from
the rules: a tile goes to the highest amount bid on it by exactly one player (a tied top falls to
the next distinct amount, and so on), zero is no bid, every chip bid is spent."""

from __future__ import annotations

import pytest
from conftest import texts
from domino_support import bids, refusals, resolve, start

PLAYERS = ["ann", "bob", "cy", "dee", "eve"]


@pytest.mark.parametrize(
    ("amounts", "winner"),
    [
        ({"ann": 10, "bob": 5, "cy": 3}, "ann"),  # a unique top
        ({"ann": 10, "bob": 10, "cy": 5}, "cy"),  # 10 is bid twice: the tile falls to 5
        ({"ann": 10, "bob": 10, "cy": 5, "dee": 5, "eve": 1}, "eve"),  # 10 and 5 twice: falls to 1
        ({"ann": 9, "bob": 4, "cy": 9, "dee": 9}, "bob"),  # 9 three times: falls to 4
        ({"ann": 7, "bob": 7, "cy": 7, "dee": 7, "eve": 7}, None),  # everyone tied: nobody
        ({"ann": 6, "bob": 6, "cy": 2, "dee": 2}, None),  # every amount bid twice: nobody
        ({"ann": 0, "bob": 0}, None),  # zeros are no bids
        ({"ann": 0, "bob": 3}, "bob"),
        ({"ann": 5, "bob": 5, "cy": 0}, None),  # the zero does not win when the 5s cancel
        ({}, None),  # no bid at all
    ],
)
def test_who_wins_a_tile(amounts, winner):
    state = start(PLAYERS)
    resolved = resolve(state, {p: {"bid": bids(t1=chips)} for p, chips in amounts.items()})
    assert resolved.auctions[0].winners[0] == winner
    assert resolved.auctions[0].winners[1:] == [None] * 19


def test_every_chip_bid_is_spent_won_or_not():
    state = start(PLAYERS)
    # ann: 10 on tile 1 (cancelled by bob's 10) and 4 on tile 2 (won): 14 spent; bob 10; cy 7 (won 1).
    resolved = resolve(
        state,
        {"ann": {"bid": bids(t1=10, t2=4)}, "bob": {"bid": bids(t1=10)}, "cy": {"bid": bids(t1=7, t3=0)}},
    )
    assert resolved.auctions[0].spent == {"ann": 14, "bob": 10, "cy": 7, "dee": 0, "eve": 0}
    assert resolved.auctions[0].winners[:3] == ["cy", "ann", None]


def test_chips_are_spent_across_the_match():
    # 300 chips: 250 spent in auction 1 leaves 50; 50 more is allowed, 51 is not.
    state = resolve(start(PLAYERS), {"ann": {"bid": bids(t1=200, t2=50)}})
    assert refusals(state, "ann", "bid", bids(t21=50)) == []
    assert texts(refusals(state, "ann", "bid", bids(t21=30, t22=21))) == [
        "you bid 51 chips in all, but you have 50 left"
    ]
    assert [r.code for r in refusals(state, "ann", "bid", bids(t21=51))] == ["chips_short"]


def test_an_exact_spend_leaves_no_chips():
    state = resolve(start(PLAYERS), {"ann": {"bid": bids(t1=150, t2=100, t3=50)}})
    assert state.auctions[0].spent["ann"] == 300
    assert refusals(state, "ann", "bid", bids(t21=0)) == []  # a zero is no bid, and costs nothing
    assert texts(refusals(state, "ann", "bid", bids(t21=1))) == ["you bid 1 chip in all, but you have 0 left"]


def test_overspending_in_one_auction_is_refused():
    assert texts(refusals(start(PLAYERS), "ann", "bid", bids(t1=200, t2=101))) == [
        "you bid 301 chips in all, but you have 300 left"
    ]


@pytest.mark.parametrize(
    ("phase_bids", "payload", "codes", "text"),
    [
        (
            0,
            {"bids": [{"tile": 21, "chips": 5}]},
            ["tile_not_offered"],
            "tile 21 is not offered in auction 1 (tiles 1 to 20)",
        ),
        (
            1,
            {"bids": [{"tile": 20, "chips": 5}]},
            ["tile_not_offered"],
            "tile 20 is not offered in auction 2 (tiles 21 to 40)",
        ),
        (
            0,
            {"bids": [{"tile": 0, "chips": 5}]},
            ["tile_not_offered"],
            "tile 0 is not offered in auction 1 (tiles 1 to 20)",
        ),
        (
            0,
            {"bids": [{"tile": 3, "chips": 5}, {"tile": 3, "chips": 1}]},
            ["tile_repeated"],
            "tile 3 is bid on more than once; once at most",
        ),
    ],
)
def test_refused_bids(phase_bids, payload, codes, text):
    state = start(PLAYERS)
    if phase_bids:
        state = resolve(state, {})
    reasons = refusals(state, "ann", "bid", payload)
    assert [r.code for r in reasons] == codes
    assert texts(reasons) == [text]


def test_a_negative_bid_is_malformed():
    from pydantic import ValidationError

    from game_core.games.domino.models import BidSubmission

    with pytest.raises(ValidationError):
        BidSubmission.model_validate(bids(t1=-1))
