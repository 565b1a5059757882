"""The load benchmark's other channels: webhooks out to a local receiver, and mail in by SMTP.

- `WebhookReceiver`: an HTTP server on 127.0.0.1 that takes every POST the service's webhook pump
  sends (answering 204), keeping each under its target and `webhook-id`. `notices_check` then
  says which notices never came (each resolved phase's `resolved-N` to every subscribed target)
  and which came more than once: the README allows a repeat under the same id only when the
  server died mid-POST.
- `mail_status`: a player's STATUS by SMTP, logged in with their e-mail and secret, from their own
  loopback address; `replies_to` counts the service's answers to each in the outbox (the .eml
  files the server keeps), each by its In-Reply-To; `repeated_mail` the notices mailed twice
  (a notice's mail has one Message-ID however often it is sent).
"""

from __future__ import annotations

import email
import email.policy
import smtplib
import threading
from collections import Counter
from email.message import EmailMessage
from email.utils import make_msgid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from benchmarks.load_server import REQUEST_TIMEOUT


class WebhookReceiver:
    """POSTs to http://127.0.0.1:<port>/<target>, each counted under its webhook-id (which names
    the match, the notice and the target: "m-.../resolved-3/p01")."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.received: Counter[str] = Counter()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.lock:
                    receiver.received[self.headers.get("webhook-id", "")] += 1
                self.send_response(204)
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, name="webhook-receiver", daemon=True)
        self.thread.start()

    def url(self, target: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/{target}"

    def repeated(self) -> list[str]:
        """The webhook ids that came more than once so far."""
        with self.lock:
            return [webhook_id for webhook_id, times in self.received.items() if times > 1]

    def deliveries(self) -> int:
        with self.lock:
            return sum(self.received.values())

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def told_as(target: str) -> str:
    """The last part of a notice's webhook-id for a subscription: a participant, or @all for the
    public channel (@public)."""
    return "@all" if target == "@public" else target


def notices_check(
    receiver: WebhookReceiver, subscriptions: dict[str, list[str]], exported: dict[str, dict[str, Any]]
) -> tuple[list[str], list[str]]:
    """(lost, repeated): each resolved phase's notice to each subscribed target that never came,
    and each webhook id that came more than once."""
    with receiver.lock:
        lost = [
            notice
            for match_id, targets in subscriptions.items()
            for phase in exported[match_id]["phases"]
            for target in targets
            if not receiver.received[notice := f"{match_id}/resolved-{phase['number']}/{told_as(target)}"]
        ]
    return lost, receiver.repeated()


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


def _outbox(outbox: Path) -> list[email.message.EmailMessage]:
    return [
        email.message_from_bytes(path.read_bytes(), policy=email.policy.default)  # type: ignore[misc]
        for path in sorted(outbox.glob("*.eml"))
    ]


def replies_to(outbox: Path, sent: list[str]) -> Counter[str]:
    """How many of the service's mails answer each of `sent` (by their In-Reply-To)."""
    wanted = set(sent)
    answered = Counter(str(letter["In-Reply-To"]).strip() for letter in _outbox(outbox))
    return Counter({message_id: answered[message_id] for message_id in wanted})


def repeated_mail(outbox: Path) -> list[str]:
    """Each (recipient, Message-ID) the outbox holds more than once: a notice mailed twice."""
    seen = Counter((str(letter["To"]), str(letter["Message-ID"])) for letter in _outbox(outbox))
    return [f"{to} {message_id}" for (to, message_id), times in seen.items() if times > 1]
