"""What a mail's answer says beyond the moves: bounded lists of what was not read or understood,
the deadline as the mail's own acts left it, and a move written where nothing is read."""

from __future__ import annotations

from email.message import EmailMessage

from crates_driver import push
from test_service_mail_in import ADA, HOST, MID, receipt, round_one, send, the_answer

from game_core.service.mail.receive import receive

LOG_LINE = "2026-12-01T13:00:00Z INFO worker-7 request handled in 12 ms; queue depth 0; cache warm, nothing evicted"


def test_host_status_after_extend_in_one_mail_gives_the_extended_deadline_in_both_parts() -> None:
    # Round 1 closes at 14:00 and it is 13:00: EXTEND 2 makes it 16:00, three hours away; the
    # STATUS below it in the same mail must say 16:00 too, not the 14:00 read before the act
    table = round_one()

    send(table, HOST, "EXTEND 2\nSTATUS")

    answer = the_answer(table)
    assert answer.count("Round 1 closes Tuesday 1 December, 16:00 UTC, in 3 hours.") == 2
    assert "14:00" not in answer


def test_a_pasted_log_below_a_move_is_counted_and_only_its_first_five_lines_quoted() -> None:
    # 1,000 log lines under the move (110 KB: a body is read up to 150 KB): five quoted, each cut
    # to fit 78 columns, and 995 counted
    table = round_one()
    log = [f"{LOG_LINE} #{number}" for number in range(1000)]

    send(table, ADA, "\n".join(["PUSH ada RIGHT", "", *log]))

    assert table.fakes.store.submissions(MID, 2) == {"ada": {"round": {"pushes": push("ada"), "ground": "stone"}}}
    answer = the_answer(table)
    assert "Not read: 1,000 lines above or below what was read; the first 5:" in answer
    assert answer.endswith("  ... and 995 more")
    assert answer.count("worker-7") == 5 and "taken for a greeting" not in answer
    quoted = [line for line in answer.split("\n") if "worker-7" in line]
    assert len(answer) < 3000 and [len(line) for line in quoted] == [2 + 69 + 3] * 5  # "  ", 69 kept, "..."


def test_a_pasted_text_not_understood_lists_five_reasons_and_counts_the_rest() -> None:
    # 300 lines, none a move: five reasons (lines 1 to 5), then one counting the other 295
    table = round_one()

    send(table, ADA, "\n".join(f"{LOG_LINE} #{number}" for number in range(300)))

    answer = the_answer(table).replace("\n    ", " ")
    listed = [line for line in answer.split("\n") if line.startswith("  - ")]
    assert [line[: len(f"  - line {n} ")] for n, line in enumerate(listed[:5], 1)] == [
        f"  - line {n} " for n in range(1, 6)
    ]
    assert listed[5:] == ["  - ... and 295 more lines not understood"]
    assert table.fakes.store.submissions(MID, 2) == {}


def subject_only(subject: str) -> bytes:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = ADA, f"{MID}@play.test", subject
    mail["Message-ID"] = f"<{abs(hash(subject))}@example.com>"
    mail.set_content("")
    return mail.as_bytes()


def test_a_move_written_only_in_the_subject_is_answered_saying_only_the_body_is_read() -> None:
    table = round_one()

    receive(table.ports, receipt(subject_only(f"Re: [{MID}] Round 1: push ada right")))

    answer = the_answer(table).replace("\n    ", " ")
    assert 'your subject "push ada right" is read as nothing: only the body of a mail is read' in answer
    assert table.fakes.store.submissions(MID, 2) == {}


def test_an_empty_reply_under_the_notices_own_subject_gets_no_word_on_the_subject() -> None:
    table = round_one()

    receive(table.ports, receipt(subject_only(f"Re: [{MID}] Round 1")))

    assert "your subject" not in the_answer(table)
