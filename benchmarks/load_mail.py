"""The load benchmark's mail: STATUS mails in by SMTP, and what the server sends out, counted where
the players would get it.

- `mail_status`: a player's STATUS by SMTP, logged in with their e-mail and secret, from their own
  loopback address.
- `MailSink`: the host's relay for the run (`bin/host-server --smtp-relay`), an SMTP server on
  127.0.0.1 keeping each message it takes by recipient and Message-ID: what the players got. The
  server's mail queue (local_stack/laptop/mail_queue.py) drops a message sent again that it took
  already, so a notice told again after the SIGKILL (its announcement not yet marked told when the
  kill came) reaches the sink once; it reaches it twice only when the kill fell between the relay
  taking it and the queue noting so (SMTP cannot ask a relay what it took), which `delivered_twice`
  tells apart: one copy before the kill, one after.
- `kept_twice`: the outbox folder keeps every send, those the queue dropped included (the host's
  copy, not what was delivered): each (recipient, Message-ID) it holds more than once, and whether
  the copies straddle the kill (told again after it: the occasion was not yet marked told) or not
  (sent twice by a running server). Without a relay (`bin/bench load` but `--relay`) the outbox is
  all there is to count (`OutboxCount`).
"""

from __future__ import annotations

import asyncio
import email.parser
import email.policy
import smtplib
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from aiosmtpd.smtp import SMTP

from benchmarks.load_server import REQUEST_TIMEOUT

Key = tuple[str, str]
"""(recipient, Message-ID): one message to one person, however often it is sent."""


def mail_status(smtp_port: int, match_id: str, address: str, secret: str, source: str) -> tuple[int, str]:
    """A STATUS mail from `address` to the match, logged in with the secret: (the SMTP reply's
    code, 0 when the connection failed; the message's Message-ID)."""
    letter = EmailMessage()
    letter["From"], letter["To"], letter["Subject"] = address, f"{match_id}@play.local", "status"
    letter["Message-ID"] = make_msgid(domain="example.com")
    letter.set_content("STATUS\n")
    try:
        with smtplib.SMTP("127.0.0.1", smtp_port, timeout=REQUEST_TIMEOUT, source_address=(source, 0)) as smtp:
            smtp.login(address, secret)
            refused = smtp.send_message(letter)
        return (550 if refused else 250), letter["Message-ID"]
    except smtplib.SMTPResponseException as error:
        return error.smtp_code, letter["Message-ID"]
    except (OSError, smtplib.SMTPException):
        return 0, letter["Message-ID"]


def _headers(raw: bytes) -> email.message.Message:
    return email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)


class MailSink:
    """An SMTP server on 127.0.0.1 (any free port: `port`) taking every message, in order."""

    where = "the harness's relay"

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.taken: list[tuple[Key, str]] = []
        """Each message taken, for each recipient: its key and its In-Reply-To."""
        self.killed_at = 0
        """How many had come when the server was killed (`mark_kill`)."""
        self.loop = asyncio.new_event_loop()
        sink = self

        class Handler:
            async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's
                headers = _headers(envelope.original_content)
                message_id, answering = (str(headers.get(name, "")).strip() for name in ("Message-ID", "In-Reply-To"))
                with sink.lock:
                    sink.taken += [((to, message_id), answering) for to in envelope.rcpt_tos]
                return "250 OK"

        factory = lambda: SMTP(Handler(), hostname="sink.local")  # noqa: E731
        self.server = self.loop.run_until_complete(self.loop.create_server(factory, "127.0.0.1", 0))
        self.port: int = self.server.sockets[0].getsockname()[1]
        self.thread = threading.Thread(target=self.loop.run_forever, name="mail-sink", daemon=True)
        self.thread.start()

    def deliveries(self) -> int:
        with self.lock:
            return len(self.taken)

    def mark_kill(self) -> None:
        with self.lock:
            self.killed_at = len(self.taken)

    def replies_to(self, sent: list[str]) -> Counter[str]:
        """How many of the service's mails the sink took answering each of `sent` (by In-Reply-To),
        each message once however often it came (a repeat is `delivered_twice`'s)."""
        with self.lock:
            answered = Counter(answering for _key, answering in set(self.taken))
        return Counter({message_id: answered[message_id] for message_id in set(sent)})

    def delivered_twice(self) -> tuple[list[str], list[str]]:
        """The (recipient, Message-ID) taken more than once: (those with a copy before the kill and
        one after: the relay took it just before, the queue had not noted so; all others)."""
        with self.lock:
            arrivals: dict[Key, list[int]] = defaultdict(list)
            for index, (key, _answering) in enumerate(self.taken):
                arrivals[key].append(index)
            killed_at = self.killed_at
        twice = {key: seen for key, seen in arrivals.items() if len(seen) > 1}
        across = [key for key, seen in twice.items() if seen[0] < killed_at <= seen[-1]]
        return _named(across), _named(key for key in twice if key not in across)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


class OutboxCount:
    """The outbox folder read as `MailSink` reads what it takes, for a run without a relay: every
    send the server made (the repeats a relay's queue would drop included), in the order of the
    files' names (each a time stamp and the process's count)."""

    where = "the outbox"

    def __init__(self, outbox: Path) -> None:
        self.outbox = outbox
        self.at_kill: set[str] = set()

    def deliveries(self) -> int:
        return len(outbox_files(self.outbox))

    def mark_kill(self) -> None:
        self.at_kill = outbox_files(self.outbox)

    def replies_to(self, sent: list[str]) -> Counter[str]:
        """As `MailSink.replies_to`, in the outbox."""
        letters = (_headers(path.read_bytes()) for path in self.outbox.glob("*.eml"))
        answers = {(str(letter["Message-ID"]).strip(), str(letter["In-Reply-To"]).strip()) for letter in letters}
        answered = Counter(answering for _message_id, answering in answers)
        return Counter({message_id: answered[message_id] for message_id in set(sent)})

    def delivered_twice(self) -> tuple[list[str], list[str]]:
        kept = kept_twice(self.outbox, self.at_kill)
        return kept.after_kill, kept.running


@dataclass(frozen=True)
class KeptTwice:
    """The outbox's repeats: sent again after the kill, and sent twice by a server that ran on."""

    after_kill: list[str]
    running: list[str]


def outbox_files(outbox: Path) -> set[str]:
    """The names of the .eml files the outbox holds now."""
    return {path.name for path in outbox.glob("*.eml")}


def kept_twice(outbox: Path, before_kill: set[str]) -> KeptTwice:
    """Each (recipient, Message-ID) the outbox holds more than once, by whether one copy was there
    at the kill (`before_kill`: its files then) and another came after."""
    files: dict[Key, list[str]] = defaultdict(list)
    for path in sorted(outbox.glob("*.eml")):
        headers = _headers(path.read_bytes())
        files[(str(headers["To"]), str(headers["Message-ID"]).strip())].append(path.name)
    twice = {key: names for key, names in files.items() if len(names) > 1}
    across = [key for key, names in twice.items() if {name in before_kill for name in names} == {True, False}]
    return KeptTwice(_named(across), _named(key for key in twice if key not in across))


def _named(keys: Any) -> list[str]:
    return sorted(f"{to} {message_id}" for to, message_id in keys)
