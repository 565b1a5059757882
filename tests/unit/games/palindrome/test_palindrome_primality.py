"""The scorer's primality test (GMP's BPSW through gmpy2) agrees with the former pure-Python one.

20,000 numbers here (about 6 s of CPU); `bin/bench` checks 100,000 of the same kinds.
"""

from __future__ import annotations

import pytest
from primality_reference import COMPOSITE_MERSENNES, DETERMINISTIC_BOUND, KNOWN_PRIMES, agreement

from game_core.games.palindrome.scoring import bpsw, is_prime

AGREEMENT_COUNT = 20_000


def test_the_gmp_test_agrees_with_the_pure_python_reference():
    checked = agreement(AGREEMENT_COUNT)
    assert checked.disagreements == []
    # the numbers exercise both answers, both branches of is_prime and strings of 200 digits
    assert checked.count == AGREEMENT_COUNT
    assert len(checked.primes) > AGREEMENT_COUNT // 10
    assert any(n >= DETERMINISTIC_BOUND for n in checked.primes)
    assert any(n < DETERMINISTIC_BOUND for n in checked.primes)
    assert max(len(str(n)) for n in checked.primes) >= 200
    assert set(KNOWN_PRIMES) <= set(checked.primes)


@pytest.mark.parametrize("n", COMPOSITE_MERSENNES[-5:])
def test_strong_pseudoprimes_to_base_2_of_200_digits_are_composite(n):
    assert pow(2, (n - 1) // 2, n) == 1  # a strong probable prime to base 2 ...
    assert not is_prime(n)  # ... that the Lucas half of BPSW refuses
    assert not bpsw(n)
