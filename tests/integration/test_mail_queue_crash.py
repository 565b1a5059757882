"""The laptop's mail queue across crashes (local_stack/laptop/mail_queue.py, docs/hosts/own-mail.md).

- A message queued again after the relay took it (a step retried after a crash between its send
  and its mark, an answer to a redelivered mail: the same Message-ID) is not sent again: the
  queue remembers for 24 hours what the relay took.
- A crash in the middle of a send (the relay took the message, the queue had not yet noted it)
  sends it again at the next start. SMTP has no way to ask a relay whether it took a message, so
  this cannot be closed; the recipient gets the same message twice, byte for byte, under one
  Message-ID.

Time is a virtual clock: nothing waits."""

from __future__ import annotations

import shutil
from pathlib import Path

from game_core.service.ports import OutgoingMail
from local_stack.aws.clock import VirtualClock
from local_stack.aws.mail import Refusal
from local_stack.laptop.mail_queue import MailQueue

RAW = (
    b"From: m-0123456789ab@play.local\r\nTo: ada@example.com\r\nSubject: [m-0123456789ab] Round 1\r\n"
    b"Message-ID: <m-0123456789ab.1.5f0c@play.local>\r\n\r\nRound 1 is open.\r\n"
)


class Relay:
    """A relay that takes every message; as it takes the first, the data folder is copied as a
    crash at that instant would leave it (with `crashed`)."""

    where = "relay.example:587"
    timeout = 1.0

    def __init__(self, data: Path, crashed: Path | None = None) -> None:
        self.data, self.crashed = data, crashed
        self.taken: list[bytes] = []
        self.to: list[tuple[str, ...]] = []

    def send(self, message: bytes, recipients: tuple[str, ...]) -> dict[str, Refusal]:
        self.taken.append(message)
        self.to.append(recipients)
        if len(self.taken) == 1 and self.crashed is not None:
            shutil.copytree(self.data, self.crashed)
        return {}


def sent_through(queue: MailQueue, *mails: OutgoingMail) -> list[str]:
    """Start `queue`, queue `mails`, let it send what is due, stop it; the ids left waiting."""
    queue.start()
    try:
        for mail in mails:
            queue.put(mail)
        queue.settle()
        return [waiting.id for waiting in queue.waiting()]
    finally:
        queue.stop()


def test_a_message_the_relay_took_just_before_a_crash_is_sent_again_the_same(tmp_path: Path) -> None:
    data, crashed = tmp_path / "data", tmp_path / "crashed"
    data.mkdir()
    relay = Relay(data, crashed)
    clock = VirtualClock()

    # Given the relay takes a notice, and the laptop dies before the queue notes it taken
    left = sent_through(MailQueue(data, relay, clock), OutgoingMail(to="ada@example.com", raw=RAW))  # type: ignore[arg-type]

    # When the server starts again on the folder as the crash left it
    left_after_restart = sent_through(MailQueue(crashed, relay, clock))  # type: ignore[arg-type]

    # Then the relay has it twice: the very same message (its Message-ID once in each), and
    # nothing waits any more in either folder
    assert relay.taken == [RAW, RAW]
    assert (left, left_after_restart) == ([], [])


def test_a_message_the_relay_took_is_not_sent_again_when_queued_again_within_24_hours(tmp_path: Path) -> None:
    relay = Relay(tmp_path)
    clock = VirtualClock()
    ada = OutgoingMail(to="ada@example.com", raw=RAW)
    other = OutgoingMail(to="ada@example.com", raw=RAW.replace(b".1.5f0c@", b".1.77aa@"))

    # Given a notice to Ada the relay took
    sent_through(MailQueue(tmp_path, relay, clock), ada)  # type: ignore[arg-type]

    # When, after a restart, the step that sent it runs again (its mark lost to a crash), with
    # the same message to Bo and another message to Ada; and once more 24 hours later
    bo = OutgoingMail(to="bo@example.org", raw=RAW)
    sent_through(MailQueue(tmp_path, relay, clock), ada, bo, other)  # type: ignore[arg-type]
    clock.advance_to(clock.time() + 24 * 3600 + 1)
    sent_through(MailQueue(tmp_path, relay, clock), ada)  # type: ignore[arg-type]

    # Then Ada got the notice once in those 24 hours (and again after them: forgotten by then),
    # Bo his copy, and the other message went
    assert list(zip(relay.to, relay.taken, strict=True)) == [
        (("ada@example.com",), RAW),
        (("bo@example.org",), RAW),
        (("ada@example.com",), other.raw),
        (("ada@example.com",), RAW),
    ]
