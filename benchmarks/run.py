"""Speed benchmarks, reported as medians of one run (this machine is shared and noisy).

    bin/bench

Each report module prints its figures next to its goal (issue 8):
- resolution: the heaviest phase of each game and rule set, and primality (benchmarks/resolution.py).
- cold start: each handler's import against boto3 and a DynamoDB client (benchmarks/cold_start.py).
- costs: a whole match of each game on the local stack, in dollars, transitions, calls and item sizes
  (benchmarks/costs.py); what webhooks out add per delivery (benchmarks/webhooks.py).
- local: a 12-player Crates match with 1-second phases on the local stack (benchmarks/local_play.py).
- page: the player's page's size per game and one view's AWS calls (benchmarks/page.py).
"""

from __future__ import annotations

from benchmarks import cold_start, costs, local_play, page, resolution, webhooks


def main() -> int:
    resolution.report()
    cold_start.report()
    costs.report()
    webhooks.report()
    local_play.report()
    page.report()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
