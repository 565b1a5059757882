"""Play a whole match with bots on the local stack, printing progress and every announcement.

    bin/play                                  12-player Pushing Crates
    bin/play --game palindrome                9-player Palindrome Construction (mm8)
    bin/play --game palindrome --rule-set mm5
    bin/play --game abstrac --rule-set deal
    bin/play --phase-seconds 2 --no-early-close   every phase runs to its deadline

Each bot reads only what SNS delivered to its own inbox (its private notices, rendered from its
view) and submits through the webhook handler exactly as API Gateway would call it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from game_core.games import registry
from game_core.games.protocol import OpenPhase
from local_stack.bots import bot_for
from local_stack.stack import Inbox, LocalStack

DEFAULT_PLAYERS = {"crates": 12, "palindrome": 9, "abstrac": 2}


def say(line: str) -> None:
    print(line, flush=True)


def compact(value: Any, limit: int = 400) -> str:
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Seat:
    """One bot: acts once per phase number it can act in, from its latest private notice."""

    def __init__(self, game_id: str, player: str, secret: str, seed: int) -> None:
        self.player, self.secret = player, secret
        self.choose = bot_for(game_id)
        self.rng = random.Random(f"bot:{seed}:{player}")
        self.acted: set[int] = set()

    def act(self, stack: LocalStack, match_id: str, notice: dict[str, Any]) -> None:
        opened = notice.get("open")
        if not opened or opened["number"] in self.acted or self.player not in opened["actors"]:
            return
        self.acted.add(opened["number"])
        phase = OpenPhase(opened["phase"], tuple(opened["accepts"]), tuple(opened["actors"]))
        for kind, submission in self.choose(notice["view"], phase, self.player, self.rng).items():
            body = {"phase": phase.name, "kind": kind, "submission": submission}
            status, reply = stack.submit(match_id, self.player, self.secret, body)
            outcome = "accepted" if status == 200 else f"REFUSED {status}: {reply.get('reasons')}"
            say(f"    {self.player} -> {phase.name} ({kind}) {outcome}")


def play(game_id: str, players: int, rule_set: str | None, phase_seconds: int, early_close: bool, seed: int) -> int:
    game = registry.load(game_id)
    settings = {"rule_set": rule_set} if rule_set else {}
    seats = [f"p{i:02d}" for i in range(1, players + 1)]
    with LocalStack() as stack:
        say(f"local stack up: moto, {len(stack.state_machines)} state machines, handlers in-process")
        inbox: Inbox = stack.subscribe(seats)
        created = stack.host({"command": "create", "match": {
            "game": game_id, "settings": settings, "players": [{"id": p} for p in seats],
            "phase_seconds": phase_seconds, "early_close": early_close, "seed": seed,
        }})
        if not created["ok"]:
            say(f"could not create the match: {created['reasons']}")
            return 1
        match_id = created["match_id"]
        say(f"match {match_id}: {game.title}, {players} players, phases of {phase_seconds} s, seed {seed}")
        bots = {p: Seat(game_id, p, created["secrets"][p], seed) for p in seats}
        started = time.monotonic()
        while True:
            for announcement in inbox.receive(None):
                say(f"\n== {announcement['subject']}")
                say(f"   {compact(announcement['view'].get('public', announcement['view']))}")
                if "result" in announcement:
                    print_result(announcement["result"])
            for player, bot in bots.items():
                notices = inbox.receive(player)
                if notices:
                    bot.act(stack, match_id, notices[-1])
            status = stack.execution(match_id, game_id)["status"]
            if status != "RUNNING":
                for announcement in inbox.receive(None):
                    say(f"\n== {announcement['subject']}")
                    if "result" in announcement:
                        print_result(announcement["result"])
                say(f"\nstate machine {status} after {time.monotonic() - started:.1f} s")
                return 0 if status == "SUCCEEDED" else 1
            time.sleep(0.2)


def print_result(result: dict[str, Any]) -> None:
    say("\nFinal standings")
    for standing in result["standings"]:
        tied = f" (tied with {', '.join(standing['tied_with'])})" if standing["tied_with"] else ""
        marks = " ToL" if standing["player"] in result["tol"] else " EC" if standing["player"] in result["ec"] else ""
        say(f"  {standing['place']:>2}. {standing['player']}  {standing['score']:>8}{marks}{tied}")
    if result.get("undecided"):
        say(f"  the host decides between: {', '.join(result['undecided'])}")
    say(f"  garnets: {compact(result['garnets'])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bin/play", description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="crates", choices=registry.AVAILABLE)
    parser.add_argument("--players", type=int)
    parser.add_argument("--rule-set")
    parser.add_argument("--phase-seconds", type=int, default=3)
    parser.add_argument("--no-early-close", dest="early_close", action="store_false",
                        help="let every phase run to its deadline instead of closing when all bots submitted")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    players = args.players or DEFAULT_PLAYERS[args.game]
    return play(args.game, players, args.rule_set, args.phase_seconds, args.early_close, args.seed)


if __name__ == "__main__":
    sys.exit(main())
