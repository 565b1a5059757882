"""The Palindrome scorer's former pure-Python primality test, kept as the reference the GMP-backed
one (game_core.games.palindrome.scoring) is checked against, and the numbers it is checked on.

Used by test_palindrome_primality.py (20,000 numbers) and `bin/bench` (100,000).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from math import isqrt

import gmpy2

from game_core.games.palindrome import scoring

SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
DETERMINISTIC_BOUND = 3_317_044_064_679_887_385_961_981
"""Miller-Rabin with the 13 primes 2..41 as bases is exact below this bound."""
TRIAL_PRIMES = tuple(p for p in range(2, 1000) if all(p % q for q in range(2, isqrt(p) + 1)))


def _strong_probable_prime(n: int, base: int) -> bool:
    """Miller-Rabin round: n (odd, > base) is a strong probable prime to `base`."""
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    x = pow(base, d, n)
    if x in (1, n - 1):
        return True
    for _ in range(s - 1):
        x = x * x % n
        if x == n - 1:
            return True
    return False


def _jacobi(a: int, n: int) -> int:
    """The Jacobi symbol (a/n) for odd n > 0."""
    a %= n
    result = 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                result = -result
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


def _strong_lucas_probable_prime(n: int) -> bool:
    """Strong Lucas test with Selfridge's parameters (method A): P = 1, Q = (1 - D) / 4 for the
    first D in 5, -7, 9, -11, ... with (D/n) = -1. n is odd, > 2 and not a perfect square."""
    d_param = 5
    while True:
        j = _jacobi(d_param, n)
        if j == -1:
            break
        if j == 0 and abs(d_param) != n:
            return False
        d_param = -d_param - 2 if d_param > 0 else -d_param + 2
    p, q = 1, (1 - d_param) // 4
    d, s = n + 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    # U_1, V_1, Q^1; then walk the bits of d below the top one.
    u, v, qk = 1, p, q % n
    for bit in bin(d)[3:]:
        u, v = u * v % n, (v * v - 2 * qk) % n
        qk = qk * qk % n
        if bit == "1":
            u, v = (p * u + v) % n, (d_param * u + p * v) % n
            u = (u + n if u % 2 else u) // 2 % n
            v = (v + n if v % 2 else v) // 2 % n
            qk = qk * q % n
    if u == 0 or v == 0:
        return True
    for _ in range(s - 1):
        v = (v * v - 2 * qk) % n
        qk = qk * qk % n
        if v == 0:
            return True
    return False


def bpsw(n: int) -> bool:
    """Baillie-PSW: a strong probable prime to base 2 that is also a strong Lucas probable prime."""
    if n < 2:
        return False
    for p in TRIAL_PRIMES:
        if n % p == 0:
            return n == p
    if isqrt(n) ** 2 == n:
        return False
    return _strong_probable_prime(n, 2) and _strong_lucas_probable_prime(n)


def is_prime(n: int) -> bool:
    """Exact below 3.3e24 (deterministic Miller-Rabin); BPSW above (no known counterexample)."""
    if n < 2:
        return False
    for p in TRIAL_PRIMES:
        if n % p == 0:
            return n == p
    if n < DETERMINISTIC_BOUND:
        return all(_strong_probable_prime(n, b) for b in SMALL_PRIMES)
    return bpsw(n)


# -- the numbers both are checked on ---------------------------------------------------------------

KNOWN_PRIMES = (
    2**89 - 1,
    2**107 - 1,
    2**127 - 1,
    2**521 - 1,
    2**607 - 1,
    int("1" * 19),
    int("1" * 23),
    int("1" * 317),
    10**100 + 267,  # the first prime past a googol
    10**200 + 357,  # the first prime past 10^200
    2**255 - 19,  # Curve25519's field
    2**256 - 2**224 + 2**192 + 2**96 - 1,  # P-256's field
)
CARMICHAEL = (561, 1105, 1729, 2465, 2821, 6601, 8911, 10585, 15841, 29341, 41041, 46657, 52633, 62745, 63973)
STRONG_PSEUDOPRIMES = (
    2047,  # base 2
    3277,
    4033,
    4681,
    8321,
    1373653,  # bases 2 and 3
    25326001,  # bases 2, 3 and 5
    3215031751,  # bases 2, 3, 5 and 7
    2152302898747,  # bases 2 to 11
    3474749660383,  # bases 2 to 13
    341550071728321,  # bases 2 to 17
    3825123056546413051,  # bases 2 to 23
    318665857834031151167461,  # bases 2 to 37
    3317044064679887385961981,  # bases 2 to 41: the deterministic bound itself
)
MERSENNE_PRIME_EXPONENTS = (2, 3, 5, 7, 13, 17, 19, 31, 61, 89, 107, 127, 521, 607)
COMPOSITE_MERSENNES = tuple(2**p - 1 for p in TRIAL_PRIMES if 11 <= p <= 700 and p not in MERSENNE_PRIME_EXPONENTS)
"""2^p - 1 for a prime p, when composite, is a strong pseudoprime to base 2 (2 has order p, which
divides (2^p - 2) / 2): up to 209 digits here, only the Lucas half of BPSW tells them apart."""
COMPOSITE_FERMATS = tuple(2 ** (2**k) + 1 for k in range(5, 10))
"""Composite Fermat numbers, strong pseudoprimes to base 2 too (F9 has 155 digits)."""
STRONG_LUCAS_PSEUDOPRIMES = (5459, 5777, 10877, 16109, 18971, 22499, 24569, 25199, 40309, 58519)


def _odd(rng: random.Random, digits: int) -> int:
    return rng.randrange(10 ** (digits - 1), 10**digits) | 1


def _palindrome(rng: random.Random, digits: int) -> int:
    half = str(rng.randrange(10 ** ((digits - 1) // 2), 10 ** ((digits + 1) // 2)))
    tail = half[: digits // 2][::-1]
    return int(half + tail)


def numbers(count: int, seed: int = 8) -> Iterator[int]:
    """`count` numbers that exercise both tests: first the fixed lists above (known primes,
    Carmichael numbers, strong pseudoprimes to small bases, composite Mersenne and Fermat numbers,
    strong Lucas pseudoprimes, some of them times a large prime, squares of the known primes), then
    by turns random odd numbers of 1 to 210 digits, palindromes of 1 to 210 digits, perfect squares,
    products of two odd numbers of similar size, and primes (GMP's next prime after a random odd
    number: the reference has to agree that it is one)."""
    fixed = [
        *KNOWN_PRIMES,
        *CARMICHAEL,
        *STRONG_PSEUDOPRIMES,
        *COMPOSITE_MERSENNES,
        *COMPOSITE_FERMATS,
        *STRONG_LUCAS_PSEUDOPRIMES,
        *(n * (10**100 + 267) for n in (*CARMICHAEL, *STRONG_PSEUDOPRIMES[:5], *STRONG_LUCAS_PSEUDOPRIMES)),
        *(n * n for n in KNOWN_PRIMES),
    ]
    yield from fixed[:count]
    rng = random.Random(seed)
    for index in range(count - min(count, len(fixed))):
        digits = rng.randint(1, 210)
        kind = index % 8
        if kind < 3:
            yield _odd(rng, digits)
        elif kind < 5:
            yield _palindrome(rng, digits)
        elif kind == 5:
            root = _odd(rng, max(1, digits // 2))
            yield root * root
        elif kind == 6:
            half = max(1, digits // 2)
            yield _odd(rng, half) * _odd(rng, half)
        else:
            yield int(gmpy2.next_prime(_odd(rng, digits)))


@dataclass(frozen=True)
class Agreement:
    count: int
    primes: list[int]
    """The numbers the reference finds prime."""
    disagreements: list[tuple[int, bool, bool, bool]]
    """(number, reference, scoring.is_prime, scoring.bpsw) wherever either differs."""


def agreement(count: int) -> Agreement:
    """The scorer's `is_prime` and `bpsw` against the reference on the first `count` numbers.
    Below the deterministic bound the reference is exact, and BPSW has to agree with it there too."""
    primes, disagreements, checked = [], [], 0
    for n in numbers(count):
        expected = is_prime(n)
        fast, plain = scoring.is_prime(n), scoring.bpsw(n)
        if fast is not expected or plain is not expected:
            disagreements.append((n, expected, fast, plain))
        if expected:
            primes.append(n)
        checked += 1
    return Agreement(checked, primes, disagreements)
