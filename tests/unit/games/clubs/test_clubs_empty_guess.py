"""RULINGS, Guess: a guess of no cards for a participant is no guess for them, and a guessing
submission that guesses for nobody is valid and replaces an earlier one (a player can take their
guesses back). Worked by hand from the rule text."""

from __future__ import annotations

import random

import pytest

from game_core.games.clubs import GAME
from game_core.games.clubs.models import BuildSubmission, ClubsState, GuessSubmission
from game_core.games.protocol import Resolution

PARTICIPANTS = ("ann", "gia", "bob", "gus", "cat", "gil")
DEAL = {"community": "KH", "holes": dict(zip(PARTICIPANTS, ["2H", "3H", "4H", "5H", "6H", "7H"], strict=True))}


def round_one_b() -> ClubsState:
    """Phase 2 (2A+1B) open: nobody drafted in 1A, so each builds from the community KH and their hole."""
    state = GAME.setup(GAME.Settings(deals=[DEAL] * 7), PARTICIPANTS, random.Random(0))
    return GAME.resolve(state, Resolution({}, random.Random(0)))


def scores_after(ann_guess: dict | None) -> dict[str, int]:
    """Round 1's scores when gia builds 3H alone, and ann sends `ann_guess` (None: nothing)."""
    sent: dict = {"gia": {"build": BuildSubmission(cards=["3H"])}}
    if ann_guess is not None:
        guess = GuessSubmission.model_validate(ann_guess)
        assert GAME.check(round_one_b(), "ann", "guess", guess) == []
        sent["ann"] = {"guess": guess}
    return GAME.resolve(round_one_b(), Resolution(sent, random.Random(0))).rounds[0].scores


@pytest.mark.parametrize(
    ("ann_guess", "ann_change", "gia_change"),
    [
        pytest.param({"guesses": []}, 0, 0, id="guessing nobody"),
        pytest.param({}, 0, 0, id="guessing nobody, the field left out"),
        pytest.param({"guesses": [{"participant": "gia", "cards": []}]}, 0, 0, id="no cards for gia"),
        pytest.param({"guesses": [{"participant": "gia"}]}, 0, 0, id="no cards for gia, the field left out"),
        # the control: 3H is gia's one card (+1) and a high card as her hand is (+2): 3 from gia to ann
        pytest.param({"guesses": [{"participant": "gia", "cards": ["3H"]}]}, 3, -3, id="a real guess"),
    ],
)
def test_an_empty_guess_is_valid_and_scores_as_no_guess(ann_guess, ann_change, gia_change):
    unguessed = scores_after(None)
    scores = scores_after(ann_guess)
    assert scores["ann"] - unguessed["ann"] == ann_change
    assert scores["gia"] - unguessed["gia"] == gia_change
    assert {p: scores[p] - unguessed[p] for p in PARTICIPANTS if p not in ("ann", "gia")} == dict.fromkeys(
        ("bob", "gus", "cat", "gil"), 0
    )


def test_no_cards_for_every_other_participant_earns_no_bonus():
    # "No guess for a participant: ... no +10 that round": naming all five with no cards is no guess at all
    everyone = {"guesses": [{"participant": p, "cards": []} for p in PARTICIPANTS if p != "ann"]}
    assert scores_after(everyone)["ann"] == scores_after(None)["ann"]


@pytest.mark.parametrize(
    ("guess", "code"),
    [
        ({"guesses": [{"participant": "ann", "cards": []}]}, "guess_self"),
        ({"guesses": [{"participant": "zed", "cards": []}]}, "not_a_participant"),
    ],
)
def test_a_participant_named_with_no_cards_is_still_checked(guess, code):
    refused = GAME.check(round_one_b(), "ann", "guess", GuessSubmission.model_validate(guess))
    assert [reason.code for reason in refused] == [code]


@pytest.mark.parametrize(
    ("lines", "submission"),
    [
        (["GUESS"], {"guesses": []}),
        (["guess gia"], {"guesses": [{"participant": "gia", "cards": []}]}),
        (
            ["GUESS gia", "GUESS bob AS KS"],
            {"guesses": [{"participant": "gia", "cards": []}, {"participant": "bob", "cards": ["AS", "KS"]}]},
        ),
    ],
)
def test_the_text_grammar_reads_an_empty_guess_and_writes_it_back(lines, submission):
    [move] = GAME.text.read_text(lines, ["build", "guess"], PARTICIPANTS).moves
    assert (move.kind, move.submission) == ("guess", submission)
    written = GAME.text.write_text("guess", GuessSubmission.model_validate(submission))
    assert GAME.text.read_text(written, ["build", "guess"], PARTICIPANTS).moves == [move]
