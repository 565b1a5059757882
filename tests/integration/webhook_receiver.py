"""A webhook receiver on 127.0.0.1 for tests, as a bot author would write one: every POST's
signature is verified with the Standard Webhooks package's own verification (not the service's
code), against the secret of the subscription the path names; it answers what the test scripts.

    with Receiver() as receiver:
        url = receiver.url("ada")                  # http://127.0.0.1:<port>/ada
        receiver.secrets["ada"] = reply["secret"]
        receiver.script("ada", [500, 500, 200])    # each webhook id: two failures, then accepted
        hung = receiver.hold("bo")                 # bo's POSTs wait, unanswered, until
        hung.arrived.wait(60)                      # (one has come)
        hung.release()                             # the test lets them be answered
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


@dataclass(frozen=True)
class Received:
    """One POST as it arrived, and whether its signature verified."""

    target: str
    headers: dict[str, str]
    body: bytes
    verified: bool
    answered: int

    @property
    def payload(self) -> Any:
        return json.loads(self.body)

    @property
    def webhook_id(self) -> str:
        return self.headers.get("webhook-id", "")


@dataclass(frozen=True)
class Hold:
    """A receiver that hangs: the POSTs to one target wait, unanswered and not yet `received`,
    until the test releases them (then they, and every later one, are answered as scripted)."""

    arrived: threading.Event = field(default_factory=threading.Event)
    """Set when a POST has come and waits."""
    released: threading.Event = field(default_factory=threading.Event)

    def release(self) -> None:
        self.released.set()


class Receiver:
    def __init__(self) -> None:
        self.secrets: dict[str, str] = {}
        self.received: list[Received] = []
        self._scripts: dict[str, list[int]] = {}
        self._holds: dict[str, Hold] = {}
        self._seen: dict[tuple[str, str], int] = defaultdict(int)
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver._take(self, self.path.strip("/"), body)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> Receiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for hold in self._holds.values():  # a test that failed while one hung: nothing waits on
            hold.release()
        self._server.shutdown()
        self._server.server_close()

    def url(self, target: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/{target}"

    def script(self, target: str, statuses: list[int]) -> None:
        """What each webhook id POSTed to `target` is answered, attempt by attempt (the last
        status for every attempt after)."""
        self._scripts[target] = statuses

    def hold(self, target: str) -> Hold:
        """Keep the POSTs to `target` waiting from now until the hold returned is released."""
        self._holds[target] = Hold()
        return self._holds[target]

    def _take(self, request: BaseHTTPRequestHandler, target: str, body: bytes) -> None:
        hold = self._holds.get(target)
        if hold is not None:
            hold.arrived.set()
            hold.released.wait()
        headers = {name.lower(): value for name, value in request.headers.items()}
        verified = False
        if target in self.secrets:
            try:
                Webhook(self.secrets[target]).verify(body, headers)
                verified = True
            except WebhookVerificationError:
                verified = False
        with self._lock:
            key = (target, headers.get("webhook-id", body.decode()))
            attempt = self._seen[key]
            self._seen[key] += 1
            statuses = self._scripts.get(target, [200])
            status = statuses[min(attempt, len(statuses) - 1)]
            self.received.append(Received(target, headers, body, verified, status))
        request.send_response(status)
        request.send_header("Content-Length", "0")
        request.end_headers()

    def accepted(self, target: str) -> list[Received]:
        """The POSTs to `target` answered 2xx, in arrival order."""
        return [one for one in self.received if one.target == target and 200 <= one.answered < 300]

    def attempts(self, target: str) -> list[Received]:
        return [one for one in self.received if one.target == target]
