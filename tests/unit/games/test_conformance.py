"""Every registered game, in every rule set, honours the protocol: bots play it to the end through
views alone, states survive JSON, the same seed gives the same bytes (also in separate processes
with different PYTHONHASHSEED values, through the pure match engine), views are JSON, the public
part of every view is the public view, another player's private seat never shows in a player's
view, and no player is both ToL and EC.

Run as a script (`python test_conformance.py GAME RULE_SET SEED`) it prints one seeded bot match
played through the pure match engine, as canonical JSON: the determinism test compares two such
processes byte for byte.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import typing
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from game_core.games import registry
from game_core.games.protocol import AnyGame, Model, Resolution
from game_core.match.engine import guests_per_player
from local_stack.bots import bot_for

ROOT = Path(__file__).resolve().parents[3]


def rule_sets(game: AnyGame) -> tuple[str, ...]:
    """The rule sets a game's settings accept (the `rule_set` field's literal values)."""
    return typing.get_args(game.Settings.model_fields["rule_set"].annotation) or ("default",)


CASES = [(game_id, rule_set) for game_id in registry.AVAILABLE for rule_set in rule_sets(registry.load(game_id))]
IDS = [f"{game_id}-{rule_set}" for game_id, rule_set in CASES]


def test_every_game_and_rule_set_is_covered():
    assert IDS == [
        "crates-default",
        "palindrome-mm8",
        "palindrome-mm5",
        "abstrac-row",
        "abstrac-deal",
        "domino-default",
        "clubs-default",
    ]


def players_for(game: AnyGame) -> tuple[str, ...]:
    """Every participant, in team order where the game hosts guests (each player, then theirs)."""
    count = max(game.min_players, min(6, game.max_players)) * (1 + guests_per_player(game))
    return tuple(f"p{i:02d}" for i in range(1, count + 1))


def standing_players(game: AnyGame) -> tuple[str, ...]:
    """The participants who are players (the standings name them; guests score for their team)."""
    return players_for(game)[:: 1 + guests_per_player(game)]


def play_through(game_id: str, rule_set: str, seed: int) -> tuple[list[str], dict, list[Model]]:
    """A bot match through the game alone: the public view after each phase, the result, and
    every state from the first to the last."""
    game = registry.load(game_id)
    settings = game.Settings(rule_set=rule_set)
    players = players_for(game)
    state = game.setup(settings, players, random.Random(seed))
    bot = bot_for(game_id)
    kinds = {kind.name: set(kind.accepts) for kind in game.timeline(settings)}
    trail, states = [], [state]
    for step in range(10_000):
        phase = game.open_phase(state)
        if phase is None:
            break
        assert set(phase.accepts) <= kinds[phase.name], f"{phase.name} accepts kinds the timeline lacks"
        assert set(phase.actors) <= set(players)
        submissions = {}
        for player in phase.actors:
            view = game.view(state, player)
            json.dumps(view)
            chosen = bot(view, phase, player, random.Random(f"{seed}:{step}:{player}"))
            parsed = {}
            for kind, payload in chosen.items():
                assert kind in phase.accepts
                submission = game.submissions[kind].model_validate(payload)
                assert game.check(state, player, kind, submission) == []
                parsed[kind] = submission
            submissions[player] = parsed
        state = game.resolve(state, Resolution(submissions=submissions, rng=random.Random(f"{seed}:{step}")))
        dumped = state.model_dump(mode="json")
        assert game.State.model_validate(dumped).model_dump(mode="json") == dumped, "the state survives JSON"
        assert game.State.model_validate_json(json.dumps(dumped)) == state, "the state survives JSON text"
        states.append(state)
        trail.append(json.dumps(game.view(state, None), sort_keys=True))
    else:
        pytest.fail("the match never ended")
    return trail, game.result(state).to_json(), states


@pytest.fixture(scope="module", params=CASES, ids=IDS)
def played(request):
    game_id, rule_set = request.param
    trail, result, states = play_through(game_id, rule_set, seed=7)
    return game_id, rule_set, trail, result, states


def test_a_bot_match_reaches_a_result_with_every_player_standing(played):
    game_id, _, trail, result, _ = played
    game = registry.load(game_id)
    assert trail, "at least one phase resolves"
    assert sorted(s["player"] for s in result["standings"]) == sorted(standing_players(game))
    assert all(amount >= 0 for amount in result["garnets"].values())


@pytest.mark.parametrize(("game_id", "rule_set"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", [7, 11, 23])
def test_no_player_is_both_tol_and_ec(game_id, rule_set, seed):
    _, result, _ = play_through(game_id, rule_set, seed)
    assert not set(result["tol"]) & set(result["ec"]), "a player is never both ToL and EC"
    assert set(result["undecided"]) <= {s["player"] for s in result["standings"]}


@pytest.mark.parametrize(("game_id", "rule_set"), CASES, ids=IDS)
def test_the_same_seed_plays_the_same_match(game_id, rule_set):
    first, result, _ = play_through(game_id, rule_set, seed=11)
    again, result_again, _ = play_through(game_id, rule_set, seed=11)
    assert (first, result) == (again, result_again)


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_every_phase_kind_has_a_submission_model(game_id):
    game = registry.load(game_id)
    for rule_set in rule_sets(game):
        for kind in game.timeline(game.Settings(rule_set=rule_set)):
            assert set(kind.accepts) <= set(game.submissions), kind.name


# -- views: non-interference ---------------------------------------------------------------------
#
# For each game, how to change one player's private seat (what the rules let only that player
# know) in a state, as JSON. A view of anyone else, and the public view, must not change; the
# changed player's own view must (at least once in a match), or the change proved nothing.


def _other_permutation(multipliers: list[int] | None) -> list[int]:
    return [1, 2, 1, 0, -1, -1] if multipliers == [2, 1, 1, 0, -1, -1] else [2, 1, 1, 0, -1, -1]


def _crates_seat(state: dict[str, Any], q: str) -> None:
    # Secret for good: multipliers (every version), pushes and grounds. Secret until the end: the
    # exact location (only mod 5 is revealed) and the running points (told to the owner only).
    for key in ("pregame_multipliers", "round1_multipliers", "multipliers"):
        state[key][q] = _other_permutation(state[key].get(q))
    for record in state["records"][q]:
        record["pushes"] = [{"crate": q, "direction": "left"}] * 4
        record["ground"] = "rubber" if record["ground"] != "rubber" else "ice"
        record["submitted"] = not record["submitted"]
    if state["phase"] <= 6:
        state["locations"][q] = [location + 5 for location in state["locations"][q]]
        state["points"][q] = [points + 1 for points in state["points"][q]]


def _palindrome_seat(state: dict[str, Any], q: str) -> None:
    # Secret: bids (cards and garnets), digits, constructions, item use; strings until the end.
    seat = state["seats"][q]
    seat["bids"] = [{"round": 1, "bid": {"cards": [{"card": 9, "pack": 1}], "garnets": 2, "garnet_item": 1}}]
    seat["constructions"] = []
    seat["digits"] += "7"
    seat["garnets_spent"] += 2
    for item in seat["items"]:
        item["used_in_round"] = None if item["used_in_round"] else 1
    if state["final"] is None:
        seat["strings"] = [string + "1" for string in seat["strings"]]


def _domino_seat(state: dict[str, Any], q: str) -> None:
    # Secret for good: the amounts bid (only winners and each player's total spent are revealed).
    state["bids"][q] = [{"bids": [{"tile": 1, "chips": 7}, {"tile": 2, "chips": 0}]} for _ in state["bids"][q]]


def _clubs_seat(state: dict[str, Any], q: str) -> None:
    # Private: tokens used, what a peek told, the cards received.
    state["used_tokens"][q] = [*state["used_tokens"][q], "7.3"]
    state["peeks"][q] = [*state["peeks"][q], {"participant": q, "round": 1, "tokens": [1, 2, 3]}]
    for shown in state["rounds"]:
        if q in shown["won"]:
            shown["won"][q] = [*shown["won"][q], "2C"]


SEATS: dict[str, Callable[[dict[str, Any], str], None] | None] = {
    "crates": _crates_seat,
    "palindrome": _palindrome_seat,
    "abstrac": None,  # perfect information: nothing is private, every private part is empty
    "domino": _domino_seat,
    "clubs": _clubs_seat,
}


def test_every_game_says_what_its_private_seat_is():
    assert set(SEATS) == set(registry.AVAILABLE)


def test_the_public_part_of_every_view_is_the_public_view(played):
    game_id, _, _, _, states = played
    game = registry.load(game_id)
    for state in states:
        public = game.view(state, None)
        assert set(public) == {"public"}
        for player in players_for(game):
            view = game.view(state, player)
            assert set(view) == {"public", "private"}
            assert view["public"] == public["public"], player
            if SEATS[game_id] is None:
                assert view["private"] == {}


def test_another_players_private_seat_never_shows_in_a_view(played):
    game_id, _, _, _, states = played
    change = SEATS[game_id]
    if change is None:
        pytest.skip(f"{game_id} has no private information")
    game = registry.load(game_id)
    players = players_for(game)
    seen_by_owner = set()
    for state in states:
        views = {p: game.view(state, p) for p in (None, *players)}
        for q in players:
            dumped = state.model_dump(mode="json")
            change(dumped, q)
            changed = game.State.model_validate(dumped)
            for p in (None, *players):
                if p != q:
                    assert game.view(changed, p) == views[p], f"{q}'s private seat shows in {p or 'the public'}'s view"
            if game.view(changed, q) != views[q]:
                seen_by_owner.add(q)
    assert seen_by_owner == set(players), "the change touches what each player's own view shows"


# -- determinism across processes ----------------------------------------------------------------


def engine_match_bytes(game_id: str, rule_set: str, seed: int) -> str:
    """A seeded bot match through the pure match engine (start, accept, resolve), as canonical
    JSON: every phase record, the result, and the final public view."""
    from game_core.games.protocol import OpenPhase
    from game_core.match import engine
    from game_core.match.model import Match, Participant
    from game_core.match.replay import canonical_json

    game = registry.load(game_id)
    bot = bot_for(game_id)
    seats = players_for(game)
    start = datetime(2026, 12, 1, tzinfo=UTC)
    match = Match(
        match_id=f"conformance-{game_id}-{rule_set}",
        game=game_id,
        settings=game.Settings(rule_set=rule_set).model_dump(mode="json"),
        seed=seed,
        players=tuple(Participant(id=p, name=p, secret_hash="-") for p in seats),
        phase_seconds=86_400,
        early_close=False,
        recheck_seconds=3_600,
        created_at=start,
        starting_garnets={p: 0 for p in seats},
    )
    now = start
    match = engine.start(match, game, now)
    records = []
    while match.phase is not None:
        clock = match.phase
        phase = OpenPhase(clock.name, clock.accepts, clock.actors)
        submissions = {}
        for player in clock.actors:
            view = game.view(engine.game_state(game, match), player)
            chosen = bot(view, phase, player, random.Random(f"{seed}:{clock.number}:{player}"))
            submissions[player] = {
                kind: engine.accept(match, game, player, clock.name, kind, body, 0, now).submission
                for kind, body in chosen.items()
            }
        now += timedelta(hours=1)
        resolved = engine.resolve(
            match.model_copy(update={"phase": clock.request_resolution(now)}), game, submissions, now
        )
        records.append(resolved.record.model_dump(mode="json"))
        match = resolved.match
    state = engine.game_state(game, match)
    return canonical_json({"records": records, "result": match.result, "public": game.view(state, None)})


@pytest.mark.parametrize(("game_id", "rule_set"), CASES, ids=IDS)
def test_a_seeded_match_gives_the_same_bytes_whatever_the_hash_seed(game_id, rule_set):
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, __file__, game_id, rule_set, "2026"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr.decode()
        outputs.append(done.stdout)
    assert outputs[0] and outputs[0] == outputs[1]


if __name__ == "__main__":
    sys.stdout.write(engine_match_bytes(sys.argv[1], sys.argv[2], int(sys.argv[3])) + "\n")
