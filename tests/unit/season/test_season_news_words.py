"""Each season event in the words everyone is told (game_core/season/news.py), and how a step's events make
one occasion: written by hand from what each event records (season/episode.py, naming.py,
death_match.py) and RULINGS.md's "Seasons" (who names, the host's turn, the lot, the ToL rule
lapsing, the host deciding a tie)."""

from __future__ import annotations

from typing import Any

import pytest

from game_core.season.news import Occasion, occasions
from game_core.season.settings import read_settings
from game_core.season.state import SeasonEvent

SETTINGS = read_settings(
    {
        "cast": [{"id": "ada", "name": "Ada Lovelace"}, {"id": "bo"}, {"id": "cy"}, {"id": "di"}],
        "episodes": [{"main": {"game": "domino"}}, {"main": {"game": "palindrome"}}],
        "seed": 7,
    }
)


def said(kind: str, **data: Any) -> list[str]:
    [told] = occasions(SETTINGS, [(1, SeasonEvent(kind, data))])
    return list(told.lines)


@pytest.mark.parametrize(
    ("kind", "data", "words"),
    [
        (
            "named",
            {"ec": "di", "opponent": "bo", "by": "ec", "lapsed": False},
            "di named bo as their Death Match opponent.",
        ),
        (
            "named",
            {"ec": "di", "opponent": "ada", "by": "host", "lapsed": False},
            "The host named Ada Lovelace as di's Death Match opponent (di did not name in time).",
        ),
        (
            "named",
            {"ec": "di", "opponent": "cy", "by": "lot", "lapsed": False, "among": ["bo", "cy"]},
            "A lot named cy as di's Death Match opponent (drawn among bo and cy).",
        ),
        (
            "tol_spent",
            {"episode": 2, "player": "ada", "tol_left": 1},
            "Ada Lovelace spent a Token of Life and is safe this episode (1 left).",
        ),
        (
            "tol_kept",
            {"episode": 2, "player": "bo", "silent": True},
            "bo keeps their Token of Life (they said nothing by the deadline).",
        ),
        (
            "ec_replaced",
            {"episode": 2, "player": "cy", "for": "ada", "by_host": True},
            "The host picked cy as Elimination Candidate in Ada Lovelace's place.",
        ),
        (
            "death_match_tied",
            {"episode": 1, "match_id": "m-1", "players": ["di", "bo"]},
            "The Death Match of di and bo ended tied: the host names who is eliminated.",
        ),
        (
            "death_match_ended",
            {"episode": 1, "match_id": "m-1", "loser": "di", "winner": "bo", "by_host": True},
            "The host named di the loser of the tied Death Match with bo: di is eliminated.",
        ),
        (
            "episode_started",
            {"episode": 2, "players": ["ada", "bo", "cy"], "match_id": "m-2"},
            "Episode 2 begins: palindrome among Ada Lovelace, bo and cy.",
        ),
        (
            "champion",
            {"player": "bo", "by_host": True},
            "bo is the season's champion (the host's pick among those tied). The season is over.",
        ),
        (
            "champion_tie",
            {"match_id": "m-f", "tied": ["ada", "bo"]},
            "The Finals ended with Ada Lovelace and bo tied for first: the host names the champion.",
        ),
        ("extended", {"seconds": 43200}, "The host put off the current naming deadline by 12 hours."),
        (
            "extended",  # season recover, the lot's deadline passed 4 hours before (season/host.py)
            {"seconds": 18000, "recovered": True},
            "The season was stopped (its service failing) past the current turn's deadline: the host's recovery"
            " reopened the turn for an hour.",
        ),
        ("resumed", {"paused_seconds": 7200}, "The host resumed the season: its deadlines are put off by 2 hours."),
        ("season_cancelled", {}, "The host cancelled the season: nothing more is played."),
        (
            "guests_named",
            {"episode": 2, "guests": {"ada": ["di"], "bo": ["gwen"]}},
            "The host named episode 2's guests: Ada Lovelace's di; bo's gwen.",
        ),
    ],
)
def test_each_event_in_words(kind: str, data: dict[str, Any], words: str) -> None:
    assert said(kind, **data)[0] == words


def test_a_lapsed_pick_says_so() -> None:
    lines = said("named", ec="di", opponent="bo", by="ec", lapsed=True)
    assert lines[1] == "Everyone who could be named held a ToL: the ToL rule lapsed for this pick."


def test_a_steps_events_make_one_occasion_and_the_untold_ones_none() -> None:
    log = [
        (1, SeasonEvent("season_created", {})),
        (2, SeasonEvent("episode_started", {"episode": 1, "players": ["ada", "bo", "cy", "di"], "match_id": "m-1"})),
        # ada spends (her step: spent, then the next-lowest, cy, becomes EC), then cy spends with
        # nobody left to take his place
        (3, SeasonEvent("tol_spent", {"episode": 1, "player": "ada", "tol_left": 1})),
        (4, SeasonEvent("ec_replaced", {"episode": 1, "player": "cy", "for": "ada", "by_host": False})),
        (5, SeasonEvent("tol_spent", {"episode": 1, "player": "cy", "tol_left": 0})),
        (6, SeasonEvent("no_replacement", {"episode": 1, "for": "cy"})),
        (7, SeasonEvent("death_matches_set", {"episode": 1, "pairs": []})),
        (8, SeasonEvent("episode_ended", {"episode": 1, "eliminated": []})),
        (9, SeasonEvent("death_match_started", {"episode": 1, "match_id": "m-2", "players": ["di", "bo"]})),
    ]
    assert occasions(SETTINGS, log) == [
        Occasion(
            3,
            (
                "Ada Lovelace spent a Token of Life and is safe this episode (1 left).",
                "cy becomes Elimination Candidate in Ada Lovelace's place.",
            ),
        ),
        Occasion(
            5,
            (
                "cy spent a Token of Life and is safe this episode (0 left).",
                "Nobody can take cy's place: this episode has one Elimination Candidate fewer.",
                "Episode 1 has no Death Match.",
                "Episode 1 is over.",
            ),
        ),
    ]
