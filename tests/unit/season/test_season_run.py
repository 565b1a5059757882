"""The 6-player season of issue 31, step by step, every value worked by hand from RULINGS.md
("Seasons", and each game's results rule): Domino (one EC, one naming, one Death Match), then
Pushing Crates (two ECs, the second-to-last names first, the ToL protecting until nobody is left
without one), then Puzzler's Clubs (the pair fixed by the result, its winner a finalist), then
the Finals. Each step applied a second time changes nothing and records nothing."""

from __future__ import annotations

import json
from collections.abc import Callable

from season_support import CAST, CLUBS, CRATES, DOMINO, duel, played, settings, six_player_steps

from game_core.season.death_match import (
    death_match_ended,
    finals_ended,
    next_step,
    start_death_match,
    start_finals,
)
from game_core.season.episode import episode_players, main_match_ended, new_season, start_episode
from game_core.season.naming import eligible, name_opponent, naming_turn
from game_core.season.standing import standing
from game_core.season.state import SeasonState, Stepped
from game_core.season.waiting import Waiting, pending

SEASON = settings("domino", "crates", "clubs")


def step(state: SeasonState, transition: Callable[[SeasonState], Stepped]) -> tuple[SeasonState, list[str]]:
    """Apply one step, check that applying it again to its own result changes nothing, and give
    the new state with the types of the events recorded."""
    stepped = transition(state)
    again = transition(stepped.state)
    assert again.events == () and again.state == stepped.state, "a repeated step changed something"
    return stepped.state, [event.type for event in stepped.events]


def test_the_six_player_season_of_the_issue() -> None:
    state = new_season(SEASON, "s-1").state
    assert next_step(state, SEASON).kind == "episode" and episode_players(state) == CAST

    # Episode 1, Domino among all six. "First: 2 ToL; last: EC. Garnets: 2k": ada's square is
    # 5 (10 garnets), fay's 2 (4). ada wins two ToL; fay is the one EC.
    state, types = step(state, lambda s: start_episode(s, 1, "m-dom"))
    assert types == ["episode_started"]
    state, types = step(state, lambda s: main_match_ended(s, SEASON, "m-dom", DOMINO))
    assert types == ["main_match_ended"]
    assert state.player("ada").tol == 2 and state.player("fay").garnets_won == 4
    # fay may name anyone who is no EC and holds no ToL: not ada (2 ToL), not herself
    assert naming_turn(state) == "fay"
    assert eligible(state, state.episodes[0], "fay").players == ("bo", "cy", "di", "ed")
    assert pending(state) == [Waiting("naming", ("fay",), among=("bo", "cy", "di", "ed"))]
    state, types = step(state, lambda s: name_opponent(s, "fay", "di"))
    assert types == ["named", "death_matches_set"]
    # The Death Match: di, the named, is the protected player
    dm = state.episodes[0].death_matches[0]
    assert (dm.ec, dm.opponent, dm.protected) == ("fay", "di", "di")
    state, _ = step(state, lambda s: start_death_match(s, "fay", "m-dm1"))
    state, types = step(state, lambda s: death_match_ended(s, "m-dm1", duel("di", "fay")))
    assert types == ["death_match_ended", "eliminated", "episode_ended"]
    assert state.left == ["ada", "bo", "cy", "di", "ed"]

    # Episode 2, Pushing Crates among the five left. With 5 players: "EC is the bottom
    # min(2, n - 1) = 2, ToL the top min(3, n - EC count) = 3". Places bo, cy, ada, di, ed:
    # ToL to bo, cy, ada (ada now holds 3); ECs di (second to last) and ed (last).
    nxt = next_step(state, SEASON)
    assert (nxt.kind, nxt.number, nxt.players) == ("episode", 2, ["ada", "bo", "cy", "di", "ed"])
    state, _ = step(state, lambda s: start_episode(s, 2, "m-cr"))
    state, _ = step(state, lambda s: main_match_ended(s, SEASON, "m-cr", CRATES))
    assert [state.player(p).tol for p in ("ada", "bo", "cy")] == [3, 1, 1]
    # "the player who is second to last will pick their Death Match Opponent first": di
    assert state.episodes[1].ecs == ["di", "ed"] and naming_turn(state) == "di"
    # Every player who is no EC holds a ToL: the ToL rule lapses for di's pick
    allowed = eligible(state, state.episodes[1], "di")
    assert (allowed.players, allowed.lapsed) == (("ada", "bo", "cy"), True)
    state, types = step(state, lambda s: name_opponent(s, "di", "bo"))
    assert types == ["named"]
    # ed picks next, among those not named already: ada and cy (the rule lapsed again)
    allowed = eligible(state, state.episodes[1], "ed")
    assert (allowed.players, allowed.lapsed) == (("ada", "cy"), True)
    state, types = step(state, lambda s: name_opponent(s, "ed", "cy"))
    assert types == ["named", "death_matches_set"]
    pairs = [(d.ec, d.opponent, d.protected) for d in state.episodes[1].death_matches]
    assert pairs == [("di", "bo", "bo"), ("ed", "cy", "cy")]
    # The two Death Matches run at once; each loser is eliminated, the episode ends with the second
    state, _ = step(state, lambda s: start_death_match(s, "di", "m-dm2"))
    state, _ = step(state, lambda s: start_death_match(s, "ed", "m-dm3"))
    state, types = step(state, lambda s: death_match_ended(s, "m-dm3", duel("ed", "cy")))
    assert types == ["death_match_ended", "eliminated"]
    assert next_step(state, SEASON).kind == "waiting"
    state, types = step(state, lambda s: death_match_ended(s, "m-dm2", duel("bo", "di")))
    assert types == ["death_match_ended", "eliminated", "episode_ended"]
    assert state.left == ["ada", "bo", "ed"]

    # Episode 3, Puzzler's Clubs among ada, bo, ed: "Highest team wins (to the Finals); the Death
    # Match opponent is the higher of the other two". ed wins; ada (second) is bo's protected
    # opponent. No naming: the result fixes the pair.
    state, _ = step(state, lambda s: start_episode(s, 3, "m-cl"))
    state, types = step(state, lambda s: main_match_ended(s, SEASON, "m-cl", CLUBS))
    assert types == ["main_match_ended", "death_matches_set"]
    assert state.finalists == ["ed"] and state.player("ed").tol == 0  # a finalist needs no ToL
    pairs = [(d.ec, d.opponent, d.protected) for d in state.episodes[2].death_matches]
    assert pairs == [("bo", "ada", "ada")]
    state, _ = step(state, lambda s: start_death_match(s, "bo", "m-dm4"))
    state, _ = step(state, lambda s: death_match_ended(s, "m-dm4", duel("bo", "ada")))

    # Two players left (ed the finalist, bo) = finals_at: the Finals, Abstrac deal among them
    nxt = next_step(state, SEASON)
    assert (nxt.kind, nxt.players) == ("finals", ["bo", "ed"])
    state, types = step(state, lambda s: start_finals(s, SEASON, "m-fin"))
    assert types == ["finals_started"] and pending(state) == [Waiting("finals", ("bo", "ed"), "m-fin")]
    state, types = step(state, lambda s: finals_ended(s, "m-fin", duel("ed", "bo")))
    assert types == ["champion"] and state.champion == "ed" and state.stage == "over"
    assert next_step(state, SEASON).kind == "over" and pending(state) == []
    eliminated = {p.id: p.eliminated_in for p in state.players if p.eliminated_in}
    assert eliminated == {"fay": 1, "di": 2, "cy": 2, "ada": 3}


def test_the_standing_everyone_sees_at_the_seasons_end() -> None:
    state = played(SEASON, *six_player_steps())
    shown = standing(SEASON, state)
    # ToL: ada 2 (Domino) + 1 (Crates) = 3; bo and cy 1 each (Crates); ed won Clubs, to the Finals:
    # no ToL. Garnets won: Domino's 2k (the other results award none here)
    players = {p["id"]: (p["tol"], p["garnets_won"], p["status"]) for p in shown["players"]}
    assert players == {
        "ada": (3, 10, "eliminated in episode 3"),
        "bo": (1, 8, "in"),
        "cy": (1, 8, "eliminated in episode 2"),
        "di": (0, 6, "eliminated in episode 2"),
        "ed": (0, 6, "champion"),
        "fay": (0, 4, "eliminated in episode 1"),
    }
    assert [(e["game"], e["ecs"], e["eliminated"]) for e in shown["episodes"]] == [
        ("domino", ["fay"], ["fay"]),
        ("crates", ["di", "ed"], ["di", "cy"]),
        ("clubs", ["ada", "bo"], ["ada"]),
    ]
    assert shown["finals"] == {"match_id": "m-fin", "players": ["bo", "ed"]} and shown["waiting"] == []
    assert "secret" not in json.dumps(shown)
