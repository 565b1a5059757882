"""Abstrac in plain text: hand-written moves and what they read as (a take said one of the text's
three ways), the keyword left out where the phase takes that move alone, refusals by code, the
echo, and a view as text."""

from __future__ import annotations

import random

import pytest

from game_core.games import registry
from game_core.games.abstrac.models import Lay, Take
from game_core.games.protocol import Resolution

GAME = registry.load("abstrac")
TEXT = GAME.text
PLAYERS = ["ann", "Bob"]
TAKE_FIELDS = {"count": None, "last": None, "cards": None}


def read(body: str, accepts: tuple[str, ...]):
    return TEXT.read_text(body.split("\n"), accepts, PLAYERS)


@pytest.mark.parametrize(
    ("body", "accepts", "expected"),
    [
        ("STARTER bob", ("starter",), ("starter", {"starter": "Bob"})),
        ("ANN", ("starter",), ("starter", {"starter": "ann"})),
        ("lay 2b, 3B 1r.", ("lay",), ("lay", {"cards": ["2B", "3B", "1R"]})),
        ("2B 3B 1R", ("lay",), ("lay", {"cards": ["2B", "3B", "1R"]})),
        ("PICK 2", ("pick",), ("pick", {"count": 2})),
        ("3", ("pick",), ("pick", {"count": 3})),
        ("take 2", ("take",), ("take", {**TAKE_FIELDS, "count": 2})),
        ("TAKE TO 3r", ("take",), ("take", {**TAKE_FIELDS, "last": "3R"})),
        ("take 3R", ("take",), ("take", {**TAKE_FIELDS, "cards": ["3R"]})),
        ("1R 3R", ("take",), ("take", {**TAKE_FIELDS, "cards": ["1R", "3R"]})),
        ("to 6b", ("take",), ("take", {**TAKE_FIELDS, "last": "6B"})),
        # In a laying move, a picking line is read as what it says (the match layer refuses the kind).
        ("PICK 1", ("lay",), ("pick", {"count": 1})),
    ],
)
def test_a_move_reads_as(body, accepts, expected):
    reading = read(body, accepts)
    assert reading.reasons == []
    assert [(move.kind, move.submission) for move in reading.moves] == [expected]


@pytest.mark.parametrize(
    ("body", "accepts", "codes"),
    [
        ("Hi!\nLAY 2B", ("lay",), ["unknown_line"]),
        ("LAY 7B", ("lay",), ["bad_card"]),
        ("LAY 2B\n3B", ("lay",), ["line_repeated"]),
        ("PICK", ("pick",), ["missing_count"]),
        ("PICK two", ("pick",), ["not_a_number"]),
        ("TAKE TO", ("take",), ["missing_card"]),
        ("TAKE 2 3", ("take",), ["bad_card"]),
        ("STARTER", ("starter",), ["missing_player"]),
        ("STARTER ann bob", ("starter",), ["extra_words"]),
        ("2B", ("pick",), ["unknown_line"]),
    ],
)
def test_a_body_is_refused_with(body, accepts, codes):
    assert [reason.code for reason in read(body, accepts).reasons] == codes


def test_a_line_without_keyword_says_what_the_phase_takes():
    [reason] = read("Hi", ("lay",)).reasons
    assert reason.text == ('line 1 "Hi": not understood; expected a line starting LAY, or <cards> alone')


@pytest.mark.parametrize(
    ("submission", "line"),
    [
        (Lay(cards=["2B", "3B"]), "LAY 2B 3B"),
        (Take(count=2), "TAKE 2"),
        (Take(last="3R"), "TAKE TO 3R"),
        (Take(cards=["3R"]), "TAKE 3R"),
        (Take(cards=[]), "TAKE"),
    ],
)
def test_the_echo(submission, line):
    kind = "lay" if isinstance(submission, Lay) else "take"
    assert TEXT.write_text(kind, submission) == [line]


def test_a_row_view_as_text():
    settings = GAME.Settings(rule_set="row")
    state = GAME.setup(settings, ("ann", "bob"), random.Random(0))
    for kind, submission in (("starter", {"starter": "bob"}), ("lay", {"cards": ["2G", "4B", "3R"]})):
        [mover] = GAME.open_phase(state).actors
        parsed = GAME.submissions[kind].model_validate(submission)
        state = GAME.resolve(state, Resolution({mover: {kind: parsed}}, random.Random(0), timed_out=False))
    text = TEXT.render_view(GAME.view(state, "ann"), {"ann": "Ann", "bob": "Bob"})
    lines = text.split("\n")
    assert lines[:3] == [
        "Abstrac (the row game): laying, Ann to move.",
        "Protected player: Ann. Starter: Bob.",
        "Row, front first: 2G 4B 3R",
    ]
    assert lines[-4:] == [
        "#  Player  Move     Cards",
        "-  ------  -------  --------",
        "1  Ann     starter  Bob",
        "2  Bob     lay      2G 4B 3R",
    ]
