"""What leaves Domino Auction: the public view keeps every bid amount secret, a player sees only
their own bids, the boards are drawn as text and as SVG pictures that show every covered cell."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from domino_support import GAME, bids, placing, resolve, won

from game_core.games.domino.pictures import pictures
from game_core.games.protocol import Resolution
from local_stack.bots import bot_for

PLAYERS = ["ann", "bob", "cy"]
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def states():
    """A bot match of three, every state from the first to the last."""
    state = GAME.setup(GAME.Settings(), tuple(PLAYERS), random.Random(3))
    bot = bot_for("domino")
    trail = [state]
    while (phase := GAME.open_phase(state)) is not None:
        sent = {
            p: {
                k: GAME.submissions[k].model_validate(v)
                for k, v in bot(GAME.view(state, p), phase, p, random.Random(p)).items()
            }
            for p in PLAYERS
        }
        state = GAME.resolve(state, Resolution(submissions=sent, rng=random.Random(0)))
        trail.append(state)
    return trail


def _keys(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for inner in value.values() for key in _keys(inner)}
    if isinstance(value, list):
        return {key for inner in value for key in _keys(inner)}
    return set()


def test_no_bid_amount_is_public(states):
    for state in states:
        public = GAME.view(state, None)["public"]
        assert "bids" not in _keys(public)
        assert public["chips"] == 300  # the match's chips: the only "chips" there is
        for player in PLAYERS:
            private = GAME.view(state, player)["private"]
            assert private["bids"] == [
                {"round": number, "bids": None if sent is None else sent.model_dump(mode="json")["bids"]}
                for number, sent in enumerate(state.bids[player], start=1)
            ]


def test_what_an_auction_reveals():
    state = won(PLAYERS, {"ann": [1, 2]})
    public = GAME.view(state, None)["public"]
    assert public["auctions"] == [{"round": 1, "spent": {"ann": 2, "bob": 0, "cy": 0}}]
    assert public["chips_left"] == {"ann": 298, "bob": 300, "cy": 300}
    assert [tile.get("won_by") for tile in public["tiles"][:3]] == ["ann", "ann", None]
    assert "won_by" not in public["tiles"][20]
    assert public["to_place"] == {"ann": [1, 2], "bob": [], "cy": []}


def test_every_board_is_drawn_as_a_grid():
    state = resolve(
        won(PLAYERS, {"ann": [1, 2]}), {"ann": {"place": placing((1, "A1 B1 A2 B2"), ("square", "C1")), "bid": bids()}}
    )
    text = GAME.text.render_view(GAME.view(state, "ann"), {"ann": "Ann", "bob": "Bob", "cy": "Cy"})
    assert " 1 a a # . . . . . . . . .       1 . . . . . . . . . . . ." in text.splitlines()
    assert " 2 a a . . . . . . . . . ." in [line[:26] for line in text.splitlines()]
    assert "Forfeited: Ann 2" in text


def _cells(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return [rect.get("data-cell") for rect in root.iter(f"{SVG}rect") if rect.get("class") == "cell"]


def test_the_pictures_are_valid_svg_and_show_every_covered_cell(states):
    for state in states:
        public = GAME.view(state, None)["public"]
        files = pictures(public, {})
        names = public["pictures"]
        assert set(files) == {names["all"], *names["boards"].values()}
        for player in PLAYERS:
            covered = sorted(cell for piece in public["boards"][player] for cell in piece["cells"])
            assert sorted(_cells(files[names["boards"][player]])) == covered
        every = sorted(cell for p in PLAYERS for piece in public["boards"][p] for cell in piece["cells"])
        assert sorted(_cells(files[names["all"]])) == every


def test_the_largest_square_is_outlined_at_the_end(states):
    public = GAME.view(states[-1], None)["public"]
    files = pictures(public, {"ann": "Ann <&> Co"})
    board = ET.fromstring(files[public["pictures"]["boards"]["ann"]])
    outlines = [rect for rect in board.iter(f"{SVG}rect") if rect.get("class") == "largest-square"]
    side = public["final"]["squares"]["ann"]["side"]
    assert len(outlines) == (1 if side else 0)
    if side:
        assert outlines[0].get("width") == str(24 * side)
    assert "Ann <&> Co" in "".join(board.itertext())
    for state in states[:-1]:
        public = GAME.view(state, None)["public"]
        picture = ET.fromstring(pictures(public, {})[public["pictures"]["all"]])
        assert not any(rect.get("class") == "largest-square" for rect in picture.iter(f"{SVG}rect"))
