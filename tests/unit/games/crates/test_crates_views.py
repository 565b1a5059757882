"""Pushing Crates: what each view tells, and that no secret leaks into another one."""

from __future__ import annotations

import json
from typing import Any

from crates_support import GAME, PREGAME, play, pushes, turn

PLAYERS = ["ann", "bob", "cat"]
ANN_MULTIPLIERS = [2, 1, 1, 0, -1, -1]
SECRET_KEYS = {
    "pushes",
    "ground",
    "grounds_used",
    "grounds_left",
    "multipliers",
    "total",
    "locations",
    "rounds",
}

# Given ann put 2 on round 1 and, in round 1, chose ice, pushed herself right twice and bob left once;
# bob pushed ann right once on stone; cat sent nothing.
# ann: 3 rights over ice, 0 -> 9, meeting 5: 1 x 2 = 2 points. bob: 1 left, stays at 0.
PHASES = {
    PREGAME: {"ann": {"multipliers": {"multipliers": ANN_MULTIPLIERS}}},
    1: {
        "ann": {"round": turn("ice", pushes("ann", "right", 2), pushes("bob", "left"))},
        "bob": {"round": turn("stone", pushes("ann"))},
    },
}


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def test_the_public_view_after_a_round_is_the_phase_and_the_mod_5_reveal():
    state = play(PLAYERS, PHASES, until=1)
    view = GAME.view(state, None)
    assert set(view) == {"public"}
    public = view["public"]
    assert public["phase"] == "Round 2" and public["round"] == 2 and public["over"] is False
    assert public["reveals"] == [{"round": 1, "mod5": {"ann": 4, "bob": 0, "cat": 0}}]
    assert "final" not in public
    assert not keys(public) & SECRET_KEYS
    # ann's exact location, 9, is never told (only 9 mod 5 = 4)
    assert "9" not in json.dumps(view)


def test_a_players_view_adds_only_their_own_submissions_and_total():
    state = play(PLAYERS, PHASES, until=1)
    public = GAME.view(state, None)["public"]
    ann = GAME.view(state, "ann")
    assert ann["public"] == public
    assert ann["private"] == {
        "multipliers": {"pregame": ANN_MULTIPLIERS, "round_1": None, "standing": ANN_MULTIPLIERS},
        "rounds": [
            {
                "round": 1,
                "pushes": [
                    {"crate": "ann", "direction": "right"},
                    {"crate": "ann", "direction": "right"},
                    {"crate": "bob", "direction": "left"},
                ],
                "ground": "ice",
                "submitted": True,
                "total": 2,
            }
        ],
        "total": 2,
        "grounds_used": {"rubber": 0, "stone": 0, "ice": 1},
        "grounds_left": {"rubber": 1, "ice": 1},
    }
    # Not even ann is told her exact location
    assert "9" not in json.dumps(ann)


def test_no_player_sees_another_players_pushes_ground_multipliers_or_total():
    state = play(PLAYERS, PHASES, until=1)
    bob = GAME.view(state, "bob")
    assert bob["private"]["multipliers"] == {
        "pregame": None,
        "round_1": None,
        "standing": [-1, -1, 0, 1, 1, 2],
    }
    assert bob["private"]["rounds"] == [
        {
            "round": 1,
            "pushes": [{"crate": "ann", "direction": "right"}],
            "ground": "stone",
            "submitted": True,
            "total": 0,
        }
    ]
    text = json.dumps(bob)
    assert "ice" not in json.dumps(bob["private"]["rounds"])
    assert json.dumps(ANN_MULTIPLIERS) not in text
    assert '"direction": "left"' not in text  # ann's push on bob's crate
    assert "9" not in text
    cat = GAME.view(state, "cat")
    assert cat["private"]["rounds"] == [{"round": 1, "pushes": [], "ground": "stone", "submitted": False, "total": 0}]
    assert "ann" not in json.dumps(cat["private"])


def test_pregame_submissions_are_private_before_round_1():
    state = play(PLAYERS, PHASES, until=0)
    assert json.dumps(ANN_MULTIPLIERS) not in json.dumps(GAME.view(state, None))
    assert json.dumps(ANN_MULTIPLIERS) not in json.dumps(GAME.view(state, "bob"))
    assert GAME.view(state, "ann")["private"]["multipliers"]["pregame"] == ANN_MULTIPLIERS
    assert GAME.view(state, "ann")["public"]["phase"] == "Round 1"


def test_the_end_reveals_scores_and_standings_but_no_submissions_or_locations():
    # Given the match ends with bob and cat level in everything and the host lot cat, ann, bob
    state = play(PLAYERS, PHASES, lot=["cat", "ann", "bob"])
    public = GAME.view(state, None)["public"]
    assert public["over"] is True and public["phase"] is None
    # Then ann (2) leads; the lot puts cat before bob, so it is shown
    assert public["final"] == {
        "scores": {"ann": 2, "bob": 0, "cat": 0},
        "standings": [
            {"place": 1, "player": "ann", "score": "2"},
            {"place": 2, "player": "cat", "score": "0"},
            {"place": 3, "player": "bob", "score": "0"},
        ],
        "tol": ["ann"],
        "ec": ["cat", "bob"],
        "lot_decided": True,
        "lot": ["cat", "ann", "bob"],
    }
    assert len(public["reveals"]) == 6
    assert not keys(public) & SECRET_KEYS
    assert "9" not in json.dumps(public)


def test_the_lot_is_not_shown_when_it_decided_nothing():
    # Given bob also moves (0 -> 1 in round 2), so nobody is level everywhere
    phases = dict(PHASES)
    phases[2] = {"bob": {"round": turn("stone", pushes("bob"))}}
    state = play(PLAYERS, phases, lot=["cat", "ann", "bob"])
    final = GAME.view(state, None)["public"]["final"]
    assert [s["player"] for s in final["standings"]] == ["ann", "bob", "cat"]
    assert final["lot_decided"] is False
    assert "lot" not in final


def test_views_are_json():
    state = play(PLAYERS, PHASES)
    for player in [None, *PLAYERS]:
        json.dumps(GAME.view(state, player))
