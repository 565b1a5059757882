"""Speed benchmarks, reported as medians of one run (this machine is shared and noisy).

    bin/bench

- primality: median time to test a 200-digit palindromic prime and a 200-digit palindromic
  composite with the Palindrome scorer's BPSW test (the rulings ask for strings of 200 digits).
- resolution: median time for the match engine to resolve one phase of a 12-player Crates match
  and one combined bidding/construction phase of a 12-player Palindrome mm8 match (pure layer).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from game_core.games import registry
from game_core.games.palindrome.scoring import is_prime
from game_core.games.protocol import Resolution
from local_stack.bots import bot_for


def median_seconds(action: Callable[[], object], repeats: int) -> float:
    timings = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        timings.append(time.perf_counter() - started)
    return statistics.median(timings)


def palindromic_prime(digits: int, rng: random.Random) -> int:
    while True:
        half = str(rng.randrange(10 ** (digits // 2 - 1), 10 ** (digits // 2)))
        middle = str(rng.randrange(10))
        candidate = int(half + middle + half[::-1])
        if is_prime(candidate):
            return candidate


def phase_resolution(game_id: str, players: int, phase_index: int) -> Callable[[], object]:
    game = registry.load(game_id)
    seats = tuple(f"p{i:02d}" for i in range(players))
    state = game.setup(game.Settings(), seats, random.Random(1))
    bot = bot_for(game_id)

    def submissions_for(current):
        phase = game.open_phase(current)
        return {
            p: {
                k: game.submissions[k].model_validate(v)
                for k, v in bot(game.view(current, p), phase, p, random.Random(p)).items()
            }
            for p in phase.actors
        }

    for step in range(phase_index):
        state = game.resolve(state, Resolution(submissions_for(state), random.Random(step)))
    chosen = submissions_for(state)
    return lambda: game.resolve(state, Resolution(chosen, random.Random(0)))


def main() -> int:
    rng = random.Random(2026)
    prime = palindromic_prime(201, rng)
    composite = prime + 10**100  # still a palindrome (middle digit + 1) and almost surely composite
    print(f"primality, 201-digit palindromic prime:     {median_seconds(lambda: is_prime(prime), 21) * 1e3:8.2f} ms")
    print(
        f"primality, 201-digit palindromic composite: {median_seconds(lambda: is_prime(composite), 21) * 1e3:8.2f} ms"
    )
    crates = phase_resolution("crates", 12, 3)
    print(f"resolve a 12-player Crates round:          {median_seconds(crates, 51) * 1e3:8.2f} ms")
    palindrome = phase_resolution("palindrome", 12, 4)
    print(f"resolve a 12-player Palindrome phase:      {median_seconds(palindrome, 21) * 1e3:8.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
