"""A stored act whose notice failed (SNS or SES down) is told when the same act is sent again, as
its reply says to: the act is not applied twice, each recipient gets the notice once (what went
out the first time is not sent again), and a third send tells nothing. On the fakes (Pushing
Crates, Ada and Bo with addresses; the Pregame open from 12:00 to 13:00 on 1 December 2026)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from crates_driver import Table
from test_service_absence import away, host_absence
from test_service_mail_in import ADA, BO, MID, open_table

from game_core.service import host, phases


@dataclass(frozen=True)
class Act:
    before: Callable[[Table], Any]
    """What the match needs first (told without a fault)."""
    send: Callable[[Table], dict[str, Any]]
    logged: str
    """The log entry the act stores, once."""
    mailed: tuple[str, ...]
    """Whose address the act's notice is mailed to (a public notice: everyone's)."""
    again: str
    """What the warning says to send again."""


def nothing(_table: Table) -> None:
    return None


def waiting(table: Table) -> None:
    phases.wait(table.ports, MID, 1, 0, "tok-1")  # the machine waits for the Pregame's 13:00


def away_at_christmas(table: Table) -> None:
    away(table, "2026-12-24", "2026-12-27")  # holds no deadline of today's: nobody is told


ACTS = {
    "extend": Act(nothing, lambda table: host.extend(table.ports, MID, 600), "extended", (ADA, BO), "command"),
    "pause": Act(nothing, lambda table: host.pause(table.ports, MID), "paused", (ADA, BO), "command"),
    "resume": Act(
        lambda table: host.pause(table.ports, MID),
        lambda table: host.resume(table.ports, MID),
        "resumed",
        (ADA, BO),
        "command",
    ),
    "cancel": Act(nothing, lambda table: host.cancel(table.ports, MID), "cancelled", (ADA, BO), "command"),
    # Away the 1st and 2nd: the 13:00 deadline falls in it, and moves (a public notice says why)
    "absence declared": Act(
        waiting, lambda table: away(table, "2026-12-01", "2026-12-02"), "absence_declared", (ADA, BO), "declaration"
    ),
    # The host's cut and refusal are told to Ada alone
    "absence cut": Act(away_at_christmas, host_absence, "absence_cut", (ADA,), "cut command"),
    "absence refused": Act(
        away_at_christmas,
        lambda table: host_absence(table, act="refuse", to=None),
        "absence_refused",
        (ADA,),
        "refuse command",
    ),
}


def sns_down(table: Table) -> None:
    table.fakes.notifier.fail_after = 0  # the first publish fails: nothing is told


def ses_refuses_the_first_mail(table: Table) -> None:
    table.fakes.mailer.fail_after = 0  # the notice is published, no mail goes


def ses_refuses_the_second_mail(table: Table) -> None:
    table.fakes.mailer.fail_after = 1  # published, and one mail out (Ada's or, alone, the only one)


FAULTS = {fault.__name__: fault for fault in (sns_down, ses_refuses_the_first_mail, ses_refuses_the_second_mail)}
CASES = [
    pytest.param(name, fault, id=f"{name}-{fault}")
    for name, act in ACTS.items()
    for fault in FAULTS
    if len(act.mailed) > 1 or fault != "ses_refuses_the_second_mail"  # a notice mailed once has no second mail
]


def told_since(table: Table, published: int, mailed: int) -> tuple[Counter[str], Counter[str]]:
    """How often each notice (by id) was published, and each address mailed, after those counts."""
    notices = Counter(notice.notice_id for notice in table.fakes.notifier.notices()[published:])
    mails = Counter(mail.to for mail in table.fakes.mailer.sent[mailed:])
    return notices, mails


@pytest.mark.parametrize(("name", "fault"), CASES)
def test_an_act_whose_notice_failed_is_told_once_when_sent_again_and_not_applied_twice(name: str, fault: str) -> None:
    act = ACTS[name]
    table = open_table()
    act.before(table)
    published, mailed = len(table.fakes.notifier.notices()), len(table.fakes.mailer.sent)
    FAULTS[fault](table)

    # When the act is stored but its notice fails
    first = act.send(table)
    assert first["notice_sent"] is False
    assert first["warning"] == (
        f"stored, but not everyone was told: send the same {act.again} again to tell the rest (it is not applied twice)"
    )
    stored = table.match()

    # Then sent again (the fault gone), it changes nothing and tells the rest
    again = act.send(table)
    assert again["changed"] is False and "notice_sent" not in again
    notices, mails = told_since(table, published, mailed)
    [notice_id] = notices  # the act's one notice (public, or Ada's), published once in all
    assert notice_id.startswith(f"{MID}/v{stored.version}/")  # under the version the act stored
    assert notices == {notice_id: 1}
    assert mails == dict.fromkeys(act.mailed, 1)

    # And a third send tells nothing more, and the act is still stored once
    third = act.send(table)
    assert third["changed"] is False and "notice_sent" not in third
    assert told_since(table, published, mailed) == (notices, mails)
    assert len(table.events(act.logged)) == 1
    assert table.match().version == stored.version


def test_an_extension_sent_again_extends_the_deadline_once() -> None:
    # 13:00 + 600 s, whatever number of times the failed one is sent again
    table = open_table()
    deadline = table.deadline()
    sns_down(table)
    host.extend(table.ports, MID, 600)
    host.extend(table.ports, MID, 600)
    host.extend(table.ports, MID, 600)
    assert table.deadline() == deadline + timedelta(seconds=600)


def test_an_act_told_the_first_time_is_a_new_act_when_sent_again() -> None:
    # No failed notice: the second extend is the host's second extension, told as its own
    table = open_table()
    deadline = table.deadline()
    published = len(table.fakes.notifier.notices())
    first, second = host.extend(table.ports, MID, 600), host.extend(table.ports, MID, 600)
    assert "notice_sent" not in first and "notice_sent" not in second
    assert table.deadline() == deadline + timedelta(seconds=1200)  # 600 s twice
    assert len(table.fakes.notifier.notices()) == published + 2


def test_a_different_act_after_a_failed_one_is_applied() -> None:
    # A pause whose notice failed, then a resume: the resume is no repeat of the pause
    table = open_table()
    sns_down(table)
    host.pause(table.ports, MID)
    resumed = host.resume(table.ports, MID)
    assert "changed" not in resumed and table.match().phase.paused is False
    # And the pause sent again now is a new pause (the clock takes it), told as its own
    published = len(table.fakes.notifier.notices())
    paused = host.pause(table.ports, MID)
    assert "changed" not in paused and table.match().phase.paused is True
    [notice] = table.fakes.notifier.notices()[published:]
    assert notice.notice_id == f"{MID}/v{table.match().version}/@all"
