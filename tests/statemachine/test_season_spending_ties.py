"""A season's ToL spending and the ties it leaves to the host, on the real season ASL and the games'
ASL, run by moto, played by bots (issue 31, item 5): an EC who spends a ToL and the next-lowest
becoming EC, everyone left to name holding a ToL (the rule lapses), a Death Match tied (the host
names its loser) and the Finals tied (the host names the champion).

Given ada, bo, cy, di (seed 7, `tol_spending` on), two episodes of Domino whose Death Matches are
Domino too, and the Finals Domino (the cheapest games the season allows); Domino's bot, but
passive (bidding nothing: an empty board, k 0) in every two-player match and, for cy, in the
three-player one; each EC who may spends a ToL at once by webhook; the host names for every EC
and decides every tie, choosing as listed in HOST below;
When the bots play every match;
Then (RULINGS.md, "Seasons", and Domino's results rule: "First: 2 ToL; last: EC. A tie left
standing on either line is named, and the host decides"), from the matches' result tables:

    Domino, ada..di:   cy 1 (k 5), ada 2 (5), bo 3 (4), di 4 (4)
    Domino, ada..cy:   bo 1 (k 6), ada 2 (5), cy 3 (0)
    every two-player Domino: both k 0, every tie-break equal (no chip spent, no cell covered)
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from season_outcome import logged, outcome

from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack
from local_stack.bots import domino, registered
from local_stack.bots.season_play import begin_season, play_on

pytestmark = pytest.mark.statemachine

DOMINO = {"game": "domino"}
SETTINGS = {
    "name": "Four",
    "seed": 7,
    "cast": [{"id": player} for player in ("ada", "bo", "cy", "di")],
    "episodes": [{"main": DOMINO, "death_match": DOMINO}] * 2,
    "final": DOMINO,
    "tol_spending": True,
    "match_options": {"phase_seconds": 600, "early_close": True},
}
HOST = [
    ("naming", "ada"),  # episode 1: di names ada (one of ada and bo: no EC, no ToL)
    ("death_match_tie", "di"),  # di, the EC, loses the tied Death Match
    ("naming", "bo"),  # episode 2: ada names bo (the only one left to name)
    ("death_match_tie", "ada"),  # ada, the EC, loses the tied Death Match
    ("champion_tie", "cy"),  # the tied Finals: cy is the champion
]


def choose(view: dict[str, Any], phase: Any, player: str, rng: Any) -> dict[str, dict[str, Any]]:
    """Domino's bot, passive in a two-player match and for cy in a three-player one."""
    players = len(view["public"]["chips_left"])
    if players == 2 or (players == 3 and player == "cy"):
        passive: dict[str, dict[str, Any]] = {"bid": {"bids": []}} if "bid" in phase.accepts else {}
        return passive | ({"place": {"placements": []}} if "place" in phase.owed.get(player, ()) else {})
    return domino.choose(view, phase, player, rng)


@pytest.fixture(scope="module")
def season() -> dict[str, Any]:
    decisions = list(HOST)

    def host(status: dict[str, Any]) -> dict[str, Any] | None:
        decidable = [w for w in status["waiting"] if w["kind"] in {kind for kind, _ in HOST}]
        if not decidable:
            return None
        kind, player = decisions.pop(0)
        assert decidable[0]["kind"] == kind, (decidable, kind)
        return {"player": player}

    with (
        registered("domino", __name__),
        LocalStack(games=("domino",), clock=VirtualClock(datetime(2026, 12, 1, tzinfo=UTC))) as stack,
    ):
        table = begin_season(stack, SETTINGS, season_id="s-four")
        table.ecs_spend = True
        run = play_on(stack, table, host, timeout=600)
        return outcome(stack, run)


def test_every_match_ran_on_the_real_asl_and_every_host_decision_was_taken(season: dict[str, Any]) -> None:
    run = season["run"]
    assert run.status == "SUCCEEDED" and season["executions"] == ["SUCCEEDED"] * 5
    assert [(d["player"], d["reply"]["ok"]) for d in run.decided] == [(player, True) for _, player in HOST]
    main1, dm1, main2, dm2, finals = season["matches"]
    assert [(s["player"], s["place"]) for s in main1.result["standings"]] == [
        ("cy", 1),
        ("ada", 2),
        ("bo", 3),
        ("di", 4),
    ]
    assert [(s["player"], s["place"]) for s in main2.result["standings"]] == [("bo", 1), ("ada", 2), ("cy", 3)]
    # Every two-player Domino: both in first place, on no line, left to the host
    for match in (dm1, dm2, finals):
        assert [s["place"] for s in match.result["standings"]] == [1, 1] and match.result["ec"] == []


def test_a_silent_ec_named_for_by_the_host_and_a_tied_death_match_decided_by_the_host(season) -> None:
    state, events = season["state"], season["events"]
    # Episode 1: cy wins 2 ToL, di is EC (and holds none: no spending); di may name ada or bo
    assert logged(events, "main_match_ended", "episode", "tol_won", "ecs")[0] == (1, {"cy": 2}, ["di"])
    assert state.episodes[0].namings[0].model_dump(include={"ec", "opponent", "by", "lapsed"}) == {
        "ec": "di",
        "opponent": "ada",
        "by": "host",
        "lapsed": False,
    }
    # The Death Match ended tied: nobody eliminated until the host named the loser, di
    assert logged(events, "death_match_tied", "episode", "players") == [(1, ["di", "ada"]), (2, ["ada", "bo"])]
    assert logged(events, "death_match_ended", "episode", "loser", "by_host") == [(1, "di", True), (2, "ada", True)]


def test_an_ec_who_spends_a_tol_is_safe_and_the_next_lowest_becomes_ec(season: dict[str, Any]) -> None:
    state, events = season["state"], season["events"]
    second = state.episodes[1]
    # Episode 2 among ada, bo, cy: bo wins 2 ToL; cy, last, is EC and holds episode 1's 2 ToL: she
    # spends one (1 left) and is safe. The next-lowest who is no EC, not safe and no ToL winner of
    # this match: ada (2nd; bo won ToL here), who holds none and so names at once
    assert logged(events, "main_match_ended", "episode", "tol_won", "ecs")[1] == (2, {"bo": 2}, ["cy"])
    assert logged(events, "spending_open", "episode", "may_spend") == [(2, ["cy"])]
    assert logged(events, "tol_spent", "episode", "player", "tol_left") == [(2, "cy", 1)]
    assert logged(events, "ec_replaced", "episode", "for", "player", "by_host") == [(2, "cy", "ada", False)]
    assert second.ecs == ["ada"] and second.safe == ["cy"]
    # ada may name nobody who holds no ToL (bo holds 2; cy is safe): the rule lapses, among bo alone
    naming = second.namings[0]
    assert (naming.ec, naming.opponent, naming.by, naming.lapsed) == ("ada", "bo", "host", True)
    assert [(d.ec, d.opponent, d.protected, d.loser) for d in second.death_matches] == [("ada", "bo", "bo", "ada")]


def test_the_tied_finals_are_the_hosts_to_decide_and_the_season_ends(season: dict[str, Any]) -> None:
    state, events = season["state"], season["events"]
    # Left: bo and cy (the safe spender) = finals_at 2; the Finals among them, tied; the host picks cy
    assert state.finals_players == ["bo", "cy"]
    assert logged(events, "champion_tie", "tied") == [(["bo", "cy"],)]
    assert logged(events, "champion", "player", "by_host") == [("cy", True)]
    assert state.stage == "over" and state.champion == "cy"
    # ToL: cy 2 - 1 spent; bo 2 (episode 2). Garnets won: Domino's 2k (k 0 in every tie)
    held = {p.id: (p.tol, p.garnets_won, p.eliminated_in) for p in state.players}
    assert held == {"ada": (0, 10 + 10, 2), "bo": (2, 8 + 12, None), "cy": (1, 10 + 0, None), "di": (0, 8, 1)}
