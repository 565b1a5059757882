"""An immediate action sent with a delivery key (a mail's message id and line) on the local stack:
a redelivery racing the first, landing after it read the match, applies nothing twice and gets the
first delivery's reply (DynamoDB's conditional write on the delivery's key)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from clubs_match import ClubsMatch
from staging import StagedStore

from game_core.service.matches.actions import ActionRequest, take_action

pytestmark = pytest.mark.games("clubs")

DELIVERY = "ses-0001#0"


def test_a_redelivery_racing_the_first_applies_the_action_once_and_answers_with_its_reply(stack) -> None:
    match = ClubsMatch.create(stack, {"p1": 5})
    request = ActionRequest(match.match_id, "p1", "transfer", {"to": "p1g1", "garnets": 2}, "email")
    ports = stack.ports()
    first: dict[str, Any] = {}

    def first_delivery_lands() -> None:
        first.update(take_action(ports, request, DELIVERY))

    # The redelivery reads the match, then the first delivery is stored before the redelivery is:
    # its write is refused on the delivery's key, and it reads the first reply stored there.
    looked_up: list[str] = []
    racing = StagedStore(ports.store, "put_action", first_delivery_lands)
    again = take_action(
        replace(ports, store=StagedStore(racing, "delivered", lambda: looked_up.append(DELIVERY))), request, DELIVERY
    )

    assert looked_up == [DELIVERY]
    assert again == first
    assert first["garnets"] == {"balance": 3, "available": 3}
    assert match.standing("p1g1")["garnets"]["balance"] == 2
    assert len(ports.store.actions(match.match_id, 1)) == 1
    assert take_action(ports, request, DELIVERY) == first
