"""The final mail: the winner, every place, the Tokens of Life (ToL) and Elimination Candidates
(EC) and the garnets each earned, in words and a small table, from the public result alone, for
every game."""

from __future__ import annotations

import re
from typing import Any

import pytest
from bot_matches import CASES, IDS, play_through

from game_core.games.text_layout import prose, result_text

NAMES = {"p1": "Ada Lovelace", "p2": "Bo", "p3": "Cy", "p4": "Dee"}

# A result with what every game's result may hold: a tie for a place, a player with two Tokens of
# Life, an award of nothing and one below nothing, and a tie across the EC line left to the host
TIED: dict[str, Any] = {
    "standings": [
        {"place": 1, "player": "p2", "score": "11/3", "tied_with": []},
        {"place": 2, "player": "p1", "score": "3", "tied_with": ["p4"]},
        {"place": 2, "player": "p4", "score": "3", "tied_with": ["p1"]},
        {"place": 4, "player": "p3", "score": "1", "tied_with": []},
    ],
    "tol": ["p2"],
    "tol_awarded": {"p2": 2},
    "ec": ["p3"],
    "undecided": ["p1", "p4"],
    "tied_lines": [{"line": "ec", "players": ["p1", "p4"], "places": 1, "award": 1}],
    "garnets": {"p1": 0, "p2": 5, "p3": -1, "p4": 2},
}


def test_the_result_in_words_and_a_table_worked_by_hand() -> None:
    assert result_text(TIED, NAMES) == [
        "The match is over. The winner is Bo, with 11/3.",
        "Tokens of Life (ToL): Bo (2).",
        "Elimination Candidates (EC): Cy.",
        "Tied across the EC line: Ada Lovelace and Dee; the host decides who takes 1",
        "place.",  # folded at 78 columns
        "Garnets earned: Ada Lovelace 0, Bo +5, Cy -1, Dee +2.",
        "",
        "Place  Player        Score  ToL  EC  Garnets",
        "-----  ------------  -----  ---  --  -------",
        "    1  Bo             11/3    2           +5",
        "    2  Ada Lovelace      3                 0",
        "    2  Dee               3                +2",
        "    4  Cy                1       EC       -1",
    ]


def test_a_shared_first_place_names_everyone_in_it_and_nobody_on_an_empty_line() -> None:
    shared = {
        "standings": [
            {"place": 1, "player": "p1", "score": "37", "tied_with": ["p2"]},
            {"place": 1, "player": "p2", "score": "37", "tied_with": ["p1"]},
        ],
        "tol": [],
        "ec": [],
        "undecided": [],
        "garnets": {"p1": 0, "p2": 0},
    }
    said = result_text(shared, NAMES)
    assert said[:3] == [
        "The match is over. Ada Lovelace and Bo share first place, with 37 each.",
        "Tokens of Life (ToL): nobody.",
        "Elimination Candidates (EC): nobody.",
    ]


@pytest.mark.parametrize(("game_id", "rule_set"), CASES, ids=IDS)
def test_every_games_result_names_the_winner_and_has_a_row_for_every_place(game_id: str, rule_set: str) -> None:
    result = play_through(game_id, rule_set, seed=3).result  # as the match stores it: the JSON
    names = {s["player"]: f"Player {s['player'].upper()}" for s in result["standings"]}
    said = result_text(result, names)
    winners = [names[s["player"]] for s in result["standings"] if s["place"] == 1]
    assert all(winner in said[0] for winner in winners)
    table = said[said.index("") + 1 :]
    # Read by the columns the dashes underline: a score may be several words ("1 won, 0 chips")
    columns = [(m.start(), m.end()) for m in re.finditer(r"-+", table[1])]
    cells = [[line[start:end].strip() for start, end in columns] for line in table]
    assert cells[0] == ["Place", "Player", "Score", "ToL", "EC", "Garnets"]
    rows = cells[2:]
    assert len(rows) == len(result["standings"])
    for row, standing in zip(rows, result["standings"], strict=True):
        assert row[:3] == [str(standing["place"]), names[standing["player"]], standing["score"]]
        assert row[4] == ("EC" if standing["player"] in result["ec"] else "")
    assert all(len(line) <= 78 for line in said[: said.index("")])  # the words are folded


@pytest.mark.parametrize(
    ("text", "first", "rest", "folded"),
    [
        ("short", "", None, ["short"]),
        ("", "  - ", "    ", ["  -"]),
        # 16 words of 4 letters: 79 characters; the fold goes at the last space within 78
        (" ".join(["word"] * 16), "", None, [" ".join(["word"] * 15), "word"]),
        # after "  - ", 37 a's take 4 + 37 + 36 spaces = 77 columns, a 38th would reach 79: the folds
        # go under the reason's text
        ("a " * 38 + "end", "  - ", "    ", ["  - " + "a " * 36 + "a", "    a end"]),
        ("see " + "x" * 90, "", None, ["see", "x" * 90]),  # a word longer than a line stands whole
    ],
)
def test_prose_is_folded_at_78_columns(text: str, first: str, rest: str | None, folded: list[str]) -> None:
    assert prose(text, first, rest) == folded
    assert all(len(line) <= 78 for line in folded if " " in line.strip())
