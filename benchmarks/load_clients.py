"""The load benchmark's clients: players and a host, by HTTP only, each request timed by route.

A player reads their standing (GET, with their bearer secret), and when the open phase owes them a
move, their game's bot chooses it from that view and they POST it (`local_stack.bots`, as
`bin/play`'s bots do); once sent, they send it again: the same request (a client's retry, under
its Idempotency-Key) and the same move anew (a fresh key). Every 200 is an acknowledged move,
kept to check against the exported records. Players also look at their page (signed in once with
their secret, then by its cookie) and the match's public view; the host extends, pauses and
resumes, presses and asks for status.
"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from benchmarks.load_server import REQUEST_TIMEOUT, HostServerProcess, ServerFailed
from game_core.games.protocol import OpenPhase
from local_stack.bots import bot_for

MIX = ("play", "look") * 7 + ("play",) * 4 + ("public", "host")
"""Each 20 requests' kinds, in order (a host command in 20, as a host busy on a Saturday evening)."""

MoveKey = tuple[str, int, str, str]
"""(match id, phase number, player, kind): one move a phase record keeps."""


@dataclass
class Seat:
    match_id: str
    game: str
    player: str
    secret: str
    rng: random.Random
    lock: threading.Lock = field(default_factory=threading.Lock)
    sent: dict[int, tuple[dict[str, Any], str]] = field(default_factory=dict)
    """Phase number -> the last body this seat sent for it and its Idempotency-Key."""
    cookie: str = ""


@dataclass
class Tally:
    """Every request's route, latency and status; every acknowledged move."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    timings: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[int, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    acknowledged: dict[MoveKey, dict[str, Any]] = field(default_factory=dict)

    def timed(self, route: str, started: float, status: int) -> None:
        with self.lock:
            self.timings[route].append(time.monotonic() - started)
            self.statuses[route][status] += 1

    def acknowledge(self, key: MoveKey, submission: dict[str, Any]) -> None:
        with self.lock:
            self.acknowledged[key] = submission


def request(
    tally: Tally, route: str, url: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes, dict[str, str]]:
    """One HTTP request, timed under `route`: its status (0: no answer), body and headers."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, body, headers or {}), timeout=REQUEST_TIMEOUT) as reply:
            answer = reply.status, reply.read(), dict(reply.headers)
    except urllib.error.HTTPError as error:
        answer = error.code, error.read(), dict(error.headers)
    except OSError:
        answer = 0, b"", {}
    tally.timed(route, started, answer[0])
    return answer


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_args: Any, **_kwargs: Any) -> None:
        return None  # the sign-in's 303 is the answer: its cookie is what the player keeps


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
            else:
                request(self.tally, "GET /matches/{id} (public)", f"{self.server.base}/matches/{seat.match_id}")
        finally:
            seat.lock.release()

    def play(self, seat: Seat) -> None:
        url = f"{self.server.base}/matches/{seat.match_id}/players/{seat.player}"
        bearer = {"Authorization": f"Bearer {seat.secret}"}
        status, body, _ = request(self.tally, "GET standing", url, headers=bearer)
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
        status, _, _ = request(self.tally, route, f"{url}/submissions", json.dumps(move).encode(), headers)
        seat.sent[number] = (move, key)
        if status == 200:
            self.tally.acknowledge((seat.match_id, number, seat.player, move["kind"]), move["submission"])

    def look(self, seat: Seat) -> None:
        """The player's page, signed in with their secret the first time (its cookie kept)."""
        page = f"{self.server.base}/play/{seat.match_id}"
        if not seat.cookie:
            form = urllib.parse.urlencode({"secret": seat.secret}).encode()
            headers = {"Content-Type": "application/x-www-form-urlencoded", "Origin": self.server.base}
            opener = urllib.request.build_opener(NoRedirect)
            started = time.monotonic()
            try:
                opener.open(urllib.request.Request(f"{page}/session", form, headers), timeout=REQUEST_TIMEOUT)
                status = 200
            except urllib.error.HTTPError as answer:
                status, seat.cookie = answer.code, answer.headers.get("Set-Cookie", "").split(";")[0]
            except OSError:
                status = 0  # no answer (the connection dropped): counted, and tried again next time
            self.tally.timed("POST page session (sign-in)", started, status)
        request(self.tally, "GET page", page, headers={"Cookie": seat.cookie} if seat.cookie else {})

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
