"""Play by e-mail on the fakes (Pushing Crates): a message from a registered address is read as
moves or a command and answered once, threaded, to that address; anything else changes nothing,
is answered by nothing, and is logged without its contents."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import replace
from email.message import EmailMessage
from typing import Any

import pytest
from crates_driver import Table, push

from game_core.mail.inbound import Letter, parse_message
from game_core.mail.ses import Receipt, Verdicts
from game_core.service.mail.receive import Outcome, receive

MID = "m-000000000001"
ADA, BO, HOST = "Ada@Example.com", "bo@example.com", "host@example.com"
"""The registered addresses (Ada's as the host wrote it: mail compares them ignoring case)."""
PASSING = Verdicts(spf="PASS", dkim="PASS", dmarc="PASS", spam="PASS", virus="PASS")
SECRET_MOVE = "PUSH bo LEFT 3"
"""A move no log line may ever carry."""


def open_table(**options: Any) -> Table:
    """A match of Ada and Bo with registered addresses (and the host's), the sent mail cleared."""
    options = {"emails": {"ada": ADA, "bo": BO}, "host_email": HOST, "garnets": {"ada": 5}} | options
    table = Table.open(**options)
    table.fakes.mailer.sent.clear()
    return table


def round_one(**options: Any) -> Table:
    """A table whose Round 1 (phase 2, 13:00 to 14:00) is open, the sent mail cleared."""
    table = open_table(**options)
    table.resolve_at_deadline()
    table.fakes.mailer.sent.clear()
    return table


def client_message_id(sender: str, subject: str, text: str) -> str:
    """The Message-ID a client gives a message: each its own; the same message sent again keeps it."""
    return f"<{hashlib.sha256(f'{sender} {subject} {text}'.encode()).hexdigest()[:12]}@example.com>"


def message(sender: str, text: str, subject: str = f"[{MID}] Round 1", message_id: str | None = None) -> bytes:
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = f"{MID}@play.test"
    mail["Subject"] = subject
    mail["Message-ID"] = message_id or client_message_id(sender, subject, text)
    mail.set_content(text)
    return mail.as_bytes()


def receipt(raw: bytes, ses_id: str | None = None, verdicts: Verdicts = PASSING, match_id: str = MID) -> Receipt:
    """SES's notice of the message; its id is the message's own unless given (SES gives each
    message received an id, and a redelivery carries the same one)."""
    ses_id = ses_id or "ses-" + hashlib.sha256(raw).hexdigest()[:12]
    return Receipt(ses_id, (f"{match_id}@play.test",), verdicts, "", raw)


def send(table: Table, sender: str, text: str, **options: Any) -> Outcome:
    return receive(table.ports, receipt(message(sender, text), **options))


def answers(table: Table) -> list[tuple[str, Letter]]:
    """(address, letter) of each answer sent (the notices a host act sends everyone left out)."""
    read = [(mail.to, parse_message(mail.raw)) for mail in table.fakes.mailer.sent]
    return [(to, letter) for to, letter in read if letter.in_reply_to]


def the_answer(table: Table) -> str:
    """The one answer sent, its text."""
    [(_, letter)] = answers(table)
    return letter.text


# -- moves -------------------------------------------------------------------------------------


def test_a_move_by_mail_is_stored_and_answered_in_the_grammar_with_its_cost_and_the_deadline() -> None:
    table = round_one()

    text = "push ada right\npush ada r\nPUSH bo left\npush ADA right\nground ice"
    outcome = send(table, "ada@example.com", text)

    assert outcome is Outcome.ANSWERED
    pushes = [*push("ada", 2), *push("bo", direction="left"), *push("ada")]
    assert table.fakes.store.submissions(MID, 2) == {"ada": {"round": {"pushes": pushes, "ground": "ice"}}}
    [event] = table.events("submission_accepted")
    assert event.data["channel"] == "email"
    [(to, letter)] = answers(table)
    assert to == ADA
    assert letter.subject == f"Re: [{MID}] Round 1"
    assert letter.in_reply_to == client_message_id("ada@example.com", f"[{MID}] Round 1", text)
    unsealed = re.sub(r"\nSealed receipt (.*\n)*?  \{.*\}", "", letter.text)  # its receipt: test_service_receipts.py
    assert unsealed == "\n".join(
        [
            "Hello ada,",
            "",
            "Accepted for Round 1:",
            "  PUSH ada RIGHT 2",
            "  PUSH bo LEFT",
            "  PUSH ada RIGHT",
            "  GROUND ICE",
            "It costs 1 garnet, spent when Round 1 resolves.",
            "",
            "Round 1 closes Tuesday 1 December, 14:00 UTC, in 1 hour.",
        ]
    )


def test_two_kinds_in_one_mail_are_both_submitted_and_both_echoed() -> None:
    table = round_one()

    send(table, ADA, "MULTIPLIERS -1 2 1 -1 0 1\nPUSH bo RIGHT\nGROUND RUBBER")

    stored = table.fakes.store.submissions(MID, 2)["ada"]
    assert stored == {
        "multipliers": {"multipliers": [-1, 2, 1, -1, 0, 1]},
        "round": {"pushes": push("bo"), "ground": "rubber"},
    }
    text = the_answer(table)
    assert text.count("Accepted for Round 1:") == 2
    assert "  MULTIPLIERS -1 2 1 -1 0 1" in text and "  PUSH bo RIGHT\n  GROUND RUBBER" in text


def test_the_last_move_owed_closing_the_phase_early_does_not_shut_out_the_other_kind_in_its_mail() -> None:
    # Early close: Bo has sent his round; Ada's round completes the phase (Round 1 waits only for
    # rounds). Her mail has the round first and a late change of multipliers after it: the
    # multipliers, which she merely may send, are submitted first, and both stand.
    table = round_one(early_close=True)
    table.turn("bo", "Round 1", push("ada"))

    send(table, ADA, "PUSH bo RIGHT\nGROUND RUBBER\nMULTIPLIERS -1 2 1 -1 0 1")

    assert table.fakes.store.submissions(MID, 2)["ada"] == {
        "multipliers": {"multipliers": [-1, 2, 1, -1, 0, 1]},
        "round": {"pushes": push("bo"), "ground": "rubber"},
    }
    assert table.match().phase.resolve_requested  # and the phase closed early on her round
    assert the_answer(table).count("Accepted for Round 1:") == 2


def test_a_line_not_understood_submits_nothing_and_the_answer_gives_every_reason_and_what_stands() -> None:
    table = round_one()
    table.turn("ada", "Round 1", push("ada"), ground="ice")

    send(table, ADA, "PUSH bo LEFT\nJUMP\nGROUND LAVA")

    assert table.fakes.store.submissions(MID, 2) == {"ada": {"round": {"pushes": push("ada"), "ground": "ice"}}}
    assert len(table.events("submission_accepted")) == 1
    text = the_answer(table)
    assert "Nothing was submitted: your mail was not understood." in text
    assert '  - line 2 "JUMP": not understood' in text
    assert '  - line 3 "GROUND LAVA":' in text
    assert "What stands from you for Round 1:\n  PUSH ada RIGHT\n  GROUND ICE" in text


def test_a_move_the_game_refuses_is_answered_with_its_reasons_and_what_stands() -> None:
    table = round_one(garnets={})

    send(table, BO, "PUSH ada LEFT 5")

    assert table.fakes.store.submissions(MID, 2) == {}
    text = the_answer(table)
    assert "Not accepted: your round for Round 1." in text
    # folded at 78 columns, the fold under the reason's text
    assert "  - 5 pushes need 2 garnets (one per push beyond the free 3), but your balance\n    is 0" in text
    assert "You have sent nothing for Round 1 yet." in text


def test_a_move_after_the_deadline_is_answered_as_late() -> None:
    table = round_one()
    table.fakes.clock.set(table.deadline())

    send(table, ADA, "PUSH ada RIGHT")

    assert table.fakes.store.submissions(MID, 2) == {}
    said = (
        "Too late: your round for Round 1 was not accepted. 'Round 1' closed Tuesday 1 December, 14:00 UTC, less than a"
    )
    assert said + " minute ago; it is being resolved." in " ".join(the_answer(table).split())


def test_a_json_body_is_taken_as_the_webhooks_body() -> None:
    table = round_one()
    body = {"phase": "Round 1", "number": 2, "kind": "round", "submission": {"pushes": push("bo", 2)}}

    send(table, ADA, json.dumps(body))

    assert table.fakes.store.submissions(MID, 2) == {"ada": {"round": {"pushes": push("bo", 2), "ground": "stone"}}}
    assert "Accepted for Round 1:\n  PUSH bo RIGHT 2\n  GROUND STONE\nIt costs no garnets." in the_answer(table)


def test_a_malformed_json_body_is_answered_with_what_is_wrong() -> None:
    table = round_one()

    send(table, ADA, json.dumps({"phase": "Round 1", "kind": "round"}))

    assert table.fakes.store.submissions(MID, 2) == {}
    assert "  - submission: Field required" in the_answer(table)


def test_a_redelivered_message_stores_nothing_twice_and_is_answered_once() -> None:
    table = round_one()
    raw = message(ADA, "MULTIPLIERS -1 2 1 -1 0 1\nPUSH ada RIGHT")

    first = receive(table.ports, receipt(raw))
    again = receive(table.ports, receipt(raw))

    assert (first, again) == (Outcome.ANSWERED, Outcome.REDELIVERED)
    assert len(table.events("submission_accepted")) == 2  # its two kinds, once each
    assert len(table.fakes.mailer.sent) == 1


def test_an_answer_lost_to_a_failed_send_goes_out_when_the_message_comes_again() -> None:
    # SES fails after the moves are stored; the Lambda's retry finds them stored, changes nothing,
    # and answers from the replies stored with them, once.
    table = round_one()
    raw = message(ADA, "PUSH ada RIGHT")
    failing = table.fakes.mailer.send

    def unavailable(_mail: object) -> None:
        raise RuntimeError("SES is unavailable")

    table.fakes.mailer.send = unavailable  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        receive(table.ports, receipt(raw))
    table.fakes.mailer.send = failing  # type: ignore[method-assign]

    assert receive(table.ports, receipt(raw)) == Outcome.ANSWERED
    assert receive(table.ports, receipt(raw)) == Outcome.REDELIVERED
    assert len(table.events("submission_accepted")) == 1
    [answer] = answers(table)
    assert "Accepted for Round 1:" in answer[1].text


def test_a_redelivered_command_is_answered_once() -> None:
    table = round_one()
    raw = message(ADA, "STATUS")
    assert [receive(table.ports, receipt(raw)) for _ in range(2)] == [Outcome.ANSWERED, Outcome.REDELIVERED]
    assert len(table.fakes.mailer.sent) == 1


def test_the_answer_goes_only_to_the_registered_address_that_sent() -> None:
    table = round_one()
    mail = EmailMessage()
    mail["From"] = "Ada <ADA@example.COM>"
    mail["To"] = f"{MID}@play.test"
    mail["Cc"] = "eve@example.net"
    mail["Reply-To"] = "eve@example.net"
    mail["Subject"] = "my move"
    mail.set_content("PUSH ada RIGHT")

    receive(table.ports, receipt(mail.as_bytes()))

    [sent] = table.fakes.mailer.sent
    assert sent.to == ADA
    assert parse_message(sent.raw).to == ("ada@example.com",)


# -- who may write -----------------------------------------------------------------------------


def other_match(table: Table) -> None:
    """A second match on the same fakes, Cy's (m-000000000002)."""
    Table.open(table.fakes, players=("cy", "di"), emails={"cy": "cy@example.com"})
    table.fakes.mailer.sent.clear()


REFUSED = [
    pytest.param(ADA, replace(PASSING, dkim="FAIL"), ["dkim_fail"], id="a forged From (DKIM FAIL)"),
    pytest.param(ADA, replace(PASSING, spam="FAIL"), ["spam_fail"], id="spam"),
    pytest.param("eve@example.net", PASSING, ["unregistered_sender"], id="an unknown sender"),
    pytest.param("cy@example.com", PASSING, ["unregistered_sender"], id="a player of another match"),
]


@pytest.mark.parametrize(("sender", "verdicts", "codes"), REFUSED)
def test_a_message_that_may_not_be_read_changes_nothing_sends_nothing_and_logs_no_contents(
    caplog: pytest.LogCaptureFixture, sender: str, verdicts: Verdicts, codes: list[str]
) -> None:
    table = round_one()
    other_match(table)
    events = table.events()
    caplog.set_level(logging.DEBUG)

    outcome = send(table, sender, f"{SECRET_MOVE}\nGROUND ICE", verdicts=verdicts)

    assert outcome is Outcome.REFUSED
    assert table.fakes.store.submissions(MID, 2) == {}
    assert table.fakes.mailer.sent == []
    assert table.events() == events
    [record] = [record for record in caplog.records if record.getMessage() == "mail refused"]
    assert (record.match_id, record.reasons) == (MID, codes)  # type: ignore[attr-defined]
    assert record.sender_domain == sender.rpartition("@")[2].lower()  # type: ignore[attr-defined]
    logged = "".join(json.dumps(r.__dict__, default=str) + r.getMessage() for r in caplog.records)
    assert SECRET_MOVE not in logged and "ICE" not in logged and sender.lower() not in logged.lower()


def test_a_message_without_content_or_to_no_known_match_is_dropped() -> None:
    table = round_one()

    assert receive(table.ports, replace(receipt(b""), content=None)) is Outcome.NO_CONTENT
    raw = message(ADA, "PUSH ada RIGHT", subject="my move")
    assert receive(table.ports, receipt(raw, match_id="m-0000000000ff")) is Outcome.NO_MATCH
    assert table.fakes.mailer.sent == [] and table.fakes.store.submissions(MID, 2) == {}


# -- commands ----------------------------------------------------------------------------------


def test_status_answers_the_players_view_deadline_what_they_sent_and_garnets() -> None:
    table = round_one()
    table.turn("ada", "Round 1", push("ada", 4), ground="ice")

    send(table, ADA, "  status  \nanything below is not read")

    text = the_answer(table)
    assert "Pushing Crates: round 1 of 6." in text and "Your multipliers (rounds 1-6):" in text
    assert "Round 1 closes Tuesday 1 December, 14:00 UTC, in 1 hour." in text
    assert "What stands from you for Round 1:\n  PUSH ada RIGHT 4\n  GROUND ICE" in text
    assert "Your garnets: 5 (1 of them held by what you have sent)." in text


def test_help_answers_the_grammar_of_the_open_phase() -> None:
    table = round_one()

    send(table, BO, "Help")

    text = the_answer(table)
    assert text.startswith("Hello bo,\n\nTo play, reply to this mail with your move for Round 1:")
    assert "PUSH <player> LEFT|RIGHT [times]" in text and "MULTIPLIERS <six numbers>" in text


ZONE_ANSWERS = [
    # Round 1 closes Tuesday 1 December 14:00 UTC, an hour from 13:00: 15:00 in Paris (UTC+1 in
    # winter), 01:00 on Wednesday in Sydney (UTC+11 in its summer): UTC's day named there
    pytest.param(
        "ZONE Europe/Paris",
        "Europe/Paris",
        [
            "Done: your mail gives deadlines in Europe/Paris time from now on.",
            "Round 1 closes Tuesday 1 December, 15:00 (Europe/Paris) - 14:00 UTC,",  # 80 columns: folded
            "in 1 hour.",
        ],
        id="a zone",
    ),
    pytest.param(
        "zone australia/sydney",
        "Australia/Sydney",
        [
            "Done: your mail gives deadlines in Australia/Sydney time from now on.",
            "Round 1 closes Wednesday 2 December, 01:00 (Australia/Sydney) -",  # a date is never parted
            "Tuesday 1 December, 14:00 UTC, in 1 hour.",
        ],
        id="any case, another day there",
    ),
    pytest.param(
        "ZONE Paris",
        None,
        ["ZONE PARIS was not done:", "  - 'PARIS' is not a time zone; did you mean Europe/Paris?"],
        id="a city: refused, the zone suggested",
    ),
    pytest.param(
        "ZONE",
        None,
        ["ZONE was not done:", "  - a time zone's name goes after ZONE, e.g. ZONE Europe/Paris"],
        id="no zone named",
    ),
]


@pytest.mark.parametrize(("text", "zone", "answer"), ZONE_ANSWERS)
def test_zone_sets_where_the_participants_mail_gives_deadlines(text: str, zone: str | None, answer: list[str]) -> None:
    table = round_one()

    send(table, ADA, text)

    assert the_answer(table) == "\n".join(["Hello ada,", "", *answer])
    ada, bo = table.fakes.store.get(MID).players
    assert (ada.zone, bo.zone) == (zone, None)  # Bo's mail keeps UTC


def test_the_next_notice_gives_the_deadline_in_the_zone_set_by_mail() -> None:
    table = round_one()
    send(table, ADA, "ZONE America/Los_Angeles")
    table.fakes.mailer.sent.clear()

    table.resolve_at_deadline()

    # Round 2 opens at 14:00 UTC for an hour: 15:00 UTC is 07:00 in Los Angeles (UTC-8 in winter)
    notices = {mail.to: parse_message(mail.raw).text for mail in table.fakes.mailer.sent}
    assert "Round 2 closes Tuesday 1 December, 07:00 (America/Los_Angeles) - 15:00 UTC,\nin 1 hour." in notices[ADA]
    assert "Round 2 closes Tuesday 1 December, 15:00 UTC, in 1 hour." in notices[BO]


def outlook_inline(comment: str, second: str = "") -> str:
    """Outlook's reply with inline comments, plain part: nothing above its header block, the old
    notice unquoted below it (its example moves too), the sender's lines inside it."""
    return "\n".join(
        [
            "",
            "_" * 32,
            f"From: Pushing Crates {MID} <{MID}@play.test>",
            "Sent: Tuesday, December 1, 2026 1:00 PM",
            "To: Ada",
            f"Subject: [{MID}] Round 1",
            "",
            "Hello ada,",
            "To play, reply to this mail with your move for Round 1:",
            comment,
            "  PUSH bo LEFT 2",
            "  GROUND ICE",
            second,
        ]
    )


INSIDE = "Nothing was submitted: your mail was not understood.\n  - nothing is written above the quoted mail"


@pytest.mark.parametrize(
    ("text", "stored", "answered"),
    [
        (
            outlook_inline("[AO] PUSH ada RIGHT"),
            {"round": {"pushes": push("ada"), "ground": "stone"}},
            "Accepted for Round 1:",
        ),
        (
            outlook_inline("[Alex O'Brien]  push ada right", "[alex o'brien] GROUND ICE"),
            {"round": {"pushes": push("ada"), "ground": "ice"}},
            "Accepted",
        ),
        (outlook_inline("PUSH ada RIGHT"), {}, INSIDE),
        (outlook_inline("[AO] PUSH ada RIGHT", "[AB] GROUND ICE"), {}, INSIDE),
    ],
    ids=["marked with initials", "marked with a name, any case", "unmarked: refused", "two marks: whose?"],
)
def test_outlooks_inline_comments_are_read_only_where_marked(text: str, stored: dict, answered: str) -> None:
    # The example lines of the old notice (PUSH bo LEFT 2, GROUND ICE) are never read: a marked
    # line alone is the sender's; with none, the answer asks for the moves above the quote
    table = round_one()

    send(table, ADA, text)

    assert table.fakes.store.submissions(MID, 2) == ({"ada": stored} if stored else {})
    assert answered in the_answer(table)
    if not stored:
        assert "write your moves above the quoted mail" in " ".join(the_answer(table).split())


def test_a_host_command_retried_after_its_answer_failed_acts_once() -> None:
    # SES fails after EXTEND 2 moved the deadline; the Lambda's retry must not move it again
    table = round_one()
    deadline = table.deadline()
    raw = message(HOST, "EXTEND 2")
    sending = table.fakes.mailer.send

    def unavailable(_mail: object) -> None:
        raise RuntimeError("SES is unavailable")

    table.fakes.mailer.send = unavailable  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        receive(table.ports, receipt(raw))
    table.fakes.mailer.send = sending  # type: ignore[method-assign]

    assert receive(table.ports, receipt(raw)) == Outcome.REDELIVERED
    assert (table.deadline() - deadline).total_seconds() == 7200  # 2 hours, once


def test_the_host_extends_pauses_resumes_and_resolves_now_by_mail() -> None:
    table = round_one()
    deadline = table.deadline()

    send(table, HOST, "EXTEND 2")
    assert (table.deadline() - deadline).total_seconds() == 7200
    assert "Done: EXTEND 2.\nRound 1 closes Tuesday 1 December, 16:00 UTC, in 3 hours." in the_answer(table)

    table.fakes.mailer.sent.clear()
    send(table, HOST, "pause")
    assert table.match().phase.paused  # type: ignore[union-attr]
    assert "Round 1 is paused by the host" in the_answer(table)

    send(table, HOST, "Resume")
    assert not table.match().phase.paused  # type: ignore[union-attr]

    send(table, HOST, "resolve now")
    assert table.match().phase.resolve_requested  # type: ignore[union-attr]
    assert [event.type for event in table.events()][-4:] == ["extended", "paused", "resumed", "resolve_requested"]
    assert [to for to, _letter in answers(table)] == [HOST] * 3


def test_the_hosts_status_says_who_has_sent_never_what() -> None:
    table = round_one()
    table.turn("ada", "Round 1", push("ada"), ground="ice")

    send(table, HOST, "STATUS")

    text = the_answer(table)
    assert f"Match {MID} (crates) is running; 1 phase resolved." in text
    assert "Sent: ada\nWaiting for: bo" in text and "Round 1 closes" in text
    assert "ICE" not in text


def test_the_hosts_mail_gives_deadlines_in_the_zone_of_the_settings_file() -> None:
    # Round 1 closes Tuesday 1 December 14:00 UTC: 23:00 in Tokyo (UTC+9, no daylight saving)
    table = round_one(host_zone="asia/tokyo")  # any case, kept in the zone's own spelling
    assert table.match().host_zone == "Asia/Tokyo"

    send(table, HOST, "STATUS")

    assert the_answer(table).endswith("\nRound 1 closes Tuesday 1 December, 23:00 (Asia/Tokyo) - 14:00 UTC, in 1 hour.")


def test_the_host_sets_their_zone_by_mail_and_their_next_answers_use_it() -> None:
    # 14:00 UTC is 09:00 in New York (UTC-5 in winter); the line is 83 columns, folded before "in"
    table = round_one()

    send(table, HOST, "ZONE America/New_York")
    assert the_answer(table) == "\n".join(
        [
            "Hello,",
            "",
            "Done: your mail gives deadlines in America/New_York time from now on.",
            "Round 1 closes Tuesday 1 December, 09:00 (America/New_York) - 14:00 UTC,",
            "in 1 hour.",
        ]
    )
    match = table.match()
    assert match.host_zone == "America/New_York" and [p.zone for p in match.players] == [None, None]

    table.fakes.mailer.sent.clear()
    send(table, HOST, "EXTEND 2")  # 16:00 UTC, 11:00 in New York, three hours from 13:00
    assert the_answer(table).endswith(
        "Done: EXTEND 2.\nRound 1 closes Tuesday 1 December, 11:00 (America/New_York) - 16:00 UTC,\nin 3 hours."
    )


@pytest.mark.parametrize("command", ["EXTEND 2", "PAUSE", "RESUME", "RESOLVE NOW"])
def test_a_host_command_from_a_player_is_refused_and_changes_nothing(command: str) -> None:
    table = round_one()
    before = table.match()

    send(table, BO, command)

    assert table.match() == before
    assert f"{command} was not done:\n  - only the host may send {command.split()[0]}" in the_answer(table)


def test_a_refused_host_command_is_answered_with_its_reasons() -> None:
    table = round_one()

    send(table, HOST, "EXTEND soon")
    assert "  - EXTEND takes whole hours, 1 to 8784: e.g. EXTEND 2" in the_answer(table)

    table.fakes.mailer.sent.clear()
    send(table, HOST, "RESUME")  # the clock is not paused
    assert "RESUME was not done:" in the_answer(table)


def test_a_host_who_plays_runs_the_hosts_commands_and_plays_the_rest() -> None:
    table = round_one(host_email=ADA)

    send(table, ADA, "PAUSE")
    send(table, ADA, "PUSH ada RIGHT")

    assert table.match().phase.paused  # type: ignore[union-attr]
    assert table.fakes.store.submissions(MID, 2) == {"ada": {"round": {"pushes": push("ada"), "ground": "stone"}}}
    assert [to for to, _letter in answers(table)] == [ADA, ADA]


# -- what of a mail is read ------------------------------------------------------------------------

NOT_READ = "Not read (taken for a greeting or a sign-off):"


@pytest.mark.parametrize(
    ("text", "stored", "unread"),
    [
        ("PUSH ada RIGHT\n\nCheers,\nCara", {"round": {"pushes": push("ada"), "ground": "stone"}}, ["Cheers,", "Cara"]),
        (
            "Hello all,\nPUSH ada RIGHT\nthanks",
            {"round": {"pushes": push("ada"), "ground": "stone"}},
            ["Hello all,", "thanks"],
        ),
        ("Dear host:\n\npush ada right", {"round": {"pushes": push("ada"), "ground": "stone"}}, ["Dear host:"]),
        # Outlook's signature: a name and a phone line, no "-- "; the phone line is no short form
        # of multipliers (six numbers alone), being below a line not understood
        (
            "2 1 1 0 -1 -1\n\nAlex O'Brien – Team Captain\n+44 20 7946 0958",
            {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}},
            ["Alex O'Brien – Team Captain", "+44 20 7946 0958"],
        ),
        (
            "PUSH ada RIGHT\n2 1 1 0 -1 -1",
            {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}, "round": {"pushes": push("ada"), "ground": "stone"}},
            [],
        ),
    ],
)
def test_a_move_with_a_greeting_or_a_sign_off_is_taken_and_the_answer_lists_what_was_not_read(
    text: str, stored: dict[str, Any], unread: list[str]
) -> None:
    table = round_one()

    send(table, ADA, text)

    assert table.fakes.store.submissions(MID, 2) == {"ada": stored}
    answer = the_answer(table)
    assert "Accepted for Round 1:" in answer
    if unread:
        assert answer.endswith("\n".join([NOT_READ, *("  " + line for line in unread)]))
    else:
        assert NOT_READ not in answer


@pytest.mark.parametrize(
    ("text", "reasons"),
    [
        # nothing in it is a move or a command: every line it could not read
        ("Cheers,\nCara", ['line 1 "Cheers,": not understood', 'line 2 "Cara": not understood']),
        # a line not understood between moves: a typo inside a move is never dropped
        ("PUSH ada RIGHT\nPUHS bo LEFT\nGROUND ICE", ['line 2 "PUHS bo LEFT": not understood']),
        # a line in the grammar's words said wrongly, even last
        ("PUSH ada RIGHT\nGROUND LAVA\n\nCheers", ['line 2 "GROUND LAVA": "LAVA" is not a ground']),
        # above the moves, what is no greeting is read
        ("I push\nPUSH ada RIGHT", ['line 1 "I push": not understood']),
        # two different moves of one kind
        (
            "MULTIPLIERS 2 1 1 0 -1 -1\nMULTIPLIERS -1 2 1 -1 0 1",
            ['line 2 "MULTIPLIERS -1 2 1 -1 0 1": MULTIPLIERS was already said on line 1'],
        ),
    ],
)
def test_a_mail_not_understood_takes_nothing_and_says_which_lines(text: str, reasons: list[str]) -> None:
    table = round_one()

    send(table, ADA, text)

    assert table.fakes.store.submissions(MID, 2) == {}
    answer = the_answer(table)
    assert "Nothing was submitted: your mail was not understood." in answer
    unfolded = answer.replace("\n    ", " ")  # a reason folded at 78 columns goes on under itself
    listed = [line.removeprefix("  - ") for line in unfolded.split("\n") if line.startswith("  - ")]
    assert len(listed) == len(reasons) and all(
        line.startswith(reason) for line, reason in zip(listed, reasons, strict=True)
    )


@pytest.mark.parametrize("text", ["PUSH ada RIGHT\nSTATUS", "status\n\npush ada right\n\nCheers"])
def test_a_move_and_status_in_one_mail_do_both(text: str) -> None:
    table = round_one()

    send(table, ADA, text)

    assert table.fakes.store.submissions(MID, 2) == {"ada": {"round": {"pushes": push("ada"), "ground": "stone"}}}
    answer = the_answer(table)
    # the move first, then the standing it leaves
    accepted, status = answer.index("Accepted for Round 1:"), answer.index("What stands from you for Round 1:")
    assert accepted < status
    assert "What stands from you for Round 1:\n  PUSH ada RIGHT\n  GROUND STONE" in answer


def test_the_host_extends_below_the_quoted_notice_with_a_sign_off() -> None:
    table = round_one()
    deadline = table.deadline()

    send(
        table,
        HOST,
        "On Tue, 1 Dec 2026 at 13:00, Crates <x@play.test> wrote:\n> Round 1 is open\n\n"
        "Hi all,\nextend 2\n\nThanks,\nHost",
    )

    assert (table.deadline() - deadline).total_seconds() == 7200
    assert the_answer(table).startswith("Hello,\n\nDone: EXTEND 2.\n")
    assert the_answer(table).endswith(f"{NOT_READ}\n  Hi all,\n  Thanks,\n  Host")


# -- replies to an earlier phase's mail ----------------------------------------------------------


def reply_to(table: Table, answered: bytes, text: str, message_id: str = "<r1@example.com>") -> Outcome:
    """Ada's reply to a mail the match sent her, threaded under it."""
    mail = EmailMessage()
    mail["From"] = ADA
    mail["To"] = f"{MID}@play.test"
    mail["Subject"] = "Re: the notice"
    mail["Message-ID"] = message_id
    mail["In-Reply-To"] = parse_message(answered).message_id
    mail.set_content(text)
    return receive(table.ports, receipt(mail.as_bytes()))


def to_ada(table: Table) -> bytes:
    """The latest mail the match sent Ada."""
    return [mail.raw for mail in table.fakes.mailer.sent if mail.to == ADA][-1]


def pregame_and_round_one() -> tuple[Table, bytes, bytes]:
    """Round 1 open, and the notices Ada was sent for the Pregame (phase 1) and Round 1 (phase 2)."""
    table = Table.open(emails={"ada": ADA, "bo": BO}, host_email=HOST)
    pregame = to_ada(table)
    table.resolve_at_deadline()
    round_1 = to_ada(table)
    table.fakes.mailer.sent.clear()
    return table, pregame, round_1


def test_each_mail_of_the_match_says_its_phase_in_its_message_id() -> None:
    table, pregame, round_1 = pregame_and_round_one()
    send(table, ADA, "STATUS")

    assert parse_message(pregame).message_id.startswith(f"<{MID}.1.")
    assert parse_message(round_1).message_id.startswith(f"<{MID}.2.")
    [(_, answer)] = answers(table)
    assert answer.message_id.startswith(f"<{MID}.2.")


def test_a_reply_to_an_earlier_phases_notice_is_not_taken_for_the_open_phase() -> None:
    table, pregame, _ = pregame_and_round_one()

    reply_to(table, pregame, "PUSH ada RIGHT")

    assert table.fakes.store.submissions(MID, 2) == {}
    assert the_answer(table) == "\n".join(
        [
            "Hello ada,",
            "",
            "Nothing was submitted: your mail answers the mail for phase 1 (Pregame),",
            "and phase 2 (Round 1) is open now.",
            "To send your moves for Round 1, reply to this mail with them,",
            "or name the phase above them (HELP shows how).",
            "",
            "You have sent nothing for Round 1 yet.",
            "",
            "Round 1 closes Tuesday 1 December, 14:00 UTC, in 1 hour.",
        ]
    )


def test_a_reply_to_the_answer_that_refused_it_or_naming_the_open_phase_is_taken() -> None:
    table, pregame, _ = pregame_and_round_one()
    reply_to(table, pregame, "PUSH ada RIGHT")
    [refusal] = table.fakes.mailer.sent
    table.fakes.mailer.sent.clear()

    reply_to(table, refusal.raw, "PUSH ada RIGHT", message_id="<r2@example.com>")
    assert table.fakes.store.submissions(MID, 2) == {"ada": {"round": {"pushes": push("ada"), "ground": "stone"}}}

    table.fakes.mailer.sent.clear()
    reply_to(table, pregame, "ROUND 1\nPUSH bo LEFT", message_id="<r3@example.com>")  # names the open phase
    assert table.fakes.store.submissions(MID, 2) == {
        "ada": {"round": {"pushes": push("bo", direction="left"), "ground": "stone"}}
    }
    assert "Accepted for Round 1:" in the_answer(table)


def test_a_reply_to_an_earlier_phase_may_still_ask_for_status() -> None:
    table, pregame, _ = pregame_and_round_one()

    reply_to(table, pregame, "STATUS")

    assert "You have sent nothing for Round 1 yet." in the_answer(table)
    assert "Nothing was submitted" not in the_answer(table)


@pytest.mark.parametrize("text", ["Hello there", "PUSH ada RIGHT"])
def test_a_mail_from_the_host_that_holds_no_command_is_answered_with_the_hosts_commands(text: str) -> None:
    table = round_one()
    before = table.match()

    send(table, HOST, text)

    assert table.match() == before and table.fakes.store.submissions(MID, 2) == {}
    assert the_answer(table).startswith("Hello,\n\nYour mail is not one of the host's commands.\n\nThe host's commands")


def test_a_client_resend_with_a_new_ses_id_is_answered_once_and_submits_once() -> None:
    table = round_one()
    raw = message(ADA, "PUSH ada RIGHT")
    assert receive(table.ports, receipt(raw, ses_id="ses-first")) is Outcome.ANSWERED

    # Ada's client sends the very message again (same Message-ID); SES gives it a new id
    assert receive(table.ports, receipt(raw, ses_id="ses-resent")) is Outcome.REDELIVERED
    assert [to for to, _letter in answers(table)] == [ADA]
    assert len(table.events("submission_accepted")) == 1

    # Bo's message carrying the same Message-ID is his own: read and answered
    ada_id = client_message_id(ADA, f"[{MID}] Round 1", "PUSH ada RIGHT")
    assert receive(table.ports, receipt(message(BO, "PUSH bo LEFT", message_id=ada_id))) is Outcome.ANSWERED
    assert [to for to, _letter in answers(table)] == [ADA, BO]
