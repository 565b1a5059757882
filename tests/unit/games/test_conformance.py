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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from bot_matches import CASES, IDS, play_through, players_for, rule_sets, standing_players

from game_core.games import registry
from game_core.games.clubs.rules import PHASES
from local_stack.bots import bot_for

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
    first, again = play_through(game_id, rule_set, seed=11), play_through(game_id, rule_set, seed=11)
    assert (first.trail, first.result) == (again.trail, again.result)


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_every_phase_kind_has_a_submission_model(game_id):
    game = registry.load(game_id)
    for rule_set in rule_sets(game):
        for kind in game.timeline(game.Settings(rule_set=rule_set)):
            assert set(kind.accepts) <= set(game.submissions), kind.name


# -- views: non-interference ---------------------------------------------------------------------
#
# For each game, how to change one participant's private seat (what the rules let only them know)
# in a state, as JSON. A view of anyone else, and the public view, must not change; the changed
# participant's own view must, in every part that holds a secret (at some position of the match),
# or the change proved nothing: a part of a private view the change never touches is either
# listed as public knowledge, with why, or the test fails naming it.


@dataclass(frozen=True)
class Seat:
    change: Callable[[dict[str, Any], str], None]
    public_parts: frozenset[str] = frozenset()
    """Parts of a private view (`view_parts`) that hold nothing secret, so no change touches them."""


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
    # Private for good (rulings `clubs`): each round's puzzle clocks and tokens (the host's entries
    # too), the tokens used, what a peek told, the draft, the cards received, the hand (ranked
    # without being shown), whether the service built it, the guessing outcome (told to the
    # guesser alone). Secret until the end: each round's scores (all are shown at the end).
    state["used_tokens"][q] = [*state["used_tokens"][q], "7.3"]
    state["peeks"][q] = [*state["peeks"][q], {"participant": q, "round": 1, "tokens": [1, 2, 3]}]
    for shown in state["rounds"]:
        shown["clocks"][q] = {"1": {"sent_ms": 0, "solved_ms": 4_000, "wrong": 1}, "3": {"sent_ms": 0}}
        for tokens in (shown["tokens"], shown["host_tokens"]):
            if q in tokens:
                tokens[q] = [value % 1800 + 1 for value in tokens[q]]
        if q in shown["drafts"]:
            draft = shown["drafts"][q]
            spare = next(card for card in ("2H", "3H", "4H", "5H", "6H", "7H", "8H") if card not in str(draft))
            draft["picks"][0]["card"] = spare
            draft["lowered"] = [] if draft["lowered"] else [1]
        if q in shown["won"]:
            shown["won"][q] = [*shown["won"][q], "2C"]
        if q in shown["hands"]:
            shown["hands"][q] = ["AS"] if shown["hands"][q] != ["AS"] else ["KS"]
            built = set(shown["built_by_service"]) ^ {q}
            shown["built_by_service"] = [p for p in state["participants"] if p in built]
        if q in shown["guessing"]:
            outcome = shown["guessing"][q]
            shown["guessing"][q] = {"total": outcome["total"] + 3, "bonus": not outcome["bonus"], "against": {}}
        if q in shown["scores"] and state["phase"] <= PHASES:
            shown["scores"][q] += 1


SEATS: dict[str, Seat | None] = {
    "crates": Seat(_crates_seat, frozenset({"rounds.round"})),
    # Who received each item is revealed when its bidding resolves (RULINGS, Reveals); its use is not.
    "palindrome": Seat(_palindrome_seat, frozenset({"items.name", "items.round"})),
    "abstrac": None,  # perfect information: nothing is private, every private part is empty
    "domino": Seat(_domino_seat, frozenset({"bids.round"})),
    "clubs": Seat(
        _clubs_seat,
        # The round's number; a hand's points follow from the public ranking of the hands.
        frozenset({"rounds.round", "rounds.hand_points"}),
    ),
}


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


def test_every_game_says_what_its_private_seat_is():
    assert set(SEATS) == set(registry.AVAILABLE)


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
            if SEATS[game_id] is None:
                assert view["private"] == {}


@pytest.mark.parametrize(("game_id", "rule_set"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", SECRECY_SEEDS)
def test_another_participants_private_seat_never_shows_in_a_view(game_id, rule_set, seed):
    seat = SEATS[game_id]
    if seat is None:
        pytest.skip(f"{game_id} has no private information")
    game = registry.load(game_id)
    participants = players_for(game)
    seen_by_owner, every_part, secret_parts = set(), set(), set()
    for state in match_of(game_id, rule_set, seed).states:
        views = {p: game.view(state, p) for p in (None, *participants)}
        for q in participants:
            data = state.model_dump(mode="json")
            seat.change(data, q)
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
    assert every_part - secret_parts <= seat.public_parts, "parts of a private view the seat's change never touches"
    assert seat.public_parts <= every_part, "parts listed as public that no private view has"


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
