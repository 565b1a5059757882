"""Speed benchmarks, reported as medians of one run (this machine is shared and noisy).

    bin/bench [SECTION ...]     (bin/bench --help lists the sections)

Each report module prints its figures next to its goal (issue 8):
- resolution: the heaviest phase of each game and rule set, and primality (benchmarks/resolution.py).
- cold start: each handler's import against boto3 and a DynamoDB client (benchmarks/cold_start.py).
- costs: a whole match of each game on the local stack, in dollars, transitions, calls and item sizes
  (benchmarks/costs.py), what its queues, logs and key add (benchmarks/added_costs.py); what webhooks
  out add per delivery (benchmarks/webhooks.py).
- paused: a paused match's transitions a day at each recheck, and its hand-overs (benchmarks/paused.py).
- local: a 12-player Crates match with 1-second phases on the local stack (benchmarks/local_play.py).
- page: the player's page's size per game and one view's AWS calls (benchmarks/page.py).
- season: the season machine's transitions and its step's AWS calls per episode (benchmarks/season.py).
- load: bin/host-server under concurrent clients, killed and restarted (benchmarks/load.py); minutes
  long, so run only when named: `bin/bench load --matches 10 --seconds 120` (`bin/bench load --help`).
- requests: the server's CPU per request kind and per resolution, in process at 50 matches
  (benchmarks/request_cpu.py); a minute or more, so run only when named (`bin/bench requests --help`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from benchmarks import (
    added_costs,
    cold_start,
    load,
    local_play,
    page,
    paused,
    request_cpu,
    resolution,
    season,
    webhooks,
)

SECTIONS: dict[str, tuple[Callable[[], None], str]] = {
    "resolution": (resolution.report, "the heaviest phase of each game and rule set, and primality"),
    "cold-start": (cold_start.report, "each handler's import against boto3 and a DynamoDB client"),
    "costs": (added_costs.report, "a whole match of each game: dollars, transitions, calls, sizes; what issue 29 adds"),
    "webhooks": (webhooks.report, "what webhooks out add per delivery"),
    "paused": (paused.report, "a paused match's transitions a day at each recheck, and its hand-overs"),
    "local": (local_play.report, "a 12-player Crates match with 1-second phases on the local stack"),
    "page": (page.report, "the player's page's size per game and one view's AWS calls"),
    "season": (season.report, "the season machine's transitions and AWS calls per episode, on top of its matches"),
    "load": (lambda: load.main([]), "bin/host-server at community scale (minutes: only when named; load --help)"),
    "requests": (lambda: request_cpu.main([]), "CPU per request and resolution in process (only when named)"),
}
ONLY_WHEN_NAMED = {"load", "requests"}
OWN_OPTIONS = {"load": load.main, "requests": request_cpu.main}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="bin/bench",
        description="Speed and cost benchmarks, each figure beside its goal (medians of one run).",
        epilog="sections, run in this order:\n"
        + "\n".join(f"  {name:11} {why}" for name, (_, why) in SECTIONS.items()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("sections", nargs="*", metavar="SECTION", help="the sections to run (all when none given)")
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] and argv[0] in OWN_OPTIONS:  # its own options: bin/bench load --matches 10 --seconds 120
        OWN_OPTIONS[argv[0]](argv[1:])
        return 0
    chosen = parser.parse_args(argv).sections
    unknown = [name for name in chosen if name not in SECTIONS]
    if unknown:
        parser.error(f"no section {', '.join(unknown)}: the sections are {', '.join(SECTIONS)}")
    for name in chosen or [name for name in SECTIONS if name not in ONLY_WHEN_NAMED]:
        SECTIONS[name][0]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
