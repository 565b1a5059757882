"""The load benchmark's webhooks out, to a local receiver (its mail: benchmarks/load_mail.py).

- `WebhookReceiver`: an HTTP server on 127.0.0.1 that takes every POST the service's webhook pump
  sends (answering 204), keeping each under its target and `webhook-id`. `notices_check` then
  says which notices never came (each resolved phase's `resolved-N` to every subscribed target)
  and which came more than once: the README allows a repeat under the same id only when the
  server died mid-POST.
"""

from __future__ import annotations

import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


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
