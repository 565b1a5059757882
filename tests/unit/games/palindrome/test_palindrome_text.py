"""Palindrome Construction in plain text: hand-written bids and constructions and what they read as
(worked out from the models: a bid's unlisted cards stay unused, garnets go on item 1 unless said;
a construction's steps in the order of their lines), the reasons a body is refused with, the echo,
and what a private view shows of the seat."""

from __future__ import annotations

import pytest

from game_core.games import registry
from game_core.games.palindrome.construction import Construction
from game_core.games.palindrome.models import Bid

GAME = registry.load("palindrome")
TEXT = GAME.text
BOTH = ("bid", "construction")
EMPTY_BID = {"cards": [], "garnets": 0, "garnet_item": 1}


def read(body: str, accepts: tuple[str, ...] = BOTH):
    return TEXT.read_text(body.split("\n"), accepts)


def append(string: int, digits: str, position: int | None = None) -> dict:
    return {"action": "append", "string": string, "digits": digits, "position": position}


@pytest.mark.parametrize(
    ("body", "accepts", "expected"),
    [
        ("BID", ("bid",), [("bid", EMPTY_BID, None)]),
        ("bid 1", ("bid",), [("bid", EMPTY_BID, "Round 1 bidding")]),
        (
            "Bid 3\ncard 9 pack 3\nCARD 5 on item 1\ngarnets 2.",
            BOTH,
            [
                (
                    "bid",
                    {
                        "cards": [{"card": 9, "pack": 3, "item": None}, {"card": 5, "pack": None, "item": 1}],
                        "garnets": 2,
                        "garnet_item": 1,
                    },
                    "Round 3 bidding and round 2 construction",
                )
            ],
        ),
        ("GARNET 0 ITEM 2", ("bid",), [("bid", {"cards": [], "garnets": 0, "garnet_item": 2}, None)]),
        ("BUILD", ("construction",), [("construction", {"steps": []}, None)]),
        ("build 7", ("construction",), [("construction", {"steps": []}, "Round 7 construction")]),
        ("BUILD 2", BOTH, [("construction", {"steps": []}, "Round 3 bidding and round 2 construction")]),
        (
            "INSERT 2\nappend 397 to 1\nAPPEND 05 TO 2 AT 1\nduplicate 7\nshift 7 to 8\nerase 2 at 3\n"
            "swap 1 at 2 and 5\nmirror 1\nkeep\nclone 1 to 3",
            ("construction",),
            [
                (
                    "construction",
                    {
                        "steps": [
                            {"action": "insert", "string": 2},
                            append(1, "397"),
                            append(2, "05", 1),
                            {"action": "duplicate", "digit": "7"},
                            {"action": "shift", "digit": "7", "to": "8"},
                            {"action": "eraser", "string": 2, "position": 3},
                            {"action": "swap", "string": 1, "first": 2, "second": 5},
                            {"action": "mirror", "string": 1},
                            {"action": "keep"},
                            {"action": "clone", "string": 3, "source": 1},
                        ]
                    },
                    None,
                )
            ],
        ),
        # The fillers are optional: "APPEND 397 1" is "APPEND 397 TO 1".
        (
            "APPEND 397 1\nSWAP 1 2 5",
            ("construction",),
            [
                (
                    "construction",
                    {"steps": [append(1, "397"), {"action": "swap", "string": 1, "first": 2, "second": 5}]},
                    None,
                )
            ],
        ),
        # A bid and a construction in one mail.
        (
            "CARD 0 PACK 10\nAPPEND 1 TO 3",
            BOTH,
            [
                ("bid", {"cards": [{"card": 0, "pack": 10, "item": None}], "garnets": 0, "garnet_item": 1}, None),
                ("construction", {"steps": [append(3, "1")]}, None),
            ],
        ),
    ],
)
def test_a_body_reads_as(body, accepts, expected):
    reading = read(body, accepts)
    assert reading.reasons == []
    assert [(move.kind, move.submission, move.phase) for move in reading.moves] == expected


@pytest.mark.parametrize(
    ("body", "codes"),
    [
        ("9 PACK 3", ["unknown_line"]),
        ("CARD 9", ["missing_target"]),
        ("CARD 9 BOX 3", ["unknown_target"]),
        ("CARD nine PACK 3", ["not_a_number"]),
        ("CARD 9 PACK", ["missing_pack"]),
        ("GARNETS 2 PACK 1", ["unknown_target"]),
        ("GARNETS 1\nGARNETS 2", ["line_repeated"]),
        ("APPEND 3a9 TO 1", ["bad_digits"]),
        ("APPEND 397", ["missing_string"]),
        ("SHIFT 12 TO 3", ["bad_digit"]),
        ("KEEP 2", ["extra_words"]),
        ("BUILD two", ["not_a_number"]),
        ("BID\nBID", ["line_repeated"]),
    ],
)
def test_a_body_is_refused_with(body, codes):
    assert [reason.code for reason in read(body).reasons] == codes


def test_a_refused_line_names_its_form():
    [reason] = read("APPEND 3a9 TO 1").reasons
    assert (
        reason.text
        == 'line 1 "APPEND 3a9 TO 1": "3a9" is not digits, like 397; write APPEND <digits> TO <string> [AT <pos>]'
    )


def test_a_bid_the_rules_refuse_is_read_for_the_match_layer_to_refuse():
    # Two cards on one pack is pack_repeated, the game's to say; the grammar reads what was written.
    [move] = read("CARD 9 PACK 3\nCARD 8 PACK 3", ("bid",)).moves
    assert [card["card"] for card in move.submission["cards"]] == [9, 8]


@pytest.mark.parametrize(
    ("kind", "submission", "lines"),
    [
        ("bid", Bid(), ["BID"]),
        (
            "bid",
            Bid.model_validate({"cards": [{"card": 9, "pack": 3}], "garnets": 1, "garnet_item": 2}),
            ["CARD 9 PACK 3", "GARNETS 1 ITEM 2"],
        ),
        ("construction", Construction(), ["BUILD"]),
        (
            "construction",
            Construction.model_validate({"steps": [append(1, "12", 3), {"action": "clone", "string": 1, "source": 2}]}),
            ["APPEND 12 TO 1 AT 3", "CLONE 2 TO 1"],
        ),
    ],
)
def test_the_echo(kind, submission, lines):
    assert TEXT.write_text(kind, submission) == lines


def test_a_private_view_lists_the_seat_in_the_grammar_and_names_players():
    view = {
        "public": {
            "rule_set_title": "Main Match 5",
            "phase": "Round 2 bidding and round 1 construction",
            "players": ["p1", "p2"],
            "round_log": [
                {
                    "round": 1,
                    "resolved": True,
                    "packs": [
                        {"pack": 1, "digits": "12345", "received_by": "p2"},
                        {"pack": 2, "digits": "67890", "received_by": None},
                    ],
                    "items": [{"item": 1, "name": "Keep", "received_by": "p1"}],
                }
            ],
        },
        "private": {
            "strings": ["", "", ""],
            "digits": "12345",
            "items": [{"name": "Keep", "round": 1, "used_in_round": None}],
            "bids": [
                {"round": 1, "bid": {"cards": [{"card": 9, "pack": 1, "item": None}], "garnets": 0, "garnet_item": 1}}
            ],
            "constructions": [],
            "garnets_spent": 0,
        },
    }
    # The heading is 81 columns: folded at 78, its last word on a line of its own, standing in
    assert TEXT.render_view(view, {"p1": "Ada", "p2": "Bo"}).split("\n") == [
        "Palindrome Construction (Main Match 5): Round 2 bidding and round 1",
        "    construction.",
        "Players: Ada, Bo",
        "",
        "Round 1 (received):",
        "Pack  Digits  Received by",
        "----  ------  -----------",
        "   1   12345  Bo",
        "   2   67890  -",
        "Item  Name  Received by",
        "----  ----  -----------",
        "   1  Keep  Ada",
        "",
        "Your strings: 1: (empty)   2: (empty)   3: (empty)",
        "Your digits to place: 12345",
        "Your items: Keep (won in round 1, unused)",
        "Garnets you spent: 0",
        "Your bid in round 1: CARD 9 PACK 1",
    ]
