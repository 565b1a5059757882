"""Who an EC may name, and how the name is given (RULINGS.md, "Seasons": "Each EC of the Main
Match names an opponent among the episode's players who are not ECs, not finalists, not already
named this episode, and hold no ToL. With two ECs the better-placed one names first. When nobody
is eligible, the ToL rule lapses for that pick." "Silence: the host names; if the host has not
either by 24 hours more, a lot drawn with the season seed among the eligible (recorded).")."""

from __future__ import annotations

import pytest
from season_support import domino_ended, played, result, settings

from game_core.season.episode import main_match_ended, start_episode
from game_core.season.errors import AlreadyDone, NotEligible, NotNow
from game_core.season.naming import draw_lot, eligible, name_opponent, naming_turn
from game_core.season.state import SeasonState
from game_core.season.waiting import Waiting, pending


def after_domino(seed: int = 7) -> SeasonState:
    """The six-player season once Domino ended: ada holds 2 ToL, fay is the one EC."""
    chosen = settings("domino", "crates", "clubs", seed=seed)
    return played(chosen, *domino_ended())


def test_a_silent_ec_is_named_for_by_the_host() -> None:
    state = after_domino()
    with pytest.raises(NotEligible, match="fay may not name ada: they may name bo, cy, di, ed"):
        name_opponent(state, "fay", "ada", by="host")  # ada holds 2 ToL
    stepped = name_opponent(state, "fay", "cy", by="host")
    assert stepped.events[0].data == {"episode": 1, "ec": "fay", "opponent": "cy", "by": "host", "lapsed": False}
    naming = stepped.state.episodes[0].namings[0]
    assert (naming.opponent, naming.by) == ("cy", "host")
    # fay's own word after the host's: the same pick changes nothing; another is refused
    assert name_opponent(stepped.state, "fay", "cy").events == ()
    with pytest.raises(AlreadyDone, match="the host already named cy as fay's opponent"):
        name_opponent(stepped.state, "fay", "bo")


def test_a_silent_ec_the_host_left_too_is_named_by_a_lot_among_the_eligible() -> None:
    state = after_domino()
    stepped = draw_lot(state, "fay")
    naming = stepped.state.episodes[0].namings[0]
    # Drawn among fay's eligible (no EC, no ToL): never ada, never fay; the draw is recorded
    assert naming.by == "lot" and naming.among == ["bo", "cy", "di", "ed"] and naming.opponent in naming.among
    assert stepped.events[0].data["among"] == ["bo", "cy", "di", "ed"]
    # Drawn with the season's seed: the same season draws the same; drawn once only
    assert draw_lot(after_domino(), "fay").state == stepped.state
    assert draw_lot(stepped.state, "fay").events == ()
    # Another seed may draw another: over 40 seasons the lot names every eligible player, and only them
    drawn = {draw_lot(after_domino(seed), "fay").state.episodes[0].namings[0].opponent for seed in range(40)}
    assert drawn == {"bo", "cy", "di", "ed"}


def test_when_everyone_holds_a_tol_the_tol_rule_lapses() -> None:
    # Crates among four: EC the bottom min(2, 3) = 2 (cy, di), ToL the top min(3, 4 - 2) = 2
    # (ada, bo). Everyone cy may name holds a ToL: cy names among them; then di, among the rest
    chosen = settings("crates", cast=["ada", "bo", "cy", "di"])
    crates = result(["ada", "bo", "cy", "di"], tol={"ada": 1, "bo": 1}, ec=["di", "cy"])
    state = played(
        chosen,
        lambda _settings, s: start_episode(s, 1, "m-1"),
        lambda settings, s: main_match_ended(s, settings, "m-1", crates),
    )
    assert naming_turn(state) == "cy"
    assert pending(state) == [Waiting("naming", ("cy",), among=("ada", "bo"))]
    named = name_opponent(state, "cy", "bo")
    assert named.events[0].data["lapsed"] is True and named.state.episodes[0].namings[0].lapsed
    allowed = eligible(named.state, named.state.episodes[0], "di")
    assert (allowed.players, allowed.lapsed) == (("ada",), True)


def test_the_better_placed_ec_names_first_and_nobody_is_named_twice() -> None:
    chosen = settings("crates", "domino", "domino", cast=["ada", "bo", "cy", "di", "ed", "fay"])
    # Crates among six: ToL ada, bo, cy; EC ed (5th, names first) and fay (6th); di 4th
    crates = result(["ada", "bo", "cy", "di", "ed", "fay"], tol={"ada": 1, "bo": 1, "cy": 1}, ec=["fay", "ed"])
    state = played(
        chosen,
        lambda _settings, s: start_episode(s, 1, "m-1"),
        lambda settings, s: main_match_ended(s, settings, "m-1", crates),
    )
    with pytest.raises(NotNow, match="ed names first"):
        name_opponent(state, "fay", "di")
    with pytest.raises(NotNow, match="di is no EC"):
        name_opponent(state, "di", "ada")
    for unnamable in ("ed", "fay", "zed"):  # themself, the other EC, nobody of the season
        with pytest.raises(NotEligible, match="they may name di"):
            name_opponent(state, "ed", unnamable)
    state = name_opponent(state, "ed", "di").state
    # di is named already: fay's pick lapses to the ToL holders
    allowed = eligible(state, state.episodes[0], "fay")
    assert (allowed.players, allowed.lapsed) == (("ada", "bo", "cy"), True)
    with pytest.raises(NotEligible):
        name_opponent(state, "fay", "di")


def test_an_ec_with_nobody_left_to_name_plays_no_death_match() -> None:
    # Crates among three: EC the bottom min(2, 2) = 2 (bo, cy), ToL the top min(3, 1) = 1 (ada).
    # bo names ada (the rule lapses); nobody is left for cy
    chosen = settings("crates", cast=["ada", "bo", "cy"])
    crates = result(["ada", "bo", "cy"], tol={"ada": 1}, ec=["cy", "bo"])
    state = played(
        chosen,
        lambda _settings, s: start_episode(s, 1, "m-1"),
        lambda settings, s: main_match_ended(s, settings, "m-1", crates),
    )
    stepped = name_opponent(state, "bo", "ada")
    assert [e.type for e in stepped.events] == ["named", "ec_unopposed", "death_matches_set"]
    assert [(d.ec, d.opponent) for d in stepped.state.episodes[0].death_matches] == [("bo", "ada")]
    assert naming_turn(stepped.state) is None
