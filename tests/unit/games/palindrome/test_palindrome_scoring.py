"""Palindrome Construction scoring: every criterion alone, their interactions, and primality.

Every expected value below is worked out by hand from the rule text and the rulings.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game_core.games.palindrome.scoring import CRITERIA, bpsw, is_prime, score_all, score_string, to_int


def breakdown(digits: str, **flags: bool) -> dict[str, int]:
    score = score_string(
        digits,
        identical=flags.get("identical", False),
        normal=flags.get("normal", False),
        maximal=flags.get("maximal", False),
    )
    return {c: getattr(score, c) for c in CRITERIA if getattr(score, c)} | {"total": score.total}


# -- every criterion on its own ------------------------------------------------------------------
# Only the criteria that score are listed; "total" is their sum.


@pytest.mark.parametrize(
    ("digits", "expected"),
    [
        # empty and non-palindromes score nothing at all, whatever the flags
        ("", {"total": 0}),
        ("12", {"total": 0}),
        ("1231", {"total": 0}),
        # "1": 1 is not prime; digit sum 1 -> floor(log2 1) = 0; length 1 -> 0
        ("1", {"total": 0}),
        # "0": not prime; sum 0 -> 0 (the rulings); one zero -> O's 1
        ("0", {"zeros": 1, "total": 1}),
        # "7": prime 2; sum 7 -> floor(log2 7) = 2
        ("7", {"primality": 2, "accumulation": 2, "total": 4}),
        # "11": prime 2; sum 2 -> 1; length 2 -> 1
        ("11", {"primality": 2, "accumulation": 1, "length": 1, "total": 4}),
        # "111" = 3 x 37; sum 3 -> 1; length 3 -> 1; only three repeats: no Repetition
        ("111", {"accumulation": 1, "length": 1, "total": 2}),
        # "1111" = 11 x 101; sum 4 -> 2; length 4 -> 2; four repeats -> Repetition 2
        ("1111", {"accumulation": 2, "length": 2, "repetition": 2, "total": 6}),
        # "9999": sum 36 -> 5 (32 <= 36 < 64); length 2; Repetition 2
        ("9999", {"accumulation": 5, "length": 2, "repetition": 2, "total": 9}),
        # "101": prime; sum 2 -> 1; length 1; two distinct digits -> no Differences; one zero
        ("101", {"primality": 2, "accumulation": 1, "length": 1, "zeros": 1, "total": 5}),
        # "929" is prime; sum 20 -> 4 (16 <= 20 < 32); length 1
        ("929", {"primality": 2, "accumulation": 4, "length": 1, "total": 7}),
        # "12321" = 111^2; sum 9 -> 3; length 2; 3 distinct -> Differences 1
        ("12321", {"accumulation": 3, "length": 2, "differences": 1, "total": 6}),
        # "10301" is prime; sum 5 -> 2; length 2; distinct {1,0,3} -> 1; two zeros
        ("10301", {"primality": 2, "accumulation": 2, "length": 2, "differences": 1, "zeros": 2, "total": 9}),
        # "1000000001": even length, so a multiple of 11; sum 2 -> 1; length 5; eight zeros
        ("1000000001", {"accumulation": 1, "length": 5, "zeros": 8, "total": 14}),
        # "00": sum 0; length 1; two zeros; only two repeats
        ("00", {"length": 1, "zeros": 2, "total": 3}),
        # "0000": length 2; four repeats of one digit -> Repetition 2; four zeros
        ("0000", {"length": 2, "repetition": 2, "zeros": 4, "total": 8}),
        # "020" (value 20): a palindrome with a leading zero ends in zero, never prime; sum 2 -> 1
        ("020", {"accumulation": 1, "length": 1, "zeros": 2, "total": 4}),
        # Exodia: 20 digits, two of each; sum 90 -> 6; length 10; 10 distinct -> Differences 8;
        # two zeros; Exodia 8 on top of Differences; ends in 0, not prime
        (
            "01234567899876543210",
            {"accumulation": 6, "length": 10, "differences": 8, "zeros": 2, "exodia": 8, "total": 34},
        ),
        # twenty ones: 20 long but not two of each digit -> no Exodia; sum 20 -> 4; length 10;
        # Repetition 2; even length -> multiple of 11
        ("1" * 20, {"accumulation": 4, "length": 10, "repetition": 2, "total": 16}),
        # 22 long with two of each digit plus two more nines: not exactly 20 -> no Exodia;
        # sum 108 -> 6; length 11; Differences 8; two zeros
        (
            "0123456789999876543210",
            {"accumulation": 6, "length": 11, "differences": 8, "zeros": 2, "total": 27},
        ),
    ],
)
def test_each_criterion_alone(digits, expected):
    assert breakdown(digits) == expected


@pytest.mark.parametrize(
    ("flag", "criterion", "points"),
    [("identical", "identical", 2), ("normal", "normality", 1), ("maximal", "maximal", 3)],
)
def test_the_criteria_that_depend_on_other_strings(flag, criterion, points):
    # "7" scores 4 alone (primality 2, accumulation 2)
    assert breakdown("7", **{flag: True}) == {
        "primality": 2,
        "accumulation": 2,
        criterion: points,
        "total": 4 + points,
    }
    # and a non-palindrome scores nothing even when the flag holds
    assert breakdown("17", **{flag: True}) == {"total": 0}


def test_a_string_may_meet_every_flag_at_once():
    # "7": 4 alone, + Identical 2 + Normality 1 + Maximal 3
    assert breakdown("7", identical=True, normal=True, maximal=True)["total"] == 10


# -- interactions across strings and players ------------------------------------------------------


def totals(strings: dict[str, list[str]]) -> dict[str, list[int]]:
    return {p: [s.total for s in scores] for p, scores in score_all(strings).items()}


def criterion(strings: dict[str, list[str]], name: str) -> dict[str, list[int]]:
    return {p: [getattr(s, name) for s in scores] for p, scores in score_all(strings).items()}


def test_a_non_palindrome_blocks_maximal():
    # B's 98 is not a palindrome (scores 0) but is still the largest value: A's 9 is not Maximal
    strings = {"A": ["9", "", ""], "B": ["98", "", ""]}
    assert criterion(strings, "maximal") == {"A": [0, 0, 0], "B": [0, 0, 0]}
    # "9": not prime, sum 9 -> 3
    assert totals(strings) == {"A": [3, 0, 0], "B": [0, 0, 0]}


def test_maximal_goes_to_the_largest_palindrome_when_it_is_largest():
    strings = {"A": ["9", "", ""], "B": ["89", "", ""], "C": ["99", "", ""]}
    # 99 > 89 > 9: C's 99 is Maximal: sum 18 -> 4, length 1, Maximal 3 = 8
    assert criterion(strings, "maximal") == {"A": [0, 0, 0], "B": [0, 0, 0], "C": [3, 0, 0]}
    assert totals(strings)["C"] == [8, 0, 0]


def test_maximal_compares_integer_values_so_a_leading_zero_does_not_count():
    # 0110 (a palindrome) and 110 (not one) have the same value 110, the largest: 0110 scores it
    strings = {"A": ["0110", "", ""], "B": ["110", "101", ""]}
    assert criterion(strings, "maximal") == {"A": [3, 0, 0], "B": [0, 0, 0]}


def test_maximal_is_scored_by_every_string_at_the_top_value_own_strings_included():
    strings = {"A": ["99", "99", ""], "B": ["99", "9", ""]}
    assert criterion(strings, "maximal") == {"A": [3, 3, 0], "B": [3, 0, 0]}


def test_maximal_at_value_zero_when_every_string_is_zeros():
    strings = {"A": ["0", "", ""], "B": ["00", "", ""]}
    assert criterion(strings, "maximal") == {"A": [3, 0, 0], "B": [3, 0, 0]}
    # "0": zeros 1 + Maximal 3; "00": length 1 + zeros 2 + Maximal 3
    assert totals(strings) == {"A": [4, 0, 0], "B": [6, 0, 0]}


def test_maximal_is_by_value_not_by_text_order():
    # "9" sorts after "1001" as text, but 1001 is the larger value
    strings = {"A": ["9", "", ""], "B": ["1001", "", ""]}
    assert criterion(strings, "maximal") == {"A": [0, 0, 0], "B": [3, 0, 0]}


def test_normality_with_a_non_palindrome_among_the_three():
    # lengths 3, 3, 3: the two palindromes score Normality, the non-palindrome scores nothing
    strings = {"A": ["121", "123", "555"], "B": ["", "", ""]}
    assert criterion(strings, "normality") == {"A": [1, 0, 1], "B": [0, 0, 0]}


def test_normality_needs_all_three_lengths_equal():
    strings = {"A": ["121", "555", "55"], "B": ["1", "1", "1"]}
    assert criterion(strings, "normality") == {"A": [0, 0, 0], "B": [1, 1, 1]}


def test_three_empty_strings_score_no_normality():
    assert criterion({"A": ["", "", ""], "B": ["1", "", ""]}, "normality")["A"] == [0, 0, 0]


def test_identical_counts_other_players_only_and_once():
    # A built 77 twice (own strings do not count); B built it once; C three times
    strings = {"A": ["77", "77", ""], "B": ["77", "", ""], "C": ["", "", ""]}
    assert criterion(strings, "identical") == {"A": [2, 2, 0], "B": [2, 0, 0], "C": [0, 0, 0]}
    alone = {"A": ["77", "77", ""], "B": ["7", "", ""]}
    assert criterion(alone, "identical") == {"A": [0, 0, 0], "B": [0, 0, 0]}
    many = {"A": ["5", "", ""], "B": ["5", "", ""], "C": ["5", "", ""]}
    assert criterion(many, "identical") == {"A": [2, 0, 0], "B": [2, 0, 0], "C": [2, 0, 0]}


def test_two_players_with_the_same_string_both_score_it_fully():
    # both built "747": 747 = 3 x 249; sum 18 -> 4; length 1; Identical 2; both Maximal 3
    strings = {"A": ["747", "", ""], "B": ["747", "", ""]}
    assert totals(strings) == {"A": [10, 0, 0], "B": [10, 0, 0]}


def test_identical_is_the_exact_characters():
    # 0110 and 110 are the same value but not the same string
    assert criterion({"A": ["0110", "", ""], "B": ["110", "", ""]}, "identical")["A"] == [0, 0, 0]


def test_exodia_in_a_full_position():
    # A: the Exodia string (34 alone) is also the largest value (Maximal 3) -> 37
    exodia = "98765432100123456789"
    strings = {"A": [exodia, "", ""], "B": ["11", "", ""]}
    scores = score_all(strings)["A"][0]
    assert (scores.differences, scores.exodia, scores.maximal) == (8, 8, 3)
    # sum 90 -> 6, length 10, Differences 8, zeros 2, Exodia 8, Maximal 3
    assert scores.total == 37


def test_a_whole_players_score():
    # A: "101" (5 alone), "232" (232 even; sum 7 -> 2; length 1: 3), "34143" (sum 15 -> 3,
    # length 2, Differences 1, and it is the largest value: Maximal 3 -> 9)
    # B: lengths 4, 4, 4 -> Normality 1 each. "9999": 9 + 1 = 10. "8778": sum 30 -> 4, length 2,
    # 1 -> 7. "5665": sum 22 -> 4, length 2, 1 -> 7.
    strings = {"A": ["101", "232", "34143"], "B": ["9999", "8778", "5665"]}
    assert totals(strings) == {"A": [5, 3, 9], "B": [10, 7, 7]}


# -- primality -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n",
    [2, 3, 5, 7, 11, 101, 131, 151, 181, 191, 313, 353, 373, 383, 727, 757, 787, 797, 919, 929, 10301],
)
def test_palindromic_primes(n):
    assert is_prime(n)
    assert bpsw(n)


@pytest.mark.parametrize("n", [0, 1, 4, 9, 121, 141, 161, 171, 1001, 12321, 11111, 1111111])
def test_palindromic_composites(n):
    # 141 = 3 x 47, 161 = 7 x 23, 171 = 9 x 19, 1001 = 7 x 11 x 13, 11111 = 41 x 271,
    # 1111111 = 239 x 4649
    assert not is_prime(n)
    assert not bpsw(n)


@pytest.mark.parametrize("n", [2047, 3277, 4033, 4681, 8321, 561, 1105, 1729, 25326001, 3215031751])
def test_strong_pseudoprimes_to_base_2_and_carmichael_numbers_are_composite(n):
    assert not is_prime(n)
    assert not bpsw(n)


@pytest.mark.parametrize("n", [5459, 5777, 10877, 16109, 18971, 22499, 24569, 25199, 40309, 58519])
def test_strong_lucas_pseudoprimes_are_caught_by_the_base_2_round(n):
    assert not bpsw(n)
    assert not is_prime(n)


@pytest.mark.parametrize(
    ("n", "prime"),
    [
        (2**521 - 1, True),  # Mersenne primes (157 and 183 digits)
        (2**607 - 1, True),
        (2**523 - 1, False),  # 523 is prime, 2^523 - 1 is not
        (2**1279 - 1, True),  # 386 digits
        (int("1" * 19), True),  # the repunits R19, R23, R317 are prime
        (int("1" * 23), True),
        (to_int("1" * 317), True),
        (to_int("1" * 315), False),  # 315 = 3 x 105: R3 divides R315
        ((2**521 - 1) * (2**607 - 1), False),
    ],
)
def test_large_numbers(n, prime):
    assert is_prime(n) is prime


def test_a_317_digit_palindromic_prime_scores_primality_fast():
    started = time.perf_counter()
    score = score_string("1" * 317, identical=False, normal=False, maximal=False)
    assert time.perf_counter() - started < 2
    # prime 2; sum 317 -> 8 (256 <= 317 < 512); length 158; Repetition 2
    assert (score.primality, score.accumulation, score.length, score.repetition) == (2, 8, 158, 2)


def test_strings_past_python_s_digit_limit_are_read_in_chunks():
    assert to_int("1" + "0" * 5000) == 10**5000


def trial_division(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


@given(st.integers(min_value=0, max_value=2_000_000))
def test_is_prime_agrees_with_trial_division(n):
    assert is_prime(n) is trial_division(n)
    assert bpsw(n) is trial_division(n)


@given(st.text(alphabet="0123456789", min_size=1, max_size=100))
def test_an_even_length_palindrome_over_11_is_never_scored_prime(half):
    # an even-length palindrome is a multiple of 11, so only 11 itself is prime
    digits = half + half[::-1]
    score = score_string(digits, identical=False, normal=False, maximal=False)
    if to_int(digits) != 11:
        assert score.primality == 0
    assert to_int(digits) % 11 == 0
