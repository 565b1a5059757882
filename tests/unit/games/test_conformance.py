"""Every registered game, in every rule set, honours the protocol: bots play it to the end through
views alone, states survive JSON, the same seed gives the same bytes (also in separate processes
with different PYTHONHASHSEED values, through the pure match engine), views are JSON, the public
part of every view is the public view, another player's private seat never shows in a player's
view, and no player is both ToL and EC.

Run as a script (`python test_conformance.py SEED GAME RULE_SET [GAME RULE_SET ...]`) it prints
each seeded bot match played through the pure match engine, as canonical JSON (a JSON object of
them by "GAME RULE_SET"): the determinism test compares two such processes byte for byte.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from bot_matches import CASES, IDS, play_through, players_for, rule_sets, standing_players

from game_core.games import registry
from local_stack.bots import MissingBot, bot_for

ROOT = Path(__file__).resolve().parents[3]


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


match_of = cache(play_through)
"""A seeded bot match, played once per module (the tests only read it)."""
SECRECY_SEEDS = (7, 23, 41)


@pytest.fixture(scope="module", params=CASES, ids=IDS)
def played(request):
    game_id, rule_set = request.param
    return game_id, match_of(game_id, rule_set, 7)


def test_a_bot_match_reaches_a_result_with_every_player_standing(played):
    game_id, match = played
    game = registry.load(game_id)
    assert match.trail, "at least one phase resolves"
    assert sorted(s["player"] for s in match.result["standings"]) == sorted(standing_players(game))
    assert all(amount >= 0 for amount in match.result["garnets"].values())


@pytest.mark.parametrize(("game_id", "rule_set"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", [7, 11, 23])
def test_no_player_is_both_tol_and_ec(game_id, rule_set, seed):
    result = match_of(game_id, rule_set, seed).result
    assert not set(result["tol"]) & set(result["ec"]), "a player is never both ToL and EC"
    assert set(result["undecided"]) <= {s["player"] for s in result["standings"]}


@pytest.mark.parametrize(("game_id", "rule_set"), CASES, ids=IDS)
def test_the_same_seed_plays_the_same_match(game_id, rule_set):
    # the first play is the module's (match_of, which the ToL and EC test reads too), the second a new one
    first, again = match_of(game_id, rule_set, 11), play_through(game_id, rule_set, seed=11)
    assert (first.trail, first.result) == (again.trail, again.result)


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_every_game_has_a_bot(game_id):
    assert callable(bot_for(game_id))  # a missing one raises MissingBot, naming the file to add


def test_a_game_without_a_bot_is_told_which_file_to_add():
    with pytest.raises(MissingBot, match=r"add local_stack/bots/chess\.py defining choose\(view, phase, player, rng\)"):
        bot_for("chess")


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_every_phase_kind_has_a_submission_model(game_id):
    game = registry.load(game_id)
    for rule_set in rule_sets(game):
        for kind in game.timeline(game.Settings(rule_set=rule_set)):
            assert set(kind.accepts) <= set(game.submissions), kind.name


# -- views: non-interference ---------------------------------------------------------------------
#
# Each game says how to change one participant's private seat (what the rules let only them know)
# in a state, as JSON (`Demo.private_seat`). A view of anyone else, and the public view, must not
# change; the changed participant's own view must, in every part that holds a secret (at some
# position of the match), or the change proved nothing: a part of a private view the change never
# touches is either listed as public knowledge (`Demo.public_parts`), with why, or the test fails
# naming it.


def view_parts(view: Any, keys: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    """(part, the JSON of what it holds) of a private view, a part named by its first two keys,
    list positions aside: 'rounds.hand', 'multipliers.pregame', 'total'."""
    if len(keys) == 2 or not isinstance(view, dict | list):
        yield ".".join(keys), json.dumps(view, sort_keys=True)
    elif isinstance(view, dict):
        for key, item in view.items():
            yield from view_parts(item, (*keys, str(key)))
    else:
        for item in view:
            yield from view_parts(item, keys)


def parts_of(view: dict[str, Any]) -> dict[str, list[str]]:
    parts: dict[str, list[str]] = {}
    for part, held in view_parts(view["private"]):
        parts.setdefault(part, []).append(held)
    return parts


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_every_game_says_how_many_play_it(game_id):
    game = registry.load(game_id)
    counts = [game.demo.few, game.demo.players, *game.demo.rule_set_players.values()]
    assert all(game.min_players <= count <= game.max_players for count in counts), counts
    assert game.demo.few <= min(counts)
    assert set(game.demo.rule_set_players) <= set(rule_sets(game))


def test_the_public_part_of_every_view_is_the_public_view(played):
    game_id, match = played
    game = registry.load(game_id)
    for state in match.states:
        public = game.view(state, None)
        assert set(public) == {"public"}
        for player in players_for(game):
            view = game.view(state, player)
            assert set(view) == {"public", "private"}
            assert view["public"] == public["public"], player
            if game.demo.private_seat is None:
                assert view["private"] == {}


@pytest.mark.parametrize(("game_id", "rule_set"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", SECRECY_SEEDS)
def test_another_participants_private_seat_never_shows_in_a_view(game_id, rule_set, seed):
    game = registry.load(game_id)
    change, public_parts = game.demo.private_seat, game.demo.public_parts
    if change is None:
        pytest.skip(f"{game_id} has no private information")
    participants = players_for(game)
    seen_by_owner, every_part, secret_parts = set(), set(), set()
    for state in match_of(game_id, rule_set, seed).states:
        views = {p: game.view(state, p) for p in (None, *participants)}
        for q in participants:
            data = state.model_dump(mode="json")
            change(data, q)
            changed = game.State.model_validate(data)
            for p in (None, *participants):
                if p != q:
                    assert game.view(changed, p) == views[p], f"{q}'s private seat shows in {p or 'the public'}'s view"
            own, own_changed = parts_of(views[q]), parts_of(game.view(changed, q))
            every_part |= own.keys() | own_changed.keys()
            secret_parts |= {part for part in own.keys() | own_changed.keys() if own.get(part) != own_changed.get(part)}
            if own != own_changed:
                seen_by_owner.add(q)
    assert seen_by_owner == set(participants), "the change touches what each participant's own view shows"
    assert every_part - secret_parts <= public_parts, "parts of a private view the seat's change never touches"
    assert public_parts <= every_part, "parts listed as public that no private view has"


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


HASH_SEEDS = ("1", "2")
DETERMINISM = "test_a_seeded_match_gives_the_same_bytes_whatever_the_hash_seed"


@pytest.fixture(scope="module")
def matches_by_hash_seed(request: pytest.FixtureRequest) -> dict[str, dict[str, str]]:
    """Each PYTHONHASHSEED's process, playing every case this run selected of the test below (one
    process a hash seed, not one a case: a process's start costs more than its match)."""
    cases = sorted(
        {
            (item.callspec.params["game_id"], item.callspec.params["rule_set"])
            for item in request.session.items
            if isinstance(item, pytest.Function) and item.originalname == DETERMINISM
        }
    )
    outputs = {}
    for hash_seed in HASH_SEEDS:
        done = subprocess.run(
            [sys.executable, __file__, "2026", *(part for case in cases for part in case)],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr.decode()
        outputs[hash_seed] = json.loads(done.stdout)
    return outputs


@pytest.mark.parametrize(("game_id", "rule_set"), CASES, ids=IDS)
def test_a_seeded_match_gives_the_same_bytes_whatever_the_hash_seed(game_id, rule_set, matches_by_hash_seed):
    first, again = (matches_by_hash_seed[hash_seed][f"{game_id} {rule_set}"] for hash_seed in HASH_SEEDS)
    assert first and first == again


if __name__ == "__main__":
    seed, pairs = int(sys.argv[1]), sys.argv[2:]
    cases = zip(pairs[::2], pairs[1::2], strict=True)
    sys.stdout.write(
        json.dumps({f"{game} {rule_set}": engine_match_bytes(game, rule_set, seed) for game, rule_set in cases})
    )
