"""Scoring the final strings: the ten criteria of the rule text, as the rulings read them."""

from __future__ import annotations

import gmpy2

from game_core.games.protocol import Model

SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
DETERMINISTIC_BOUND = 3_317_044_064_679_887_385_961_981
"""Miller-Rabin with the 13 primes 2..41 as bases is exact below this bound."""
GMP_BPSW_ONLY = 24
"""`reps` for GMP's `mpz_probab_prime_p` (GMP 6.2 and later; gmpy2's wheels from 2.2 on ship 6.3):
trial division, then Baillie-PSW in place of the first 24 Miller-Rabin rounds, so 24 adds none."""


def bpsw(n: int) -> bool:
    """Baillie-PSW as GMP runs it: a strong probable prime to base 2 that is also a strong Lucas
    probable prime; no composite is known to pass it."""
    return bool(gmpy2.is_prime(n, GMP_BPSW_ONLY))


def is_prime(n: int) -> bool:
    """Exact below 3.3e24 (deterministic Miller-Rabin); BPSW above (no known counterexample)."""
    if n >= DETERMINISTIC_BOUND:
        return bpsw(n)
    if n < 2:
        return False
    if any(n % p == 0 for p in SMALL_PRIMES):
        return n in SMALL_PRIMES
    return all(gmpy2.is_strong_prp(n, base) for base in SMALL_PRIMES)


def to_int(digits: str) -> int:
    """A digit string's base-10 value, in chunks (int() refuses strings beyond 4300 digits)."""
    value = 0
    for i in range(0, len(digits), 1000):
        chunk = digits[i : i + 1000]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


def value_key(digits: str) -> tuple[int, str]:
    """Orders non-empty digit strings by integer value without converting them (0110 == 110)."""
    stripped = digits.lstrip("0")
    return (len(stripped), stripped)


def is_palindrome(digits: str) -> bool:
    return digits == digits[::-1]


class StringScore(Model):
    string: str
    scoring: bool
    """Non-empty and a palindrome; otherwise every criterion is 0."""
    primality: int = 0
    accumulation: int = 0
    length: int = 0
    identical: int = 0
    normality: int = 0
    differences: int = 0
    repetition: int = 0
    zeros: int = 0
    maximal: int = 0
    exodia: int = 0
    total: int = 0


CRITERIA = (
    "primality",
    "accumulation",
    "length",
    "identical",
    "normality",
    "differences",
    "repetition",
    "zeros",
    "maximal",
    "exodia",
)


def score_string(digits: str, *, identical: bool, normal: bool, maximal: bool) -> StringScore:
    """One string's score. `identical`: a different player built the same string; `normal`: the
    owner's three strings have one length; `maximal`: its value is the largest among all non-empty
    strings of all players."""
    if not digits or not is_palindrome(digits):
        return StringScore(string=digits, scoring=False)
    total_digits = sum(int(d) for d in digits)
    distinct = len(set(digits))
    score = StringScore(
        string=digits,
        scoring=True,
        primality=2 if is_prime(to_int(digits)) else 0,
        accumulation=total_digits.bit_length() - 1 if total_digits >= 1 else 0,
        length=len(digits) // 2,
        identical=2 if identical else 0,
        normality=1 if normal else 0,
        differences=distinct - 2 if distinct > 2 else 0,
        repetition=2 if distinct == 1 and len(digits) >= 4 else 0,
        zeros=digits.count("0"),
        maximal=3 if maximal else 0,
        exodia=8 if len(digits) == 20 and all(digits.count(d) == 2 for d in "0123456789") else 0,
    )
    score.total = sum(getattr(score, criterion) for criterion in CRITERIA)
    return score


def score_all(strings: dict[str, list[str]]) -> dict[str, list[StringScore]]:
    """Every player's three string scores; `strings` maps each player to their three strings."""
    non_empty = [s for owned in strings.values() for s in owned if s]
    top = max((value_key(s) for s in non_empty), default=None)
    scores: dict[str, list[StringScore]] = {}
    for player, owned in strings.items():
        others = {s for other, theirs in strings.items() if other != player for s in theirs if s}
        normal = len({len(s) for s in owned}) == 1
        scores[player] = [
            score_string(s, identical=s in others, normal=normal, maximal=bool(s) and value_key(s) == top)
            for s in owned
        ]
    return scores
