"""One address the mail service refuses for good does not silence a match (`telling.tell`).

Ada, Bo and Cy play Pushing Crates, each with an address; the match is created at 12:00 UTC on
Tuesday 1 December 2026 (the fakes' clock), its Pregame closes an hour later. SES refusing one of
them for good (MessageRejected: the sandbox's unverified address) is no failure of the step: the
other two are told once each, the step goes through, and the host's status names the one refused,
in one line however many mails were refused. A transient failure (SES unavailable) still fails the
step, whose retry tells only the rest.

The same holds for the mail sent outside `tell`: the answer to a mail (`mail_in`: what the mail did
stands, the message counts as answered, the host's status names the refusal) and a replaced
player's farewell (`replace`: the rest are told, the host's reply names it).
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from crates_driver import Table
from fakes import Fakes
from test_service_mail_in import message, receipt
from test_service_replace import BO, DANA, MID, to_dana
from test_service_replace import round_one as bo_replaced_in_round_one

from game_core.errors import MailRefused
from game_core.service.mail.receive import Outcome, receive
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import match_status

EMAILS = {"ada": "ada@example.com", "bo": "bo@example.com", "cy": "cy@example.com"}
HOST_EMAIL = "host@example.com"
ADDRESSES = EMAILS | {"The host": HOST_EMAIL, "Bo": BO, "Dana": DANA}
"""Whose each address is, as the host's lines name them (the crates table's players by their
ids; the replacement's Bo and Dana, `test_service_replace`, by their names)."""
NOT_VERIFIED = "Email address is not verified. The following identities failed the check in region US-EAST-1: {}"
"""SES's own words in its sandbox, naming the recipient (`ses_mailer` adds the sandbox hint)."""


def refused(whose: str) -> MailRefused:
    said = NOT_VERIFIED.format(ADDRESSES[whose]) + " (is SES still in its sandbox?)"
    return MailRefused("MessageRejected", said)


def refused_line(whose: str, at: str) -> str:
    """The host's status line of the refusal (`_bounce_line`): named by their name."""
    said = NOT_VERIFIED.format(ADDRESSES[whose])
    return f"{whose}'s mail was refused by SES at {at}: MessageRejected: {said} (is SES still in its sandbox?)"


def three_with_mail(fakes: Fakes | None = None) -> Table:
    return Table.open(fakes, players=("ada", "bo", "cy"), emails=EMAILS)


def mailed(table: Table) -> Counter[str]:
    return Counter(mail.to for mail in table.fakes.mailer.sent)


@pytest.mark.parametrize("refused_player", ["ada", "bo", "cy"])
def test_one_address_refused_for_good_among_three_leaves_the_other_two_told_once_and_the_host_told(
    refused_player: str,
) -> None:
    # Given SES refuses one address for good from the start (first, middle or last of the three)
    fakes = Fakes()
    fakes.mailer.refuses[EMAILS[refused_player]] = refused(refused_player)

    # When the match opens (create's opening notices) and its Pregame resolves and is announced
    table = three_with_mail(fakes)
    created = table.created
    table.resolve_at_deadline()

    # Then create warned of nothing, the announcement went through, and the other two were told
    # twice each (the opening, the Pregame's resolution), the refused one never
    assert "warnings" not in created, created
    assert table.match().announced == 1
    others = {EMAILS[player]: 2 for player in EMAILS if player != refused_player}
    assert mailed(table) == others
    # And the host's status names the refusal once, at its first time (create's, 12:00), though
    # both occasions' mails were refused
    assert match_status(table.ports, table.match_id)["mail_bounced"] == [
        refused_line(refused_player, "2026-12-01T12:00:00Z")
    ]


@dataclass(frozen=True)
class Fault:
    refused: tuple[str, ...]
    """Whose address SES refuses for good (the first attempt only: a retry that tried one again would send it)."""
    fail_after: int | None
    """Mails SES takes before it fails once, transiently (`RecordingMailer.fail_after`)."""
    step_fails: bool
    first_attempt: dict[str, int]
    """Who the first attempt of the announcement mailed."""
    told: dict[str, int]
    """Who is mailed in the end, after the state machine's retry of a failed step."""
    host_reads: list[str]


# Pregame resolves at 13:00: announcing it is the step that mails Ada, Bo and Cy in that order
FAULTS = {
    "SES unavailable at Bo's mail: the step fails, its retry tells Bo and Cy only": Fault(
        (), 1, True, {"ada@example.com": 1}, dict.fromkeys(EMAILS.values(), 1), []
    ),
    "Bo refused for good: Ada and Cy told, the step goes through": Fault(
        ("bo",), None, False, {"ada@example.com": 1, "cy@example.com": 1},
        {"ada@example.com": 1, "cy@example.com": 1}, [refused_line("bo", "2026-12-01T13:00:00Z")],
    ),
    "Ada refused, then SES unavailable at Bo's: the retry does not try Ada again": Fault(
        ("ada",), 0, True, {}, {"bo@example.com": 1, "cy@example.com": 1},
        [refused_line("ada", "2026-12-01T13:00:00Z")],
    ),
}  # fmt: skip


@pytest.mark.parametrize("fault", FAULTS.values(), ids=FAULTS)
def test_a_transient_failure_fails_the_step_and_a_refusal_for_good_does_not(fault: Fault) -> None:
    table = three_with_mail()
    table.resolve_at_deadline(announce=False)
    table.fakes.mailer.sent.clear()
    table.fakes.mailer.refuses = {EMAILS[player]: refused(player) for player in fault.refused}
    table.fakes.mailer.fail_after = fault.fail_after

    try:
        phases.announce(table.ports, table.match_id, 1)
        failed = False
    except RuntimeError:
        failed = True
    assert failed is fault.step_fails
    assert mailed(table) == fault.first_attempt
    table.fakes.mailer.refuses.clear()  # were a refused mail tried again, SES would now take it
    phases.announce(table.ports, table.match_id, 1)  # the state machine's retry (none due when it went through)

    assert mailed(table) == fault.told
    assert table.match().announced == 1
    assert match_status(table.ports, table.match_id).get("mail_bounced", []) == fault.host_reads


# -- the answer to a mail (`mail_in.receive`) --------------------------------------------------

RAISED = "raised"
"""A delivery that raised: the Lambda delivers the event again."""


@dataclass(frozen=True)
class Answering:
    sender: str
    """Who sends the mail: a player by id, or "The host" (the host's address alone, no player)."""
    text: str
    fault: str
    """What SES does with the answer: "refused" for good (the sandbox), or "unavailable" once."""
    outcomes: tuple[Outcome | str, ...]
    """What `receive` says of each of three deliveries of the mail (the Lambda's retry, SNS's)."""
    done: tuple[str, int]
    """The event the mail's move or command stores, and how often (once, however often it comes)."""
    answered: int
    """Answers SES took in the end."""
    host_reads: list[str]


# Round 1 is open from 13:00, when each mail is received
ANSWERINGS = {
    "Ada's answer refused for good: her push stands, the redeliveries send nothing": Answering(
        "ada", "PUSH bo RIGHT", "refused", (Outcome.ANSWER_REFUSED, Outcome.REDELIVERED, Outcome.REDELIVERED),
        ("submission_accepted", 1), 0, [refused_line("ada", "2026-12-01T13:00:00Z")],
    ),
    "the host's EXTEND answer refused for good: extended once, the host's status says so": Answering(
        "The host", "EXTEND 2", "refused", (Outcome.ANSWER_REFUSED, Outcome.REDELIVERED, Outcome.REDELIVERED),
        ("extended", 1), 0, [refused_line("The host", "2026-12-01T13:00:00Z")],
    ),
    "SES unavailable at Ada's answer: the retry answers from her stored push": Answering(
        "ada", "PUSH bo RIGHT", "unavailable", (RAISED, Outcome.ANSWERED, Outcome.REDELIVERED),
        ("submission_accepted", 1), 1, [],
    ),
}  # fmt: skip


def delivered(table: Table, raw: bytes, times: int) -> list[Outcome | str]:
    """`receive`'s outcome of each delivery of the message."""
    outcomes: list[Outcome | str] = []
    for _ in range(times):
        try:
            outcomes.append(receive(table.ports, receipt(raw)))
        except RuntimeError:
            outcomes.append(RAISED)
    return outcomes


@pytest.mark.parametrize("case", ANSWERINGS.values(), ids=ANSWERINGS)
def test_an_answer_refused_for_good_ends_the_mail_and_the_host_is_told(
    caplog: pytest.LogCaptureFixture, case: Answering
) -> None:
    caplog.set_level(logging.DEBUG)
    table = Table.open(players=("ada", "bo", "cy"), emails=EMAILS, host_email=HOST_EMAIL)
    table.resolve_at_deadline()
    address = ADDRESSES[case.sender]
    if case.fault == "refused":
        table.fakes.mailer.refuses[address] = refused(case.sender)
    else:
        table.fakes.mailer.fail_after = 0
    table.fakes.mailer.sent.clear()

    assert delivered(table, message(address, case.text), len(case.outcomes)) == list(case.outcomes)
    event, times = case.done
    assert len(table.events(event)) == times
    assert sum(mail.to == address for mail in table.fakes.mailer.sent) == case.answered
    assert match_status(table.ports, table.match_id).get("mail_bounced", []) == case.host_reads
    # Logged by the refusal's code and whose it was: never the mail's words, nor the address
    refusals = [r.__dict__ for r in caplog.records if r.getMessage() == "mail refused for good: not sent again"]
    assert [(r["player"], r["code"]) for r in refusals] == [(case.sender, "MessageRejected")] * len(case.host_reads)
    logged = "".join(json.dumps(r.__dict__, default=str) + r.getMessage() for r in caplog.records)
    assert case.text not in logged and address not in logged


# -- a replaced player's farewell (`replace`) ---------------------------------------------------


@dataclass(frozen=True)
class Farewell:
    refused: tuple[str, ...]
    """Whose address SES refuses for good: Bo (the farewell's), Dana (the newcomer's welcome)."""
    fail_after: int | None
    """Mails SES takes before it fails once, transiently (`RecordingMailer.fail_after`)."""
    first: dict[str, Any]
    """What the first replacement's reply says of the telling."""
    told: dict[str, int]
    """Who is mailed in the end, once the host has sent the replacement again."""
    host_reads: list[str]
    """The host's status lines: a refused farewell is no line of the seat's (it names the newcomer)."""


NOT_ALL_TOLD = "stored, but not everyone was told: send the same replacement again"
FAREWELL_REFUSED = "Bo's farewell mail was refused by SES: " + str(refused("Bo"))

# Bo's seat is handed to Dana in Round 1 (at 13:00): Bo's farewell goes first, then Ada's public
# line and Dana's welcome
FAREWELLS = {
    "Bo's farewell refused for good: Ada and Dana told, the host's reply says so": Farewell(
        ("Bo",), None, {"warnings": [FAREWELL_REFUSED]}, {"ada@example.com": 1, DANA: 1}, [],
    ),
    "Bo's refused, then SES unavailable at Ada's: sent again, the rest told, Bo not tried again": Farewell(
        ("Bo",), 0, {"notice_sent": False, "warnings": [FAREWELL_REFUSED]}, {"ada@example.com": 1, DANA: 1}, [],
    ),
    "Dana's welcome refused for good: the host's status names her (as any participant's)": Farewell(
        ("Dana",), None, {}, {"ada@example.com": 1, BO: 1}, [refused_line("Dana", "2026-12-01T13:00:00Z")],
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", FAREWELLS.values(), ids=FAREWELLS)
def test_a_refused_farewell_leaves_the_rest_told_and_the_host_told_once(case: Farewell) -> None:
    table = bo_replaced_in_round_one()
    table.fakes.mailer.refuses = {ADDRESSES[whose]: refused(whose) for whose in case.refused}
    table.fakes.mailer.fail_after = case.fail_after

    first = to_dana(table)
    table.fakes.mailer.refuses.clear()  # were a refused mail tried again, SES would now take it
    again = to_dana(table)  # the host sends it again, as the reply says when not all were told

    told = {key: first[key] for key in ("notice_sent", "warning", "warnings") if key in first}
    assert told == case.first | ({"warning": NOT_ALL_TOLD} if "notice_sent" in case.first else {})
    assert again["changed"] is False and "warnings" not in again and "notice_sent" not in again
    assert mailed(table) == case.told
    assert match_status(table.ports, MID).get("mail_bounced", []) == case.host_reads
