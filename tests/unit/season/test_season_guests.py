"""Guests of a Clubs episode (RULINGS.md, "Seasons": "Clubs' guests are named by the host when its
episode starts (eliminated players may be guests); the episode waits for them.")."""

from __future__ import annotations

import pytest
from season_support import played, settings, six_player_steps

from game_core.match.model import MatchRequest
from game_core.season.death_match import next_step
from game_core.season.errors import NotEligible, NotNow
from game_core.season.guests import name_guests
from game_core.season.requests import main_request
from game_core.season.state import SeasonState

SEASON = settings("domino", "crates", "clubs", cast=["ada", "bo", "cy", "di", "ed", "fay"])
GUESTS = {"ada": ["fay"], "bo": [{"id": "gwen", "email": "gwen@example.com"}], "ed": ["cy"]}


def before_clubs() -> SeasonState:
    """The six-player season after Crates: ada, bo and ed left for Clubs; fay, di, cy eliminated."""
    state = played(SEASON, *six_player_steps()[:13])
    assert state.left == ["ada", "bo", "ed"]
    return state


def test_a_clubs_episode_waits_for_the_hosts_guests() -> None:
    state = before_clubs()
    coming = next_step(state, SEASON)
    assert (coming.kind, coming.number, coming.players) == ("guests", 3, ["ada", "bo", "ed"])
    stepped = name_guests(SEASON, state, 3, GUESTS)
    assert stepped.events[0].data == {"episode": 3, "guests": {"ada": ["fay"], "bo": ["gwen"], "ed": ["cy"]}}
    state = stepped.state
    assert next_step(state, SEASON).kind == "episode"
    assert name_guests(SEASON, state, 3, GUESTS).events == ()  # named again: nothing
    # The Main Match's settings file seats each player with their guest, an eliminated player's
    # contact from the cast
    request = MatchRequest.model_validate(main_request(SEASON, state, 3))
    assert [(p.id, [g.id for g in p.guests]) for p in request.players] == [
        ("ada", ["fay"]),
        ("bo", ["gwen"]),
        ("ed", ["cy"]),
    ]


def test_guests_the_host_cannot_name() -> None:
    state = before_clubs()
    wrong = {"ada": ["bo"], "bo": ["fay", "cy"], "zed": ["di"]}
    with pytest.raises(NotEligible) as refused:
        name_guests(SEASON, state, 3, wrong)
    assert [(r.code, r.text) for r in refused.value.reasons] == [
        ("no_guests", "ed brings no guests: name 1"),
        ("not_a_player", "zed plays no part in the episode"),
        ("guest_count", "bo brings 2 guests; the game takes 1"),
        ("still_playing", "bo is still in the season: no guest"),
    ]
    with pytest.raises(NotEligible) as twice:
        name_guests(SEASON, state, 3, {"ada": ["fay"], "bo": ["fay"], "ed": [{"id": "bad id!"}]})
    assert [r.code for r in twice.value.reasons] == ["string_pattern_mismatch", "guest_twice"]
    with pytest.raises(NotNow, match="has no guests"):
        other = settings("domino", "crates", "crates", "domino", cast=[*"abcdefgh"])
        name_guests(other, played(other), 1, {})
    with pytest.raises(NotNow, match="before it begins; the season is at episode 2"):
        name_guests(SEASON, state, 2, GUESTS)
