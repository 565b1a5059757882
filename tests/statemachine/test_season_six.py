"""Issue 31's six-player season on the real season ASL and the games' ASL, run by moto, played by
bots: Domino (one EC, one naming, one Death Match), then Pushing Crates (two ECs, the
second-to-last naming first), then Puzzler's Clubs (the pair fixed by the result, its winner a
finalist), then the Finals.

Given ada, bo, cy, di, ed, fay (seed 7, every default: Death Matches Abstrac `row`, the Finals
Abstrac `deal` once two are left, no ToL spending), each EC naming at once by webhook the first
player they may (local_stack/bots/season_play.py), the host naming each Clubs player's guest among the
eliminated;
When the bots play every match (seeded: the same season plays the same matches every run);
Then the season makes of each match's result table what RULINGS.md ("Seasons", and each game's
results rule) says, worked by hand below from the tables the bots' matches give:

    Domino, ada..fay:   bo 1 (k 5), di 2 (5), cy 3 (5), ada 4 (4), fay 5 (4), ed 6 (3)
    Abstrac row:        ed 11/7, ada 2/5
    Crates, bo..fay:    ed 1 (6 points), cy 2 (5), di 3 (5), fay 4 (3), bo 5 (1)
    Abstrac row:        fay 11/13, cy 6/11;  bo 14/13, di 4/11
    Clubs, bo, ed, fay: ed 109, fay 88, bo 64 (team scores)
    Abstrac row:        bo 16/7, fay 13/10
    Abstrac deal:       bo first
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from season_outcome import logged, outcome

from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack
from local_stack.bots.season_play import play_season

pytestmark = pytest.mark.statemachine

CAST = ["ada", "bo", "cy", "di", "ed", "fay"]
SETTINGS = {
    "name": "Six",
    "seed": 7,
    "cast": [{"id": player} for player in CAST],
    "episodes": [{"main": {"game": game}} for game in ("domino", "crates", "clubs")],
    "match_options": {"phase_seconds": 600, "early_close": True},
}


def host_names_guests(status: dict[str, Any]) -> dict[str, Any] | None:
    """The host's one act: when the season waits on the host's guests (before Clubs: 1 each),
    each player the wait lists gets an eliminated player as their guest, in cast order."""
    waits = [w for w in status["waiting"] if w["kind"] == "guests"]
    if not waits:
        return None
    (wait,) = waits
    assert wait["guests_each"] == 1, wait
    guests = {p: [g] for p, g in zip(wait["among"], sorted(status["eliminated"]), strict=True)}
    return {"action": "guests", "guests": guests}


@pytest.fixture(scope="module")
def season() -> Iterator[dict[str, Any]]:
    namings: list[dict[str, Any]] = []

    def observe(kind: str, data: dict[str, Any]) -> None:
        if kind == "ec_named":
            namings.append(data)

    with LocalStack(
        games=("domino", "crates", "clubs", "abstrac"), clock=VirtualClock(datetime(2026, 12, 1, tzinfo=UTC))
    ) as stack:
        run = play_season(stack, SETTINGS, host_names_guests, observe, timeout=600, season_id="s-six", ecs_name=True)
        yield outcome(stack, run) | {"namings": namings}


def table(match: Any) -> list[tuple[str, int]]:
    return [(s["player"], s["place"]) for s in match.result["standings"]]


def test_every_match_of_the_season_ran_on_the_real_asl_to_its_end(season: dict[str, Any]) -> None:
    # Three Main Matches, one Death Match (Domino's one EC), two (Crates' two), one (Clubs' pair),
    # the Finals: 8 matches, each an execution of its game's machine that succeeded
    assert season["run"].status == "SUCCEEDED"
    assert [(d["action"], d["reply"]["ok"]) for d in season["run"].decided] == [("guests", True)]  # the host's one act
    games = [(m.game, m.settings["rule_set"]) for m in season["matches"]]
    assert games == [
        ("domino", "default"),
        ("abstrac", "row"),
        ("crates", "default"),
        ("abstrac", "row"),
        ("abstrac", "row"),
        ("clubs", "default"),
        ("abstrac", "row"),
        ("abstrac", "deal"),
    ]
    assert season["executions"] == ["SUCCEEDED"] * 8
    # The result tables the hand-worked values below start from (the docstring's)
    domino, dm1, crates, *_ = season["matches"]
    assert table(domino) == [("bo", 1), ("di", 2), ("cy", 3), ("ada", 4), ("fay", 5), ("ed", 6)]
    assert table(dm1) == [("ed", 1), ("ada", 2)]
    assert table(crates) == [("ed", 1), ("cy", 2), ("di", 3), ("fay", 4), ("bo", 5)]


def test_domino_names_one_ec_whose_opponent_may_not_be_the_tol_holder(season: dict[str, Any]) -> None:
    state, events = season["state"], season["events"]
    first = state.episodes[0]
    assert first.players == CAST
    # "First: 2 ToL; last: EC": bo wins two ToL, ed is the one EC
    assert first.ecs == ["ed"]
    assert logged(events, "main_match_ended", "episode", "tol_won", "ecs")[0] == (1, {"bo": 2}, ["ed"])
    # ed may name whoever is no EC and holds no ToL: not bo (2 ToL); names the first, ada
    naming = season["namings"][0]
    assert (naming["ec"], naming["among"], naming["opponent"]) == ("ed", ["ada", "cy", "di", "fay"], "ada")
    # The named one is protected; ed wins the Death Match (11/7 to 2/5): ada is eliminated
    assert [(d.ec, d.opponent, d.protected, d.loser) for d in first.death_matches] == [("ed", "ada", "ada", "ada")]
    assert season["matches"][1].settings["protected"] == "ada"


def test_crates_names_two_ecs_the_second_to_last_first_and_the_tol_rule_lapses(season: dict[str, Any]) -> None:
    state, events = season["state"], season["events"]
    second = state.episodes[1]
    assert second.players == ["bo", "cy", "di", "ed", "fay"]  # the five left, cast order
    # Five players: EC the bottom min(2, 5 - 1) = 2 (fay 4th, bo 5th), ToL the top min(3, 5 - 2) = 3
    assert logged(events, "main_match_ended", "episode", "tol_won")[1] == (2, {"ed": 1, "cy": 1, "di": 1})
    assert sorted(second.ecs) == ["bo", "fay"]
    # "the player who is second to last will pick their Death Match Opponent first": fay. Everyone
    # who is no EC (cy, di, ed) holds a ToL won in this very match: nobody is eligible, the ToL
    # rule lapses for fay's pick, and again for bo's among those not named already
    assert [(n["ec"], n["among"], n["opponent"]) for n in season["namings"][1:]] == [
        ("fay", ["cy", "di", "ed"], "cy"),
        ("bo", ["di", "ed"], "di"),
    ]
    named = logged(events, "named", "episode", "ec", "opponent", "by", "lapsed")
    assert named == [
        (1, "ed", "ada", "ec", False),
        (2, "fay", "cy", "ec", True),
        (2, "bo", "di", "ec", True),
    ]
    # Both Death Matches at once; fay beats cy (11/13 to 6/11), bo beats di (14/13 to 4/11)
    pairs = [(d.ec, d.opponent, d.protected, d.loser) for d in second.death_matches]
    assert pairs == [("fay", "cy", "cy", "cy"), ("bo", "di", "di", "di")]


def test_clubs_fixes_the_pair_and_sends_its_winner_to_the_finals(season: dict[str, Any]) -> None:
    state, events = season["state"], season["events"]
    third = state.episodes[2]
    assert third.players == ["bo", "ed", "fay"]
    # The host named each player's guest among the eliminated (ada, cy, di), and Clubs seated them
    assert logged(events, "guests_named", "guests") == [({"bo": ["ada"], "ed": ["cy"], "fay": ["di"]},)]
    clubs = season["matches"][5]
    seated = [(p.id, p.guest_of) for p in clubs.players]
    assert seated == [("bo", None), ("ada", "bo"), ("ed", None), ("cy", "ed"), ("fay", None), ("di", "fay")]
    # "Highest team wins (to the Finals); the Death Match opponent is the higher of the other two":
    # ed (109) is a finalist; fay (88) is bo's (64) protected opponent. No naming: the result fixed it
    assert state.finalists == ["ed"]
    assert [(d.ec, d.opponent, d.protected) for d in third.death_matches] == [("bo", "fay", "fay")]
    assert len(season["namings"]) == 3 and logged(events, "named", "episode") == [(1,), (2,), (2,)]
    # bo beats fay (16/7 to 13/10): fay is eliminated
    assert third.death_matches[0].loser == "fay"


def test_the_finals_between_the_finalist_and_the_one_left_name_the_champion(season: dict[str, Any]) -> None:
    state, events = season["state"], season["events"]
    finals = season["matches"][7]
    # Two left (ed the finalist, bo) = finals_at: Abstrac deal between them, in cast order; bo wins
    assert [p.id for p in finals.players] == ["bo", "ed"] and state.finals_players == ["bo", "ed"]
    assert state.stage == "over" and state.champion == "bo"
    assert logged(events, "champion", "player", "by_host") == [("bo", False)]
    assert logged(events, "eliminated", "episode", "player") == [(1, "ada"), (2, "cy"), (2, "di"), (3, "fay")]
    # ToL held at the end (none spent): bo Domino's 2; cy, di, ed Crates' 1 each; ed, Clubs' winner,
    # gains none there (a finalist never plays a Death Match). Garnets won: Domino 2k, Crates
    # floor(points / 3), Clubs floor(team score / 15); Abstrac awards none
    held = {p.id: (p.tol, p.garnets_won, p.eliminated_in, p.finalist_in) for p in state.players}
    assert held == {
        "ada": (0, 8, 1, None),
        "bo": (2, 10 + 0 + 4, None, None),
        "cy": (1, 10 + 1, 2, None),
        "di": (1, 10 + 1, 2, None),
        "ed": (1, 6 + 2 + 7, None, 3),
        "fay": (0, 8 + 1 + 5, 3, None),
    }
