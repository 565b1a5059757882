"""The season reads each game's own result, as a whole bot match of it reports it (the games'
conformance matches, `bot_matches.play_through`), and finds there what each game's results rule
says (RULINGS.md): Palindrome's winner "wins 2 ToL" (tied winners 1 each) and its lowest is EC;
Crates among six gives the top 3 a ToL and makes the bottom 2 ECs, the second-to-last naming
first; Domino's first wins 2 ToL and its last is EC; Clubs' winner goes to the Finals (no ToL
needed) and the other two play the Death Match, the higher of them protected; Abstrac's loser
(either rule set) is the one who leaves a Death Match."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.append(str(Path(__file__).resolve().parent.parent / "games"))

from bot_matches import CASES, IDS, play_through, standing_players  # noqa: E402

from game_core.games import registry  # noqa: E402
from game_core.match.ties import decide  # noqa: E402
from game_core.season.outcome import loser_of, main_outcome  # noqa: E402


def by_place(result: dict[str, Any]) -> list[str]:
    return [standing["player"] for standing in sorted(result["standings"], key=lambda s: s["place"])]


@pytest.mark.parametrize(("game_id", "rule_set"), CASES, ids=IDS)
def test_the_season_reads_what_each_games_result_says(game_id: str, rule_set: str) -> None:
    result = play_through(game_id, rule_set, seed=3).result
    if result["undecided"]:  # a tie across a line: the host ranks it as listed (match-host decide)
        result = decide(result, list(result["undecided"]))
    players = standing_players(registry.load(game_id))
    order = by_place(result)
    places = {s["player"]: s["place"] for s in result["standings"]}
    if game_id == "abstrac":
        assert loser_of(result, players, "m-1") == order[1] == result["details"]["loser"]
        return
    outcome = main_outcome(result, players, "m-1")
    assert list(outcome.ecs) == sorted(outcome.ecs, key=lambda p: places[p])  # better-placed first
    if game_id == "clubs":
        assert outcome.finalists == (order[0],) and outcome.tol == {}
        assert outcome.pair is not None and (outcome.pair.protected, outcome.pair.ec) == (order[1], order[2])
        return
    assert outcome.pair is None and outcome.finalists == ()
    if game_id == "crates":  # six players: ToL to the top 3, EC the bottom 2, 5th named first
        assert outcome.tol == dict.fromkeys(order[:3], 1) and list(outcome.ecs) == order[4:]
    elif game_id == "domino":
        assert outcome.tol == {order[0]: 2} and list(outcome.ecs) == [order[-1]]
    else:  # palindrome: the highest wins 2 ToL (tied at the top: 1 each); the lowest are EC
        top = [p for p in order if places[p] == 1]
        assert outcome.tol == ({top[0]: 2} if len(top) == 1 else dict.fromkeys(top, 1))
        assert set(outcome.ecs) == {p for p in order if places[p] == max(places.values())} - set(top)
