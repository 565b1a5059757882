"""The match lifecycle, pure, with Pushing Crates as the game: which submissions are taken and
which refused (and as what), early close, and a resolution's record."""

from __future__ import annotations

from datetime import timedelta

import match_support
import pytest
from conftest import texts

from game_core.errors import Illegal, Late, Malformed, NotOpen
from game_core.games import registry
from game_core.match import engine
from game_core.match.model import Match

T0 = match_support.T0
CRATES = registry.load("crates")
ROUND = {"pushes": [{"crate": "a", "direction": "right"}], "ground": "stone"}


def new_match(early_close: bool = False) -> Match:
    return match_support.new_match("crates", ("a", "b", "c"), early_close)


def in_round_1(early_close: bool = False) -> Match:
    return engine.resolve(new_match(early_close), CRATES, {}, T0 + timedelta(seconds=100)).match


def accept(match, player="a", phase="Round 1", kind="round", payload=None, garnets=0, seconds=110, number=None):
    return engine.accept(
        match,
        CRATES,
        player,
        phase,
        kind,
        ROUND if payload is None else payload,
        garnets,
        T0 + timedelta(seconds=seconds),
        number,
    )


def test_a_match_starts_in_its_first_phase():
    match = new_match()
    assert (
        match.phase.name == "Pregame"
        and match.phase.number == 1
        and match.phase.deadline == T0 + timedelta(seconds=100)
    )


def test_a_valid_submission_is_taken_as_understood():
    accepted = accept(in_round_1())
    assert accepted.kind == "round" and accepted.submission == ROUND and accepted.garnet_cost == 0


@pytest.mark.parametrize(
    ("changes", "error", "words"),
    [
        ({"phase": "Pregame"}, Late, "not the open phase"),
        ({"number": 1}, Late, "not the open phase"),
        ({"number": 3}, NotOpen, "has not opened yet"),
        ({"seconds": 200}, Late, "closed"),
        ({"player": "zed"}, Illegal, "cannot act"),
        ({"kind": "bid"}, Illegal, "does not accept"),
        ({"payload": {"pushes": "left"}}, Malformed, "malformed"),
        ({"payload": {"pushes": [], "ground": "lava"}}, Malformed, "malformed"),
        ({"payload": {"pushes": [{"crate": "a", "direction": "right"}] * 4, "ground": "stone"}}, Illegal, "garnet"),
    ],
)
def test_refusals_name_what_is_wrong(changes, error, words):
    with pytest.raises(error) as refused:
        accept(in_round_1(), **changes)
    assert words in " ".join([refused.value.message, *texts(refused.value.reasons)])


def test_an_overspend_is_reported_once():
    with pytest.raises(Illegal) as refused:
        accept(in_round_1(), payload={"pushes": [{"crate": "a", "direction": "right"}] * 5, "ground": "stone"})
    assert sum("garnet" in reason for reason in texts(refused.value.reasons)) == 1


def test_extra_pushes_cost_garnets_within_the_balance():
    payload = {"pushes": [{"crate": "b", "direction": "left"}] * 5, "ground": "ice"}
    assert accept(in_round_1(), payload=payload, garnets=2).garnet_cost == 2


def test_nothing_is_taken_once_the_match_is_over():
    match = in_round_1().model_copy(update={"status": "cancelled"})
    with pytest.raises(NotOpen):
        accept(match)


@pytest.mark.parametrize(
    ("early_close", "submitted", "closes"),
    [
        (False, {"a": {"round": {}}, "b": {"round": {}}, "c": {"round": {}}}, False),
        (True, {"a": {"round": {}}, "b": {"round": {}}}, False),
        (True, {"a": {"round": {}}, "b": {"round": {}}, "c": {"multipliers": {}}}, False),
        (True, {"a": {"round": {}}, "b": {"round": {}}, "c": {"round": {}, "multipliers": {}}}, True),
        (True, {"a": {"round": {}}, "b": {"round": {}}, "c": {"round": {}}}, True),
    ],
)
def test_early_close_waits_for_every_actor_and_every_expected_kind(early_close, submitted, closes):
    # Round 1 accepts a late multiplier change but waits only for the round submission
    match = in_round_1(early_close)
    done = {player for player, kinds in submitted.items() if engine.has_done(match, player, kinds)}
    assert engine.closes_early(match, done) is closes


def test_a_resolution_records_its_inputs_and_opens_the_next_phase():
    match = in_round_1()
    submissions = {"b": {"round": ROUND}, "a": {"round": ROUND}}
    resolved = engine.resolve(match, CRATES, submissions, T0 + timedelta(seconds=180))
    assert resolved.record.number == 2 and resolved.record.name == "Round 1"
    assert list(resolved.record.submissions) == ["a", "b"]  # sorted: the record is canonical
    assert resolved.record.elapsed_seconds == 80 and resolved.record.timed_out
    assert resolved.match.phase.name == "Round 2" and resolved.match.phase.number == 3
    assert resolved.spending == {}
