"""Who owes what, through the use cases (in-memory fakes): a phase in which some participant owes
nothing closes early once the others have sent what they owe, and no notice names the one who
owed nothing; reminders, STATUS, the standing and the host's status give the same answer.

Crates, Abstrac and Clubs have no phase in which a participant who can act owes nothing but
others owe something (Crates and Clubs wait for everyone; Abstrac's one mover closes its phase):
tests/unit/match/test_who_owes.py covers their early close."""

from __future__ import annotations

from typing import Any

import pytest
from fakes import Fakes

from game_core.mail.inbound import parse_message
from game_core.match.model import MatchRequest
from game_core.service.host import powers as host
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import create_match, match_status
from game_core.service.matches.submit import SubmissionRequest, submit
from game_core.service.matches.views import standing

DAY = 86_400
NOBODY_BIDS = {"bid": {}}


def open_match(fakes: Fakes, game: str, players: tuple[str, ...], **settings: Any) -> str:
    request = MatchRequest.model_validate(
        {
            "game": game,
            "settings": settings,
            "players": [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in players],
            "phase_seconds": DAY,
            "early_close": True,
            "seed": 11,
        }
    )
    return create_match(fakes.ports, request)["match_id"]


def play(fakes: Fakes, match_id: str, moves: dict[str, dict[str, Any]]) -> None:
    """Send every participant's moves to the open phase; the machine then looks (no time passes)."""
    phase = fakes.store.get(match_id).phase
    for player, kinds in moves.items():
        for kind, body in kinds.items():
            submit(fakes.ports, SubmissionRequest(match_id, player, phase.name, kind, body, "test"))
    phases.advance(fakes.ports, match_id)


def texts_since(fakes: Fakes, since: int) -> dict[str, str]:
    return {mail.to: parse_message(mail.raw).text for mail in fakes.mailer.sent[since:]}


def domino_placing_3(fakes: Fakes) -> str:
    # Auctions 1 and 2: nobody bids, so nobody wins a tile; auction 3: ann bids 5 chips on tile 41
    # (the only amount on it: hers). Placing 3 then waits for ann's placement alone.
    match_id = open_match(fakes, "domino", ("ann", "ben", "cat"))
    for _auction in (1, 2):
        play(fakes, match_id, {p: NOBODY_BIDS for p in ("ann", "ben", "cat")})
    play(
        fakes, match_id, {"ann": {"bid": {"bids": [{"tile": 41, "chips": 5}]}}, "ben": NOBODY_BIDS, "cat": NOBODY_BIDS}
    )
    return match_id


def palindrome_final_construction(fakes: Fakes) -> str:
    # mm5, five rounds: nobody bids until round 5, where ann puts card 9 on pack 1 (hers: nobody
    # else played on it). "Round 5 construction" then waits for ann's construction alone.
    match_id = open_match(fakes, "palindrome", ("ann", "ben", "cat"), rule_set="mm5")
    for _round in range(4):
        play(fakes, match_id, {p: {"bid": {}} for p in ("ann", "ben", "cat")})
    ann_bids = {"bid": {"cards": [{"card": 9, "pack": 1}]}}
    play(fakes, match_id, {"ann": ann_bids, "ben": {"bid": {}}, "cat": {"bid": {}}})
    return match_id


@pytest.mark.parametrize(
    ("setup", "phase", "owed", "move"),
    [
        (domino_placing_3, "Placing 3", {"ann": ("place",)}, {"place": {"placements": []}}),
        (palindrome_final_construction, "Round 5 construction", {"ann": ("construction",)}, {"construction": {}}),
    ],
    ids=["domino", "palindrome"],
)
def test_a_phase_closes_early_when_all_who_owe_are_done_and_names_nobody(setup, phase, owed, move) -> None:
    fakes = Fakes()
    match_id = setup(fakes)
    match = fakes.store.get(match_id)
    assert (match.phase.name, match.phase.owes) == (phase, owed)
    resolved_before = match.phases_resolved

    # Ben and Cat owe nothing: the notice told them so, and how to answer is not an invitation
    status = match_status(fakes.ports, match_id)
    assert (status["waiting_for"], status["still_owed"]) == (["ann"], {"ann": list(owed["ann"])})
    ben = standing(fakes.store.submission_view(match_id, "ben", None), "ben")
    assert ben["you_owe"] == [] and ben["open"]["waiting_for"] == ["ann"]

    # When ann sends what she owes, the phase (the match's last) resolves at once
    sent_before = len(fakes.mailer.sent)
    play(fakes, match_id, {"ann": move})
    after = fakes.store.get(match_id)
    assert after.phases_resolved == resolved_before + 1 and after.status == "finished"
    [announcement] = [n for n in fakes.notifier.notices(match_id) if n.recipient is None][-1:]
    assert "did_not_submit" not in announcement.body
    for text in texts_since(fakes, sent_before).values():
        assert "No submission from" not in text


def test_at_the_deadline_only_whoever_owed_and_sent_nothing_is_named() -> None:
    # Domino, placing 3 (ann owes the placement of tile 41; ben and cat owe nothing): nobody sends
    fakes = Fakes()
    match_id = domino_placing_3(fakes)
    sent_before = len(fakes.mailer.sent)
    fakes.clock.advance(DAY)
    phases.advance(fakes.ports, match_id)
    announcement = [n for n in fakes.notifier.notices(match_id) if n.recipient is None][-1]
    assert announcement.body["did_not_submit"] == ["ann"]
    for text in texts_since(fakes, sent_before).values():
        assert "No submission from: Ann." in text


def test_a_reminder_names_what_is_still_owed_and_goes_to_nobody_who_owes_nothing() -> None:
    # Domino, placing 3: at the 12-hour reminder only ann, who owes her placement, is reminded
    fakes = Fakes()
    match_id = domino_placing_3(fakes)
    sent_before = len(fakes.mailer.sent)
    fakes.clock.advance(DAY - 12 * 3600)
    phases.advance(fakes.ports, match_id)
    texts = texts_since(fakes, sent_before)
    assert list(texts) == ["ann@example.org"]
    assert "A reminder: Placing 3 still waits for your place submission." in texts["ann@example.org"]


def test_the_notice_invites_only_those_who_may_send_and_says_what_is_owed() -> None:
    # The notice that opened placing 3: ann is asked for her placement; ben and cat owe nothing,
    # and are told they may still send one (squares may be bought and placed by anyone)
    fakes = Fakes()
    sent_before = len(fakes.mailer.sent)
    domino_placing_3(fakes)
    opening = texts_since(fakes, sent_before)
    assert "To play, reply to this mail with your move for Placing 3:" in opening["ann@example.org"]
    assert "Placing 3 waits for nothing from you, but you may send:" in opening["ben@example.org"]
    assert "To play" not in opening["ben@example.org"]


def test_the_mm8_pregame_notice_invites_no_move() -> None:
    # Palindrome mm8's pregame takes nothing: its opening mail has nothing to answer
    fakes = Fakes()
    open_match(fakes, "palindrome", ("ann", "ben"))
    for text in texts_since(fakes, 0).values():
        assert "reply to this mail" not in text and "you may send" not in text


@pytest.mark.parametrize("first", ["bid", "place"])
def test_a_participant_owing_two_kinds_is_not_done_after_one(first) -> None:
    # Domino: in auction 1 ann bids 5 chips on tile 1 (the only amount on it: hers). "Auction 2
    # and placing 1" then waits for a bid from everyone and for ann's placement of tile 1 too.
    fakes = Fakes()
    match_id = open_match(fakes, "domino", ("ann", "ben", "cat"))
    play(fakes, match_id, {"ann": {"bid": {"bids": [{"tile": 1, "chips": 5}]}}, "ben": NOBODY_BIDS, "cat": NOBODY_BIDS})
    match = fakes.store.get(match_id)
    assert match.phase.owes == {"ann": ("bid", "place"), "ben": ("bid",), "cat": ("bid",)}
    moves = {"bid": NOBODY_BIDS["bid"], "place": {"placements": []}}
    second = "place" if first == "bid" else "bid"

    # Ben and cat bid, ann sends one of her two kinds: the phase stays open, waiting for her other
    play(fakes, match_id, {"ben": NOBODY_BIDS, "cat": NOBODY_BIDS, "ann": {first: moves[first]}})
    status = match_status(fakes.ports, match_id)
    assert fakes.store.get(match_id).phases_resolved == match.phases_resolved
    assert (status["waiting_for"], status["still_owed"]) == (["ann"], {"ann": [second]})

    # Her other kind makes her done, and the phase resolves at once
    play(fakes, match_id, {"ann": {second: moves[second]}})
    assert fakes.store.get(match_id).phases_resolved == match.phases_resolved + 1


def test_the_cancel_notice_names_no_deadline_and_invites_no_move() -> None:
    # A cancelled match waits for nothing: its notice has no "closes ..." and no "To play"
    fakes = Fakes()
    match_id = open_match(fakes, "crates", ("ann", "ben"))
    sent_before = len(fakes.mailer.sent)
    host.cancel(fakes.ports, match_id)
    texts = texts_since(fakes, sent_before)
    assert sorted(texts) == ["ann@example.org", "ben@example.org"]
    for text in texts.values():
        assert "closes" not in text and "reply to this mail" not in text and "you may send" not in text
    assert match_status(fakes.ports, match_id)["open"] is None
