"""The match lifecycle, pure, with Pushing Crates as the game: which submissions are taken and
which refused (and as what), early close, and a resolution's record."""

from __future__ import annotations

from datetime import timedelta

import match_support
import pytest
from conftest import texts

from game_core.errors import Illegal, Late, Malformed, NotOpen
from game_core.games import registry
from game_core.match import engine, ties
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
        ({"number": 3}, NotOpen, "is not open yet"),
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


# -- the host's decision of a tie the rules left standing ------------------------------------------


def standing(player: str, place: int, score: str, tied_with: list[str] | None = None) -> dict:
    return {"place": place, "player": player, "score": score, "tied_with": tied_with or []}


# Ana 10 and Ben 5 are placed; Cat and Dan tie last with 2: one EC place between them.
TIED_AT_THE_BOTTOM = {
    "standings": [
        standing("ana", 1, "10"),
        standing("ben", 2, "5"),
        standing("cat", 3, "2", ["dan"]),
        standing("dan", 3, "2", ["cat"]),
    ],
    "tol": ["ana"],
    "tol_awarded": {"ana": 2},
    "ec": ["cat", "dan"],
    "undecided": ["cat", "dan"],
    "tied_lines": [{"line": "ec", "players": ["cat", "dan"], "places": 1, "award": 1}],
    "garnets": {"ana": 5, "ben": 2, "cat": 0, "dan": 0},
    "details": {},
}


def test_the_host_ranks_the_tied_players_and_the_last_takes_the_ec_place():
    decided = ties.decide(TIED_AT_THE_BOTTOM, ["dan", "cat"])
    # Dan ranked above Cat: Dan third, Cat fourth and the only EC; garnets unchanged
    assert [(s["player"], s["place"], s["tied_with"]) for s in decided["standings"]] == [
        ("ana", 1, []),
        ("ben", 2, []),
        ("dan", 3, []),
        ("cat", 4, []),
    ]
    assert (decided["ec"], decided["tol"], decided["undecided"]) == (["cat"], ["ana"], [])
    assert decided["decision"] == ["dan", "cat"] and "tied_lines" not in decided
    assert decided["garnets"] == TIED_AT_THE_BOTTOM["garnets"]


def test_a_tie_across_the_tol_line_goes_to_the_first_ranked():
    # Ana and Ben tie first for the one ToL place (2 tokens, as Domino Auction gives); Cat is EC
    tied_at_the_top = TIED_AT_THE_BOTTOM | {
        "standings": [standing("ana", 1, "9", ["ben"]), standing("ben", 1, "9", ["ana"]), standing("cat", 3, "1")],
        "tol": ["ana", "ben"],
        "tol_awarded": {"ana": 1, "ben": 1},
        "ec": ["cat"],
        "undecided": ["ana", "ben"],
        "tied_lines": [{"line": "tol", "players": ["ana", "ben"], "places": 1, "award": 2}],
    }
    decided = ties.decide(tied_at_the_top, ["ben", "ana"])
    # Ben takes the one ToL place, worth its 2 tokens
    assert [(s["player"], s["place"]) for s in decided["standings"]] == [("ben", 1), ("ana", 2), ("cat", 3)]
    assert (decided["tol"], decided["tol_awarded"], decided["ec"]) == (["ben"], {"ben": 2}, ["cat"])


@pytest.mark.parametrize(
    ("result", "order", "code"),
    [
        (TIED_AT_THE_BOTTOM, ["cat"], "not_the_undecided"),
        (TIED_AT_THE_BOTTOM, ["cat", "ben"], "not_the_undecided"),
        (TIED_AT_THE_BOTTOM, ["cat", "cat"], "not_the_undecided"),
        (TIED_AT_THE_BOTTOM | {"undecided": []}, ["cat", "dan"], "nothing_undecided"),
    ],
)
def test_a_decision_must_rank_exactly_the_undecided(result, order, code):
    with pytest.raises(Illegal) as refused:
        ties.decide(result, order)
    assert [reason.code for reason in refused.value.reasons] == [code]
