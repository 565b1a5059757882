"""The server's CPU per request and per resolution, in process (issue 32): what `bin/bench load`'s
requests cost the host server, without its HTTP and without the machine's other load.

A local stack on its virtual clock (so no phase ends unless asked) holds `--matches` matches of
the load bench's mix (every game and rule set, typical and fewest players; no webhooks); then,
round after round, for a random participant of every match: their standing read (GET, bearer),
the move their game's bot chooses POSTed, and their page viewed (signed in once); and every
`--resolve-every`th match's open phase resolved by the host (resolve now, then settled). Each
request is timed by the CPU of the thread serving it (`time.thread_time`: the handler runs on it,
its AWS calls into moto too); a resolution by the process's CPU from the command to the settled
stack (the state machine's threads, its notices included). Prints the median and mean of each.

    .venv/bin/python -m benchmarks.request_cpu --matches 50 --rounds 3
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from benchmarks.load import requests_for
from game_core.games.protocol import OpenPhase
from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack
from local_stack.bots import bot_for
from local_stack.laptop.http_api import ApiRoutes
from local_stack.laptop.http_serving import Request
from local_stack.laptop.match_locks import MatchLocks


@dataclass
class Seat:
    match_id: str
    game: str
    player: str
    secret: str
    cookie: str = ""


@dataclass
class Timings:
    seconds: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    profiled: str = ""
    """The request whose calls are profiled (cProfile, this thread), if any."""
    sort: str = "tottime"
    profile: cProfile.Profile = field(default_factory=lambda: cProfile.Profile(time.thread_time))

    def timed(self, name: str, action: Callable[[], Any], clock: Callable[[], float] = time.thread_time) -> Any:
        started = clock()
        if name.startswith(self.profiled or "\0"):
            result = self.profile.runcall(action)
        else:
            result = action()
        self.seconds[name].append(clock() - started)
        return result

    def report(self) -> None:
        if self.profiled:
            pstats.Stats(self.profile).sort_stats(self.sort).print_stats(50)
        print(f"{'request':<34} {'n':>5} {'median ms':>10} {'mean ms':>10}")
        for name, values in self.seconds.items():
            median, mean = statistics.median(values) * 1000, statistics.fmean(values) * 1000
            print(f"{name:<34} {len(values):>5} {median:>10.2f} {mean:>10.2f}")


def http(routes: ApiRoutes, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> tuple[int, bytes]:
    reply = routes(Request(method, path, "", headers, body, "127.0.0.2"))
    return reply[0], reply[1]


def play(routes: ApiRoutes, seat: Seat, rng: random.Random, timings: Timings) -> None:
    """The standing read, and the bot's move POSTed if the open phase owes one."""
    path = f"/matches/{seat.match_id}/players/{seat.player}"
    bearer = {"authorization": f"Bearer {seat.secret}"}
    status, body = timings.timed("GET standing", lambda: http(routes, "GET", path, bearer))
    standing = json.loads(body) if status == 200 else {}
    opened = standing.get("open")
    if not opened or seat.player not in opened["actors"]:
        return
    owes = {participant: tuple(kinds) for participant, kinds in opened.get("owes", {}).items()}
    phase = OpenPhase(opened["phase"], tuple(opened["accepts"]), tuple(opened["actors"]), owes=owes)
    chosen = bot_for(seat.game)(standing["view"], phase, seat.player, rng)
    headers = bearer | {"content-type": "application/json"}
    for kind, submission in chosen.items():
        move = {"phase": phase.name, "number": opened["number"], "kind": kind, "submission": submission}
        sent = json.dumps(move).encode()
        timings.timed("POST submission", lambda sent=sent: http(routes, "POST", f"{path}/submissions", headers, sent))


def look(routes: ApiRoutes, seat: Seat, timings: Timings) -> None:
    page = f"/play/{seat.match_id}"
    if not seat.cookie:
        form = urllib.parse.urlencode({"secret": seat.secret}).encode()
        headers = {"content-type": "application/x-www-form-urlencoded", "origin": "http://127.0.0.1"}
        reply = routes(Request("POST", f"{page}/session", "", headers, form, "127.0.0.2"))
        seat.cookie = reply[2].get("set-cookie", "").split(";")[0]
    timings.timed("GET page (signed in)", lambda: http(routes, "GET", page, {"cookie": seat.cookie}))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--resolve-every", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default="", help="profile the requests whose name starts so")
    parser.add_argument("--sort", default="tottime", help="the profile's order (pstats)")
    options = parser.parse_args(argv)
    rng = random.Random(options.seed)
    timings = Timings(profiled=options.profile, sort=options.sort)
    with LocalStack(clock=VirtualClock()) as stack:
        routes = ApiRoutes(stack, MatchLocks())
        matches: dict[str, list[Seat]] = {}
        for request in requests_for(options.matches, "http://127.0.0.1:9"):
            request.pop("webhooks", None)
            created = stack.host({"command": "create", "match": request})
            seats = [Seat(created["match_id"], request["game"], p, s) for p, s in created["secrets"].items()]
            matches[created["match_id"]] = seats
        stack.settle()
        for _ in range(options.rounds):
            for index, (match_id, seats) in enumerate(matches.items()):
                for seat in rng.sample(seats, min(3, len(seats))):
                    play(routes, seat, rng, timings)
                    look(routes, seat, timings)
                if index % options.resolve_every == 0:
                    command = {"command": "resolve_now", "match_id": match_id}

                    def resolve(command: dict[str, Any] = command) -> None:
                        stack.host(command)
                        stack.settle()

                    timings.timed("phase resolution (process)", resolve, time.process_time)
    timings.report()


if __name__ == "__main__":
    main()
