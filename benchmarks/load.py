"""One laptop at community scale (issue 32): `bin/host-server` as a subprocess on a fresh data
folder, driven only through its public ports by concurrent clients at a target rate, then killed
(SIGTERM, then SIGKILL) with its matches running and started again.

    bin/bench load [--matches 50] [--seconds 600] [--rate 20] [--phase-seconds 60]

Matches cycle through every game and rule set, at each game's typical size and its fewest by
turns; every phase runs to its deadline (no early close), so deadlines fall during the load. The
server's clock is the laptop's own: a phase of 60 s resolves 60 real seconds after it opened.
Each figure is printed beside the issue's goal. Minutes long: a plain `bin/bench` skips it.
"""

from __future__ import annotations

import argparse
import random
import signal
import tempfile
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from benchmarks.load_channels import WebhookReceiver, notices_check
from benchmarks.load_clients import Clients, MoveKey, Seat, Tally, source_address
from benchmarks.load_mail import KeptTwice, MailSink, OutboxCount, kept_twice, outbox_files
from benchmarks.load_report import report
from benchmarks.load_server import HostServerProcess, Usage, folder_megabytes
from benchmarks.load_settle import Settled, settle
from game_core.match.engine import guests_per_player
from local_stack.bots.play import bot_matches, seat

CLIENT_THREADS = 32


@dataclass(frozen=True)
class Options:
    matches: int = 50
    seconds: float = 600.0
    rate: float = 20.0
    phase_seconds: int = 60
    seed: int = 2026
    relay: bool = False
    """Send the server's mail through the harness's relay (`MailSink`) and count it there; else it
    is counted in the outbox."""
    sizes: str = "mixed"
    """"mixed": typical and fewest players by turns; "most": each game's most (a rule set's own
    number where it has one)."""


@dataclass
class Notices:
    """What the webhook receiver and the outbox say of the notices and the STATUS mails."""

    webhooks: int
    lost: list[str]
    repeated: list[str]
    answers: dict[str, int]
    """Each STATUS mail the server took -> how many answers it got (at `mail_at`)."""
    mail_at: str
    """Where mail is counted: the harness's relay (`MailSink`), or the outbox (`OutboxCount`)."""
    mails: int
    mail_across_kill: list[str]
    """(recipient, Message-ID) counted twice, once before the SIGKILL and once after."""
    mail_twice: list[str]
    """(recipient, Message-ID) counted twice otherwise: sent twice by a running server."""
    outbox_twice: KeptTwice | None
    """With a relay, the outbox's own repeats (those the queue dropped included)."""
    repeated_before_kill: list[str]
    """The webhook ids repeated before the SIGKILL (after the SIGTERM's stop and start)."""


@dataclass
class Outcome:
    """What a run measured: the checks the tests assert on, and the figures it printed."""

    tally: Tally
    lost: list[MoveKey]
    doubled: list[MoveKey]
    notices: Notices
    lateness: list[float]
    usage: Usage
    restarts: dict[str, float]
    settled: Settled
    """How the host's resolve-now of each open phase ended, after the restarts."""


def sized(sizes: str) -> list[list[tuple[str, str, int]]]:
    """The matches' (game, rule set, players) to cycle through, by `Options.sizes`."""
    from game_core.games import registry

    typical = bot_matches("typical")
    if sizes == "mixed":
        return [typical, bot_matches("few")]
    most = []
    for game_id, rule_set, _players in typical:
        game = registry.load(game_id)
        most.append((game_id, rule_set, game.demo.rule_set_players.get(rule_set) or game.max_players))
    return [most]


def requests_for(count: int, webhook: str, sizes: str = "mixed") -> list[dict[str, Any]]:
    """`count` matches' settings: every game and rule set in turn, at the `sizes` (Options); each
    player with an e-mail address, and every other match's players and public channel subscribed
    to webhooks at `webhook`/<target> (the player, or @public)."""
    from game_core.games import registry

    cycles = sized(sizes)
    made = []
    for index in range(count):
        cycle = cycles[index // len(cycles[0]) % len(cycles)]
        game_id, rule_set, players = cycle[index % len(cycle)]
        guests = guests_per_player(registry.load(game_id))
        made.append(
            {
                "game": game_id,
                "settings": {"rule_set": rule_set},
                "players": [
                    seat(f"p{i:02d}", guests) | {"email": f"p{i:02d}@example.com"}  # one person in each match
                    for i in range(1, players + 1)
                ],
                "early_close": False,
                "seed": 2026 + index,
            }
            | ({"webhooks": webhooks(webhook, players)} if index % 2 == 0 else {})
        )
    return made


def webhooks(url: str, players: int) -> dict[str, str]:
    targets = ["@public", *(f"p{i:02d}" for i in range(1, players + 1))]
    return {target: f"{url}/{target}" for target in targets}


def create(
    server: HostServerProcess, options: Options, rng: random.Random, receiver: WebhookReceiver
) -> tuple[list[Seat], dict[str, list[str]]]:
    """The matches made: every participant's seat, and each match's webhook targets."""
    seats, subscriptions = [], {}
    for request in requests_for(options.matches, receiver.url("hook"), options.sizes):
        created = server.host("create", match=request | {"phase_seconds": options.phase_seconds})
        match_id = created["match_id"]
        if "webhooks" in request:
            subscriptions[match_id] = sorted(request["webhooks"])
        emails = {player["id"]: player["email"] for player in request["players"]}
        for player, secret in created["secrets"].items():
            seat = Seat(match_id, request["game"], player, secret, random.Random(rng.random()))
            seat.source, seat.email = source_address(len(seats)), emails.get(player, "")
            seats.append(seat)
    return seats, subscriptions


def drive(clients: Clients, seconds: float, rate: float) -> None:
    """Open-loop load: a request started every 1/rate s whatever the earlier ones are doing."""
    started = time.monotonic()
    with ThreadPoolExecutor(CLIENT_THREADS) as pool:
        futures = []
        for tick in range(int(seconds * rate)):
            time.sleep(max(0.0, started + tick / rate - time.monotonic()))
            futures.append(pool.submit(clients.one, tick))
    for future in futures:
        if (error := future.exception()) is not None:
            raise error  # the harness's own fault (a bot's, a client's): not a figure to print


def records(server: HostServerProcess, match_ids: list[str]) -> dict[str, dict[str, Any]]:
    return {match_id: server.host("export", match_id=match_id) for match_id in match_ids}


def check(tally: Tally, exported: dict[str, dict[str, Any]]) -> tuple[list[MoveKey], list[MoveKey]]:
    """Each acknowledged move (its last acknowledged submission) in its phase's record, and each
    phase record's moves once: (lost, doubled)."""
    kept: dict[MoveKey, list[Any]] = defaultdict(list)
    for match_id, record in exported.items():
        for phase in record["phases"]:
            for player, kinds in phase["submissions"].items():
                for kind, submission in kinds.items():
                    kept[(match_id, phase["number"], player, kind)].append(submission)
    lost = [
        key for key, move in tally.acknowledged.items() if len(kept.get(key, [])) != 1 or not holds(kept[key][0], move)
    ]
    doubled = [key for key, moves in kept.items() if len(moves) > 1]
    return lost, doubled


def holds(kept: Any, sent: Any) -> bool:
    """The record keeps the move as sent: each field sent, with the same value (the record also
    spells out the fields the sender left to their defaults: `"item": null`)."""
    if isinstance(sent, dict):
        return isinstance(kept, dict) and all(name in kept and holds(kept[name], value) for name, value in sent.items())
    if isinstance(sent, list):
        return isinstance(kept, list) and len(kept) == len(sent) and all(map(holds, kept, sent))
    return bool(kept == sent)


def lateness(record: dict[str, Any], phase_seconds: int) -> list[float]:
    """Seconds each phase that ran to its deadline resolved after it: the deadline is its opening
    plus its length, its extensions and its pauses, all read from the match's event log."""
    late, opened, shift, paused_at = [], 0.0, 0.0, 0.0
    for event in record["events"]:
        at = datetime.fromisoformat(event["at"]).timestamp()
        kind = event["type"]
        if kind in ("created", "phase_opened"):
            opened, shift = at, 0.0
        elif kind == "extended":
            shift += event["data"]["seconds"]
        elif kind == "paused":
            paused_at = at
        elif kind == "resumed":
            shift += at - paused_at
        elif kind == "phase_resolved" and event["data"]["timed_out"]:
            late.append(at - (opened + phase_seconds + shift))
    return late


def restart(server: HostServerProcess, how: signal.Signals) -> float:
    """Stops the server by `how` with its matches running; the seconds until it answers again."""
    server.stop(how)
    return server.start()


@dataclass
class Channels:
    """Where the server's notices go: webhooks to `receiver`, mail to `sink` (a relay of the
    harness's, else None) and the outbox, counted by `mail`."""

    receiver: WebhookReceiver
    sink: MailSink | None
    mail: MailSink | OutboxCount
    webhooks_before_kill: list[str] | None = None
    """The webhook ids repeated before the SIGKILL."""
    outbox_at_kill: set[str] | None = None
    """The outbox's files at the SIGKILL."""


def run(options: Options, folder: Path) -> Outcome:
    rng = random.Random(options.seed)
    sink = MailSink() if options.relay else None
    server = HostServerProcess(folder / "data", relay_port=sink.port if sink is not None else 0)
    channels = Channels(WebhookReceiver(), sink, sink or OutboxCount(server.outbox))
    server.start()
    try:
        seats, subscriptions = create(server, options, rng, channels.receiver)
        match_ids = sorted({seat.match_id for seat in seats})
        print(
            f"load: {len(match_ids)} matches, {len(seats)} participants, phases of {options.phase_seconds} s, "
            f"{options.rate:g} req/s for {options.seconds:g} s ...",
            flush=True,
        )
        clients = Clients(server, seats, Tally(), rng)
        drive(clients, options.seconds, options.rate)
        used = server.usage()
        late = [
            seconds
            for record in records(server, match_ids).values()
            for seconds in lateness(record, options.phase_seconds)
        ]
        restarts = {"SIGTERM": restart(server, signal.SIGTERM)}
        seconds = min(10.0, options.seconds)
        restarts["SIGKILL"] = killed_under_load(server, clients, seconds, options.rate, rng, channels)
        settled = settle(server, match_ids)
        exported = records(server, match_ids)
        lost, doubled = check(clients.tally, exported)
        notices = told(server, channels, subscriptions, exported, clients.tally)
        outcome = Outcome(clients.tally, lost, doubled, notices, late, used, restarts, settled)
    finally:
        server.stop()
        channels.receiver.close()
        if sink is not None:
            sink.close()
    report(outcome, options, folder_megabytes(folder / "data"))
    return outcome


def killed_under_load(
    server: HostServerProcess,
    clients: Clients,
    seconds: float,
    rate: float,
    rng: random.Random,
    channels: Channels,
) -> float:
    """The load for `seconds`, the server killed by SIGKILL at a random moment of it (requests in
    flight die with it) and started again at once while the load goes on: the seconds until it
    answered again. What the channels had at the kill is kept in `channels`."""
    load = threading.Thread(target=drive, args=(clients, seconds, rate), name="load-under-kill")
    load.start()
    time.sleep(rng.uniform(0.2, 0.6) * seconds)
    channels.webhooks_before_kill = channels.receiver.repeated()
    channels.outbox_at_kill = outbox_files(server.outbox)
    channels.mail.mark_kill()  # a message counted from now on came after the kill
    serving_again = restart(server, signal.SIGKILL)
    load.join()
    return serving_again


def told(
    server: HostServerProcess,
    channels: Channels,
    subscriptions: dict[str, list[str]],
    exported: dict[str, dict[str, Any]],
    tally: Tally,
) -> Notices:
    """The notices' and mails' check, once the webhook pump and the mail queue have sent what they
    hold (neither delivered anything for 5 s, or a minute at most) and every STATUS mail is
    answered (or that minute is over)."""
    receiver, mail = channels.receiver, channels.mail
    deadline, quiet_since, seen = time.monotonic() + 60, time.monotonic(), (-1, -1)
    while time.monotonic() < deadline and time.monotonic() - quiet_since < 5:
        if (count := (receiver.deliveries(), mail.deliveries())) != seen:
            seen, quiet_since = count, time.monotonic()
        time.sleep(0.5)
    while time.monotonic() < deadline and not all(mail.replies_to(tally.mailed).values()):
        time.sleep(0.5)
    lost, repeated = notices_check(receiver, subscriptions, exported)
    across, twice = mail.delivered_twice()
    outbox_twice = kept_twice(server.outbox, channels.outbox_at_kill or set()) if channels.sink else None
    mails = (dict(mail.replies_to(tally.mailed)), mail.where, mail.deliveries(), across, twice, outbox_twice)
    return Notices(receiver.deliveries(), lost, repeated, *mails, channels.webhooks_before_kill or [])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bin/bench load", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=Options.matches)
    parser.add_argument("--seconds", type=float, default=Options.seconds, help="how long the load runs")
    parser.add_argument("--rate", type=float, default=Options.rate, help="requests started a second")
    parser.add_argument("--phase-seconds", type=int, default=Options.phase_seconds)
    parser.add_argument(
        "--sizes", choices=("mixed", "most"), default=Options.sizes, help="typical and fewest players, or the most"
    )
    parser.add_argument(
        "--relay", action="store_true", help="send the server's mail through a relay of the harness's, counted there"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-load-") as folder:
        options = Options(args.matches, args.seconds, args.rate, args.phase_seconds, relay=args.relay, sizes=args.sizes)
        run(options, Path(folder))
