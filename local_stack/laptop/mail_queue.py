"""The host server's outgoing mail: a queue kept in its data folder (`mail-queue.json`), sent
through the host's relay (local_stack/aws/mail.py's `SmtpRelay`) by a thread of its own.

Each message the service sends (`Outbox.keep`) is written to the file before the handler that
sent it goes on, and leaves it once the relay has answered for every recipient, so the command
that caused it never waits on the relay. What the relay answers:

- taken: done.
- a reason that may pass (unreachable, timed out, a dropped connection, any 4xx, a refused
  login): tried again after 1, 2, 4, ... minutes, at most every 30, until it is 24 hours old. A
  relay that takes no message fails every message due alike, and once it takes one again, every
  message that waited for it goes at once. The reply of every host command says mail waits
  (`note`).
- a 5xx for a recipient: that recipient is skipped for good and the host told (`told`); the
  others are sent (a 4xx for one recipient: that one alone is tried again).
- still not taken 24 hours after it was queued: given up, and the host told.

The file is replaced whole after every change (`persistence.KeptFile`: never half-written) and
read back at start, so a restart loses nothing. What the relay took is remembered for 24 hours
(each Message-ID with its recipient): the same message queued again meanwhile is not sent again
(a step retried after a crash between its send and its mark, an answer to a mail redelivered
after a crash before it was marked answered: both send the same Message-ID again). A message
whose sending a crash cut short is sent again: the relay may then have it twice, the same bytes
under one Message-ID (SMTP has no way to ask a relay whether it took a message:
tests/integration/test_mail_queue_crash.py). Time is the stack's clock: on a `VirtualClock` (tests),
the waits are the clock's, and a test moves it rather than waiting.
"""

from __future__ import annotations

import base64
import binascii
import email.parser
import email.policy
import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Protocol

from pydantic import AfterValidator, BaseModel, ConfigDict

from game_core.service.ports import OutgoingMail
from local_stack.aws.mail import Refusal, RelayUnavailable, SmtpRelay
from local_stack.laptop.persistence import KeptFile

logger = logging.getLogger("host-server")

QUEUE_FILE = "mail-queue.json"
FIRST_WAIT_SECONDS = 60
LONGEST_WAIT_SECONDS = 30 * 60
TRIED_FOR_SECONDS = 24 * 3600
"""How long a message is tried for (from when it was queued) before it is given up, and one the
relay took is remembered (not sent again if queued again)."""


def _base64(text: str) -> str:
    try:
        base64.b64decode(text, validate=True)
    except binascii.Error:
        raise ValueError("not base64") from None
    return text


class QueuedMail(BaseModel):
    """A message waiting for the relay: the recipients it has not taken yet, the message
    (base64), when it was queued and is due next (epoch seconds on the stack's clock), the
    attempts that failed and the last answer; `unreachable`: the last attempt failed for the
    relay (no recipient's answer), so it goes as soon as the relay takes another."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    id: str
    recipients: tuple[str, ...]
    raw: Annotated[str, AfterValidator(_base64)]
    queued_at: float
    due_at: float
    attempts: int
    last_error: str
    unreachable: bool
    message_id: str = ""
    """Its Message-ID header ("" if it has none, or was queued before it was kept)."""

    @property
    def message(self) -> bytes:
        return base64.b64decode(self.raw)


class TakenMail(BaseModel):
    """A message the relay took for a recipient, and when (epoch seconds on the stack's clock)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    message_id: str
    recipient: str
    at: float


class KeptMail(BaseModel):
    """What the file holds: the messages waiting, in the order they were queued, and those the
    relay took in the last 24 hours."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    waiting: tuple[QueuedMail, ...]
    taken: tuple[TakenMail, ...] = ()


def message_id_of(raw: bytes) -> str:
    """The Message-ID header of a message ("" if none)."""
    headers = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)
    return str(headers.get("Message-ID", "")).strip()


@dataclass(frozen=True)
class Undelivered:
    """A recipient the relay will not be asked again for a message: refused for good, or given
    up. `key` is the same for each such recipient alike (`relay-550`, `relay-gave-up`), `status`
    the enhanced status code the relay gave ("5.1.1"; "" for none), `diagnostic` what happened."""

    message: bytes
    recipient: str
    key: str
    status: str
    diagnostic: str


class Clock(Protocol):
    def time(self) -> float: ...

    def event(self) -> threading.Event: ...

    def wait(self, event: threading.Event, seconds: float | None) -> bool: ...


class WallClock:
    """Real time, for a server not on a `VirtualClock`."""

    def time(self) -> float:
        return time.time()

    def event(self) -> threading.Event:
        return threading.Event()

    def wait(self, event: threading.Event, seconds: float | None) -> bool:
        return event.wait(seconds)


def wait_after(attempts: int) -> float:
    """How long a message waits after its `attempts`-th failed attempt: doubling from a minute,
    at most half an hour."""
    return float(min(FIRST_WAIT_SECONDS * 2 ** (attempts - 1), LONGEST_WAIT_SECONDS))


class MailQueue:
    """The queue kept in `folder`'s QUEUE_FILE, sent through `relay` once `start`ed. Constructing
    it reads the file: one that is not a whole queue stops the start (a CliError naming it)."""

    def __init__(
        self,
        folder: Path,
        relay: SmtpRelay,
        clock: Clock | None = None,
    ) -> None:
        self.relay = relay
        self._file = KeptFile(folder / QUEUE_FILE, KeptMail, "the mail queue", "the mail in it")
        kept = self._file.read()
        self._waiting: list[QueuedMail] = list(kept.waiting) if kept is not None else []
        self._taken: list[TakenMail] = list(kept.taken) if kept is not None else []
        self._clock: Clock = clock or WallClock()
        self._told: Callable[[Undelivered], object] = lambda _undelivered: None
        self._changed = threading.Condition()
        """Held while the queue is read or changed; notified when a round of sending ends."""
        self._sending = False
        self._stopping = False
        self._wakeup = self._clock.event()
        self._thread: threading.Thread | None = None

    # -- the service's side -------------------------------------------------------------------

    def put(self, mail: OutgoingMail) -> None:
        """Queue `mail` (kept on disk when this returns) and wake the sender; not if the same
        message (its Message-ID) waits for that recipient already or the relay took it lately."""
        now = self._clock.time()
        message_id = message_id_of(mail.raw)
        queued = QueuedMail(
            id=uuid.uuid4().hex,
            recipients=(mail.to,),
            raw=base64.b64encode(mail.raw).decode(),
            queued_at=now,
            due_at=now,
            attempts=0,
            last_error="",
            unreachable=False,
            message_id=message_id,
        )
        with self._changed:
            if message_id and self._known(message_id, mail.to):
                logger.info("mail %s to %s is queued or sent already: not sent again", message_id, mail.to)
                return
            self._waiting.append(queued)
            self._save()
        self._wakeup.set()

    def _known(self, message_id: str, recipient: str) -> bool:
        if any(mail.message_id == message_id and recipient in mail.recipients for mail in self._waiting):
            return True
        since = self._clock.time() - TRIED_FOR_SECONDS
        taken = ((one.message_id, one.recipient) for one in self._taken if one.at > since)
        return (message_id, recipient) in taken

    def waiting(self) -> list[QueuedMail]:
        with self._changed:
            return list(self._waiting)

    def note(self) -> dict[str, str]:
        """What a host command's reply says while mail waits after a failed attempt: how many
        messages wait, and why (nothing when none failed)."""
        with self._changed:
            failed = [mail for mail in self._waiting if mail.attempts]
            count = len(self._waiting)
        if not failed:
            return {}
        last = max(failed, key=lambda mail: mail.due_at - wait_after(mail.attempts))
        return {
            "mail_queued": f"{count} message{'s' if count != 1 else ''} wait in the data folder's {QUEUE_FILE}: "
            f"the relay {self.relay.where} has not taken them ({last.last_error}); each is tried again "
            "until it is 24 hours old, then shown under mail_bounced"
        }

    # -- the sending thread ---------------------------------------------------------------------

    def start(self, told: Callable[[Undelivered], object] = lambda _undelivered: None) -> None:
        """Send on a thread of its own; `told` is called for each recipient refused for good or
        given up."""
        self._told = told
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="mail-queue", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop once the message under way has its answer (what waits stays in the file)."""
        self._stopping = True
        self._wakeup.set()
        if self._thread is not None:
            self._thread.join(timeout=self.relay.timeout * 4)

    def settle(self, timeout: float = 60) -> None:
        """Wait (real time, at most `timeout` seconds) until every message due on the clock now
        has had its attempt: for tests, after moving the clock."""
        with self._changed:
            if not self._changed.wait_for(lambda: not self._sending and not self._due(), timeout):
                raise TimeoutError(f"mail still due after {timeout} s: {[m.id for m in self._due()]}")

    def _due(self) -> list[QueuedMail]:
        now = self._clock.time()
        return [mail for mail in self._waiting if mail.due_at <= now]

    def _run(self) -> None:
        while True:
            self._wakeup.clear()
            if self._stopping:
                return
            self._send_due()
            with self._changed:
                next_due = min((mail.due_at for mail in self._waiting), default=None)
            if self._stopping:
                return
            self._clock.wait(self._wakeup, None if next_due is None else max(0.0, next_due - self._clock.time()))

    def _send_due(self) -> None:
        """Send each message due, oldest first, until none is (or the server stops)."""
        while not self._stopping:
            with self._changed:
                due = self._due()
                self._sending = bool(due)
                if not due:
                    self._changed.notify_all()
                    return
                mail = min(due, key=lambda waiting: (waiting.due_at, waiting.queued_at))
            try:
                self._attempt(mail)
            except Exception:  # noqa: BLE001 - a fault of ours must not stop the mail behind it
                logger.exception("mail to %s not sent this time", ", ".join(mail.recipients))
                self._failed([mail], None, "an error of the host server's (see its log)", unreachable=False)

    def _attempt(self, mail: QueuedMail) -> None:
        try:
            refused = self.relay.send(mail.message, mail.recipients)
        except RelayUnavailable as error:
            logger.warning("the SMTP relay %s took no mail (%s): it waits in %s", self.relay.where, error, QUEUE_FILE)
            with self._changed:  # the relay takes none: every message due fails alike
                due = [mail, *(waiting for waiting in self._due() if waiting.id != mail.id)]
            self._failed(due, None, str(error), unreachable=True)
            return
        for recipient, refusal in refused.items():
            if refusal.for_good:
                self._refused_for_good(mail, recipient, refusal)
        again = tuple(to for to in mail.recipients if to in refused and not refused[to].for_good)
        with self._changed:  # the relay answers: what waited for it alone goes now
            self._waiting = [self._reachable(waiting) for waiting in self._waiting if again or waiting.id != mail.id]
            self._note_taken(mail, [to for to in mail.recipients if to not in refused])
            self._save()
        if again:
            said = "; ".join(f"{to}: {refused[to]}" for to in again)
            self._failed([mail], again, said, unreachable=False)

    def _note_taken(self, mail: QueuedMail, recipients: list[str]) -> None:
        """Remember what the relay took (with `_changed` held), forgetting what it took 24 hours ago."""
        now = self._clock.time()
        self._taken = [one for one in self._taken if one.at > now - TRIED_FOR_SECONDS]
        if mail.message_id:
            self._taken += [TakenMail(message_id=mail.message_id, recipient=to, at=now) for to in recipients]

    def _reachable(self, mail: QueuedMail) -> QueuedMail:
        """`mail` due now if it waited for the relay alone: the relay just took a message."""
        if not mail.unreachable:
            return mail
        return mail.model_copy(update={"due_at": self._clock.time(), "unreachable": False})

    def _refused_for_good(self, mail: QueuedMail, recipient: str, refusal: Refusal) -> None:
        logger.warning("the SMTP relay %s refused mail to %s for good: %s", self.relay.where, recipient, refusal)
        status = refusal.said.split(" ", 1)[0]
        diagnostic = f"{refusal} (said the relay {self.relay.where}; not sent again)"
        self._tell(Undelivered(mail.message, recipient, f"relay-{refusal.code}", _enhanced(status), diagnostic))

    def _failed(
        self, mails: list[QueuedMail], recipients: tuple[str, ...] | None, error: str, *, unreachable: bool
    ) -> None:
        """Each of `mails` failed this time with `error` (for `recipients`, else for all of its
        own): due again after its wait, or given up once 24 hours old."""
        now = self._clock.time()
        changed: dict[str, QueuedMail | None] = {}
        given_up: list[QueuedMail] = []
        for mail in mails:
            attempts, ends = mail.attempts + 1, mail.queued_at + TRIED_FOR_SECONDS
            update = {"recipients": recipients or mail.recipients, "attempts": attempts, "last_error": error}
            failed = mail.model_copy(
                update=update | {"due_at": min(now + wait_after(attempts), ends), "unreachable": unreachable}
            )
            changed[mail.id] = None if now >= ends else failed
            given_up += [failed] if now >= ends else []
        with self._changed:
            kept = (changed.get(waiting.id, waiting) for waiting in self._waiting)
            self._waiting = [mail for mail in kept if mail is not None]
            self._save()
        for mail in given_up:
            since = datetime.fromtimestamp(mail.queued_at, UTC).isoformat(timespec="seconds")
            diagnostic = f"not taken by the relay {self.relay.where} since {since} (last: {error}): given up"
            logger.warning("mail to %s given up: %s", ", ".join(mail.recipients), diagnostic)
            for recipient in mail.recipients:
                self._tell(Undelivered(mail.message, recipient, "relay-gave-up", "", diagnostic))

    def _tell(self, undelivered: Undelivered) -> None:
        try:
            self._told(undelivered)
        except Exception:  # noqa: BLE001 - the log says it: the queue goes on
            logger.exception("the host could not be told of mail to %s not delivered", undelivered.recipient)

    def _save(self) -> None:
        self._file.write(KeptMail(waiting=tuple(self._waiting), taken=tuple(self._taken)))


def _enhanced(word: str) -> str:
    """`word` if it is an enhanced status code (RFC 3463: "5.1.1"), else ""."""
    parts = word.split(".")
    return word if len(parts) == 3 and all(part.isdigit() for part in parts) and parts[0] in "245" else ""
