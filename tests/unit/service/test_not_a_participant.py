"""A sender who is no participant of the match is refused the same way by every use case that
knows its sender by id (`Match.member`): NotFound naming the id and the match, nothing stored."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from crates_driver import Table
from test_service_mail_in import MID, open_table

from game_core.errors import NotFound
from game_core.service.matches.absence import declare, withdraw
from game_core.service.matches.actions import ActionRequest, take_action
from game_core.service.matches.ready import vote

SENDERS: dict[str, Callable[[Table], Any]] = {
    "action": lambda table: take_action(table.ports, ActionRequest(MID, "zed", "absence", {"cancel": True}, "webhook")),
    "ready vote": lambda table: vote(table.ports, MID, "zed", True, "webhook"),
    "absence declared": lambda table: declare(table.ports, MID, "zed", "2026-12-24", "2026-12-27", "webhook"),
    "absence withdrawn": lambda table: withdraw(table.ports, MID, "zed", "webhook"),
    # An immediate action of a kind the game has not: the sender is checked before the kind
    "immediate action": lambda table: take_action(table.ports, ActionRequest(MID, "zed", "tokens", {}, "webhook")),
}


@pytest.mark.parametrize("send", SENDERS.values(), ids=SENDERS)
def test_a_sender_who_is_no_participant_is_refused_by_name(send: Callable[[Table], Any]) -> None:
    table = open_table()
    version = table.match().version
    with pytest.raises(NotFound) as refused:
        send(table)
    assert refused.value.message == f"zed is not a participant of match {MID}"
    assert table.match().version == version  # nothing stored


def test_member_returns_the_participant() -> None:
    match = open_table().match()
    assert match.member("bo").id == "bo"
    with pytest.raises(NotFound, match=f"^Bo is not a participant of match {MID}$"):
        match.member("Bo")  # an id, exactly: a name is `named`'s to read
