"""Garnets exactly once: a submission holds what it would spend, so one garnet never backs two
moves anywhere; a resolution writes each balance once, with the net change.

Pushing Crates (seed text 001, RULINGS `crates`): a round of p > 3 pushes spends p - 3 garnets;
ice moves a crate 3 steps a push; a round scores each multiple of 5 crossed or met, times that
round's multiplier; the award at the end is floor(points / 3)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import push, texts
from staging import StagedStore

from game_core.errors import Illegal
from game_core.service.matches.submit import SubmissionRequest, submit

LISTED = [-1, -1, 0, 1, 1, 2]  # round 6 gets x2
FOUR_PUSHES_NEED_ONE = "4 pushes need 1 garnet (one per push beyond the free 3), but your balance is 0"


def _purse(match, player):
    """(balance, available) as the garnet item holds them."""
    item = match.stack.client("dynamodb").get_item(
        TableName="matches", Key={"pk": {"S": f"PLAYER#{player}"}, "sk": {"S": "GARNETS"}}
    )["Item"]
    return int(item["balance"]["N"]), int(item["available"]["N"])


def _two_matches_at_round_1(crates_match):
    """ana holds 1 garnet and plays two matches at once, both at Round 1."""
    first = crates_match(["ana", "ben"], garnets={"ana": 1})
    second = crates_match(["ana", "cy"])
    for match in (first, second):
        match.resolve_now()
    return first, second


def test_a_garnet_held_by_one_match_cannot_back_a_move_in_another(crates_match) -> None:
    first, second = _two_matches_at_round_1(crates_match)

    # ana's 4 pushes in the first match hold her one garnet...
    assert first.turn("ana", "Round 1", push("ana", times=4), "ice")[:1] == (200,)
    assert _purse(first, "ana") == (1, 0)
    # ...so the same 4 pushes in the second match are refused, and nothing is stored there
    code, reply = second.turn("ana", "Round 1", push("ana", times=4), "ice")
    assert (code, reply["error"]) == (422, "Illegal")
    assert FOUR_PUSHES_NEED_ONE in texts(reply["reasons"])
    assert second.stored_submissions(2) == {}

    # Replacing the first match's move by a free one gives the garnet back; the second may use it
    assert first.turn("ana", "Round 1", push("ana", times=3), "ice")[0] == 200
    assert _purse(first, "ana") == (1, 1)
    assert second.turn("ana", "Round 1", push("ana", times=4), "ice")[0] == 200
    code, reply = first.turn("ana", "Round 1", push("ana", times=4), "ice")
    assert (code, FOUR_PUSHES_NEED_ONE in texts(reply["reasons"])) == (422, True)

    # Both rounds resolve: the garnet was spent once, by the second match, where it was held
    first.resolve_now()
    second.resolve_now()
    assert _purse(first, "ana") == (0, 0)
    (spent,) = [e.data["garnets_spent"] for e in second.events("phase_resolved") if e.data["number"] == 2]
    assert spent == {"ana": 1}
    assert [e.data["garnets_spent"] for e in first.events("phase_resolved") if e.data["number"] == 2] == [{}]


def test_two_submissions_racing_for_one_garnet_cannot_both_hold_it(crates_match) -> None:
    # Given ana's move in the second match reads her balance (1 free) and is found legal...
    first, second = _two_matches_at_round_1(crates_match)
    ports = first.ports

    def ana_moves_in(match):
        body = {"pushes": push("ana", times=4), "ground": "stone"}
        return SubmissionRequest(match.match_id, "ana", "Round 1", "round", body, channel="webhook")

    # ...when her move in the first match takes the garnet just before the second one is stored
    staged = StagedStore(ports.store, "put_submission", lambda: submit(ports, ana_moves_in(first)))
    with pytest.raises(Illegal) as refused:
        submit(replace(ports, store=staged), ana_moves_in(second))

    # Then the second is refused for the garnet, and only the first holds it
    assert "more than your balance has free now" in refused.value.reasons[0].text
    assert second.stored_submissions(2) == {}
    assert list(first.stored_submissions(2)) == ["ana"]
    assert _purse(first, "ana") == (1, 0)


def test_cancelling_a_match_gives_back_what_its_open_phase_held(crates_match) -> None:
    first, second = _two_matches_at_round_1(crates_match)
    assert first.turn("ana", "Round 1", push("ana", times=4), "stone")[0] == 200
    assert first.host("cancel")["ok"]
    assert _purse(first, "ana") == (1, 1)
    assert second.turn("ana", "Round 1", push("ana", times=4), "stone")[0] == 200


def test_garnets_spent_in_the_last_round_and_an_award_are_one_net_change(crates_match) -> None:
    # Given ana (1 garnet) gives round 6 the x2 multiplier
    match = crates_match(["ana", "ben"], garnets={"ana": 1})
    assert match.multipliers("ana", LISTED)[0] == 200
    for _round in range(6):  # the pregame and rounds 1-5: nobody moves
        match.resolve_now()

    # When in round 6 she pushes her own crate 4 times on ice (1 garnet): 4 x 3 = 12 steps from 0,
    # crossing 5 and 10: 2 points x 2 = 4 points, and floor(4 / 3) = 1 garnet awarded
    code, reply = match.turn("ana", "Round 6", push("ana", times=4), "ice")
    assert (code, reply["garnet_cost"]) == (200, 1)
    status = match.resolve_now()

    # Then the match finishes (the machine does not fail on its last phase) and her balance is
    # 1 - 1 + 1 = 1, with both ledger lines
    assert status["status"] == "finished"
    assert status["result"]["garnets"] == {"ana": 1, "ben": 0}
    assert match.wait_for_execution() == "SUCCEEDED"
    assert _purse(match, "ana") == (1, 1)
