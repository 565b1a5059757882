"""Play a whole match with bots on the local stack, printing progress and every announcement.

    bin/play                                  12-player Pushing Crates
    bin/play --game palindrome                Palindrome Construction (mm8)
    bin/play --game palindrome --rule-set mm5 (each game's typical players: its `demo`)
    bin/play --game abstrac --rule-set deal
    bin/play --phase-seconds 2 --no-early-close   every phase runs to its deadline
    bin/play --pace 0                         no waiting: deadlines pass as soon as everyone waits
    bin/play --channel email                  the bots play by e-mail (sent mail: local-outbox/)
    bin/play --season [FILE]                  a whole season (local_stack/bots/play_season.py)

Each bot reads only what SNS delivered to its own inbox (its private notices, rendered from its
view) and submits through the webhook handler exactly as API Gateway would call it.

The stack runs on a virtual clock (local_stack/aws/clock.py) that moves only while the state machine
is parked and every bot has acted, so no bot is ever late, however loaded the machine; `--pace`
real seconds pass for each of the match's seconds while it waits.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Literal

from game_core.cli import asl
from game_core.games import registry
from game_core.match.engine import guests_per_player
from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack
from local_stack.bots import play_season
from local_stack.bots.printed import compact, say
from local_stack.bots.runner import run_match


def bot_matches(size: Literal["typical", "few"]) -> list[tuple[str, str, int]]:
    """(game, rule set, players) for every available game and rule set, with the players of its
    typical match or its fewest, as the game declares them (`Game.demo`): the matrices of the
    tests that play whole matches and of the benchmarks."""
    matches = []
    for game_id in registry.AVAILABLE:
        game = registry.load(game_id)
        for rule_set in asl.rule_sets(game):
            matches.append((game_id, rule_set, game.demo.players_in(rule_set) if size == "typical" else game.demo.few))
    return matches


def seat(player: str, guests: int) -> dict[str, Any]:
    """A player's entry, with the guests the game has each player bring (`p01`'s: `p01g1`, ...)."""
    return {"id": player} | ({"guests": [{"id": f"{player}g{n}"} for n in range(1, guests + 1)]} if guests else {})


def show(kind: str, data: dict[str, Any]) -> None:
    if kind == "created":
        opened = data["open"]
        say(f"match {data['match_id']} created; {opened['phase']} open until {opened['deadline']}")
    elif kind == "announcement":
        say(f"\n== {data['subject']}")
        say(f"   {compact(data['view'].get('public', data['view']))}")
        if "result" in data:
            show_result(data["result"])
    elif kind == "acted":
        # Each bot's own answers (its puzzles' tokens): shown here, never sent to anyone else.
        answer = data["reply"].get("answer", {})
        if "token" in answer:
            say(f"    {data['player']} solved {answer['round']}.{answer['puzzle']}: token {answer['token']}")
    elif kind == "submitted":
        body, reply = data["body"], data["reply"]
        outcome = "accepted" if data["status"] == 200 else f"REFUSED {data['status']}: {reply.get('reasons')}"
        by = " by e-mail" if data.get("channel") == "email" else ""
        say(f"    {data['player']} -> {body['phase']} ({body['kind']}){by} {outcome}")


def show_result(result: dict[str, Any]) -> None:
    say("\nFinal standings")
    for standing in result["standings"]:
        tied = f" (tied with {', '.join(standing['tied_with'])})" if standing["tied_with"] else ""
        player = standing["player"]
        tokens = result["tol_awarded"].get(player, 0)
        marks = f" ToL x{tokens}" if tokens else " EC" if player in result["ec"] else ""
        say(f"  {standing['place']:>2}. {player}  {standing['score']:>8}{marks}{tied}")
    if result.get("undecided"):
        say(f"  the host decides between: {', '.join(result['undecided'])}")
    say(f"  garnets awarded: {compact(result['garnets'])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bin/play", description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="crates", choices=registry.AVAILABLE)
    parser.add_argument("--players", type=int, help="default: a typical match's (the game's demo.players)")
    parser.add_argument("--rule-set")
    parser.add_argument("--phase-seconds", type=int, default=3)
    parser.add_argument(
        "--no-early-close",
        dest="early_close",
        action="store_false",
        help="let every phase run to its deadline instead of closing when all bots submitted",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--channel", choices=("webhook", "email"), default="webhook", help="how the bots send moves")
    parser.add_argument("--outbox", type=Path, default=Path("local-outbox"), help="where sent mail is kept (.eml)")
    parser.add_argument(
        "--pace",
        type=float,
        default=1.0,
        help="real seconds per second of the match's clock while everyone waits (0: skip the waits)",
    )
    parser.add_argument(
        "--season", nargs="?", const="", metavar="FILE", help="a whole season (local_stack/bots/play_season.py)"
    )
    parser.add_argument("--host-names", action="store_true", help="--season: the host names for each EC at once")
    parser.add_argument("--ecs-name", action="store_true", help="--season: each EC names at once, by webhook")
    args = parser.parse_args(argv)
    if args.season is not None:
        return play_season.play(Path(args.season) if args.season else None, args.host_names, args.ecs_name)
    game = registry.load(args.game)
    players = args.players or game.demo.players_in(args.rule_set or game.Settings().rule_set)
    request = {
        "game": args.game,
        "settings": {"rule_set": args.rule_set} if args.rule_set else {},
        "players": [seat(f"p{i:02d}", guests_per_player(game)) for i in range(1, players + 1)],
        "phase_seconds": args.phase_seconds,
        "early_close": args.early_close,
        "seed": args.seed,
    }
    started = time.monotonic()
    clock = VirtualClock()
    match_started = clock.time()
    with LocalStack(clock=clock, outbox=args.outbox if args.channel == "email" else None) as stack:
        say(f"local stack up: moto, state machines for {', '.join(stack.state_machines)}, handlers in-process")
        say(f"{game.title}: {players} players, phases of {args.phase_seconds} s")
        run = run_match(stack, request, observe=show, pace=args.pace, channel=args.channel)
    if args.channel == "email":
        say(f"\n{sum(len(mails) for mails in run.mailboxes.values())} mails sent to the players: {args.outbox}/")
    say(
        f"\nstate machine {run.status} after {time.monotonic() - started:.1f} s "
        f"({clock.time() - match_started:.0f} s on the match's clock)"
    )
    return 0 if run.status == "SUCCEEDED" else 1


if __name__ == "__main__":
    sys.exit(main())
