"""The `row` rule set (Death Match 12): phases, refusals, scores, tie-breaks, views and the result."""

from __future__ import annotations

import random

import pytest
from abstrac_support import PLAYERS, cards, mover, new, play, played_by_bots, reasons, refusals, roundtrip

from game_core.errors import Illegal
from game_core.games.abstrac import GAME
from game_core.games.abstrac.models import AbstracState as State
from game_core.games.protocol import Resolution
from local_stack.bots.abstrac import choose

# Laid three at a time, A, B, A, B, ...; B lays last, so A picks first. Picking A3 B3 A3 B3 A3 B3
# A3 B1 A2 gives A the row example's 14 cards (red 23456 yellow 1345 green 13 blue 123) and B the
# other ten (1R 2Y 6Y 2G 4G 5G 6G 4B 5B 6B: three 6s 2, green 456 3, blue 456 3 = 8 points).
LAYS = [
    "2R 3R 4R",
    "1R 2Y 6Y",
    "5R 6R 1Y",
    "2G 4G 5G",
    "3Y 4Y 5Y",
    "6G 4B 5B",
    "1G 3G 1B",
    "6B 2B 3B",
]
PICKS = [3, 3, 3, 3, 3, 3, 3, 1, 2]


def laid_out(**settings) -> State:
    state = new(**settings)
    state = play(state, "starter", {"starter": "A"})
    for lay in LAYS:
        state = play(state, "lay", {"cards": cards(lay)})
    return state


def played_out(**settings) -> State:
    state = laid_out(**settings)
    for count in PICKS:
        state = play(state, "pick", {"count": count})
    return state


def finished_with(a: str, b: str, protected: str = "A") -> State:
    """A finished match whose hands are set directly (the result only reads the hands)."""
    state = new(protected=protected)
    assert state.row is not None
    state.row.taken = {"A": cards(a), "B": cards(b)}
    state.row.stage, state.row.to_move = "over", None
    return state


def test_phases_follow_the_text():
    state = new()
    phase = GAME.open_phase(state)
    assert (phase.name, phase.accepts, phase.actors, phase.closes_on_submit) == (
        "Choose starter",
        ("starter",),
        ("A",),
        True,
    )
    state = play(state, "starter", {"starter": "B"})
    phase = GAME.open_phase(state)
    assert (phase.name, phase.accepts, phase.actors) == ("Laying move", ("lay",), ("B",))
    state = play(state, "lay", {"cards": ["2G", "4B", "3R"]})
    assert mover(state) == "A"
    state = play(state, "lay", {"cards": ["5G", "1G"]})
    state = play(state, "lay", {"cards": ["6Y", "6R"]})
    # The text's example row: "front 2G 4B 3R 5G 1G 6Y 6R".
    assert GAME.view(state, None)["public"]["row"] == cards("2G 4B 3R 5G 1G 6Y 6R")
    assert [kind.name for kind in GAME.timeline(GAME.Settings())] == [
        "Choose starter",
        "Laying move",
        "Picking move",
    ]


def test_protected_player_setting_names_the_starter_chooser():
    assert mover(new(protected="B")) == "B"


def test_picking_begins_with_the_player_who_did_not_lay_last_and_takes_from_the_front():
    state = laid_out()
    phase = GAME.open_phase(state)
    assert (phase.name, phase.actors) == ("Picking move", ("A",))
    state = play(state, "pick", {"count": 2})
    public = GAME.view(state, None)["public"]
    assert public["taken"]["A"]["cards"] == ["2R", "3R"]
    assert public["row"][:2] == ["4R", "1R"]
    assert mover(state) == "B"


def test_when_the_other_player_lays_last_they_do_not_pick_first():
    state = new()
    state = play(state, "starter", {"starter": "A"})
    # A lays 3, then 7 more lays of 3 would end on B; make A lay last instead: 3,3,3,3,3,3,3,2,1.
    deck = [c for lay in LAYS for c in cards(lay)]
    for size in [3, 3, 3, 3, 3, 3, 3, 2, 1]:
        state = play(state, "lay", {"cards": deck[:size]})
        deck = deck[size:]
    assert GAME.view(state, None)["public"]["last_layer"] == "A"
    assert mover(state) == "B"


def test_the_worked_example_match_scores_11_7_against_4_5():
    state = roundtrip(played_out())
    assert GAME.open_phase(state) is None
    outcome = GAME.result(state).to_json()
    assert outcome["standings"] == [
        {"place": 1, "player": "A", "score": "11/7", "tied_with": []},
        {"place": 2, "player": "B", "score": "4/5", "tied_with": []},
    ]
    assert outcome["ec"] == ["B"]
    assert outcome["tol"] == []
    assert outcome["undecided"] == []
    assert outcome["garnets"] == {"A": 0, "B": 0}
    details = outcome["details"]
    assert details["ended_by"] == "score"
    assert details["decided_by"] == "score"
    a = details["players"]["A"]
    assert (a["points"], a["card_count"], a["points_over_cards"], a["score_decimal"]) == (
        22,
        14,
        "22/14",
        "1.5714",
    )
    assert [c["points"] for c in a["combinations"]] == [2, 8, 6, 3, 3]
    b = details["players"]["B"]
    assert (b["points"], b["card_count"], b["score"]) == (8, 10, "4/5")


@pytest.mark.parametrize(
    ("a", "b", "protected", "winner", "decided_by", "scores"),
    [
        # higher fraction wins, whatever the card counts
        ("1R 2R 3R", "1Y 2Y 3Y 4Y 5G", "A", "A", "score", ("1", "4/5")),
        # 4/5 against 1/1: B wins even though protected A has more cards
        ("1G 2G 3G 4G 6B", "1B 2B 3B", "A", "B", "score", ("4/5", "1")),
        # equal fractions: more cards wins (3/3 and 6/6 are both 1)
        ("1R 2R 3R", "1Y 2Y 3Y 1G 2G 3G", "A", "B", "more cards", ("1", "1")),
        # equal fractions, not equal numbers: 3 points / 6 cards and 2 points / 4 cards are 1/2
        ("1R 2R 3R 5Y 1G 6B", "4Y 4G 4B 6R", "B", "A", "more cards", ("1/2", "1/2")),
        # equal fraction and cards: the protected player wins
        ("1R 2R 3R", "1Y 2Y 3Y", "A", "A", "protected player", ("1", "1")),
        ("1R 2R 3R", "1Y 2Y 3Y", "B", "B", "protected player", ("1", "1")),
        ("1R 3Y 5G", "2R 4Y 6G", "B", "B", "protected player", ("0", "0")),
    ],
)
def test_tie_breaks(a, b, protected, winner, decided_by, scores):
    outcome = GAME.result(finished_with(a, b, protected))
    loser = "B" if winner == "A" else "A"
    assert [(s.player, s.place) for s in outcome.standings] == [(winner, 1), (loser, 2)]
    assert outcome.ec == (loser,)
    assert outcome.details["decided_by"] == decided_by
    by_player = {s.player: s.score for s in outcome.standings}
    assert (by_player["A"], by_player["B"]) == scores


@pytest.mark.parametrize(
    ("stage_moves", "player", "kind", "payload", "expected"),
    [
        # Choose starter
        (0, "A", "starter", {"starter": "C"}, [("not_a_player", "C is not a player in this match; name A or B")]),
        # Laying (after the starter choice and LAYS[0]: 2R 3R 4R laid, B to move)
        (2, "B", "lay", {"cards": []}, [("card_count", "a laying move lays 1, 2 or 3 cards, not 0")]),
        (2, "B", "lay", {"cards": cards("1R 1Y 1G 1B")}, [("card_count", "a laying move lays 1, 2 or 3 cards, not 4")]),
        (2, "B", "lay", {"cards": cards("1R 1R")}, [("card_repeated", "1R is named 2 times")]),
        (2, "B", "lay", {"cards": cards("1R 3R")}, [("card_laid", "3R has already been laid")]),
        (
            2,
            "A",
            "lay",
            {"cards": cards("2R 2R 5Y 6G")},
            [
                ("card_count", "a laying move lays 1, 2 or 3 cards, not 4"),
                ("card_repeated", "2R is named 2 times"),
                ("card_laid", "2R has already been laid"),
            ],
        ),
        # Picking (everything laid, A to pick, 24 in the row)
        (9, "A", "pick", {"count": 0}, [("card_count", "a picking move takes 1, 2 or 3 cards, not 0")]),
        (9, "A", "pick", {"count": 4}, [("card_count", "a picking move takes 1, 2 or 3 cards, not 4")]),
    ],
)
def test_refusals(stage_moves, player, kind, payload, expected):
    state = new()
    moves = [("starter", {"starter": "A"})] + [("lay", {"cards": cards(lay)}) for lay in LAYS]
    for move_kind, move_payload in moves[:stage_moves]:
        state = play(state, move_kind, move_payload)
    assert refusals(state, player, kind, payload) == expected


def test_more_than_remain_is_refused_when_laying_and_picking():
    state = new()
    state = play(state, "starter", {"starter": "A"})
    deck = [c for lay in LAYS for c in cards(lay)]
    for _ in range(7):
        state = play(state, "lay", {"cards": deck[:3]})
        deck = deck[3:]
    state = play(state, "lay", {"cards": deck[:1]})  # 22 laid, 2 unused: 2B 3B
    assert mover(state) == "A"
    assert reasons(state, "A", "lay", {"cards": cards("2B 3B 1R")}) == [
        "only 2 unused cards remain, and the move lays 3",
        "1R has already been laid",
    ]
    state = play(state, "lay", {"cards": cards("2B 3B")})
    for count in [3, 3, 3, 3, 3, 3, 3]:
        state = play(state, "pick", {"count": count})
    assert mover(state) == "A"
    assert reasons(state, "A", "pick", {"count": 3}) == []
    state = play(state, "pick", {"count": 2})  # one card left
    assert reasons(state, "B", "pick", {"count": 2}) == ["only 1 card remains in the row, and the move takes 2"]


def test_views_show_everything_and_the_private_part_is_empty():
    state = laid_out()
    state = play(state, "pick", {"count": 3})
    public = GAME.view(state, None)
    assert set(public) == {"public"}
    for player in PLAYERS:
        assert GAME.view(state, player) == {"public": public["public"], "private": {}}
    shown = public["public"]
    assert shown["row"][0] == "1R" and len(shown["row"]) == 21
    assert shown["taken"]["A"]["cards"] == ["2R", "3R", "4R"]
    assert shown["taken"]["A"]["combinations"] == [
        {"kind": "run", "name": "Three-in-a-row of red", "cards": ["2R", "3R", "4R"], "points": 3}
    ]
    assert shown["taken"]["A"]["score"] == "1"
    assert shown["clocks"]["B"] == {
        "move_seconds": 86400,
        "reserve_left": 172800,
        "used_on_current_move": 0,
        "on_empty_reserve": "lose",
    }


def test_bot_plays_a_whole_row_match_legally():
    state = played_by_bots(new(seed=3), max_moves=200)
    outcome = GAME.result(state)
    assert sorted(s.player for s in outcome.standings) == ["A", "B"]
    assert sum(len(state.row.taken[p]) for p in PLAYERS) == 24


def test_bot_prefers_a_pick_that_completes_a_combination():
    state = laid_out()
    assert state.row is not None
    # A holds 1R 2R; the front of the row is 5Y 3R 6G: taking 2 completes red 123.
    state.row.taken["A"] = cards("1R 2R")
    state.row.row = cards("5Y 3R 6G") + [c for c in state.row.row if c not in {"1R", "2R", "5Y", "3R", "6G"}]
    phase = GAME.open_phase(state)
    picks = {choose(GAME.view(state, "A"), phase, "A", random.Random(s))["pick"]["count"] for s in range(10)}
    assert picks == {2}


@pytest.mark.parametrize(
    ("players", "settings", "expected"),
    [
        (("A", "B"), {"protected": "C"}, ["protected names C, who is not a player in this match"]),
        (
            ("A", "B"),
            {"rule_set": "deal", "first_starter": "Z"},
            ["first_starter names Z, who is not a player in this match"],
        ),
    ],
)
def test_setup_refuses_settings_that_do_not_fit(players, settings, expected):
    with pytest.raises(Illegal) as refused:
        GAME.setup(GAME.Settings(**settings), players, random.Random(0))
    assert [reason.text for reason in refused.value.reasons] == expected
    assert [reason.code for reason in refused.value.reasons] == ["not_a_player"] * len(expected)


def test_resolve_ignores_non_movers():
    state = new()
    starter = GAME.submissions["starter"].model_validate({"starter": "B"})
    resolved = GAME.resolve(
        state,
        Resolution(
            submissions={"A": {"starter": starter}, "B": {"starter": starter}},
            rng=random.Random(0),
            timed_out=False,
        ),
    )
    assert mover(resolved) == "B"
    # the input state is left as it was
    assert mover(state) == "A"
