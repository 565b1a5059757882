"""Puzzler's Clubs' garnet actions racing on the local stack: transfers and peeks from two
teammates never take a holding below zero and never spend one garnet twice, whichever lands first
(the races staged as in staging.py, and sent at once from threads); a peek's answer reaches its
buyer alone (rulings `clubs`: Peek, and garnets moved between a player and any guest)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from clubs_match import PLAYERS, ClubsMatch
from staging import StagedStore

from game_core.errors import Illegal
from game_core.games.clubs.cards import is_club
from game_core.service.matches.actions import ActionRequest, take_action

pytestmark = pytest.mark.games("clubs")

PEEK_AT_P2 = {"participant": "p2", "round": 1}
"""A peek at p2's tokens of round 1 (fixed once Phase 1A resolved): 1 garnet."""
PARTICIPANTS = [p for player in PLAYERS for p in (player, f"{player}g1")]


def garnets(match: ClubsMatch, participant: str) -> tuple[int, int]:
    """(balance, available) of a participant's holding: a player's, or a guest's purse."""
    held = match.standing(participant)["garnets"]
    return held["balance"], held["available"]


def in_round_two(stack, garnets: dict[str, int]) -> ClubsMatch:
    """A match whose phase 2A+1B is open: round 1's tokens (all 1800, nobody puzzled) are fixed."""
    match = ClubsMatch.create(stack, garnets)
    match.resolve_now()
    assert match.standing("p1")["open"]["phase"] == "2A+1B"
    return match


def transfer_staged_against(match: ClubsMatch, sender: str, to: str, amount: int, other) -> None:
    """`sender`'s transfer, read and judged, with `other` landing just before it is stored."""
    ports = match.stack.ports()
    staged = replace(ports, store=StagedStore(ports.store, "put_action", other))
    take_action(staged, ActionRequest(match.match_id, sender, "transfer", {"to": to, "garnets": amount}, "webhook"))


@pytest.mark.parametrize(
    ("sender", "to"),
    [("p1", "p1g1"), ("p1g1", "p1")],
    ids=["the player's transfer to their guest", "the guest's transfer back"],
)
def test_a_peek_landing_first_leaves_a_transfer_of_the_same_garnet_refused(stack, sender, to) -> None:
    # Given the sender holds 1 garnet (the guest's given by p1, who had 1)
    match = in_round_two(stack, {"p1": 1})
    if sender == "p1g1":
        assert match.act("p1", "transfer", {"to": "p1g1", "garnets": 1})["accepted"]
    assert garnets(match, sender) == (1, 1)

    def peek() -> None:
        assert match.act(sender, "peek", PEEK_AT_P2)["accepted"]

    # When the sender's transfer of it has read the match, and the sender's peek is stored first
    with pytest.raises(Illegal) as refused:
        transfer_staged_against(match, sender, to, 1, peek)

    # Then the transfer, read again, finds 1 - 1 = 0 left: the garnet was spent once, on the peek
    assert [reason.code for reason in refused.value.reasons] == ["garnets_short"]
    assert (garnets(match, "p1"), garnets(match, "p1g1")) == ((0, 0), (0, 0))
    assert [peek["participant"] for peek in match.standing(sender)["view"]["private"]["peeks"]] == ["p2"]


def submit_lowering_draft(match: ClubsMatch, participant: str) -> None:
    """`participant` drafts six spades of round 2, lowering priority 1: 2 garnets held until the
    phase resolves."""
    shown = match.standing(participant)["view"]["public"]["rounds"][1]
    public = {shown["community"], *shown["holes"].values()}
    six = [card for card in ("AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S") if card not in public][:6]
    assert not any(map(is_club, six))
    lowering = {"picks": [{"card": card, "priority": n} for n, card in enumerate(six, start=1)], "lowered": [1]}
    status, reply = match.stack.submit(
        match.match_id,
        participant,
        match.secrets[participant],
        {"phase": "2A+1B", "kind": "draft", "submission": lowering},
    )
    assert (status, reply["garnet_cost"]) == (200, 2), reply


def test_a_garnet_held_by_a_draft_stored_meanwhile_cannot_be_transferred(stack) -> None:
    # Given p1 holds 2 garnets, and round 2's draft is open
    match = in_round_two(stack, {"p1": 2})

    # When p1's transfer of both garnets has read them free, and the draft holding them lands first
    # (a submission leaves the match's version alone: the holding's own condition refuses)
    with pytest.raises(Illegal) as refused:
        transfer_staged_against(match, "p1", "p1g1", 2, lambda: submit_lowering_draft(match, "p1"))

    # Then the transfer is refused; p1 still owns 2, none free (the draft holds them); the guest has 0
    assert [reason.code for reason in refused.value.reasons] == ["garnets_short"]
    assert (garnets(match, "p1"), garnets(match, "p1g1")) == ((2, 0), (0, 0))


def test_cancelling_the_match_gives_each_guests_garnets_back_to_their_player(stack) -> None:
    # Given p1 (3 garnets) gave their guest 2, which the guest's draft now holds, and p2 (1) gave
    # theirs to p3's guest
    match = in_round_two(stack, {"p1": 3, "p2": 1})
    assert match.act("p1", "transfer", {"to": "p1g1", "garnets": 2})["accepted"]
    assert match.act("p2", "transfer", {"to": "p3g1", "garnets": 1})["accepted"]
    submit_lowering_draft(match, "p1g1")
    assert garnets(match, "p1g1") == (2, 0)

    # When the host cancels the match
    assert match.host("cancel")["ok"]

    # Then the draft's hold is released and every purse is emptied into its guest's own player:
    # p1 1 + 2 = 3, p2 0 (what they gave stays given), p3 0 + 1 = 1; the purses hold nothing
    players = stack.ports().store.balances(PLAYERS)
    assert players == {"p1": 3, "p2": 0, "p3": 1}
    assert stack.ports().store.purses(match.match_id) == {"p1g1": 0, "p2g1": 0, "p3g1": 0}
    assert all(garnets(match, player) == (balance, balance) for player, balance in players.items())


def test_transfers_and_peeks_sent_at_once_by_two_teammates_never_overspend(stack) -> None:
    # Given p1 holds 3 garnets and their guest 2 (given by p1 from 5)
    match = in_round_two(stack, {"p1": 5})
    assert match.act("p1", "transfer", {"to": "p1g1", "garnets": 2})["accepted"]

    # When each sends 4 actions of 1 garnet at once: p1 transfers to their guest and peeks, the
    # guest transfers back and peeks
    sent = [("p1", "transfer", {"to": "p1g1", "garnets": 1}), ("p1", "peek", PEEK_AT_P2)] * 2
    sent += [("p1g1", "transfer", {"to": "p1", "garnets": 1}), ("p1g1", "peek", PEEK_AT_P2)] * 2
    with ThreadPoolExecutor(max_workers=len(sent)) as pool:
        replies = list(pool.map(lambda action: match.act(*action), sent))

    # Then each refusal is a short balance or a match that kept changing, never a holding below
    # zero; the 5 garnets are all still held by the team but for 1 per peek bought
    refusals = {reply["error"] for reply in replies if not reply["accepted"]}
    assert refusals <= {"Illegal", "Conflict"}, replies
    peeks = sum(
        1 for (_sender, kind, _action), reply in zip(sent, replies, strict=True) if kind == "peek" and reply["accepted"]
    )
    (p1_balance, p1_free), (guest_balance, guest_free) = garnets(match, "p1"), garnets(match, "p1g1")
    assert p1_balance == p1_free >= 0 and guest_balance == guest_free >= 0
    assert p1_balance + guest_balance == 5 - peeks
    bought = [match.standing(p)["view"]["private"]["peeks"] for p in ("p1", "p1g1")]
    assert sum(map(len, bought)) == peeks


def test_a_peeks_answer_reaches_the_buyer_alone(stack) -> None:
    # Given every participant's and the public's inboxes, and p3's guest holding 1 garnet
    inbox = stack.subscribe(PARTICIPANTS)
    match = in_round_two(stack, {"p3": 1})
    assert match.act("p3", "transfer", {"to": "p3g1", "garnets": 1})["accepted"]
    for listener in [None, *PARTICIPANTS]:
        inbox.receive(listener)  # what the match's start and phase 1A's resolution published

    # When the guest peeks at p2's round 1
    reply = match.act("p3g1", "peek", PEEK_AT_P2)

    # Then the webhook answers the guest: p2 never puzzled in round 1, so three 1800s
    assert reply["answer"] == {"participant": "p2", "round": 1, "tokens": [1800, 1800, 1800]}
    # nothing is published to the public or to anyone's notices, and the log names no token
    assert {listener: inbox.receive(listener) for listener in [None, *PARTICIPANTS]} == dict.fromkeys(
        [None, *PARTICIPANTS], []
    )
    logged = [event.data for event in stack.ports().store.events(match.match_id)]
    actions = sorted((data for data in logged if data.get("kind") in ("transfer", "peek")), key=lambda d: d["actor"])
    assert actions == [
        {"actor": actor, "phase": "2A+1B", "kind": kind, "channel": "webhook"}
        for actor, kind in (("p3", "transfer"), ("p3g1", "peek"))
    ]
    # and the answer stays in the buyer's view alone
    assert match.standing("p3g1")["view"]["private"]["peeks"] == [reply["answer"]]
    assert all(match.standing(p)["view"]["private"]["peeks"] == [] for p in PARTICIPANTS if p != "p3g1")
