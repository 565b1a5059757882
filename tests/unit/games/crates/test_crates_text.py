"""Pushing Crates in plain text: hand-written bodies and what they read as (worked out from the
models: a round is its pushes in order and its ground, stone when none is named), the reasons a
body is refused with, the echo, and the text of a view."""

from __future__ import annotations

import pytest
from crates_support import GAME, PREGAME, play, pushes, start, turn

from game_core.games.crates.models import MultipliersSubmission, RoundSubmission

TEXT = GAME.text
ROUND_1 = ("round", "multipliers")
ROUND_N = ("round",)
PLAYERS = ["ann", "Bob", "cat"]


def read(body: str, accepts: tuple[str, ...] = ROUND_N, players: list[str] = PLAYERS):
    return TEXT.read_text(body.split("\n"), accepts, players)


def moves(body: str, accepts: tuple[str, ...] = ROUND_N) -> list[tuple[str, dict, str | None]]:
    reading = read(body, accepts)
    assert reading.reasons == []
    return [(move.kind, move.submission, move.phase) for move in reading.moves]


@pytest.mark.parametrize(
    ("body", "accepts", "expected"),
    [
        ("MULTIPLIERS 2 1 1 0 -1 -1", ("multipliers",), [("multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]}, None)]),
        (
            "multipliers: 2, 1, 1, 0, -1, -1.",
            ("multipliers",),
            [("multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]}, None)],
        ),
        (
            "  2 1 1 0 \u22121 \u22121  ",
            ("multipliers",),
            [("multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]}, None)],
        ),
        ("Mult\u0069pliers -1 -1 0 1 1 2\r", ROUND_1, [("multipliers", {"multipliers": [-1, -1, 0, 1, 1, 2]}, None)]),
        ("PUSH ann RIGHT", ROUND_N, [("round", turn("stone", pushes("ann")), None)]),
        (
            "push ANN r 2\npush bob L\nground ice",
            ROUND_N,
            [("round", turn("ice", pushes("ann", "right", 2), pushes("Bob", "left")), None)],
        ),
        ("ROUND 3:\n\nGROUND rubber.\n", ROUND_N, [("round", turn("rubber"), "Round 3")]),
        ("round", ROUND_N, [("round", turn("stone"), None)]),
        ("GROUND STONE", ROUND_N, [("round", turn("stone"), None)]),
        # Order is kept across lines and crates; a header may come anywhere.
        (
            "PUSH cat LEFT\nPUSH ann RIGHT\nround 2\nPUSH cat LEFT",
            ROUND_N,
            [("round", turn("stone", pushes("cat", "left"), pushes("ann"), pushes("cat", "left")), "Round 2")],
        ),
        # Round 1: a late change of multipliers and the round, in one mail, the numbers alone.
        (
            "2 1 1 0 -1 -1\nPUSH bob RIGHT\nGROUND ICE",
            ROUND_1,
            [("multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]}, None), ("round", turn("ice", pushes("Bob")), None)],
        ),
    ],
)
def test_a_body_reads_as(body, accepts, expected):
    assert moves(body, accepts) == expected


@pytest.mark.parametrize(
    ("body", "accepts", "codes"),
    [
        ("hello", ROUND_N, ["unknown_line"]),
        ("2 1 1 0 -1 -1", ROUND_N, ["unknown_line"]),  # round 2 takes no multipliers: no short form
        ("hello", ROUND_1, ["unknown_line"]),
        ("GROUND", ROUND_N, ["missing_ground"]),
        ("GROUND mud", ROUND_N, ["unknown_ground"]),
        ("PUSH", ROUND_N, ["missing_crate"]),
        ("PUSH ann", ROUND_N, ["missing_direction"]),
        ("PUSH Zed RIGHT", ROUND_N, ["unknown_player"]),  # a crate is a player's: none is Zed
        ("PUSH ann UP", ROUND_N, ["unknown_direction"]),
        ("PUSH ann RIGHT twice", ROUND_N, ["not_a_number"]),
        ("PUSH ann RIGHT 0", ROUND_N, ["bad_count"]),
        ("PUSH ann RIGHT 100", ROUND_N, ["bad_count"]),
        ("PUSH ann RIGHT 2 please", ROUND_N, ["extra_words"]),
        ("GROUND ICE\nGROUND STONE", ROUND_N, ["line_repeated"]),
        ("ROUND 2\nROUND 3", ROUND_N, ["line_repeated"]),
        ("ROUND three", ROUND_N, ["not_a_number"]),
        ("MULTIPLIERS 2 1 x", ("multipliers",), ["not_a_number"]),
        ("thanks!\nPUSH ann LEFT\n...\nGROUND lava", ROUND_N, ["unknown_line", "unknown_line", "unknown_ground"]),
    ],
)
def test_a_body_is_refused_with(body, accepts, codes):
    assert [reason.code for reason in read(body, accepts).reasons] == codes


def test_a_reason_quotes_the_line_and_says_what_was_expected():
    [reason] = read("hi\nPUSH ann UP").reasons[1:]
    assert (
        reason.text
        == 'line 2 "PUSH ann UP": "UP" is not a direction (LEFT or RIGHT); write PUSH <player> LEFT|RIGHT [times]'
    )
    [unknown] = read("hi").reasons
    assert unknown.text == 'line 1 "hi": not understood; expected a line starting ROUND, PUSH or GROUND'


NAMED = {"ann": "Ann Arbor", "Bob": "Robert", "cat": "cat"}


@pytest.mark.parametrize(
    ("line", "crate"),
    [
        ("PUSH Robert RIGHT", "Bob"),  # a name for an id
        ("PUSH ROBERT RIGHT", "Bob"),  # in any case
        ("PUSH ann arbor RIGHT", "ann"),  # a name of two words, read whole
        ("PUSH bob RIGHT", "Bob"),  # the id still
    ],
)
def test_a_player_is_named_by_id_or_name_in_any_case(line: str, crate: str) -> None:
    reading = TEXT.read_text([line], ROUND_N, NAMED)
    assert [move.submission for move in reading.moves] == [turn("stone", pushes(crate))]


def test_an_unknown_player_is_refused_naming_the_choices() -> None:
    [reason] = TEXT.read_text(["PUSH Zed RIGHT"], ROUND_N, NAMED).reasons
    assert reason.text == (
        'line 1 "PUSH Zed RIGHT": "Zed" is not a player of the match (Ann Arbor (ann), Robert (Bob), cat); '
        "write PUSH <player> LEFT|RIGHT [times]"
    )


def test_a_name_two_players_share_names_neither_and_is_refused_naming_both() -> None:
    # Refused at create; a match stored before that check still reads each by id
    shared = {"ann": "Alex", "Bob": "alex"}
    [reason] = TEXT.read_text(["PUSH alex RIGHT"], ROUND_N, shared).reasons
    assert '"alex" is not a player of the match (Alex (ann), alex (Bob))' in reason.text
    assert TEXT.read_text(["PUSH ann RIGHT"], ROUND_N, shared).moves[0].submission == turn("stone", pushes("ann"))


def test_the_lines_read_besides_a_refused_one_are_still_read():
    reading = read("PUSH ann RIGHT\nPUSH bob SIDEWAYS")
    assert [move.submission for move in reading.moves] == [turn("stone", pushes("ann"))]


def test_multipliers_that_are_no_permutation_are_read_as_written_for_the_match_layer_to_refuse():
    [move] = read("MULTIPLIERS 2 2 2", ("multipliers",)).moves
    assert move.submission == {"multipliers": [2, 2, 2]}


@pytest.mark.parametrize(
    ("kind", "submission", "lines"),
    [
        ("multipliers", MultipliersSubmission(multipliers=[2, 1, 1, 0, -1, -1]), ["MULTIPLIERS 2 1 1 0 -1 -1"]),
        ("round", RoundSubmission(), ["GROUND STONE"]),
        (
            "round",
            RoundSubmission.model_validate(
                turn("ice", pushes("ann", "right", 2), pushes("Bob", "left"), pushes("ann"))
            ),
            ["PUSH ann RIGHT 2", "PUSH Bob LEFT", "PUSH ann RIGHT", "GROUND ICE"],
        ),
    ],
)
def test_the_echo(kind, submission, lines):
    assert TEXT.write_text(kind, submission) == lines
    [move] = TEXT.read_text(lines, (kind,)).moves
    assert move.submission == submission.model_dump(mode="json")


def test_the_help_of_a_round():
    assert TEXT.text_help("round") == [
        "  ROUND [number]                    optional: names the round",
        "  PUSH <player> LEFT|RIGHT [times]  one line per crate",
        "  GROUND RUBBER|STONE|ICE           left out: stone",
        "Example:",
        "  PUSH ada RIGHT 2",
        "  GROUND ICE",
    ]


def test_a_view_as_text():
    # Ann pushes her own crate right twice on ice: 6 steps, past 5 once, times her round-1
    # multiplier 2: 2 points, location 6 (1 mod 5).
    players = ["ann", "bob"]
    pregame = {"ann": {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}}}
    state = play(players, {PREGAME: pregame, 1: {"ann": {"round": turn("ice", pushes("ann", "right", 2))}}}, until=1)
    names = {"ann": "Ann Lee", "bob": "Bob"}
    text = TEXT.render_view(GAME.view(state, "ann"), names)
    assert text.split("\n") == [
        "Pushing Crates: round 2 of 6.",
        "Players: Ann Lee, Bob",
        "",
        "Crates' locations mod 5 after each round:",
        "Crate    R1",
        "-------  --",
        "Ann Lee   1",
        "Bob       0",
        "",
        "Your multipliers (rounds 1-6):",
        "  pregame: 2 1 1 0 -1 -1",
        "  round 1: no late change sent",  # Round 1 is over: no late change can come now
        "  standing: 2 1 1 0 -1 -1",
        "Your rounds:",
        "Round  Pushes            Ground  Total",
        "-----  ----------------  ------  -----",
        "    1  Ann Lee right x2  ice         2",
        "Grounds left: rubber 1, ice 1 (stone: any number)",
        "Your total: 2",
    ]


def multiplier_lines(state, player: str) -> list[str]:
    lines = TEXT.render_view(GAME.view(state, player), {"ann": "Ann", "bob": "Bob"}).split("\n")
    start = lines.index("Your multipliers (rounds 1-6):")
    return lines[start : start + 3]


def test_each_multiplier_line_says_what_it_is_while_it_may_still_change():
    # Issue 34: "pregame: none sent" beside STATUS's "What stands from you for Pregame", and
    # "round 1: none sent" with no word of the late change the rules take until Round 1 closes.
    in_pregame = start(["ann", "bob"])
    assert multiplier_lines(in_pregame, "ann") == [
        "Your multipliers (rounds 1-6):",
        "  pregame: counted when Pregame closes (STATUS shows what you sent)",
        "  round 1: a late change is taken until Round 1 closes; none yet",
    ]
    pregame = {"ann": {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}}}
    in_round_one = play(["ann", "bob"], {PREGAME: pregame}, until=PREGAME)
    assert multiplier_lines(in_round_one, "ann")[1:] == [
        "  pregame: 2 1 1 0 -1 -1",
        "  round 1: a late change is taken until Round 1 closes; none yet",
    ]
    changed = {"ann": {"multipliers": {"multipliers": [-1, 2, 1, 1, 0, -1]}}}
    after_round_one = play(["ann", "bob"], {PREGAME: pregame, 1: changed}, until=1)
    assert multiplier_lines(after_round_one, "ann")[1:] == [
        "  pregame: 2 1 1 0 -1 -1",
        "  round 1: -1 2 1 1 0 -1 (your late change)",
    ]
