"""Spending a Token of Life (RULINGS.md, "Seasons": "An EC holding a ToL may spend one when the
Main Match ends, before naming: they are safe this episode, and the next-lowest player of the
result who is not already an EC, safe, or a winner becomes EC in their place (a tie there: the
host decides). Configurable: off."). Every season here starts with `first_domino_of_seven`: fay
won Domino's 2 ToL in episode 1 and gus is gone; episode 2 is under way among the six left."""

from __future__ import annotations

import pytest
from season_support import (
    BOTTOM_TIED,
    CAST7,
    DOMINO_FINAL,
    first_domino_of_seven,
    first_episode,
    first_palindrome_of_seven,
    played,
    result,
    settings,
)

from game_core.season.episode import (
    close_spending,
    decide_replacement,
    keep_tol,
    main_match_ended,
    spend_tol,
)
from game_core.season.errors import NotNow
from game_core.season.naming import eligible, name_opponent, naming_turn
from game_core.season.state import SeasonState
from game_core.season.waiting import Waiting, pending

SIX = ["ada", "bo", "cy", "di", "ed", "fay"]
# Crates among six: ToL to the top min(3, 6 - 2) = 3 (ada, bo, cy), EC the bottom 2: fay (5th)
# and ed (6th); di (4th) is neither
CRATES = result(["ada", "bo", "cy", "di", "fay", "ed"], tol={"ada": 1, "bo": 1, "cy": 1}, ec=["ed", "fay"])
# Domino among six: ada wins 2 ToL, fay last is EC; di and ed share 4th place (a tie)
DOMINO_TIED = result(
    ["ada", "bo", "cy", "di", "ed", "fay"],
    tol={"ada": 2},
    ec=["fay"],
    places={"ada": 1, "bo": 2, "cy": 3, "di": 4, "ed": 4, "fay": 6},
)


def episode_two(second: str, result_json: dict, spending: bool = True) -> SeasonState:  # type: ignore[type-arg]
    rest = ["domino"] * (2 if second == "crates" else 3)  # down to the Finals' 2: Crates removes 2
    chosen = settings("domino", second, *rest, cast=CAST7, tol_spending=spending, final=DOMINO_FINAL)
    state = played(chosen, *first_domino_of_seven())
    assert state.episodes[1].players == SIX and state.player("fay").tol == 2
    return main_match_ended(state, chosen, "m-2", result_json).state


def test_an_ec_who_spends_a_tol_is_safe_and_the_next_lowest_becomes_ec() -> None:
    state = episode_two("crates", CRATES)
    # fay (EC, 2 ToL) may spend one before anyone names; ed holds none
    assert pending(state) == [Waiting("spend", ("fay",))]
    with pytest.raises(NotNow, match="not waiting"):
        name_opponent(state, "fay", "di")
    stepped = spend_tol(state, "fay")
    types = [event.type for event in stepped.events]
    assert types == ["tol_spent", "ec_replaced"]
    state = stepped.state
    episode = state.episodes[1]
    # The next-lowest who is no EC (ed), not safe (fay) and no winner (ada, bo, cy): di, 4th
    assert (episode.ecs, episode.safe, state.player("fay").tol) == (["di", "ed"], ["fay"], 1)
    # di (4th) is better placed than ed (6th): di names first; everyone else left holds a ToL
    # (ada, bo, cy) or is safe (fay): the ToL rule lapses
    assert naming_turn(state) == "di"
    allowed = eligible(state, episode, "di")
    assert (allowed.players, allowed.lapsed) == (("ada", "bo", "cy"), True)
    assert spend_tol(state, "fay").events == ()  # sent again: nothing
    with pytest.raises(NotNow, match="episode 2's ECs are naming"):
        spend_tol(state, "ed")  # the spending is over (and ed holds no ToL)


def test_a_tie_for_the_next_lowest_is_the_hosts_to_decide() -> None:
    state = spend_tol(episode_two("domino", DOMINO_TIED), "fay").state
    # Not EC, safe or a winner: bo (2nd), cy (3rd), di and ed (both 4th): the lowest is a tie
    assert pending(state) == [Waiting("replacement_tie", ("di", "ed"))]
    with pytest.raises(NotNow, match="no tie for EC"):
        decide_replacement(state, "bo")
    decided = decide_replacement(state, "ed")
    assert [(e.type, e.data["by_host"]) for e in decided.events][0] == ("ec_replaced", True)
    state = decided.state
    # ed names: not ada (2 ToL), not fay (safe), not themself
    assert naming_turn(state) == "ed" and state.episodes[1].ecs == ["ed"]
    assert eligible(state, state.episodes[1], "ed").players == ("bo", "cy", "di")
    assert decide_replacement(state, "ed").events == ()


def test_an_ec_who_keeps_their_tol_or_stays_silent_names_as_ec() -> None:
    kept = keep_tol(episode_two("domino", DOMINO_TIED), "fay")
    assert [e.type for e in kept.events] == ["tol_kept"] and naming_turn(kept.state) == "fay"
    assert keep_tol(kept.state, "fay").events == ()
    silent = close_spending(episode_two("domino", DOMINO_TIED))
    assert silent.events[0].data == {"episode": 2, "player": "fay", "silent": True}
    assert naming_turn(silent.state) == "fay" and silent.state.player("fay").tol == 2
    # fay may name anyone without a ToL who is no EC: not ada
    assert eligible(silent.state, silent.state.episodes[1], "fay").players == ("bo", "cy", "di", "ed")


def test_with_spending_off_an_ec_holding_a_tol_names_at_once() -> None:
    state = episode_two("domino", DOMINO_TIED, spending=False)
    assert state.episodes[1].stage == "naming" and naming_turn(state) == "fay"
    with pytest.raises(NotNow):
        spend_tol(state, "fay")


def test_with_nobody_to_replace_them_the_episode_has_one_ec_fewer() -> None:
    # Six players: Domino won by fay (2 ToL), ed last names di and loses. Then Crates among five:
    # ToL to the top 3 (bo, cy, ada), EC the bottom 2: fay (4th) and di (5th). fay spends: every
    # other player is an EC (di) or a winner: nobody becomes EC in her place
    domino = result(["fay", "ada", "bo", "cy", "di", "ed"], tol={"fay": 2}, ec=["ed"])
    crates = result(["bo", "cy", "ada", "fay", "di"], tol={"bo": 1, "cy": 1, "ada": 1}, ec=["di", "fay"])
    chosen = settings("domino", "crates", "domino", tol_spending=True, final=DOMINO_FINAL)
    state = played(
        chosen, *first_episode(domino, "ed", "di"), lambda settings, s: main_match_ended(s, settings, "m-2", crates)
    )
    assert pending(state) == [Waiting("spend", ("fay",))]
    stepped = spend_tol(state, "fay")
    assert [e.type for e in stepped.events] == ["tol_spent", "no_replacement"]
    state = stepped.state
    assert state.episodes[1].ecs == ["di"] and naming_turn(state) == "di"
    # di may name only among the ToL holders (the rule lapses); fay is safe
    allowed = eligible(state, state.episodes[1], "di")
    assert (allowed.players, allowed.lapsed) == (("ada", "bo", "cy"), True)


def test_while_the_host_picks_a_replacement_no_other_ec_spends() -> None:
    # Episode 1 left fay and ed a ToL each; episode 2's Palindrome makes them both EC
    chosen = settings(
        "palindrome", "palindrome", "domino", "domino", "domino", cast=CAST7, tol_spending=True, final=DOMINO_FINAL
    )
    state = played(
        chosen, *first_palindrome_of_seven(), lambda settings, s: main_match_ended(s, settings, "m-2", BOTTOM_TIED)
    )
    assert pending(state) == [Waiting("spend", ("ed",)), Waiting("spend", ("fay",))]
    # ed spends: not EC, safe or a winner are bo (2nd), cy and di (3rd): cy and di tie lowest
    state = spend_tol(state, "ed").state
    assert pending(state) == [Waiting("replacement_tie", ("cy", "di"))]
    with pytest.raises(NotNow, match="the host first picks the EC among cy, di; then fay may spend"):
        spend_tol(state, "fay")
    state = decide_replacement(state, "di").state
    # fay may spend now: di is EC, so the next-lowest free is cy (3rd); the two ECs share 3rd
    # place and name in the result's order: cy first
    state = spend_tol(state, "fay").state
    episode = state.episodes[1]
    assert (episode.ecs, episode.safe, naming_turn(state)) == (["cy", "di"], ["ed", "fay"], "cy")
