"""An answer to a mail keeps one Message-ID however often it is sent (issue 32): a crash between
sending the answer and marking the message answered (the laptop killed there, a Lambda timing
out) answers the redelivery again, and the sender then gets the same answer twice under one
Message-ID, which their mail client shows once, as it does a notice sent again."""

from __future__ import annotations

from test_service_mail_in import ADA, BO, answers, message, receipt, round_one

from game_core.service.mail.receive import Outcome, receive


def test_an_answer_sent_again_after_a_crash_before_it_was_marked_keeps_its_message_id() -> None:
    # Given Ada's STATUS, answered, and the mark that it was answered lost (the crash)
    table = round_one()
    raw = message(ADA, "STATUS")
    marking = table.fakes.store.mark_answered

    def crash(*_args: object) -> None:
        raise RuntimeError("killed before the mark was stored")

    table.fakes.store.mark_answered = crash  # type: ignore[method-assign]
    try:
        receive(table.ports, receipt(raw))
    except RuntimeError:
        pass
    table.fakes.store.mark_answered = marking  # type: ignore[method-assign]

    # When her client sends it again (no 250 came), and Bo sends his own STATUS
    again = receive(table.ports, receipt(raw))
    receive(table.ports, receipt(message(BO, "STATUS")))

    # Then Ada's second answer is the first one's repeat: one Message-ID, answering her one mail;
    # Bo's answer has a Message-ID of its own
    assert again == Outcome.ANSWERED
    (ada, ada_again), (bo,) = ([letter for to, letter in answers(table) if to == who] for who in (ADA, BO))
    assert ada.message_id == ada_again.message_id and ada.in_reply_to == ada_again.in_reply_to
    assert bo.message_id != ada.message_id
