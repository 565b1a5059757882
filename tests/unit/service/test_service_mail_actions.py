"""Immediate actions by e-mail on the fakes (Puzzler's Clubs): a puzzle asked for, answered, garnets
given and a peek bought by mail are taken through the same use case as the webhook's actions, once
a message however often it is delivered, and answered to the sender alone."""

from __future__ import annotations

from typing import Any

import pytest
from fakes import Fakes
from test_service_mail_in import message, receipt

from game_core.games.clubs.models import ClubsState
from game_core.games.clubs.puzzles import puzzle
from game_core.mail.inbound import parse_message
from game_core.match.model import MatchRequest
from game_core.service.mail.receive import Outcome, receive
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import create_match
from local_stack.bots.clubs import solve

MID = "m-000000000001"
HOUR = 3600
PLAYERS = ("p1", "p2", "p3")
EMAILS = {participant: f"{participant}@example.com" for p in PLAYERS for participant in (p, f"{p}g1")}
NEVER_RIGHT = "A1"
"""Wrong for every puzzle type: no Gyul Hap answer (it ends GYUL), no expression, and never every
differing cell (a puzzle has 3 to 6)."""


def clubs_match(garnets: int = 10) -> Fakes:
    """Three players, each with a guest, every one with an address; Phase 1A open (an hour from
    12:00), every player holding `garnets`; the mail sent on creation cleared."""
    fakes = Fakes()
    players = [
        {"id": p, "email": EMAILS[p], "garnets": garnets, "guests": [{"id": f"{p}g1", "email": EMAILS[f"{p}g1"]}]}
        for p in PLAYERS
    ]
    request = {"game": "clubs", "players": players, "phase_seconds": HOUR, "seed": 7}
    create_match(fakes.ports, MatchRequest.model_validate(request))
    fakes.mailer.sent.clear()
    return fakes


def mail(fakes: Fakes, sender: str, text: str, message_id: str | None = None) -> Outcome:
    return receive(fakes.ports, receipt(message(EMAILS[sender], text, message_id=message_id)))


def state(fakes: Fakes) -> ClubsState:
    return ClubsState.model_validate(fakes.store.get(MID).state)


def sent_puzzle(fakes: Fakes, number: int) -> dict[str, Any]:
    """Puzzle `number` of round 1 as the service sends it (its type and data, for `solve`)."""
    round_one = state(fakes).rounds[0]
    sent = puzzle(round_one.puzzle_type, round_one.puzzle_seeds[number - 1])
    return {"type": round_one.puzzle_type, "data": sent.data, "text": sent.text}


def the_answer_to(fakes: Fakes, participant: str) -> str:
    """The text of the one mail sent, an answer to `participant`'s message."""
    [sent] = fakes.mailer.sent
    assert sent.to == EMAILS[participant]
    letter = parse_message(sent.raw)
    assert letter.in_reply_to
    return letter.text


def test_a_puzzle_asked_by_mail_starts_its_clock_and_the_answer_carries_the_puzzle() -> None:
    fakes = clubs_match()
    fakes.clock.advance(60)

    assert mail(fakes, "p1", "puzzle 2") is Outcome.ANSWERED

    clocks = state(fakes).rounds[0].clocks
    assert clocks["p1"]["2"].sent_ms == int(fakes.clock.now().timestamp() * 1000)
    text = the_answer_to(fakes, "p1")
    assert "Done: PUZZLE 2\n  Round 1, puzzle 2:\n" in text
    assert "\n".join("  " + line for line in sent_puzzle(fakes, 2)["text"]) in text
    assert "Answer: ANSWER 2 <your answer>" in text
    [event] = [e for e in fakes.store.events(MID) if e.type == "action_taken"]
    assert event.data["channel"] == "email"


def test_a_right_answer_by_mail_gives_the_token_in_seconds_from_the_first_sending() -> None:
    # Sent at 12:00:00, sent again at 12:00:30 (its clock runs on), answered right at 12:01:35.5:
    # 95.5 seconds from the first sending, in whole seconds 95.
    fakes = clubs_match()
    mail(fakes, "p1", "PUZZLE 1", message_id="<ask@example.com>")
    fakes.clock.advance(30)
    mail(fakes, "p1", "PUZZLE 1", message_id="<again@example.com>")
    fakes.clock.advance(65.5)
    fakes.mailer.sent.clear()

    mail(fakes, "p1", f"ANSWER 1 {solve(sent_puzzle(fakes, 1))}", message_id="<answer@example.com>")

    assert "Right: puzzle 1 is solved. Your token 1.1 is 95 seconds." in the_answer_to(fakes, "p1")
    assert state(fakes).rounds[0].clocks["p1"]["1"].solved_ms is not None


def test_a_wrong_answer_by_mail_is_told_wrong_and_one_before_asking_is_refused() -> None:
    fakes = clubs_match()
    mail(fakes, "p1", f"PUZZLE 1\nANSWER 1 {NEVER_RIGHT}\nANSWER 3 {NEVER_RIGHT}")

    text = the_answer_to(fakes, "p1")
    assert "Done: ANSWER 1 A1\n  Wrong: puzzle 1 is not solved; its clock keeps running." in text
    assert "Not done: your answer.\n  - ask for puzzle 3 before answering it" in text
    assert state(fakes).rounds[0].clocks["p1"]["1"].wrong == 1


def test_a_transfer_by_mail_moves_the_garnets_and_tells_the_giver_what_they_hold() -> None:
    fakes = clubs_match(garnets=10)

    mail(fakes, "p1", "give 3 to P1G1")

    assert fakes.store.purses(MID)["p1g1"] == 3
    assert fakes.store.garnets("p1") == (7, 7)
    assert the_answer_to(fakes, "p1").split("\n")[2:5] == [
        "Done: GIVE 3 TO p1g1",
        "  You gave 3 garnets to p1g1.",
        "  Your garnets: 7.",
    ]


def test_a_peek_by_mail_is_answered_to_the_buyer_alone() -> None:
    fakes = clubs_match()
    fakes.clock.set(fakes.store.get(MID).phase.deadline)  # type: ignore[union-attr]
    phases.resolve(fakes.ports, MID, 1)
    phases.announce(fakes.ports, MID, 1)
    fakes.mailer.sent.clear()

    mail(fakes, "p1", "PEEK p2 ROUND 1")

    assert [mail.to for mail in fakes.mailer.sent] == [EMAILS["p1"]]
    text = the_answer_to(fakes, "p1")
    assert "Done: PEEK p2 ROUND 1\n  p2's tokens of round 1: 1.1: 1800 s, 1.2: 1800 s, 1.3: 1800 s." in text
    assert "\n  Your garnets: 9.\n" in text
    assert [peek.participant for peek in state(fakes).peeks["p1"]] == ["p2"]


@pytest.mark.parametrize("answer_lost", [False, True], ids=["answered", "answer-lost"])
def test_a_redelivered_mail_applies_no_action_twice_and_is_answered_once(answer_lost: bool) -> None:
    fakes = clubs_match(garnets=10)
    raw = message(EMAILS["p1"], "PUZZLE 1\nGIVE 2 TO p2g1")
    if answer_lost:  # SES fails once the actions are stored: the retry answers from their replies

        def unavailable(_mail: object) -> None:
            raise RuntimeError("SES is unavailable")

        working, fakes.mailer.send = fakes.mailer.send, unavailable  # type: ignore[method-assign]
        with pytest.raises(RuntimeError):
            receive(fakes.ports, receipt(raw))
        fakes.mailer.send = working  # type: ignore[method-assign]
        fakes.clock.advance(10)

    outcomes = [receive(fakes.ports, receipt(raw)) for _ in range(2)]

    assert outcomes == [Outcome.ANSWERED, Outcome.REDELIVERED]
    assert len(fakes.store.actions(MID, 1)) == 2
    assert fakes.store.purses(MID)["p2g1"] == 2
    assert state(fakes).rounds[0].clocks["p1"]["1"].sent_ms == int(fakes.store.get(MID).created_at.timestamp() * 1000)
    text = the_answer_to(fakes, "p1")
    assert "Done: PUZZLE 1" in text
    assert "Done: GIVE 2 TO p2g1" in text


def test_help_and_the_notice_name_the_actions_the_phase_allows() -> None:
    fakes = clubs_match()

    mail(fakes, "p1g1", "HELP")

    text = the_answer_to(fakes, "p1g1")
    assert "Actions are taken at once, a line each, and answered to you alone:" in text
    # The examples name a participant of this match: the first other than the reader, p1 (p1's
    # name is their id: the settings file gives none), and in 1A a peek of round 1, the only one
    for line in ("PUZZLE 2", "ANSWER 2 (75-5)*3+1", "GIVE 3 TO p1", "PEEK p1 ROUND 1"):
        assert f"  {line}\n" in text
