"""Speed benchmarks, reported as medians of one run (this machine is shared and noisy).

    bin/bench

Each report module prints its figures next to its goal (issue 8):
- resolution: the heaviest phase of each game and rule set, and primality (benchmarks/resolution.py).
"""

from __future__ import annotations

from benchmarks import resolution


def main() -> int:
    resolution.report()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
