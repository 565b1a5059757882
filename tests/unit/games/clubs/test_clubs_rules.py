"""Tables worked by hand from the rule text and the rulings: guessing, the draft, the checks, the
actions, the result's tie-breaks."""

from __future__ import annotations

import random

import pytest

from game_core.errors import Illegal
from game_core.games.clubs import GAME, rules
from game_core.games.clubs.draft import priority_value, resolve_draft
from game_core.games.clubs.models import (
    ClubsState,
    DraftSubmission,
    GuessSubmission,
    HostTokens,
    Peek,
    PuzzleAnswer,
    PuzzleRequest,
    Transfer,
)
from game_core.games.clubs.puzzles import is_correct, puzzle
from game_core.games.clubs.showdown import guess_points, guessing
from game_core.games.protocol import Resolution
from game_core.match.engine import refusals
from local_stack.bots.clubs import solve

PARTICIPANTS = ("ann", "gia", "bob", "gus", "cat", "gil")
DEAL = {"community": "KH", "holes": dict(zip(PARTICIPANTS, ["2H", "3H", "4H", "5H", "6H", "7H"], strict=True))}


def fresh(**settings) -> ClubsState:
    settings.setdefault("deals", [DEAL] * 7)
    return GAME.setup(GAME.Settings(**settings), PARTICIPANTS, random.Random(0))


# -- guessing -----------------------------------------------------------------------------


def test_the_worked_example_5_9_straight_flush_guessed_as_3_7_steals_3():
    hand = ["5C", "6C", "7C", "8C", "9C"]
    assert guess_points(["3C", "4C", "5C", "6C", "7C"], hand) == (3 + 2 - 2, True)


@pytest.mark.parametrize(
    ("guess", "hand", "taken"),
    [
        (["AS"], ["AS", "AH"], 1),  # one right card; an ace alone is not a pair: 1
        (["AS", "AD"], ["AS", "AH"], 1 - 1 + 2),  # one right, one wrong, both pairs
        (["2D", "3D"], ["AS", "AH"], -2),  # two wrong: gives 2
        (["TH", "JH", "QH", "KH", "AH"], ["5C", "6C", "7C", "8C", "9C"], -5 + 2),  # royal = straight flush
        (["KS", "KH", "KD", "2S", "2H"], ["KS", "KH", "KD", "2S", "2H"], 5 + 2),
    ],
)
def test_a_guess_takes_a_point_per_right_card_gives_one_per_wrong_and_two_for_the_type(guess, hand, taken):
    assert guess_points(guess, hand)[0] == taken


def test_the_bonus_of_10_for_every_other_type_right_is_taken_from_nobody():
    hands = {p: ["2S"] for p in PARTICIPANTS} | {"bob": ["AS", "AH"]}
    right_types = {p: ["3D"] for p in PARTICIPANTS if p != "ann"} | {"bob": ["KS", "KH"]}
    outcomes, change = guessing({"ann": right_types}, hands)
    # Each high card guess: 0 right, 1 wrong, type right: 1. bob's: 2 wrong, a pair: 0.
    assert outcomes["ann"].against == {"gia": 1, "bob": 0, "gus": 1, "cat": 1, "gil": 1}
    assert (outcomes["ann"].total, outcomes["ann"].bonus) == (4 + 10, True)
    assert change == {"ann": 14, "gia": -1, "bob": 0, "gus": -1, "cat": -1, "gil": -1}
    missing_one = {p: cards for p, cards in right_types.items() if p != "gil"}
    assert guessing({"ann": missing_one}, hands)[0]["ann"].bonus is False


# -- the draft ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "priority", "lowered", "token", "value"),
    [
        ("AS", 3, [], None, 3),
        ("AS", 3, [3], None, 2),
        ("AS", 1, [1], None, 0),  # 2 garnets turn a 1 into a 0
        ("AC", 2, [], 100, 200),  # the text's example: a 100 token at priority 2
        ("AC", 2, [2], 100, 100),
        ("AC", 1, [1], 1800, 0),
    ],
)
def test_priority_values(card, priority, lowered, token, value):
    assert priority_value(card, priority, lowered, token) == value


def draft(*picks: str, lowered: list[int] | None = None) -> DraftSubmission:
    """picks as "AS" or "AC@1.1": priorities 1-6 in the order given."""
    chosen = []
    for priority, pick in enumerate(picks, start=1):
        card, _, token = pick.partition("@")
        chosen.append({"card": card, "priority": priority} | ({"token": token} if token else {}))
    return DraftSubmission.model_validate({"picks": chosen, "lowered": lowered or []})


def test_the_single_lowest_wins_a_shared_lowest_discards_and_clubs_weigh_token_times_priority():
    drafts = {
        "ann": draft("AS", "KS", "AC@1.1", "2D", "3D", "4D"),
        "bob": draft("KS", "AS", "AC@1.1", "2D", "5D", "6D", lowered=[4]),
        "cat": draft("QS", "JS", "TS", "9S", "8S", "KC@1.1"),
    }
    tokens = {"ann": {"1.1": 100}, "bob": {"1.1": 40}, "cat": {"1.1": 7}}
    won, reveal = resolve_draft(drafts, tokens)
    # AS: ann 1, bob 2 -> ann. KS: ann 2, bob 1 -> bob. AC: ann 100x3=300, bob 40x3=120 -> bob.
    # 2D: ann 4, bob 4 lowered to 3 -> bob. KC: cat 7x6=42 alone -> cat.
    assert won == {
        "ann": ["3D", "4D", "AS"],
        "bob": ["2D", "5D", "6D", "AC", "KS"],
        "cat": ["8S", "9S", "JS", "KC", "QS", "TS"],
    }
    assert {r.card: (r.drafted, r.given) for r in reveal}["AS"] == (2, True)
    tied = resolve_draft(
        {"ann": draft("AS", "KS", "QS", "JS", "TS", "9S"), "bob": draft("AS", "2D", "3D", "4D", "5D", "6D")}, {}
    )
    assert {r.card: (r.drafted, r.given) for r in tied[1]}["AS"] == (2, False), "a shared lowest discards"


# -- checks through the match layer's refusals ------------------------------------------------


def solved(state: ClubsState, participant: str, *seconds: int) -> ClubsState:
    for number, taken in enumerate(seconds, start=1):
        state = GAME.act(state, participant, "puzzle", PuzzleRequest(puzzle=number), 1_000).state
        answer = solve(GAME.act(state, participant, "puzzle", PuzzleRequest(puzzle=number), 1_000).answer)
        state = GAME.act(state, participant, "answer", PuzzleAnswer(puzzle=number, answer=answer), 1_000 + taken).state
    return state


@pytest.mark.parametrize(
    ("picks", "lowered", "balance", "codes"),
    [
        (("AS", "KS", "QS", "JS", "TS", "9S"), [], 0, []),
        (("KH", "KS", "QS", "JS", "TS", "9S"), [], 0, ["card_not_in_draft"]),  # the community card
        (("2H", "KS", "QS", "JS", "TS", "9S"), [], 0, ["card_not_in_draft"]),  # a hole card
        (("AC", "KS", "QS", "JS", "TS", "9S"), [], 0, ["token_missing"]),
        (("AC@1.1", "KS", "QS", "JS", "TS", "9S@1.2"), [], 0, ["token_not_club"]),
        (("AC@1.1", "KC@1.1", "QS", "JS", "TS", "9S"), [], 0, ["token_repeated"]),
        (("AC@1.3", "KS", "QS", "JS", "TS", "9S"), [], 0, ["token_unknown"]),  # puzzle 3 unsolved
        (("AC@2.1", "KS", "QS", "JS", "TS", "9S"), [], 0, ["token_unknown"]),
        (("AC@1.1", "KC@1.2", "QS", "JS", "TS", "9S"), [1, 2], 3, ["garnets_short"]),
        (("AC@1.1", "KC@1.2", "QS", "JS", "TS", "9S"), [1, 2], 4, []),
    ],
)
def test_draft_refusals(picks, lowered, balance, codes):
    state = solved(fresh(), "ann", 5_000, 9_000)
    submission = draft(*picks, lowered=lowered)
    assert [r.code for r in refusals(GAME, state, "ann", "draft", submission, balance)] == codes


def test_a_used_token_is_refused_in_a_later_draft():
    state = solved(fresh(), "ann", 5_000)
    sent = {"ann": {"draft": draft("AC@1.1", "KS", "QS", "JS", "TS", "9S")}}
    state = GAME.resolve(state, Resolution(sent, random.Random(0)))
    again = draft("QC@1.1", "KS", "QS", "JS", "TS", "9S")
    assert [r.code for r in GAME.check(state, "ann", "draft", again)] == ["token_used"]


def test_build_and_guess_refusals():
    state = GAME.resolve(fresh(), Resolution({}, random.Random(0)))
    build = GAME.submissions["build"].model_validate({"cards": ["KH", "2H", "AS"]})
    assert [r.code for r in GAME.check(state, "ann", "build", build)] == ["card_not_held"]
    guess = GuessSubmission.model_validate({"guesses": [{"participant": "ann", "cards": ["AS"]}]})
    assert [r.code for r in GAME.check(state, "ann", "guess", guess)] == ["guess_self"]


# -- tokens and actions ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answered_after_ms", "token"),
    [(0, 1), (999, 1), (1_999, 1), (2_000, 2), (61_500, 61), (1_800_000, 1800), (5_000_000, 1800)],
)
def test_a_token_is_the_whole_seconds_to_the_first_correct_answer_from_1_to_1800(answered_after_ms, token):
    state = solved(fresh(), "gia", answered_after_ms)
    assert rules.round_tokens(state.rounds[0], "gia")[0] == token


def test_a_wrong_answer_is_told_wrong_and_the_clock_keeps_running_unsolved_gives_1800():
    state = GAME.act(fresh(), "bob", "puzzle", PuzzleRequest(puzzle=1), 0).state
    wrong = GAME.act(state, "bob", "answer", PuzzleAnswer(puzzle=1, answer="nonsense"), 10_000)
    assert wrong.answer["correct"] is False
    right = solve(GAME.act(wrong.state, "bob", "puzzle", PuzzleRequest(puzzle=1), 20_000).answer)
    state = GAME.act(wrong.state, "bob", "answer", PuzzleAnswer(puzzle=1, answer=right), 30_000).state
    state = GAME.resolve(state, Resolution({}, random.Random(0)))
    assert state.rounds[0].tokens["bob"] == [30, 1800, 1800]
    assert state.rounds[0].tokens["ann"] == [1800, 1800, 1800]


def test_host_tokens_stand_over_the_services_timing():
    state = solved(fresh(), "cat", 4_000)
    state = GAME.act(state, None, "tokens", HostTokens(participant="cat", tokens=[7, 8, 9]), 0).state
    assert GAME.resolve(state, Resolution({}, random.Random(0))).rounds[0].tokens["cat"] == [7, 8, 9]
    with pytest.raises(Illegal) as refused:
        GAME.act(state, "cat", "tokens", HostTokens(participant="cat", tokens=[1, 1, 1]), 0)
    assert [r.code for r in refused.value.reasons] == ["host_only"]


@pytest.mark.parametrize(
    ("actor", "to", "code"),
    [
        ("ann", "gus", None),
        ("gia", "bob", None),
        ("ann", "bob", "transfer_between"),
        ("gia", "gus", "transfer_between"),
    ],
)
def test_transfers_go_between_a_player_and_any_guest(actor, to, code):
    if code is None:
        acted = GAME.act(fresh(), actor, "transfer", Transfer(to=to, garnets=2), 0)
        assert acted.garnets == {actor: -2, to: 2}
    else:
        with pytest.raises(Illegal) as refused:
            GAME.act(fresh(), actor, "transfer", Transfer(to=to, garnets=2), 0)
        assert [r.code for r in refused.value.reasons] == [code]


def test_a_peek_costs_1_garnet_and_answers_the_three_tokens_of_a_resolved_round():
    state = solved(fresh(), "bob", 3_000, 4_000, 5_000)
    with pytest.raises(Illegal) as refused:
        GAME.act(state, "ann", "peek", Peek(participant="bob", round=1), 0)
    assert [r.code for r in refused.value.reasons] == ["round_not_puzzled"]
    state = GAME.resolve(state, Resolution({}, random.Random(0)))
    acted = GAME.act(state, "ann", "peek", Peek(participant="bob", round=1), 0)
    assert (acted.answer["tokens"], acted.garnets) == ([3, 4, 5], {"ann": -1})
    assert GAME.view(acted.state, "ann")["private"]["peeks"] == [
        {"participant": "bob", "round": 1, "tokens": [3, 4, 5]}
    ]
    assert GAME.view(acted.state, "bob")["private"]["peeks"] == [], "the answer is the buyer's alone"


# -- puzzles --------------------------------------------------------------------------------

try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    pytest.skip("hypothesis is needed", allow_module_level=True)


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(["gyul_hap", "target", "differences"]), seed=st.integers(0, 2**32 - 1))
def test_a_generated_puzzle_accepts_its_answer_and_refuses_a_wrong_one(kind, seed):
    sent = puzzle(kind, seed)
    answer = solve({"type": kind, "data": sent.data})
    assert is_correct(kind, seed, answer)
    wrong = {"gyul_hap": "GYUL", "target": "1+1", "differences": "A1"}[kind]
    assert not is_correct(kind, seed, wrong) or wrong == answer
    assert not is_correct(kind, seed, answer + " 1")


# -- the result -------------------------------------------------------------------------------


def finished(round_scores: list[dict[str, int]], lot: list[str] | None = None) -> ClubsState:
    """A finished match whose teams scored these totals at the end of rounds 1-7 (all on the
    player; guests 0)."""
    state = fresh(lot=lot)
    rounds = [
        r.model_copy(update={"scores": scores | {g: 0 for g in ("gia", "gus", "gil")}})
        for r, scores in zip(state.rounds, round_scores, strict=True)
    ]
    return state.model_copy(update={"rounds": rounds, "phase": 9, "lot": lot or ["ann", "bob", "cat"]})


@pytest.mark.parametrize(
    ("round_scores", "order", "garnets"),
    [
        # No tie: by the final scores; garnets floor(score / 15).
        ([{"ann": 0, "bob": 0, "cat": 0}] * 6 + [{"ann": 44, "bob": 45, "cat": 14}], ["bob", "ann", "cat"], [3, 2, 0]),
        # ann and bob tie at 30; round 6 ann 20 bob 25: bob ahead.
        (
            [{"ann": 0, "bob": 0, "cat": 0}] * 5
            + [{"ann": 20, "bob": 25, "cat": 0}, {"ann": 30, "bob": 30, "cat": 10}],
            ["bob", "ann", "cat"],
            [2, 2, 0],
        ),
        # All three tie at 30; round 6 all equal; round 5: cat 9, ann 5, bob 5; round 4: ann 3, bob 1.
        (
            [{"ann": 0, "bob": 0, "cat": 0}] * 3
            + [
                {"ann": 3, "bob": 1, "cat": 0},
                {"ann": 5, "bob": 5, "cat": 9},
                {"ann": 20, "bob": 20, "cat": 20},
                {"ann": 30, "bob": 30, "cat": 30},
            ],
            ["cat", "ann", "bob"],
            [2, 2, 2],
        ),
    ],
)
def test_tied_teams_are_ordered_by_the_latest_round_end_at_which_they_differed(round_scores, order, garnets):
    result = GAME.result(finished(round_scores))
    assert [s.player for s in result.standings] == order
    assert [result.garnets[p] for p in order] == garnets
    assert (result.tol, result.ec) == ((order[0],), tuple(order[1:]))
    assert result.details["death_match_opponent"] == order[1]


def test_tied_at_every_round_end_the_lot_decides():
    result = GAME.result(finished([{"ann": 5, "bob": 5, "cat": 5}] * 7, lot=["cat", "ann", "bob"]))
    assert [s.player for s in result.standings] == ["cat", "ann", "bob"]
    assert result.details["lot_decided"] is True


def test_team_score_is_player_plus_guest():
    state = finished([{"ann": 0, "bob": 0, "cat": 0}] * 7)
    rounds = list(state.rounds)
    rounds[6] = rounds[6].model_copy(
        update={"scores": {"ann": 10, "gia": 20, "bob": 31, "gus": -1, "cat": 0, "gil": 0}}
    )
    result = GAME.result(state.model_copy(update={"rounds": rounds}))
    assert result.details["team_scores"] == {"ann": 30, "bob": 30, "cat": 0}
    assert result.garnets == {"ann": 2, "bob": 2, "cat": 0}
