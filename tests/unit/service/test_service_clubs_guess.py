"""RULINGS, Guess, through the service: a guessing submission that guesses for nobody replaces an
earlier guess, so the earlier guess scores nothing."""

from __future__ import annotations

from test_service_mail_actions import MID, clubs_match, state

from game_core.games.clubs.models import GuessOutcome
from game_core.service.matches import phases
from game_core.service.matches.submit import SubmissionRequest, submit


def guess(fakes, body: dict) -> dict:
    request = SubmissionRequest(MID, "p1", "2A+1B", "guess", body, channel="test")
    return submit(fakes.ports, request)


def test_a_later_guess_of_nobody_replaces_an_earlier_guess_which_then_scores_nothing() -> None:
    fakes = clubs_match()
    fakes.clock.set(fakes.store.get(MID).phase.deadline)  # type: ignore[union-attr]
    phases.resolve(fakes.ports, MID, 1)  # 1A resolves; 2A+1B opens

    assert guess(fakes, {"guesses": [{"participant": "p2", "cards": ["AS", "KS"]}]})["accepted"]
    assert guess(fakes, {"guesses": []})["accepted"]
    assert fakes.store.submissions(MID, 2)["p1"] == {"guess": {"guesses": []}}

    fakes.clock.set(fakes.store.get(MID).phase.deadline)  # type: ignore[union-attr]
    phases.resolve(fakes.ports, MID, 2)
    round_one = state(fakes).rounds[0]
    # nobody else guessed and p1's guess was taken back: no guessing points anywhere, so each
    # participant's round-1 score is their hand's points alone
    assert round_one.guessing == {"p1": GuessOutcome(total=0, bonus=False, against={})}
    assert round_one.scores == round_one.hand_points
