"""A whole Phase A of Puzzler's Clubs through the webhook's actions route, on the stack's virtual
clock: the service sends each puzzle when it is asked for and times it; a Club Token is the whole
seconds from sending to the first correct answer, at least 1 and at most 1800; a wrong answer is
told it is wrong and the clock keeps running; a puzzle never asked, or never solved, when Phase A
resolves gives 1800 (issue 12, rulings `clubs`: Puzzles)."""

from __future__ import annotations

import pytest
from clubs_match import ClubsMatch

from local_stack.bots.clubs import solve

pytestmark = pytest.mark.games("clubs")

WRONG = "GYUL"
"""Wrong for every puzzle of round 1 (Gyul Hap: each is made with at least one hap to name)."""


def test_a_whole_phase_a_through_the_webhook_gives_the_tokens_timed_by_the_service(stack) -> None:
    match = ClubsMatch.create(stack)

    def ask(participant: str, puzzle: int) -> dict:
        reply = match.act(participant, "puzzle", {"puzzle": puzzle})
        assert reply["accepted"], reply
        return reply["answer"]

    def answer(participant: str, puzzle: int, text: str) -> dict:
        reply = match.act(participant, "answer", {"puzzle": puzzle, "answer": text})
        assert reply["accepted"], reply
        return reply["answer"]

    # t = 0: p1 asks for puzzle 1; p2 asks for all three.
    p1_first = ask("p1", 1)
    assert p1_first["type"] == "gyul_hap"  # round 1 of the rotation
    p2_puzzles = [ask("p2", n) for n in (1, 2, 3)]

    # t = 0.4: p2 solves puzzle 2 in 0.4 s: 0 whole seconds, raised to the least token, 1.
    stack.advance(0.4)
    assert answer("p2", 2, solve(p2_puzzles[1])) == {"round": 1, "puzzle": 2, "correct": True, "token": 1}

    # t = 40: p1's fast solve of puzzle 1, 40 s after it was sent; p1 asks for puzzles 2 and 3.
    stack.advance(39.6)
    assert answer("p1", 1, solve(p1_first))["token"] == 40
    p1_second, p1_third = ask("p1", 2), ask("p1", 3)

    # t = 50: a wrong answer to puzzle 3 is told wrong; t = 70: right, 70 - 40 = 30 s from the
    # first send (the clock kept running through the wrong answer).
    stack.advance(10)
    assert answer("p1", 3, WRONG) == {
        "round": 1,
        "puzzle": 3,
        "correct": False,
        "message": "wrong: the clock keeps running",
    }
    stack.advance(20)
    assert answer("p1", 3, solve(p1_third))["token"] == 30

    # t = 725.9: p1's slow solve of puzzle 2, sent at t = 40: 685.9 s, whole seconds 685.
    stack.advance(655.9)
    assert answer("p1", 2, solve(p1_second))["token"] == 685

    # t = 2725.9: p2 solves puzzle 3, sent at t = 0, after 2725.9 s: capped at 1800.
    stack.advance(2000)
    assert answer("p2", 3, solve(p2_puzzles[2]))["token"] == 1800

    # Everyone gets the same three puzzles in a round.
    assert [p1_first["text"], p1_second["text"], p1_third["text"]] == [p["text"] for p in p2_puzzles]

    # Phase A resolves: p2's puzzle 1, asked but never solved, gives 1800; so does every puzzle of
    # the guests and of p3, who never asked.
    match.resolve_now()
    tokens = {p: match.standing(p)["view"]["private"]["tokens"] for p in ("p1", "p1g1", "p2", "p2g1", "p3", "p3g1")}
    never_asked = {"1.1": 1800, "1.2": 1800, "1.3": 1800}
    assert tokens == {
        "p1": {"1.1": 40, "1.2": 685, "1.3": 30},
        "p1g1": never_asked,
        "p2": {"1.1": 1800, "1.2": 1, "1.3": 1800},
        "p2g1": never_asked,
        "p3": never_asked,
        "p3g1": never_asked,
    }


def test_a_puzzle_is_answered_only_after_it_is_asked_for(stack) -> None:
    match = ClubsMatch.create(stack)

    unasked = match.act("p1", "answer", {"puzzle": 1, "answer": WRONG})
    assert (unasked["accepted"], [r["code"] for r in unasked["reasons"]]) == (False, ["puzzle_not_sent"])

    # Nothing about a puzzle reaches anyone who has not asked for it: the views name its state only.
    match.act("p1", "puzzle", {"puzzle": 1})
    assert match.standing("p1")["view"]["private"]["puzzles"] == {"1": "sent", "2": "not asked", "3": "not asked"}
    assert match.standing("p2")["view"]["private"]["puzzles"] == {"1": "not asked", "2": "not asked", "3": "not asked"}
