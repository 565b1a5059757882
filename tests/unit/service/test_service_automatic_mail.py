"""Automatic mail to a match (`mail_in`, `mail.automatic`) on the fakes: an out-of-office reply,
a bounce or a list's copy changes nothing and is answered by nothing, not even a refusal; a
bounce of the match's mail to a participant is recorded once for the host, who reads it in the
match's status. A player's mail that only looks automatic is read as ever."""

from __future__ import annotations

import email
import email.policy
import json
import logging
from datetime import timedelta
from html import escape

import pytest
from automatic_mail import (
    NOTICE_ID,
    exchange_ndr,
    gmail_bounce,
    gmail_vacation,
    icloud_vacation,
    list_copy,
    outlook_auto_reply,
    postfix_bounce,
)
from crates_driver import push
from test_service_mail_in import ADA, BO, HOST, MID, answers, message, receipt, round_one, send

from game_core.service.mail.receive import Outcome, receive
from game_core.service.matches.lifecycle import match_status
from local_stack.laptop.page import match_section

BOS = "bo@example.com"
AUTOMATIC = [
    ("outlook auto-reply from Ada", outlook_auto_reply(ADA.lower())),
    ("gmail vacation from Bo", gmail_vacation(BOS)),  # its text holds a move Bo never sent: PUSH bo LEFT 3
    ("icloud vacation from Ada", icloud_vacation(ADA.lower())),
    ("a list's copy of Ada's mail", list_copy(ADA.lower())),
    ("postfix bounce of Bo's notice", postfix_bounce(BOS, BOS)),
    ("exchange NDR of Bo's notice", exchange_ndr(BOS)),
    ("gmail bounce of Bo's notice", gmail_bounce(BOS)),
]


@pytest.mark.parametrize("raw", [row[1] for row in AUTOMATIC], ids=[row[0] for row in AUTOMATIC])
def test_automatic_mail_changes_nothing_is_answered_by_nothing_and_logs_its_kind_alone(
    raw: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    table = round_one()
    events, stored = table.events(), table.fakes.store.stored_match_json(MID)
    caplog.set_level(logging.DEBUG)

    outcome = receive(table.ports, receipt(raw))

    assert outcome is Outcome.AUTOMATIC
    assert table.fakes.mailer.sent == []  # no answer, no refusal
    assert table.fakes.store.submissions(MID, 2) == {}
    assert (table.events(), table.fakes.store.stored_match_json(MID)) == (events, stored)
    [record] = [r for r in caplog.records if r.getMessage() == "automatic mail: nothing done, nothing answered"]
    assert record.match_id == MID  # type: ignore[attr-defined]
    assert record.kind in ("auto_reply", "bounce", "list")  # type: ignore[attr-defined]
    logged = "".join(json.dumps(r.__dict__, default=str) + r.getMessage() for r in caplog.records)
    assert "@" not in logged and "PUSH" not in logged and "Round 1 is open" not in logged


POSTFIX_LINE = (
    "bo's mail bounced at 2026-12-01T13:00:00Z: 5.1.1 550 5.1.1 <bo@example.com>: Recipient address"
    " rejected: User unknown in virtual mailbox table"
)
"""The host's line: Bo's id as his name, the time the bounce came (Round 1 opened at 13:00 and
the clock stands there), the DSN's Status and its Diagnostic-Code without "smtp;"."""


def test_a_bounce_of_a_participants_notice_is_recorded_once_and_the_host_reads_it_in_the_status() -> None:
    table = round_one()
    bounce = postfix_bounce(BOS, BOS)

    first = receive(table.ports, receipt(bounce))
    table.fakes.clock.advance(600)
    again = receive(table.ports, receipt(bounce))  # SNS delivers it again
    resent = receive(table.ports, receipt(bounce, ses_id="ses-resent"))  # the MTA sends it again: a new SES id

    assert first is again is resent is Outcome.AUTOMATIC
    [recorded] = table.fakes.store.bounces(MID)
    assert (recorded.player, recorded.at, recorded.status) == (
        "bo",
        table.fakes.clock.now() - timedelta(seconds=600),
        "5.1.1",
    )
    assert match_status(table.ports, MID)["mail_bounced"] == [POSTFIX_LINE]
    # ...and in the answer to the host's STATUS by mail, under the rest of it
    assert send(table, HOST, "STATUS") is Outcome.ANSWERED
    [mail] = table.fakes.mailer.sent
    answer = email.message_from_bytes(mail.raw, policy=email.policy.default).get_body().get_content()
    # (format=flowed: the status's paragraph is space-stuffed, one column right where flowed is not read)
    assert "\n bo's mail bounced at 2026-12-01T13:00:00Z: 5.1.1 550 5.1.1 <bo@example.com>:" in answer


def test_the_hosts_page_shows_the_bounce_beside_the_status() -> None:
    table = round_one()
    receive(table.ports, receipt(postfix_bounce(BOS, BOS)))

    page = match_section(table.match(), match_status(table.ports, MID), "csrf")

    assert f"<dt>Mail not delivered</dt><dd>{escape(POSTFIX_LINE)}</dd>" in page


def test_another_bounce_for_the_same_participant_is_a_line_of_its_own() -> None:
    table = round_one()
    receive(table.ports, receipt(postfix_bounce(BOS, BOS)))
    table.fakes.clock.advance(3600)

    # Bo's mailbox fills up the next hour: Exchange's report, a bounce of its own Message-ID
    receive(table.ports, receipt(exchange_ndr(BOS)))

    assert match_status(table.ports, MID)["mail_bounced"] == [
        POSTFIX_LINE,
        "bo's mail bounced at 2026-12-01T14:00:00Z: 5.2.2 554 5.2.2 mailbox full; "
        "STOREDRV.Deliver.Exception:QuotaExceededException.MapiExceptionShutoffQuotaExceeded",
    ]


BOUNCES = [
    # Final-Recipient is Bo's address: his, whatever the original
    (
        "Bo's address failed, the original not ours",
        postfix_bounce(BOS, BOS).replace(NOTICE_ID.encode(), b"<x@elsewhere>"),
        ["bo"],
    ),
    # Bo forwards to a dead mailbox: the original is the match's notice to him
    ("the match's notice to Bo failed at his forward", postfix_bounce("bo@old-job.example", BOS), ["bo"]),
    # Someone else's mail, returned here: neither a participant's address nor the match's mail
    (
        "a stranger's mail",
        postfix_bounce("zed@example.org", "zed@example.org").replace(NOTICE_ID.encode(), b"<x@elsewhere>"),
        [],
    ),
    # The match's own mail, but to nobody of the match (the original's To is no participant's)
    ("the match's mail to a stranger", postfix_bounce("zed@example.org", "zed@example.org"), []),
]


@pytest.mark.parametrize(("raw", "players"), [row[1:] for row in BOUNCES], ids=[row[0] for row in BOUNCES])
def test_a_bounce_is_recorded_for_the_participant_it_names_or_whose_match_mail_it_returns(
    raw: bytes, players: list[str]
) -> None:
    table = round_one()

    assert receive(table.ports, receipt(raw)) is Outcome.AUTOMATIC

    assert [bounce.player for bounce in table.fakes.store.bounces(MID)] == players
    assert ("mail_bounced" in match_status(table.ports, MID)) is bool(players)


def test_an_auto_reply_records_no_bounce() -> None:
    table = round_one()
    receive(table.ports, receipt(outlook_auto_reply(BO)))
    assert table.fakes.store.bounces(MID) == []


def with_header(raw: bytes, header: str) -> bytes:
    return raw.replace(b"\n\n", f"\n{header}\n\n".encode(), 1)


READ = [
    ("absence in the subject and the text, no header", "Out of office?", "", "I'll be out of office next week:"),
    ("Auto-Submitted: no", f"[{MID}] Round 1", "Auto-Submitted: no", "Here:"),
]


@pytest.mark.parametrize(("subject", "header", "greeting"), [row[1:] for row in READ], ids=[row[0] for row in READ])
def test_a_players_mail_that_only_looks_automatic_is_read_and_answered(
    subject: str, header: str, greeting: str
) -> None:
    table = round_one()
    raw = message(ADA, f"{greeting}\npush ada right", subject=subject)

    outcome = receive(table.ports, receipt(with_header(raw, header) if header else raw))

    assert outcome is Outcome.ANSWERED
    assert table.fakes.store.submissions(MID, 2)["ada"]["round"]["pushes"] == push("ada")
    [(to, _)] = answers(table)
    assert to == ADA
    assert table.fakes.store.bounces(MID) == []
