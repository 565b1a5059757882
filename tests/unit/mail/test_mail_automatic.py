"""Which mail is automatic (`mail.automatic`): each real system's out-of-office replies, bounces
and list copies as it writes them, each signal alone on a person's mail, and the person's mail
that only looks automatic, which must be read."""

from __future__ import annotations

from datetime import UTC, datetime
from email.message import EmailMessage

import pytest
from automatic_mail import (
    MID,
    NOTICE_ID,
    exchange_ndr,
    gmail_bounce,
    gmail_vacation,
    icloud_vacation,
    list_copy,
    outlook_auto_reply,
    postfix_bounce,
)

from game_core.mail.automatic import Automatic, Failure, Kind, automatic
from game_core.mail.outbound import compose
from local_stack.bots.runner import moves_mail

POSTFIX_DIAGNOSTIC = "550 5.1.1 <cy@example.org>: Recipient address rejected: User unknown in virtual mailbox table"
"""Postfix's Diagnostic-Code without its type ("smtp;"), its folded continuation joined by one space."""

REAL_SYSTEMS = [
    # Exchange writes Auto-Submitted (checked before its own x-ms-exchange-* marks)
    ("outlook auto-reply", outlook_auto_reply(), Automatic(Kind.AUTO_REPLY, "Auto-Submitted")),
    ("gmail vacation", gmail_vacation(), Automatic(Kind.AUTO_REPLY, "Auto-Submitted")),
    ("icloud vacation", icloud_vacation(), Automatic(Kind.AUTO_REPLY, "Auto-Submitted")),
    (
        "postfix bounce, the original attached",
        postfix_bounce(),
        Automatic(
            Kind.BOUNCE,
            "Content-Type",
            failures=(Failure("cy@example.org", "5.1.1", POSTFIX_DIAGNOSTIC),),
            original_ids=(NOTICE_ID,),
            original_to=("cy@example.org",),
        ),
    ),
    (
        "exchange NDR, the original's headers attached",
        exchange_ndr(),
        Automatic(
            Kind.BOUNCE,
            "Content-Type",
            failures=(
                Failure(
                    "dana@contoso.example",
                    "5.2.2",
                    "554 5.2.2 mailbox full; STOREDRV.Deliver.Exception:QuotaExceededException."
                    "MapiExceptionShutoffQuotaExceeded",
                ),
            ),
            original_ids=(NOTICE_ID,),
            original_to=("dana@contoso.example",),
        ),
    ),
    (
        "gmail bounce",
        gmail_bounce(),
        Automatic(
            Kind.BOUNCE,
            "Content-Type",
            failures=(
                Failure(
                    "bo@example.net", "5.1.1", "550-5.1.1 The email account that you tried to reach does not exist."
                ),
            ),
            original_ids=(NOTICE_ID,),
            original_to=("bo@example.net",),
        ),
    ),
    # A list's copy says Precedence: list first, List-Id and List-Unsubscribe too
    ("list-forwarded copy", list_copy(), Automatic(Kind.LIST, "Precedence")),
]


@pytest.mark.parametrize(("raw", "expected"), [row[1:] for row in REAL_SYSTEMS], ids=[row[0] for row in REAL_SYSTEMS])
def test_each_real_systems_automatic_mail_is_known_with_what_its_bounce_reports(
    raw: bytes, expected: Automatic
) -> None:
    assert automatic(raw) == expected


def person(text: str = "PUSH bo LEFT 3\n", subject: str = f"Re: [{MID}] Round 1 is open", **headers: str) -> bytes:
    """A player's reply to the notice as their mail program writes it, with `headers` added
    (underscores in their names written as dashes)."""
    mail = EmailMessage()
    mail["From"] = "Ada <ada@example.com>"
    mail["To"] = f"{MID}@play.test"
    mail["Subject"] = subject
    mail["Message-ID"] = "<CAFq7r2Yx1@mail.example.com>"
    mail["In-Reply-To"] = NOTICE_ID
    for name, value in headers.items():
        mail[name.replace("_", "-")] = value
    mail.set_content(text)
    return mail.as_bytes()


SIGNALS = [
    ("Auto-Submitted: auto-replied", {"Auto_Submitted": "auto-replied"}, Kind.AUTO_REPLY, "Auto-Submitted"),
    ("Auto-Submitted: auto-generated", {"Auto_Submitted": "auto-generated"}, Kind.AUTO_REPLY, "Auto-Submitted"),
    (
        "Auto-Submitted with a parameter, in capitals",
        {"Auto_Submitted": "Auto-Replied; owner-email=ada@example.com"},
        Kind.AUTO_REPLY,
        "Auto-Submitted",
    ),
    ("X-Autoreply", {"X_Autoreply": "yes"}, Kind.AUTO_REPLY, "X-Autoreply"),
    ("X-Autorespond", {"X_Autorespond": "Away until Monday"}, Kind.AUTO_REPLY, "X-Autorespond"),
    (
        "Exchange's generated-message source",
        {"X_MS_Exchange_Generated_Message_Source": "Mailbox Rules Agent"},
        Kind.AUTO_REPLY,
        "X-MS-Exchange-Generated-Message-Source",
    ),
    (
        "Exchange's inbox-rules loop mark (a rule forwarded it)",
        {"X_MS_Exchange_Inbox_Rules_Loop": "ada@example.com"},
        Kind.AUTO_REPLY,
        "X-MS-Exchange-Inbox-Rules-Loop",
    ),
    ("Precedence: auto_reply", {"Precedence": "auto_reply"}, Kind.AUTO_REPLY, "Precedence"),
    ("Precedence: bulk", {"Precedence": "bulk"}, Kind.LIST, "Precedence"),
    ("Precedence: junk", {"Precedence": "junk"}, Kind.LIST, "Precedence"),
    ("Precedence: list", {"Precedence": "List"}, Kind.LIST, "Precedence"),
    ("List-Id", {"List_Id": "Game night <game-night.lists.example>"}, Kind.LIST, "List-Id"),
    ("List-Unsubscribe", {"List_Unsubscribe": "<mailto:leave@lists.example>"}, Kind.LIST, "List-Unsubscribe"),
    ("a null Return-Path (RFC 3834 3.3)", {"Return_Path": "<>"}, Kind.AUTO_REPLY, "Return-Path"),
    ("X-Failed-Recipients (Exim)", {"X_Failed_Recipients": "cy@example.org"}, Kind.BOUNCE, "X-Failed-Recipients"),
]


@pytest.mark.parametrize(("headers", "kind", "signal"), [row[1:] for row in SIGNALS], ids=[row[0] for row in SIGNALS])
def test_each_signal_alone_makes_a_players_mail_automatic(headers: dict[str, str], kind: Kind, signal: str) -> None:
    found = automatic(person(**headers))
    assert found is not None
    assert (found.kind, found.signal) == (kind, signal)


@pytest.mark.parametrize(
    "sender",
    ["MAILER-DAEMON@mx.example.org", "Mail Delivery System <mailer-daemon@example.org>", "postmaster@example.org"],
)
def test_mail_from_a_mail_servers_own_address_is_a_bounce(sender: str) -> None:
    mail = EmailMessage()
    mail["From"] = sender
    mail["Subject"] = "failure notice"
    # qmail's bounce: no DSN, the original's headers quoted in the text
    mail.set_content(
        f"Sorry, I couldn't deliver it.\n\n--- Below this line is a copy of the message.\n\nMessage-ID: {NOTICE_ID}\n"
    )
    assert automatic(mail.as_bytes()) == Automatic(Kind.BOUNCE, "From", original_ids=(NOTICE_ID,))


def test_exims_failed_recipients_are_the_failures_of_a_bounce_without_a_dsn() -> None:
    found = automatic(person(X_Failed_Recipients="Cy <cy@example.org>, dana@example.org"))
    assert found is not None
    assert found.failures == (Failure("cy@example.org"), Failure("dana@example.org"))


def test_a_dsn_reporting_a_delay_names_no_failure() -> None:
    # Postfix's "delayed mail" warning: Action: delayed, Status 4.4.1; the mail is still being tried
    delayed = (
        postfix_bounce().replace(b"Action: failed", b"Action: delayed").replace(b"Status: 5.1.1", b"Status: 4.4.1")
    )
    found = automatic(delayed)
    assert found is not None
    assert (found.kind, found.failures) == (Kind.BOUNCE, ())


def test_a_read_receipt_is_automatic() -> None:
    # RFC 8098's disposition notification: a multipart/report of another report-type
    receipt = EmailMessage()
    receipt["From"] = "ada@example.com"
    receipt["Subject"] = "Read: [m-000000000001] Round 1 is open"
    receipt.set_content("Your message was read.")
    receipt.make_mixed()
    receipt.replace_header("Content-Type", 'multipart/report; report-type=disposition-notification; boundary="b1"')
    assert automatic(receipt.as_bytes()) == Automatic(Kind.AUTO_REPLY, "Content-Type")


@pytest.mark.parametrize(
    "subject",
    [
        f"Automatic reply: [{MID}] Round 1 is open",
        f"AutoReply: [{MID}] Round 1 is open",
        f"Out of Office AutoReply: [{MID}] Round 1 is open",
        f"Réponse automatique : [{MID}] Round 1 is open",
        f"Automatische Antwort: [{MID}] Round 1 is open",
    ],
)
def test_an_autoresponders_subject_prefix_is_the_last_resort(subject: str) -> None:
    # An autoresponder that writes no header at all: its prefix before the subject it answers
    assert automatic(person(text="I am away.", subject=subject)) == Automatic(Kind.AUTO_REPLY, "Subject")


PEOPLE = [
    ("words of absence in the body", {"text": "I'll be out of office next week, so:\nBID 3\n"}),
    ("a question of absence as the subject", {"subject": "Out of office?", "text": "Out of office?\nBID 3\n"}),
    ("the words of an autoresponder inside the subject", {"subject": "Re: my automatic reply: sorry!"}),
    ("Auto-Submitted: no (RFC 3834: written by a person)", {"Auto_Submitted": "no"}),
    ("Outlook's request that autoresponders keep quiet", {"X_Auto_Response_Suppress": "DR, RN, NRN, OOF, AutoReply"}),
    ("a Return-Path of the sender's own", {"Return_Path": "<ada@example.com>"}),
]


@pytest.mark.parametrize("mail", [row[1] for row in PEOPLE], ids=[row[0] for row in PEOPLE])
def test_a_persons_mail_that_only_looks_automatic_is_a_persons(mail: dict[str, str]) -> None:
    assert automatic(person(**mail)) is None


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"", None),
        (b"\x00\xff not a message", None),
        # a report without its boundary is still a report (of no report-type): automatic
        (b"Content-Type: multipart/report\r\n\r\nno parts", Automatic(Kind.AUTO_REPLY, "Content-Type")),
    ],
)
def test_what_is_no_message_is_read_without_raising(raw: bytes, expected: Automatic | None) -> None:
    assert automatic(raw) == expected


def test_a_bots_mail_on_the_local_stack_reads_as_a_persons_and_the_services_own_as_automatic() -> None:
    # bin/play's bots stand in for players: their moves must be read; the service's own notice,
    # sent back to it (a forward, a loop), must not
    sent_at = datetime(2026, 12, 1, 13, tzinfo=UTC)
    body = {"phase": "Pregame", "kind": "multipliers", "submission": {"multipliers": [2, 1, 1, 0, -1, -1]}}
    assert automatic(moves_mail("crates", MID, "ada", [body], sent_at)) is None
    notice = compose(
        sender=f"{MID}@play.test",
        sender_name="",
        to=["ada@example.com"],
        subject="Round 1",
        body="Open.\n",
        domain="play.test",
        sent_at=sent_at,
    )
    assert automatic(notice) == Automatic(Kind.AUTO_REPLY, "Auto-Submitted")
