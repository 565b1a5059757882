"""What the match layer checks for every game, so that no game checks it: how many players a
match seats, who may act and with which kinds, the garnet balance against what a game says a
submission costs, and a submission found illegal at resolution. Each refusal has a stable code."""

from __future__ import annotations

from datetime import timedelta

import pytest
from conftest import texts
from match_support import T0, new_match

from game_core.errors import Illegal, NotOpen
from game_core.games import registry
from game_core.match import engine
from game_core.match.model import Match, PhaseRecord


def resolved(match: Match, submissions=None) -> Match:
    game = registry.load(match.game)
    return engine.resolve(match, game, submissions or {}, T0 + timedelta(seconds=100)).match


def refused(match: Match, player: str, kind: str, payload, garnets: int = 0) -> Illegal:
    game = registry.load(match.game)
    with pytest.raises(Illegal) as error:
        engine.accept(match, game, player, match.phase.name, kind, payload, garnets, T0 + timedelta(seconds=10))
    return error.value


@pytest.mark.parametrize(
    ("game_id", "count", "text"),
    [
        ("crates", 1, "Pushing Crates takes 2 to 16 players, not 1"),
        ("crates", 17, "Pushing Crates takes 2 to 16 players, not 17"),
        ("palindrome", 1, "Palindrome Construction takes 2 to 12 players, not 1"),
        ("palindrome", 13, "Palindrome Construction takes 2 to 12 players, not 13"),
        ("abstrac", 1, "Abstrac takes 2 to 2 players, not 1"),
        ("abstrac", 3, "Abstrac takes 2 to 2 players, not 3"),
    ],
)
def test_seat_refuses_a_player_count_the_game_does_not_take(game_id, count, text):
    with pytest.raises(Illegal) as error:
        engine.seat(registry.load(game_id), [f"p{i}" for i in range(count)], {})
    assert [(r.code, r.text) for r in error.value.reasons] == [("player_count", text)]


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_seat_refuses_a_player_listed_twice(game_id):
    with pytest.raises(Illegal) as error:
        engine.seat(registry.load(game_id), ["a", "a"], {})
    # (a game of more players, or with guests, also says what else the two are short of)
    assert "players_repeated" in [r.code for r in error.value.reasons]


def test_an_outsider_is_refused_in_every_game():
    for match in (
        resolved(new_match("crates", ("a", "b"))),
        new_match("palindrome", ("A", "B"), rule_set="mm5"),
        new_match("abstrac", ("A", "B")),
    ):
        kind = match.phase.accepts[0]
        error = refused(match, "zed", kind, {})
        assert [r.code for r in error.reasons] == ["not_an_actor"]


def test_a_kind_the_open_phase_does_not_take_is_refused():
    # Crates: multipliers only until the end of round 1; a round not in the pregame.
    pregame = new_match("crates", ("a", "b"))
    assert [r.code for r in refused(pregame, "a", "round", {}).reasons] == ["kind_not_accepted"]
    round_2 = resolved(resolved(pregame))
    error = refused(round_2, "a", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})
    assert texts(error.reasons) == ["'Round 2' does not accept a 'multipliers' submission; it accepts round"]
    # Palindrome: the pregame takes nothing.
    error = refused(new_match("palindrome", ("A", "B")), "A", "bid", {})
    assert [r.code for r in error.reasons] == ["kind_not_accepted"]
    # Abstrac: the starter choice takes no lay, and it is A's move, not B's.
    abstrac = new_match("abstrac", ("A", "B"))
    assert [r.code for r in refused(abstrac, "A", "lay", {"cards": ["1R"]}).reasons] == ["kind_not_accepted"]
    assert [r.code for r in refused(abstrac, "B", "starter", {"starter": "B"}).reasons] == ["not_an_actor"]


def test_nothing_is_taken_once_a_game_is_over():
    match = new_match("crates", ("a", "b"))
    for _ in range(7):
        match = resolved(match)
    assert match.status == "finished"
    with pytest.raises(NotOpen):
        engine.accept(match, registry.load("crates"), "a", "Round 6", "round", {}, 0, T0)


def test_a_short_balance_is_the_match_layers_reason_after_the_games():
    crates = resolved(new_match("crates", ("a", "b")))
    payload = {"pushes": [{"crate": "zed", "direction": "right"}] * 5}
    error = refused(crates, "a", "round", payload, garnets=1)
    assert [(r.code, r.text) for r in error.reasons] == [
        ("crate_unknown", "push 1 names crate 'zed', which is not a player of this match"),
        ("crate_unknown", "push 2 names crate 'zed', which is not a player of this match"),
        ("crate_unknown", "push 3 names crate 'zed', which is not a player of this match"),
        ("crate_unknown", "push 4 names crate 'zed', which is not a player of this match"),
        ("crate_unknown", "push 5 names crate 'zed', which is not a player of this match"),
        ("garnets_short", "5 pushes need 2 garnets (one per push beyond the free 3), but your balance is 1"),
    ]
    palindrome = resolved(new_match("palindrome", ("A", "B")))
    error = refused(palindrome, "A", "bid", {"cards": [], "garnets": 3}, garnets=2)
    assert [(r.code, r.text) for r in error.reasons] == [("garnets_short", "you bid 3 garnets, but your balance is 2")]


def record(number: int, name: str, submissions) -> PhaseRecord:
    return PhaseRecord(
        number=number, name=name, submissions=submissions, elapsed_seconds=0, extension_seconds=0, timed_out=True
    )


def test_resolution_hands_the_game_parsed_models():
    stored = record(2, "Round 1", {"a": {"round": {"ground": "ice"}}})
    [(player, kinds)] = engine.parsed_submissions(registry.load("crates"), stored).items()
    assert (player, type(kinds["round"]).__name__, kinds["round"].ground) == ("a", "RoundSubmission", "ice")


@pytest.mark.parametrize(
    ("game_id", "players", "phases", "submissions", "code"),
    [
        (
            "crates",
            ("a", "b"),
            1,
            {"a": {"round": {"pushes": [{"crate": "zed", "direction": "left"}]}}},
            "crate_unknown",
        ),
        ("abstrac", ("A", "B"), 0, {"A": {"starter": {"starter": "Z"}}}, "not_a_player"),
        ("palindrome", ("A", "B"), 1, {"A": {"bid": {"cards": [{"card": 3, "pack": 11}]}}}, "pack_unknown"),
    ],
)
def test_a_submission_illegal_at_resolution_is_a_fault_raised_before_the_game_resolves(
    game_id, players, phases, submissions, code
):
    # Accepted submissions are legal in the position they resolve in; one that is not (a record
    # not made by this engine) is refused in one place, the engine, for every game alike.
    match = new_match(game_id, players)
    for _ in range(phases):
        match = resolved(match)
    game = registry.load(game_id)
    with pytest.raises(Illegal) as error:
        engine.resolve(match, game, submissions, T0 + timedelta(seconds=100))
    assert [r.code for r in error.value.reasons] == [code]
    stored = record(match.phase.number, match.phase.name, submissions)
    with pytest.raises(Illegal):
        engine.apply_record(game, engine.game_state(game, match), match.seed, stored)
