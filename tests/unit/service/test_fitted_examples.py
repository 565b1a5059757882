"""Each kind's example uses this match's values as well as its players (issue 34): an example a
reader copies must be one the open phase could take, not a tile of another auction or a token no
one can hold yet."""

from __future__ import annotations

import pytest

from game_core.games import registry
from game_core.service.telling.named import EXAMPLE, kind_help

NAMES = {"ada": "Ada", "bo": "Bo"}


def example(game: str, kind: str, phase: str) -> list[str]:
    lines = kind_help(registry.load(game), kind, NAMES, "ada", phase)
    return [line.strip() for line in lines[lines.index(EXAMPLE) + 1 :]]


@pytest.mark.parametrize(
    ("phase", "expected"),
    [
        # Auction n offers tiles 20n-19 to 20n (the rules' 60 tiles, 20 a round): the example's
        # bids, 40 on one tile and 12 on the tile four on, fall in the open auction's tiles
        ("Auction 1", ["BID 40 ON TILE 7", "BID 12 ON TILE 11"]),
        ("Auction 2 and placing 1", ["BID 40 ON TILE 27", "BID 12 ON TILE 31"]),
        ("Auction 3 and placing 2", ["BID 40 ON TILE 47", "BID 12 ON TILE 51"]),
    ],
)
def test_dominos_bid_example_bids_on_the_open_auctions_tiles(phase: str, expected: list[str]) -> None:
    assert example("domino", "bid", phase) == expected


@pytest.mark.parametrize(
    ("phase", "tile"),
    # Placing n places what auction n sold: tile 7 of auction 1 is tile 27 of auction 2, 47 of 3
    [("Auction 2 and placing 1", 7), ("Auction 3 and placing 2", 27), ("Placing 3", 47)],
)
def test_dominos_place_example_places_a_tile_of_the_auction_being_placed(phase: str, tile: int) -> None:
    assert example("domino", "place", phase) == [f"PLACE {tile} AT C5 C6 C7 D7", "SQUARE AT D6"]


@pytest.mark.parametrize(
    ("phase", "second_pick"),
    [
        ("1A", "PICK 7C 2"),  # round 1's draft: no round has been played, so no token is sure
        ("2A+1B", "PICK 7C 2 TOKEN 1.3"),  # a token of round 1, whose puzzles are over
        ("5A+4B", "PICK 7C 2 TOKEN 4.3"),
    ],
)
def test_clubs_draft_example_names_a_token_of_a_round_already_played(phase: str, second_pick: str) -> None:
    assert example("clubs", "draft", phase)[1] == second_pick


@pytest.mark.parametrize(("phase", "peeked"), [("1A", 1), ("2A+1B", 1), ("4A+3B", 3), ("7B", 6)])
def test_clubs_peek_example_looks_at_a_round_already_played(phase: str, peeked: int) -> None:
    assert example("clubs", "peek", phase) == [f"PEEK Bo ROUND {peeked}"]
