"""Issue 31's six-player season on the real season ASL and the games' ASL, run by moto, played by
bots: Domino (one EC, one naming, one Death Match), then Pushing Crates (two ECs, the
second-to-last naming first), then Puzzler's Clubs (the pair fixed by the result, its protected
player the higher of the two), then the Finals.

Given ada, bo, cy, di, ed, fay (seed 7, `finals_at` 2, no ToL spending), every Death Match and
the Finals on Domino (the cheapest game the season allows there: season_outcome.on_domino; the
defaults' Abstrac is test_season_machine.py's), each EC naming at once by webhook the first
player they may (local_stack/bots/season_play.py), the host naming each Clubs player's guest among
the eliminated;
When the bots play every match (seeded: the same season plays the same matches every run);
Then the season makes of each match's result table what RULINGS.md ("Seasons", and each game's
results rule) says, worked by hand below from the tables the bots' matches give (Domino's k,
Crates' points, Clubs' team scores; a Death Match's and the Finals' first place only):

    Domino, ada..fay:   bo 1 (k 5), di 2 (5), cy 3 (5), ada 4 (4), fay 5 (4), ed 6 (3)
    Domino, ed v ada:   ada first
    Crates, ada..fay:   ada 1 (7 points), cy 2 (5), fay 3 (5), bo 4 (5), di 5 (4)
    Domino, bo v ada:   bo first;   Domino, di v cy: di first
    Clubs, bo, di, fay: di 141, bo 71, fay 52 (team scores)
    Domino, fay v bo:   fay first
    Domino, di v fay:   di first (the Finals)
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from season_outcome import logged, on_domino, outcome

from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack
from local_stack.bots.season_play import play_season

pytestmark = pytest.mark.statemachine

CAST = ["ada", "bo", "cy", "di", "ed", "fay"]
SETTINGS = on_domino(
    {
        "name": "Six",
        "seed": 7,
        "cast": [{"id": player} for player in CAST],
        "episodes": [{"main": {"game": game}} for game in ("domino", "crates", "clubs")],
        "match_options": {"phase_seconds": 600, "early_close": True},
    }
)


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
        games=("domino", "crates", "clubs"), clock=VirtualClock(datetime(2026, 12, 1, tzinfo=UTC))
    ) as stack:
        run = play_season(stack, SETTINGS, host_names_guests, observe, timeout=600, season_id="s-six", ecs_name=True)
        yield outcome(stack, run) | {"namings": namings}


def table(match: Any) -> list[tuple[str, int]]:
    return [(s["player"], s["place"]) for s in match.result["standings"]]


def first(match: Any) -> list[str]:
    return [s["player"] for s in match.result["standings"] if s["place"] == 1]


def test_every_match_of_the_season_ran_on_the_real_asl_to_its_end(season: dict[str, Any]) -> None:
    # Three Main Matches, one Death Match (Domino's one EC), two (Crates' two), one (Clubs' pair),
    # the Finals: 8 matches, each an execution of its game's machine that succeeded
    assert season["run"].status == "SUCCEEDED"
    assert [(d["action"], d["reply"]["ok"]) for d in season["run"].decided] == [("guests", True)]  # the host's one act
    games = [m.game for m in season["matches"]]
    assert games == ["domino", "domino", "crates", "domino", "domino", "clubs", "domino", "domino"]
    assert season["executions"] == ["SUCCEEDED"] * 8
    # The result tables the hand-worked values below start from (the docstring's): each Death
    # Match and the Finals with one first place (no tie left to the host)
    domino, dm1, crates, dm2, dm3, clubs, dm4, finals = season["matches"]
    assert table(domino) == [("bo", 1), ("di", 2), ("cy", 3), ("ada", 4), ("fay", 5), ("ed", 6)]
    assert table(crates) == [("ada", 1), ("cy", 2), ("fay", 3), ("bo", 4), ("di", 5)]
    assert clubs.result["details"]["team_scores"] == {"bo": 71, "di": 141, "fay": 52}
    assert [first(m) for m in (dm1, dm2, dm3, dm4, finals)] == [["ada"], ["bo"], ["di"], ["fay"], ["di"]]


def test_domino_names_one_ec_whose_opponent_may_not_be_the_tol_holder(season: dict[str, Any]) -> None:
    state, events = season["state"], season["events"]
    first_episode = state.episodes[0]
    assert first_episode.players == CAST
    # "First: 2 ToL; last: EC": bo wins two ToL, ed is the one EC
    assert first_episode.ecs == ["ed"]
    assert logged(events, "main_match_ended", "episode", "tol_won", "ecs")[0] == (1, {"bo": 2}, ["ed"])
    # ed may name whoever is no EC and holds no ToL: not bo (2 ToL); names the first, ada
    naming = season["namings"][0]
    assert (naming["ec"], naming["among"], naming["opponent"]) == ("ed", ["ada", "cy", "di", "fay"], "ada")
    # The named one is protected, and seated first; ada wins the Death Match: ed is eliminated
    assert [(d.ec, d.opponent, d.protected, d.loser) for d in first_episode.death_matches] == [
        ("ed", "ada", "ada", "ed")
    ]
    assert [p.id for p in season["matches"][1].players] == ["ada", "ed"]


def test_crates_names_two_ecs_the_second_to_last_first_and_the_tol_rule_lapses(season: dict[str, Any]) -> None:
    state, events = season["state"], season["events"]
    second = state.episodes[1]
    assert second.players == ["ada", "bo", "cy", "di", "fay"]  # the five left, cast order
    # Five players: EC the bottom min(2, 5 - 1) = 2 (bo 4th, di 5th), ToL the top min(3, 5 - 2) = 3
    assert logged(events, "main_match_ended", "episode", "tol_won")[1] == (2, {"ada": 1, "cy": 1, "fay": 1})
    assert sorted(second.ecs) == ["bo", "di"]
    # "the player who is second to last will pick their Death Match Opponent first": bo. Everyone
    # who is no EC (ada, cy, fay) holds a ToL won in this very match: nobody is eligible, the ToL
    # rule lapses for bo's pick, and again for di's among those not named already
    assert [(n["ec"], n["among"], n["opponent"]) for n in season["namings"][1:]] == [
        ("bo", ["ada", "cy", "fay"], "ada"),
        ("di", ["cy", "fay"], "cy"),
    ]
    named = logged(events, "named", "episode", "ec", "opponent", "by", "lapsed")
    assert named == [
        (1, "ed", "ada", "ec", False),
        (2, "bo", "ada", "ec", True),
        (2, "di", "cy", "ec", True),
    ]
    # Both Death Matches at once; bo beats ada, di beats cy: both named players are eliminated
    pairs = [(d.ec, d.opponent, d.protected, d.loser) for d in second.death_matches]
    assert pairs == [("bo", "ada", "ada", "ada"), ("di", "cy", "cy", "cy")]
    assert logged(events, "episode_ended", "episode", "eliminated")[1] == (2, ["ada", "cy"])


def test_clubs_fixes_the_pair_and_sends_its_winner_to_the_finals(season: dict[str, Any]) -> None:
    state, events = season["state"], season["events"]
    third = state.episodes[2]
    assert third.players == ["bo", "di", "fay"]
    # The host named each player's guest among the eliminated (ada, cy, ed), and Clubs seated them
    assert logged(events, "guests_named", "guests") == [({"bo": ["ada"], "di": ["cy"], "fay": ["ed"]},)]
    clubs = season["matches"][5]
    seated = [(p.id, p.guest_of) for p in clubs.players]
    assert seated == [("bo", None), ("ada", "bo"), ("di", None), ("cy", "di"), ("fay", None), ("ed", "fay")]
    # "Highest team wins (to the Finals); the Death Match opponent is the higher of the other two":
    # di (141) is a finalist; bo (71) is the protected opponent of fay (52), the EC. No naming: the
    # result fixed it
    assert state.finalists == ["di"]
    assert [(d.ec, d.opponent, d.protected) for d in third.death_matches] == [("fay", "bo", "bo")]
    assert len(season["namings"]) == 3 and logged(events, "named", "episode") == [(1,), (2,), (2,)]
    # fay beats bo: the protected player is eliminated
    assert third.death_matches[0].loser == "bo"


def test_the_finals_between_the_finalist_and_the_one_left_name_the_champion(season: dict[str, Any]) -> None:
    state, events = season["state"], season["events"]
    finals = season["matches"][7]
    # Two left (di the finalist, fay) = finals_at: the Finals between them, in cast order; di wins
    assert [p.id for p in finals.players] == ["di", "fay"] and state.finals_players == ["di", "fay"]
    assert state.stage == "over" and state.champion == "di"
    assert logged(events, "champion", "player", "by_host") == [("di", False)]
    assert logged(events, "eliminated", "episode", "player") == [(1, "ed"), (2, "ada"), (2, "cy"), (3, "bo")]
    # ToL held at the end (none spent): bo Domino's 2; ada, cy, fay Crates' 1 each; di, Clubs'
    # winner, gains none there (a finalist never plays a Death Match). "Each Main Match names its
    # Tokens of Life": a Death Match's result (Domino's ToL line too) names only its loser, the
    # Finals' only the champion. Garnets won, the Main Matches' (k from the docstring's tables):
    # Domino 2k, Crates floor(points / 3), Clubs floor(team score / 15)
    held = {p.id: (p.tol, p.garnets_won, p.eliminated_in, p.finalist_in) for p in state.players}
    assert held == {
        "ada": (1, 2 * 4 + 7 // 3, 2, None),
        "bo": (2, 2 * 5 + 5 // 3 + 71 // 15, 3, None),
        "cy": (1, 2 * 5 + 5 // 3, 2, None),
        "di": (0, 2 * 5 + 4 // 3 + 141 // 15, None, 3),
        "ed": (0, 2 * 3, 1, None),
        "fay": (1, 2 * 4 + 5 // 3 + 52 // 15, None, None),
    }
