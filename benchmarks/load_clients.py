"""The load benchmark's clients: players and a host, by HTTP only, each request timed by route.

A player reads their standing (GET, with their bearer secret), and when the open phase owes them a
move, their game's bot chooses it from that view and they POST it (`local_stack.bots`, as
`bin/play`'s bots do); once sent, they send it again: the same request (a client's retry, under
its Idempotency-Key) and the same move anew (a fresh key). Every 200 is an acknowledged move,
kept to check against the exported records. Players also look at their page (signed in once with
their secret, then by its cookie) and the match's public view; the host extends, pauses and
resumes, presses and asks for status.

Each player comes from an address of their own on the loopback network (127.0.0.2 and on, as a
community's players come from their own machines): the server holds at most 20 connections per
address, which the harness's clients, all from 127.0.0.1, used to hit among themselves.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import urllib.parse
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from benchmarks.load_mail import mail_status
from benchmarks.load_server import REQUEST_TIMEOUT, HostServerProcess, ServerFailed
from game_core.games.protocol import OpenPhase
from local_stack.bots import bot_for

MIX = ("play", "look") * 7 + ("play",) * 3 + ("mail", "public", "host")
"""Each 20 requests' kinds, in order (a STATUS mail and a host command in 20, as a host busy on a
Saturday evening)."""

MAIL_SESSIONS = 2
"""SMTP sessions open at once at most: the server logs a session in on its one mail event loop,
reading every match (local_stack/laptop/access.py's Authenticator), so logins queue behind each
other; without this bound every client thread ended up waiting on SMTP and the HTTP load stopped."""
MAIL_LANES = threading.BoundedSemaphore(MAIL_SESSIONS)

MoveKey = tuple[str, int, str, str]
"""(match id, phase number, player, kind): one move a phase record keeps."""


@dataclass
class Seat:
    match_id: str
    game: str
    player: str
    secret: str
    rng: random.Random
    source: str = "127.0.0.1"
    """The address the player's requests come from."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    sent: dict[int, tuple[dict[str, Any], str]] = field(default_factory=dict)
    """Phase number -> the last body this seat sent for it and its Idempotency-Key."""
    cookie: str = ""
    email: str = ""


@dataclass
class Tally:
    """Every request's route, latency and status; every acknowledged move."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    timings: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[int, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    acknowledged: dict[MoveKey, dict[str, Any]] = field(default_factory=dict)
    mailed: list[str] = field(default_factory=list)
    """The Message-ID of each STATUS mail the server took (250): each is answered once."""
    mail_skipped: int = 0
    """STATUS mails not sent because `MAIL_SESSIONS` were still open."""

    def timed(self, route: str, started: float, status: int) -> None:
        with self.lock:
            self.timings[route].append(time.monotonic() - started)
            self.statuses[route][status] += 1

    def acknowledge(self, key: MoveKey, submission: dict[str, Any]) -> None:
        with self.lock:
            self.acknowledged[key] = submission


def source_address(index: int) -> str:
    """The `index`th player's loopback address: 127.0.0.2 on (127.0.0.1 is the host's)."""
    return f"127.{(index + 2) // 65536 % 256}.{(index + 2) // 256 % 256}.{(index + 2) % 256}"


def request(
    tally: Tally,
    route: str,
    url: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    source: str = "127.0.0.1",
) -> tuple[int, bytes, dict[str, str]]:
    """One HTTP request from `source` on a new connection (as urllib makes one), timed under
    `route`: its status (0: no answer), body and headers. Redirects are answers, not followed."""
    started = time.monotonic()
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(
        parts.hostname or "127.0.0.1", parts.port, timeout=REQUEST_TIMEOUT, source_address=(source, 0)
    )
    try:
        connection.request("POST" if body is not None else "GET", parts.path, body, headers or {})
        reply = connection.getresponse()
        answer = reply.status, reply.read(), {name.lower(): value for name, value in reply.getheaders()}
    except (OSError, http.client.HTTPException):  # no answer, or one cut short (the server killed mid-reply)
        answer = 0, b"", {}
    finally:
        connection.close()
    tally.timed(route, started, answer[0])
    return answer


@dataclass
class Clients:
    server: HostServerProcess
    seats: list[Seat]
    tally: Tally
    rng: random.Random

    def one(self, tick: int) -> None:
        """The `tick`th request (or pair: a standing read and the move it leads to): of each 20,
        11 plays, 7 page views, a public view and a host command, in turn, each for a random player."""
        slot = tick % len(MIX)
        if MIX[slot] == "host":
            self.host_acts(self.rng.choice(self.seats).match_id, tick // len(MIX))
            return
        seat = self.rng.choice(self.seats)
        if not seat.lock.acquire(blocking=False):  # one request at a time per player, as a person sends them
            return
        try:
            if MIX[slot] == "play":
                self.play(seat)
            elif MIX[slot] == "look":
                self.look(seat)
            elif MIX[slot] == "mail":
                self.mail(seat)
            else:
                public = f"{self.server.base}/matches/{seat.match_id}"
                request(self.tally, "GET /matches/{id} (public)", public, source=seat.source)
        finally:
            seat.lock.release()

    def play(self, seat: Seat) -> None:
        url = f"{self.server.base}/matches/{seat.match_id}/players/{seat.player}"
        bearer = {"Authorization": f"Bearer {seat.secret}"}
        status, body, _ = request(self.tally, "GET standing", url, headers=bearer, source=seat.source)
        opened = json.loads(body).get("open") if status == 200 else None
        if not opened or seat.player not in opened["actors"]:
            return
        number = opened["number"]
        if number in seat.sent:
            self.send_again(seat, url, number)
            return
        owes = {participant: tuple(kinds) for participant, kinds in opened.get("owes", {}).items()}
        phase = OpenPhase(opened["phase"], tuple(opened["accepts"]), tuple(opened["actors"]), owes=owes)
        chosen = bot_for(seat.game)(json.loads(body)["view"], phase, seat.player, seat.rng)
        for kind, submission in chosen.items():
            move = {"phase": phase.name, "number": number, "kind": kind, "submission": submission}
            self.submit(seat, url, number, move, uuid.uuid4().hex, "POST submission")
        if number in seat.sent:  # as a client does whose reply was lost on the way
            self.send_again(seat, url, number)

    def send_again(self, seat: Seat, url: str, number: int) -> None:
        """A client's retry of the last send (its Idempotency-Key), then the same move sent anew."""
        move, key = seat.sent[number]
        self.submit(seat, url, number, move, key, "POST submission (retry, same key)")
        self.submit(seat, url, number, move, uuid.uuid4().hex, "POST submission (again, new key)")

    def submit(self, seat: Seat, url: str, number: int, move: dict[str, Any], key: str, route: str) -> None:
        headers = {"Authorization": f"Bearer {seat.secret}", "Content-Type": "application/json", "Idempotency-Key": key}
        status, _, _ = request(self.tally, route, f"{url}/submissions", json.dumps(move).encode(), headers, seat.source)
        seat.sent[number] = (move, key)
        if status == 200:
            self.tally.acknowledge((seat.match_id, number, seat.player, move["kind"]), move["submission"])

    def look(self, seat: Seat) -> None:
        """The player's page, signed in with their secret the first time (its cookie kept)."""
        page = f"{self.server.base}/play/{seat.match_id}"
        if not seat.cookie:
            form = urllib.parse.urlencode({"secret": seat.secret}).encode()
            headers = {"Content-Type": "application/x-www-form-urlencoded", "Origin": self.server.base}
            _, _, answer = request(
                self.tally, "POST page session (sign-in)", f"{page}/session", form, headers, seat.source
            )
            seat.cookie = answer.get("set-cookie", "").split(";")[0]  # none (no answer): signed in next time
        request(
            self.tally, "GET page", page, headers={"Cookie": seat.cookie} if seat.cookie else {}, source=seat.source
        )

    def mail(self, seat: Seat) -> None:
        """STATUS by SMTP, logged in as the player (their e-mail and secret)."""
        if not seat.email:  # a guest: played by their player, with no mail of their own
            return
        if not MAIL_LANES.acquire(blocking=False):
            with self.tally.lock:
                self.tally.mail_skipped += 1
            return
        try:
            started = time.monotonic()
            code, message_id = mail_status(self.server.smtp_port, seat.match_id, seat.email, seat.secret, seat.source)
        finally:
            MAIL_LANES.release()
        self.tally.timed("SMTP STATUS mail", started, code)
        if code == 250:
            with self.tally.lock:
                self.tally.mailed.append(message_id)

    def host_acts(self, match_id: str, turn: int) -> None:
        """A host command through the host port: extend, pause then resume, press, status in turn."""
        which = ("extend", "pause", "press", "status")[turn % 4]
        steps: list[tuple[str, dict[str, Any]]] = {
            "extend": [("extend", {"seconds": 5})],
            "pause": [("pause", {}), ("resume", {})],
            "press": [("press", {"text": "Back in a minute: the load benchmark is pressing"})],
            "status": [("status", {})],
        }[which]
        for command, fields in steps:
            started = time.monotonic()
            try:
                self.server.host(command, match_id=match_id, **fields)
                status = 200
            except ServerFailed:
                status = 409  # refused (a finished match takes no extend): said in the figures
            except OSError:
                status = 0
            self.tally.timed(f"host {command}", started, status)
