"""Death Matches, results that wait for the host, the Finals and the season's end (RULINGS.md,
"Seasons": "Its loser is eliminated; a tie the game leaves to the host waits for the host's
decision." "Everywhere": a tie across a ToL or EC line is reported with all its names and the
host decides), and steps sent for the wrong match or at the wrong time."""

from __future__ import annotations

import pytest
from season_support import DOMINO, duel, played, result, settings, six_player_steps

from game_core.games.protocol import TiedLine
from game_core.match.ties import decide
from game_core.season.death_match import (
    cancel,
    death_match_ended,
    decide_champion,
    decide_death_match,
    finals_ended,
    next_step,
    start_death_match,
)
from game_core.season.episode import main_match_ended, start_episode
from game_core.season.errors import AlreadyDone, MatchUndecided, NotNow, WrongMatch
from game_core.season.naming import name_opponent
from game_core.season.state import SeasonState
from game_core.season.waiting import Waiting, pending

SEASON = settings("domino", "crates", "clubs")


def in_death_match() -> SeasonState:
    """Episode 1 of the six-player season: fay (EC) named di; their Death Match is m-dm1."""
    return played(SEASON, *six_player_steps()[:4])


def test_a_death_match_the_result_leaves_tied_waits_for_the_host() -> None:
    # A two-player result with nobody on the EC line (all equal: "with everyone tied, no EC is named")
    stepped = death_match_ended(in_death_match(), "m-dm1", result(["di", "fay"], places={"di": 1, "fay": 1}))
    assert [e.type for e in stepped.events] == ["death_match_tied"]
    state = stepped.state
    assert pending(state) == [Waiting("death_match_tie", ("fay", "di"), "m-dm1")]
    assert state.left == ["ada", "bo", "cy", "di", "ed", "fay"]  # nobody eliminated yet
    with pytest.raises(NotNow, match="ed does not play match m-dm1"):
        decide_death_match(state, "m-dm1", "ed")
    decided = decide_death_match(state, "m-dm1", "fay")
    assert [(e.type, e.data.get("by_host")) for e in decided.events] == [
        ("death_match_ended", True),
        ("eliminated", None),
        ("episode_ended", None),
    ]
    assert decided.state.player("fay").eliminated_in == 1
    assert decide_death_match(decided.state, "m-dm1", "fay").events == ()
    with pytest.raises(AlreadyDone, match="loser is fay"):
        decide_death_match(decided.state, "m-dm1", "di")


def test_a_tie_left_for_the_host_on_the_ec_line_is_a_tie_too() -> None:
    tied = result(["di", "fay"], places={"di": 1, "fay": 1}, tied_lines=(TiedLine("ec", ("di", "fay")),))
    state = death_match_ended(in_death_match(), "m-dm1", tied).state
    assert state.episodes[0].death_matches[0].tied
    # The host may not decide a Death Match that ended with a loser
    ended = death_match_ended(in_death_match(), "m-dm1", duel("di", "fay")).state
    with pytest.raises(AlreadyDone):
        decide_death_match(ended, "m-dm1", "di")


def test_a_main_match_tie_across_the_ec_line_is_decided_on_the_match_first() -> None:
    # Domino with ed and fay tied last (every tie-break equal): no EC until the host ranks them
    tied = result(
        ["ada", "bo", "cy", "di", "ed", "fay"],
        tol={"ada": 2},
        places={"ada": 1, "bo": 2, "cy": 3, "di": 4, "ed": 5, "fay": 5},
        tied_lines=(TiedLine("ec", ("ed", "fay")),),
    )
    state = played(SEASON, lambda _settings, s: start_episode(s, 1, "m-dom"))
    with pytest.raises(MatchUndecided, match="match-host decide"):
        main_match_ended(state, SEASON, "m-dom", tied)
    # The host ranks ed above fay on the match (`match-host decide`): fay takes the EC line
    ended = main_match_ended(state, SEASON, "m-dom", decide(tied, ["ed", "fay"])).state
    assert ended.episodes[0].ecs == ["fay"] and ended.episodes[0].places["fay"] == 6


def test_steps_for_another_match_or_out_of_turn_are_refused() -> None:
    state = played(SEASON, lambda _settings, s: start_episode(s, 1, "m-dom"))
    with pytest.raises(WrongMatch, match="waits for match m-dom, not m-other"):
        main_match_ended(state, SEASON, "m-other", DOMINO)
    with pytest.raises(WrongMatch, match="not of this season's"):
        main_match_ended(state, SEASON, "m-dom", result(["ada", "bo"], ec=["bo"]))
    with pytest.raises(WrongMatch, match="already plays match m-dom"):
        start_episode(state, 1, "m-again")
    with pytest.raises(NotNow, match="episode 2 cannot begin now"):
        start_episode(state, 2, "m-2")
    with pytest.raises(NotNow, match="Main Match is being played"):
        name_opponent(state, "fay", "di")
    running = in_death_match()
    with pytest.raises(WrongMatch, match="m-dm9 is no Death Match"):
        death_match_ended(running, "m-dm9", duel("di", "fay"))
    with pytest.raises(WrongMatch, match="is match m-dm1, not m-dm2"):
        start_death_match(running, "fay", "m-dm2")


def test_a_tie_in_the_finals_is_the_hosts_to_decide() -> None:
    state = played(SEASON, *six_player_steps()[:-1])
    tied = finals_ended(state, "m-fin", result(["bo", "ed"], places={"bo": 1, "ed": 1}))
    assert [e.type for e in tied.events] == ["champion_tie"]
    assert pending(tied.state) == [Waiting("champion_tie", ("bo", "ed"), "m-fin")]
    with pytest.raises(NotNow):
        decide_champion(tied.state, "ada")
    crowned = decide_champion(tied.state, "bo")
    assert crowned.state.champion == "bo" and crowned.events[0].data == {"player": "bo", "by_host": True}
    assert decide_champion(crowned.state, "bo").events == ()


def test_a_cancelled_season_plays_nothing_more() -> None:
    state = cancel(in_death_match()).state
    assert state.stage == "cancelled" and next_step(state, SEASON).kind == "over" and pending(state) == []
    assert cancel(state).events == ()
    with pytest.raises(NotNow):
        death_match_ended(state, "m-dm1", duel("di", "fay"))
    over = played(SEASON, *six_player_steps())
    with pytest.raises(NotNow, match="ed is its champion"):
        cancel(over)
