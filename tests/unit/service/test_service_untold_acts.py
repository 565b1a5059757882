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
from botocore.exceptions import ClientError
from crates_driver import Table
from test_service_absence import away, host_absence
from test_service_host import finished_with_a_tie
from test_service_mail_in import ADA, BO, MID, open_table

from game_core.errors import Illegal
from game_core.service.host import powers as host
from game_core.service.matches import grace, phases, press


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
    notices: tuple[str, ...] = ("v{}/@all",)
    """The ids of the act's notices after the match id, `{}` the version the act stored (one
    public notice, unless said)."""


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
    # Away the 1st and 2nd: the 13:00 deadline falls in it, and moves (a public notice says why,
    # and Ada's own says it to her)
    "absence declared": Act(
        waiting,
        lambda table: away(table, "2026-12-01", "2026-12-02"),
        "absence_declared",
        (ADA, BO),
        "declaration",
        ("v{}/@all", "v{}/ada"),
    ),
    # The host's cut and refusal are told to Ada alone
    "absence cut": Act(away_at_christmas, host_absence, "absence_cut", (ADA,), "cut command", ("v{}/ada",)),
    "absence refused": Act(
        away_at_christmas,
        lambda table: host_absence(table, act="refuse", to=None),
        "absence_refused",
        (ADA,),
        "refuse command",
        ("v{}/ada",),
    ),
    # Everyone's messages off: a public notice
    "press mode": Act(
        nothing, lambda table: press.set_mode(table.ports, MID, "off"), "press_mode", (ADA, BO), "command"
    ),
    # Graces for everyone (none before): each told privately
    "graces": Act(
        nothing,
        lambda table: grace.set_graces(table.ports, MID, 2, seconds=3600),
        "graces_set",
        (ADA, BO),
        "command",
        ("graces-v{}/ada", "graces-v{}/bo"),
    ),
    # Ada's count, and everyone's hold (2 hours, not 1): Bo, whose graces hold it, is told too
    "graces of one": Act(
        lambda table: grace.set_graces(table.ports, MID, 2, seconds=3600),
        lambda table: grace.set_graces(table.ports, MID, 1, seconds=7200, player="Ada"),
        "graces_set",
        (ADA, BO),
        "command",
        ("graces-v{}/ada", "graces-v{}/bo"),
    ),
    # Ada and Bo tied for the one EC place, the host ranks Bo first: announced to all and each
    "decide": Act(
        finished_with_a_tie,
        lambda table: host.decide(table.ports, MID, ["bo", "ada"]),
        "decided",
        (ADA, BO),
        "command",
        ("v{}/@all", "v{}/ada", "v{}/bo"),
    ),
}


def sns_down(table: Table) -> None:
    table.fakes.notifier.fail_after = 0  # the first publish fails: nothing is told


def sns_refuses_the_second_notice(table: Table) -> None:
    table.fakes.notifier.fail_after = 1  # one notice published, then SNS fails: no mail goes


def ses_refuses_the_first_mail(table: Table) -> None:
    table.fakes.mailer.fail_after = 0  # the notice is published, no mail goes


def ses_refuses_the_second_mail(table: Table) -> None:
    table.fakes.mailer.fail_after = 1  # published, and one mail out (Ada's or, alone, the only one)


FAULTS = {
    fault.__name__: fault
    for fault in (sns_down, sns_refuses_the_second_notice, ses_refuses_the_first_mail, ses_refuses_the_second_mail)
}
CASES = [
    pytest.param(name, fault, id=f"{name}-{fault}")
    for name, act in ACTS.items()
    for fault in FAULTS
    # a single notice has no second to refuse, a notice mailed once no second mail
    if (len(act.notices) > 1 or fault != "sns_refuses_the_second_notice")
    and (len(act.mailed) > 1 or fault != "ses_refuses_the_second_mail")
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
    logged = len(table.events(act.logged))
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
    # Each of the act's notices, under the version the act stored, published once in all
    assert notices == {f"{MID}/{notice.format(stored.version)}": 1 for notice in act.notices}
    assert mails == dict.fromkeys(act.mailed, 1)

    # And a third send tells nothing more, and the act is still stored once
    third = act.send(table)
    assert third["changed"] is False and "notice_sent" not in third
    assert told_since(table, published, mailed) == (notices, mails)
    assert len(table.events(act.logged)) == logged + 1
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


def test_a_decision_whose_log_could_not_be_read_for_its_notice_is_told_when_sent_again(monkeypatch) -> None:
    # A decision's notice carries the log's head: a read of the log that AWS throttles after the
    # decision is stored is a failed tell like another (it escaped: the repeat was then refused,
    # no tie being left, and nobody was ever told)
    table = open_table()
    finished_with_a_tie(table)
    published, mailed = len(table.fakes.notifier.notices()), len(table.fakes.mailer.sent)
    store = table.fakes.store

    def throttled(_match_id: str) -> None:
        monkeypatch.setattr(store, "events", type(store).events.__get__(store))
        raise ClientError({"Error": {"Code": "ThrottlingException", "Message": "Rate exceeded"}}, "Query")

    monkeypatch.setattr(store, "events", throttled)
    first = host.decide(table.ports, MID, ["bo", "ada"])
    assert first["notice_sent"] is False and "send the same command again" in first["warning"]
    assert told_since(table, published, mailed) == (Counter(), Counter())

    again = host.decide(table.ports, MID, ["bo", "ada"])
    assert again["changed"] is False and "notice_sent" not in again
    version = table.match().version
    notices, mails = told_since(table, published, mailed)
    assert notices == {f"{MID}/v{version}/@all": 1, f"{MID}/v{version}/ada": 1, f"{MID}/v{version}/bo": 1}
    assert mails == {ADA: 1, BO: 1} and len(table.events("decided")) == 1


def test_a_decision_told_the_first_time_is_refused_when_sent_again() -> None:
    # No failed notice: the tie is decided, and none is left to decide again; nobody is told twice
    table = open_table()
    finished_with_a_tie(table)
    host.decide(table.ports, MID, ["bo", "ada"])
    published = len(table.fakes.notifier.notices())
    with pytest.raises(Illegal, match="there is no tie for the host to decide"):
        host.decide(table.ports, MID, ["bo", "ada"])
    assert len(table.fakes.notifier.notices()) == published and len(table.events("decided")) == 1


@pytest.mark.parametrize(
    "other",
    [
        # Another press setting (public, not off) or rate (5 an hour, not the 60 kept) is a new act
        lambda table: press.set_mode(table.ports, MID, "public"),
        lambda table: press.set_mode(table.ports, MID, "off", per_hour=5),
        # Another count of graces, or the same count for Bo alone (the failed act set everyone's)
        lambda table: grace.set_graces(table.ports, MID, 3),
        lambda table: grace.set_graces(table.ports, MID, 3, player="bo"),
    ],
    ids=["another press mode", "another press rate", "other graces", "graces of one"],
)
def test_a_different_setting_after_a_failed_one_is_applied_and_told_as_its_own(
    other: Callable[[Table], dict[str, Any]],
) -> None:
    table = open_table()
    sns_down(table)
    press.set_mode(table.ports, MID, "off")
    sns_down(table)
    grace.set_graces(table.ports, MID, 2, seconds=3600)
    version, published = table.match().version, len(table.fakes.notifier.notices())
    reply = other(table)
    assert reply["changed"] is True and "notice_sent" not in reply
    assert table.match().version == version + 1
    new = [notice.notice_id for notice in table.fakes.notifier.notices()[published:]]
    assert new and all(f"v{version + 1}/" in notice_id for notice_id in new)  # under its own version
