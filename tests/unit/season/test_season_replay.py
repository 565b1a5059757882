"""A season replayed from its log and its matches' results reaches the same state, step for step
(`season.replay`); a log that its matches and acts do not give is refused at its first wrong step."""

from __future__ import annotations

from dataclasses import replace

import pytest
from season_support import (
    BOTTOM_TIED,
    CAST7,
    DOMINO_FINAL,
    SIX_RESULTS,
    TOP_TIED,
    duel,
    first_palindrome_of_seven,
    result,
    settings,
    six_player_steps,
)

from game_core.season.death_match import death_match_ended, decide_death_match, start_death_match
from game_core.season.episode import close_spending, decide_replacement, main_match_ended, new_season, spend_tol
from game_core.season.naming import draw_lot, eligible, name_opponent
from game_core.season.replay import ReplayMismatch, replay
from game_core.season.settings import SeasonSettings
from game_core.season.state import SeasonEvent, SeasonState
from game_core.service.season.lifecycle import Step

SIX = settings("domino", "crates", "clubs")


def logged(chosen: SeasonSettings, steps: list[Step]) -> tuple[SeasonState, list[SeasonEvent]]:
    """The season after `steps` and its whole log."""
    created = new_season(chosen, "s-1")
    state, log = created.state, list(created.events)
    for step in steps:
        stepped = step(chosen, state)
        state, log = stepped.state, log + list(stepped.events)
    return state, log


def test_the_six_player_season_replays_to_the_same_state() -> None:
    state, log = logged(SIX, six_player_steps())
    assert replay(SIX, "s-1", log, SIX_RESULTS) == state
    # The machine's own entries (a stall, a recovery) are passed over
    noisy = [*log[:5], SeasonEvent("stalled", {"why": "throttled"}), *log[5:]]
    assert replay(SIX, "s-1", noisy, SIX_RESULTS) == state


def test_the_hosts_acts_a_lot_spending_and_a_tie_replay_too() -> None:
    chosen = settings(
        "palindrome", "palindrome", "domino", "domino", "domino", cast=CAST7, tol_spending=True, final=DOMINO_FINAL
    )
    namings: list[Step] = [
        *first_palindrome_of_seven(),
        lambda se, s: main_match_ended(s, se, "m-2", BOTTOM_TIED),
        lambda _se, s: spend_tol(s, "ed"),  # cy and di tie for the next-lowest: the host picks di
        lambda _se, s: decide_replacement(s, "di"),
        lambda _se, s: close_spending(s),  # fay stays silent: she keeps her ToL
        lambda _se, s: draw_lot(s, "di"),  # di is silent, and so is the host: a lot among bo, cy
        lambda _se, s: name_opponent(s, "fay", eligible(s, s.episodes[-1], "fay").players[0], "host"),
    ]
    named, _ = logged(chosen, namings)
    rival = {d.ec: d.opponent for d in named.episodes[1].death_matches}  # as the lot fell
    tied = result([rival["di"], "di"], places={rival["di"]: 1, "di": 1})
    results = {
        "m-1": TOP_TIED,
        "m-1-dm": duel("di", "gus"),
        "m-2": BOTTOM_TIED,
        "m-2-dm-a": tied,
        "m-2-dm-b": duel(rival["fay"], "fay"),
    }
    state, log = logged(
        chosen,
        [
            *namings,
            lambda _se, s: start_death_match(s, "di", "m-2-dm-a"),
            lambda _se, s: start_death_match(s, "fay", "m-2-dm-b"),
            lambda _se, s: death_match_ended(s, "m-2-dm-a", tied),  # a tie: the host names di
            lambda _se, s: decide_death_match(s, "m-2-dm-a", "di"),
            lambda _se, s: death_match_ended(s, "m-2-dm-b", results["m-2-dm-b"]),
        ],
    )
    assert {p.id for p in state.players if p.eliminated_in == 2} == {"di", "fay"}
    assert replay(chosen, "s-1", log, results) == state


def test_a_log_its_matches_and_acts_do_not_give_is_refused() -> None:
    state, log = logged(SIX, six_player_steps())
    # A result other than the one the log followed: ed loses Crates' Death Match instead of cy
    other = dict(SIX_RESULTS) | {"m-dm3": duel("cy", "ed")}
    with pytest.raises(ReplayMismatch, match=r"event \d+ \(death_match_ended\) does not replay"):
        replay(SIX, "s-1", log, other)
    # A result missing
    with pytest.raises(ReplayMismatch, match="needs match 'm-cl'"):
        replay(SIX, "s-1", log, {k: v for k, v in SIX_RESULTS.items() if k != "m-cl"})
    # A naming the log changed: fay named cy, not di (her Death Match then is another's)
    forged = [replace(e, data=e.data | {"opponent": "cy"}) if e.type == "named" else e for e in log[:4]] + log[4:]
    with pytest.raises(ReplayMismatch, match=r"event 4 \(named\) does not replay") as refused:
        replay(SIX, "s-1", forged, SIX_RESULTS)
    # fay's naming of cy replays, but the pair it sets is fay and cy, where the log has fay and di
    assert "'opponent': 'cy'" in refused.value.reasons[0].text and "'opponent': 'di'" in refused.value.reasons[0].text
    with pytest.raises(ReplayMismatch, match="begin with this season's creation"):
        replay(
            settings("domino", "crates", "clubs", cast=["ada", "bo", "cy", "di", "ed", "zed"]), "s-1", log, SIX_RESULTS
        )
