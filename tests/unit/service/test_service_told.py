"""Each notice is told once: its id is made from what it announces (the same on every retry of
the step, no other notice's), its mail's Message-ID from that id, and a step retried after a
fault tells only what the failed attempt did not (`telling.tell`)."""

from __future__ import annotations

import hashlib
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from crates_driver import HOUR, PHASES, Table
from fakes import Fakes, MemoryStore

from game_core.errors import Conflict
from game_core.games import registry
from game_core.mail.addresses import phase_answered
from game_core.mail.inbound import parse_message
from game_core.service.host import powers as host
from game_core.service.matches import phases, press
from game_core.service.telling.notices import progress_notices, resolution

MID = "m-000000000001"
EMAILS = {"ada": "ada@example.com", "bo": "bo@example.com"}


class FlakyStore(MemoryStore):
    """A memory store whose named writes fail their next `failing[name]` calls (a throttle)."""

    def __init__(self, **failing: int) -> None:
        super().__init__()
        self.failing = Counter(failing)
        self.calls: Counter[str] = Counter()

    def _call(self, name: str) -> None:
        self.calls[name] += 1
        if self.failing[name] > 0:
            self.failing[name] -= 1
            raise RuntimeError(f"{name} failed (a throttle)")

    def mark_announced(self, match_id: str, number: int) -> None:
        self._call("mark_announced")
        super().mark_announced(match_id, number)

    def remember_told(self, match_id: str, keys: frozenset[str]) -> None:
        self._call("remember_told")
        super().remember_told(match_id, keys)


def table_with_mail(store: MemoryStore | None = None, **options: Any) -> Table:
    """Ada and Bo, both with an address; Pregame's deadline passed and resolved, not announced."""
    table = Table.open(Fakes(store=store or MemoryStore()), emails=EMAILS, **options)
    table.resolve_at_deadline(announce=False)
    table.fakes.notifier.published.clear()
    table.fakes.mailer.sent.clear()
    return table


def ids(table: Table) -> list[str]:
    return [notice.notice_id for notice in table.fakes.notifier.notices()]


def message_ids(table: Table) -> dict[str, str]:
    return {mail.to: parse_message(mail.raw).message_id for mail in table.fakes.mailer.sent}


# -- the ids -----------------------------------------------------------------------------------


def test_each_notice_id_names_the_match_the_occasion_and_the_recipient() -> None:
    table = Table.open(reminders=(1800,))
    assert ids(table) == [f"{MID}/begins/@all", f"{MID}/begins/ada", f"{MID}/begins/bo"]

    # Half an hour before the Pregame's deadline (it runs an hour): the 1800-second reminder
    table.fakes.notifier.published.clear()
    table.fakes.clock.set(table.deadline() - timedelta(seconds=1800))
    phases.remind(table.ports, MID)
    assert ids(table) == [f"{MID}/reminder-1-1800/ada", f"{MID}/reminder-1-1800/bo"]

    # A host act: named by the version it stores, one more than the match's
    table.fakes.notifier.published.clear()
    version = table.match().version
    host.extend(table.ports, MID, HOUR)
    assert ids(table) == [f"{MID}/v{version + 1}/@all"]

    # The host's message: its id (the digest of whom it goes to and its text) and the moment
    # it was recorded (the same text an hour later is another message); to one or all
    table.fakes.notifier.published.clear()
    to_all, to_bo = (hashlib.sha256(f"@host\0{to}\0Back at 8".encode()).hexdigest()[:16] for to in ("ALL", "bo"))
    at = int(table.fakes.clock.now().timestamp())
    press.from_host(table.ports, MID, "Back at 8")
    press.from_host(table.ports, MID, "Back at 8", to="bo")
    assert ids(table) == [f"{MID}/host-message-{to_all}-{at}/@all", f"{MID}/host-message-{to_bo}-{at}/bo"]

    # The Pregame's resolution (phase 1), announced
    table.fakes.notifier.published.clear()
    table.resolve_at_deadline()
    assert ids(table) == [f"{MID}/resolved-1/@all", f"{MID}/resolved-1/ada", f"{MID}/resolved-1/bo"]


def test_a_retried_step_builds_the_same_ids_and_no_two_notices_of_a_match_share_one() -> None:
    table = Table.open(emails=EMAILS)
    for _phase in PHASES:
        table.resolve_at_deadline()
    told = ids(table)
    # 7 phases: the opening and 7 resolutions, each a public notice and Ada's and Bo's
    assert len(told) == 3 * 8 == len(set(told))

    # The same announcement built again (as a retry does) has the same ids
    match, game = table.match(), registry.load("crates")
    again = [n.notice_id for n in progress_notices(match, game, "Round 6 resolved", resolution(7))]
    assert again == told[-3:]

    # Each mail's Message-ID is its own and says which phase it belongs to (none: the match is over)
    mailed = [parse_message(mail.raw).message_id for mail in table.fakes.mailer.sent]
    assert len(mailed) == 2 * 8 == len(set(mailed))
    assert phase_answered(MID, mailed[0], ()) == 1  # the opening: the Pregame is open
    assert phase_answered(MID, mailed[2], ()) == 2  # the Pregame resolved: Round 1 is open


# -- a retry tells only what was not told ------------------------------------------------------


def test_a_mail_that_fails_midway_is_sent_by_the_retry_alone_with_the_message_id_it_would_have_had() -> None:
    clean = table_with_mail()
    phases.announce(clean.ports, MID, 1)

    table = table_with_mail()
    table.fakes.mailer.fail_after = 1  # Ada's mail goes, Bo's fails
    with pytest.raises(RuntimeError):
        phases.announce(table.ports, MID, 1)
    assert table.match().announced == 0
    phases.announce(table.ports, MID, 1)

    # Each of the three notices published once, each address mailed once, as in the clean run
    assert ids(table) == ids(clean)
    assert [mail.to for mail in table.fakes.mailer.sent] == [EMAILS["ada"], EMAILS["bo"]]
    assert message_ids(table) == message_ids(clean)
    assert table.match().announced == 1


def test_a_mark_that_fails_after_everything_went_out_leaves_nothing_to_send_again() -> None:
    store = FlakyStore(mark_announced=1)
    table = table_with_mail(store)
    with pytest.raises(RuntimeError):
        phases.announce(table.ports, MID, 1)  # all told, then `announced` not stored
    phases.announce(table.ports, MID, 1)

    assert len(ids(table)) == 3 and len(table.fakes.mailer.sent) == 2  # once each
    assert table.match().announced == 1
    assert store.calls == {"mark_announced": 2, "remember_told": 1}


def test_remembering_what_went_out_is_tried_again_in_place() -> None:
    store = FlakyStore(mark_announced=1, remember_told=1)
    table = table_with_mail(store)
    with pytest.raises(RuntimeError, match="mark_announced failed"):  # the step's own error goes on
        phases.announce(table.ports, MID, 1)
    phases.announce(table.ports, MID, 1)

    assert len(ids(table)) == 3 and len(table.fakes.mailer.sent) == 2
    assert store.calls == {"mark_announced": 2, "remember_told": 2}


def test_when_nothing_can_be_remembered_the_retry_tells_again_rather_than_lose_a_notice() -> None:
    store = FlakyStore(mark_announced=1, remember_told=3)
    table = table_with_mail(store)
    with pytest.raises(RuntimeError, match="mark_announced failed"):
        phases.announce(table.ports, MID, 1)
    phases.announce(table.ports, MID, 1)

    # Three attempts to remember, all failed: the retry tells everything again, with the same ids
    assert ids(table) == 2 * [f"{MID}/resolved-1/@all", f"{MID}/resolved-1/ada", f"{MID}/resolved-1/bo"]
    [ada_first, bo_first, ada_again, bo_again] = [parse_message(m.raw).message_id for m in table.fakes.mailer.sent]
    assert (ada_first, bo_first) == (ada_again, bo_again)


def test_a_clean_tell_writes_no_mark_of_its_own() -> None:
    store = FlakyStore()
    table = table_with_mail(store)
    phases.announce(table.ports, MID, 1)
    assert store.calls == {"mark_announced": 1}
    assert table.match().told == frozenset()


def test_a_reminder_whose_mark_meets_a_host_act_is_not_sent_again() -> None:
    table = table_with_mail(reminders=(1800,))
    table.fakes.clock.set(table.deadline() - timedelta(seconds=1800))
    saving = table.fakes.store.save

    def host_act_lands_first(*args: Any, **kwargs: Any) -> None:
        table.fakes.store.save = saving  # type: ignore[method-assign]
        host.pause(table.ports, MID)  # the host pauses and resumes while the reminder goes out
        host.resume(table.ports, MID)
        raise Conflict("the match changed meanwhile")

    table.fakes.store.save = host_act_lands_first  # type: ignore[method-assign]
    phases.remind(table.ports, MID)

    # The conflict made the reminder read the match again: the same reminder is due (Round 1,
    # phase 2, unmoved by a pause of no time), already told: stored as sent, not sent again
    assert [i for i in ids(table) if "/reminder-" in i] == [f"{MID}/reminder-2-1800/ada", f"{MID}/reminder-2-1800/bo"]
    reminders = [mail.to for mail in table.fakes.mailer.sent if "/reminder-" in (mail.told_as or "")]
    assert reminders == [EMAILS["ada"], EMAILS["bo"]]
    assert [event.type for event in table.events()][-3:] == ["paused", "resumed", "reminded"]
