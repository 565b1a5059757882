"""The laptop's mail across a SIGKILL of the host server at each point of a message's way out
(issue 32): a phase's resolution notice (the machine's `Advance` tells it; a new execution after the
restart announces again what was stored but not marked told) and a STATUS mail's answer (the
player's client, which got no 250, sends the mail again). Each point is a copy of the data folder
as the kill there would leave it, and a server started on the copy:

- queued: the service's mail is in `mail-queue.json`, the relay has not taken it;
- relayed: the relay took it, the queue has not yet noted so (SMTP cannot ask the relay after);
- noted: the queue noted the relay took it, the service has not marked the occasion told;
- marked: the service marked it told (the notice announced, the STATUS mail answered).

What reaches the relay is what the players get: each message once, but at "relayed", where the
relay has the first message twice, the same bytes under one Message-ID (docs/LOAD.md's table of
what may still be told twice). What the outbox folder keeps is every send, the repeats the queue
drops included: the outbox is the host's copy, not what was delivered, so `bin/bench load` counts
deliveries at a relay of its own (benchmarks/load_mail.py's `MailSink`).

Time is each server's virtual clock; nothing waits on the wall clock but for threads to meet.
"""

from __future__ import annotations

import email
import email.policy
import shutil
import threading
from collections import Counter
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from conftest import crates_request
from test_host_server import START, Catcher, environment, host, serve  # noqa: F401 - environment: autouse

from game_core.service.ports import OutgoingMail
from local_stack.aws.clock import VirtualClock
from local_stack.aws.mail import SmtpRelay
from local_stack.laptop.mail_queue import message_id_of
from local_stack.laptop.server import HostServer
from local_stack.laptop.smtp import SmtpListener

pytestmark = pytest.mark.statemachine

ADDRESSES = {"ada": "ada@example.com", "bo": "bo@example.org", "cy": "cy@example.net"}
MATCH = crates_request(list(ADDRESSES), phase_seconds=7 * 86400, reminders=[])
MATCH["players"] = [{"id": who, "name": who.title(), "email": address} for who, address in ADDRESSES.items()]
"""Three players with an address, a week's phase (it resolves when the host says), no reminders."""
MEET_SECONDS = 60
"""Real seconds a thread waits for another at a kill point (a loaded machine is slow)."""
KILLS = [
    # (where the kill falls, times the relay gets the message followed, times the outbox keeps it)
    ("queued", 1, 2),
    ("relayed", 2, 2),
    ("noted", 1, 2),
    ("marked", 1, 1),
]


class KillPoint:
    """The first message the server sends from now on, followed on its way out: the data
    folder copied to `copy` at `point`, and how many messages the relay had then (what the
    players had got before the kill)."""

    def __init__(self, server: HostServer, point: str, copy: Path, catcher: Catcher, monkeypatch: Any) -> None:
        assert server.mail_queue is not None
        self.server, self.point, self.copy, self.catcher = server, point, copy, catcher
        self.queue = server.mail_queue
        self.first: tuple[str, str] | None = None
        """(Message-ID, recipient) of the message followed."""
        self.copied = threading.Event()
        self.relayed_at_kill = -1
        self._put, self._send = self.queue.put, self.queue.relay.send
        monkeypatch.setattr(server.stack.outbox, "relay", self._putting)
        monkeypatch.setattr(self.queue.relay, "send", self._sending)

    def kill(self) -> None:
        """The folder as a SIGKILL now leaves it (the server itself goes on: what it does after
        is not counted)."""
        shutil.copytree(self.server.data, self.copy)
        self.relayed_at_kill = len(self.catcher.envelopes)
        self.copied.set()

    def _followed(self, raw: bytes, recipients: Any) -> bool:
        return self.first is not None and (message_id_of(raw), tuple(recipients)) == (self.first[0], (self.first[1],))

    def _putting(self, mail: OutgoingMail) -> None:
        first = self.first is None
        if first:
            self.first = (message_id_of(mail.raw), mail.to)
        self._put(mail)
        if not first:
            return
        if self.point == "queued":
            self.kill()
        elif self.point == "relayed":  # the service goes on only after the kill
            assert self.copied.wait(MEET_SECONDS)
        elif self.point == "noted":
            self.queue.settle()
            self.kill()

    def _sending(self, raw: bytes, recipients: Any) -> Any:
        followed = self._followed(raw, recipients)
        if followed and self.point == "queued":  # the relay takes it only after the kill
            assert self.copied.wait(MEET_SECONDS)
        refused = self._send(raw, recipients)
        if followed and self.point == "relayed":
            self.kill()
        return refused


def delivered(envelopes: list[Any]) -> Counter[tuple[str, str]]:
    """(recipient, Message-ID) of each message the relay took, counted."""
    return Counter((to, message_id_of(envelope.original_content)) for envelope in envelopes for to in envelope.rcpt_tos)


def kept_in_outbox(data: Path) -> Counter[tuple[str, str]]:
    """(recipient, Message-ID) of each message in the outbox folder, counted."""
    letters = [
        email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        for path in (data / "outbox").glob("*.eml")
    ]
    return Counter((str(letter["To"]), str(letter["Message-ID"])) for letter in letters)


def status_mail(match_id: str) -> bytes:
    """Ada's STATUS, as her client sends it (and sends again, the same bytes, without a 250)."""
    letter = EmailMessage()
    letter["From"], letter["To"] = "Ada <ada@example.com>", f"{match_id}@play.local"
    letter["Subject"], letter["Message-ID"] = "status", "<ada-status-1@example.com>"
    letter.set_content("STATUS\n")
    return letter.as_bytes()


def run_across_a_kill(
    tmp_path: Path, monkeypatch: Any, point: str, occasion: str
) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]], tuple[str, str]]:
    """What the relay took, and the outbox kept, of the occasion's mail (`occasion`: "notice" or
    "answer") across a kill at `point` and a server started again on the folder the kill left (the
    STATUS mail sent to it again); and the followed message's (recipient, Message-ID)."""
    data, copy = tmp_path / "data", tmp_path / "copy"
    catcher = Catcher()
    listener = SmtpListener(catcher, "127.0.0.1", 0)
    try:
        server = serve(data, VirtualClock(START), relay=SmtpRelay("127.0.0.1", listener.port, security="plain"))
        try:
            match_id = host(server, "create", match=MATCH)["match_id"]
            server.stack.settle()
            assert server.mail_queue is not None
            server.mail_queue.settle()
            opening, before = kept_in_outbox(data), len(catcher.envelopes)  # the match's opening mail
            kill = KillPoint(server, point, copy, catcher, monkeypatch)
            if occasion == "notice":  # the host resolves Pregame now: Advance resolves it and tells everyone
                host(server, "resolve_now", match_id=match_id)
            else:
                server.stack.mail_in.hand_in(status_mail(match_id), [f"{match_id}@play.local"], None)
            if point == "marked":  # the occasion told and marked (for the answer: its 250 not yet sent)
                server.stack.settle()
                server.mail_queue.settle()
                kill.kill()
            assert kill.copied.wait(MEET_SECONDS)
            moment = server.stack.clock.time()
            server.stack.settle()
        finally:
            server.__exit__()
        got = catcher.envelopes[before : kill.relayed_at_kill]

        # The server started again on the folder the kill left, at the same moment
        relay = SmtpRelay("127.0.0.1", listener.port, security="plain")
        again_from = len(catcher.envelopes)  # what waits in the queue goes as the server starts
        restored = serve(copy, VirtualClock(datetime.fromtimestamp(moment, UTC)), relay=relay)
        try:
            if occasion == "answer":  # no 250 came: Ada's client sends the same mail again
                restored.stack.mail_in.hand_in(status_mail(match_id), [f"{match_id}@play.local"], None)
            restored.stack.settle()
            assert restored.mail_queue is not None
            restored.mail_queue.settle()
            got += catcher.envelopes[again_from:]
        finally:
            restored.__exit__()
    finally:
        listener.stop()
    assert kill.first is not None
    return delivered(got), kept_in_outbox(copy) - opening, (kill.first[1], kill.first[0])


@pytest.mark.parametrize(("point", "relayed_times", "kept_times"), KILLS)
@pytest.mark.parametrize("occasion", ["notice", "answer"])
def test_a_kill_at_each_point_of_a_mails_way_out_delivers_it_once_but_between_the_relay_and_the_queues_note(
    tmp_path: Path, monkeypatch: Any, point: str, relayed_times: int, kept_times: int, occasion: str
) -> None:
    relayed, outbox, followed = run_across_a_kill(tmp_path, monkeypatch, point, occasion)

    # Then the relay took the occasion's mail: Pregame's resolution told in one letter to each of
    # the three players with an address, or the one answer to Ada's STATUS
    told = sorted(ADDRESSES.values()) if occasion == "notice" else ["ada@example.com"]
    assert sorted(to for to, _message_id in relayed) == told
    # ...each once, but the message the kill followed, twice only when the relay had taken it and
    # the queue had not noted so (the same bytes under one Message-ID)
    assert relayed == Counter({key: relayed_times if key == followed else 1 for key in relayed}), point
    # ...while the outbox kept every send: the followed one again after the restart unless the
    # occasion was marked told (the notice announced, the STATUS mail answered) before the kill
    assert outbox == Counter({key: kept_times if key == followed else 1 for key in relayed}), point
