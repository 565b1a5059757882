"""Resolution speed (issue 8, "Resolution"): the heaviest phase of each game, and primality.

- For each game and rule set, a bot-played match (local_stack/bots, the most players the game
  takes) is timed phase by phase; its heaviest phase is timed again and its median printed next to
  the goal (5 ms), twice: the game's `resolve` alone, and as the match engine runs it on a stored
  match (the state read from JSON, resolved, written back to JSON). Pure: no AWS.
- Palindrome's worst final scoring: the last phase when every string is a 201-digit palindromic
  prime (9 players, the issue's case, and 12).
- Primality: medians for a 201-digit palindromic prime and composite, GMP's BPSW (the scorer's)
  and the former pure-Python one (tests/unit/games/palindrome/primality_reference.py), then both
  checked against each other on 100,000 numbers (the unit test checks 20,000).

Every time is a median of one run, in CPU time (time.process_time: this machine is shared).
"""

from __future__ import annotations

import importlib.util
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest import mock

from game_core.games import registry
from game_core.games.palindrome import scoring
from game_core.games.palindrome.scoring import is_prime
from game_core.games.protocol import AnyGame, Model, Resolution
from game_core.match.engine import guests_per_player
from local_stack.bots import bot_for
from local_stack.bots.play import bot_matches

GOAL_MS = 5.0
CASES = [(game_id, rule_set) for game_id, rule_set, _ in bot_matches("typical")]
"""Every available game and rule set."""
SCAN_REPEATS = 7
"""Timings of each phase when looking for the heaviest one."""
REPEATS = 51
"""Timings of the heaviest phase."""
AGREEMENT_COUNT = 100_000
REFERENCE = Path(__file__).resolve().parents[1] / "tests/unit/games/palindrome/primality_reference.py"


def median_seconds(action: Callable[[], object], repeats: int) -> float:
    """Median CPU seconds of `action` in this process (time.process_time): the other work on this
    shared machine does not count, as it would not in a Lambda of its own."""
    timings = []
    for _ in range(repeats):
        started = time.process_time()
        action()
        timings.append(time.process_time() - started)
    return statistics.median(timings)


@dataclass(frozen=True)
class Phase:
    """One phase of a played match: the state it resolves and what it resolves with."""

    game: AnyGame
    name: str
    state: Model
    submissions: dict[str, dict[str, Model]]
    seed: int

    def resolution(self) -> Resolution:
        return Resolution(self.submissions, random.Random(self.seed))

    def resolve(self) -> Model:
        return self.game.resolve(self.state, self.resolution())

    def stored(self) -> Callable[[], object]:
        """The engine's step on a stored match: the state from JSON, resolved, back to JSON."""
        stored = self.state.model_dump(mode="json")

        def step() -> object:
            state = self.game.State.model_validate(stored)
            return self.game.resolve(state, self.resolution()).model_dump(mode="json")

        return step


def played_phases(game_id: str, rule_set: str, players: int | None = None, seed: int = 1) -> list[Phase]:
    """Every phase of a match the game's bots play, in order."""
    game = registry.load(game_id)
    # A game with guests seats every participant, in team order: each player, then their guests
    seats = tuple(f"p{i:02d}" for i in range((players or game.max_players) * (1 + guests_per_player(game))))
    state = game.setup(game.Settings(rule_set=rule_set), seats, random.Random(seed))
    bot = bot_for(game_id)
    phases = []
    while (opening := game.open_phase(state)) is not None:
        step = len(phases)
        submissions = {
            p: {
                kind: game.submissions[kind].model_validate(body)
                for kind, body in bot(game.view(state, p), opening, p, random.Random(f"{seed}:{step}:{p}")).items()
            }
            for p in opening.actors
        }
        phase = Phase(game, opening.name, state, submissions, step)
        phases.append(phase)
        state = phase.resolve()
    return phases


def heaviest(phases: list[Phase]) -> tuple[int, Phase]:
    timings = [median_seconds(phase.stored(), SCAN_REPEATS) for phase in phases]
    index = max(range(len(phases)), key=timings.__getitem__)
    return index, phases[index]


def palindrome(digits: int, rng: random.Random) -> int:
    """A random palindrome of an odd number of digits."""
    half = str(rng.randrange(10 ** (digits // 2 - 1), 10 ** (digits // 2)))
    return int(half + str(rng.randrange(10)) + half[::-1])


def palindromic_prime(digits: int, rng: random.Random) -> int:
    while not is_prime(candidate := palindrome(digits, rng)):
        pass
    return candidate


def hard_palindromic_composite(digits: int, rng: random.Random) -> int:
    """A composite palindrome with no prime factor below 1000: trial division does not settle it."""
    small = math.prod(p for p in range(3, 1000, 2) if all(p % q for q in range(3, math.isqrt(p) + 1, 2)))
    while math.gcd(candidate := palindrome(digits, rng), 2 * small) != 1 or is_prime(candidate):
        pass
    return candidate


def prime_final(players: int, rng: random.Random) -> Phase:
    """Palindrome mm8's last phase with every player's three strings 201-digit palindromic primes
    (no digits left, nothing submitted: the strings stand and are scored)."""
    last = played_phases("palindrome", "mm8", players)[-1]
    state: Any = last.state.model_copy(deep=True)
    for seat in state.seats.values():
        seat.strings = [str(palindromic_prime(201, rng)) for _ in range(3)]
        seat.digits = ""
    return Phase(last.game, last.name, state, {}, last.seed)


def load_reference() -> ModuleType:
    """The former pure-Python primality test and the numbers it is checked on (a test module)."""
    spec = importlib.util.spec_from_file_location("primality_reference", REFERENCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def verdict(milliseconds: float) -> str:
    return "ok" if milliseconds <= GOAL_MS else "OVER"


def report() -> None:
    print(
        f"resolution: the heaviest phase of a bot-played match, CPU median of {REPEATS} "
        f"(goal: at most {GOAL_MS:g} ms, stored)"
    )
    print(f"  {'game':<22} {'heaviest phase':<50} {'resolve':>9} {'stored':>9}")
    for game_id, rule_set in CASES:
        players = registry.load(game_id).max_players
        phases = played_phases(game_id, rule_set, players)
        index, phase = heaviest(phases)
        alone = median_seconds(phase.resolve, REPEATS) * 1e3
        stored = median_seconds(phase.stored(), REPEATS) * 1e3
        label, where = f"{game_id} {rule_set}, {players}p", f"{phase.name} ({index + 1} of {len(phases)})"
        print(f"  {label:<22} {where:<50} {alone:6.2f} ms {stored:6.2f} ms  {verdict(stored)}")
    print("  resolve: the game's resolve alone; stored: the state read from JSON, resolved, written to JSON")

    reference = load_reference()
    rng = random.Random(2026)
    print(
        "  a stress case no match can reach, not a goal (every string a 201-digit palindromic prime; "
        "mm8 deals 210 digits in all):"
    )
    for players in (9, 12):
        final = prime_final(players, rng)
        alone = median_seconds(final.resolve, 11) * 1e3
        stored = median_seconds(final.stored(), 11) * 1e3
        label, where = f"palindrome mm8, {players}p", f"{final.name}, {3 * players} primes"
        print(f"  {label:<22} {where:<50} {alone:6.2f} ms {stored:6.2f} ms")
        if players == 9:
            with mock.patch.object(scoring, "is_prime", reference.is_prime):
                before = median_seconds(final.resolve, 3) * 1e3
            print(f"  {'':<22} {'the same with the former pure-Python test':<50} {before:6.0f} ms")

    prime, composite = palindromic_prime(201, rng), hard_palindromic_composite(201, rng)
    print("primality of a 201-digit palindrome, CPU median of 21: GMP's BPSW (gmpy2) / the former pure Python")
    for label, n in (("prime", prime), ("composite, no factor below 1000", composite)):
        fast = median_seconds(lambda n=n: is_prime(n), 21) * 1e3
        slow = median_seconds(lambda n=n: reference.is_prime(n), 21) * 1e3
        print(f"  {label:<32} {fast:7.3f} ms / {slow:7.3f} ms")
    started = time.perf_counter()
    checked = reference.agreement(AGREEMENT_COUNT)
    seconds = time.perf_counter() - started
    print(
        f"  the two agree on {checked.count:,} numbers of 1 to 210 digits ({len(checked.primes):,} prime): "
        f"{len(checked.disagreements)} disagreements ({seconds:.0f} s)"
    )
