"""Who owes what: each game says, per participant, what the open phase waits for from them
(`OpenPhase.owes`), and the engine answers "who still owes what" from it alone (`still_owed`,
`has_done`, `closes_early`, `sent_nothing`). Expected values are read off the seeds and RULINGS."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from match_support import T0, new_match

from game_core.games import registry
from game_core.match import engine
from game_core.match.model import Match

CLUBS_SIX = ("p1", "g1", "p2", "g2", "p3", "g3")
"""Puzzler's Clubs seats its participants in team order: each player, then their guest."""


def resolved(match: Match, submissions: dict[str, dict[str, Any]] | None = None) -> Match:
    game = registry.load(match.game)
    return engine.resolve(match, game, submissions or {}, T0 + timedelta(seconds=100)).match


def early(match: Match) -> Match:
    return match.model_copy(update={"early_close": True})


def crates_round_1() -> Match:
    return early(resolved(new_match("crates", ("a", "b"))))


def clubs_2a_1b() -> Match:
    return early(resolved(new_match("clubs", CLUBS_SIX)))


def palindrome_mm5() -> Match:
    return new_match("palindrome", ("A", "B"), rule_set="mm5")


def palindrome_round_2() -> Match:
    # mm5 Round 1 bidding: A puts card 9 on pack 1, B sends an empty bid. Pack 1 goes to A (9 is
    # the highest card on it that nobody else played); every other pack has no card: nobody's.
    round_1 = palindrome_mm5()
    bids = {"A": {"bid": {"cards": [{"card": 9, "pack": 1}]}}, "B": {"bid": {}}}
    return resolved(round_1, bids)


def domino_auction_2(a_chips: int) -> Match:
    # Auction 1: A bids `a_chips` on tile 1, B nothing: tile 1 is A's (the only amount bid on it).
    auction_1 = new_match("domino", ("A", "B"))
    return resolved(auction_1, {"A": {"bid": {"bids": [{"tile": 1, "chips": a_chips}]}}, "B": {"bid": {}}})


@pytest.mark.parametrize(
    ("case", "match", "owes"),
    [
        # Crates: the pregame waits for multipliers; a round for the round (multipliers are still
        # taken in Round 1, "accepted from the pregame phase until the end of round 1", not awaited)
        ("crates pregame", lambda: new_match("crates", ("a", "b")), {"a": ("multipliers",), "b": ("multipliers",)}),
        ("crates round 1", lambda: resolved(new_match("crates", ("a", "b"))), {"a": ("round",), "b": ("round",)}),
        # Palindrome mm8: the pregame takes nothing, so nobody owes it anything
        ("palindrome mm8 pregame", lambda: new_match("palindrome", ("A", "B")), {}),
        (
            "palindrome mm5 round 1",
            palindrome_mm5,
            {"A": ("bid",), "B": ("bid",)},
        ),
        # Round 2 bidding and round 1 construction: only A received a pack in round 1, so only A
        # has digits to place; both hold cards 0-9 again for round 2's bids
        ("palindrome mm5 round 2", palindrome_round_2, {"A": ("bid", "construction"), "B": ("bid",)}),
        # Domino: A won tile 1 in auction 1, so A owes its placement; B won nothing
        ("domino auction 2", lambda: domino_auction_2(10), {"A": ("bid", "place"), "B": ("bid",)}),
        # A who spent all 300 chips has none left to bid (a bid of 0 is no bid): only the placement
        ("domino auction 2, no chips left", lambda: domino_auction_2(300), {"A": ("place",), "B": ("bid",)}),
        # Abstrac row: the protected player (the first named by default) names who starts
        ("abstrac row starter", lambda: new_match("abstrac", ("A", "B")), {"A": ("starter",)}),
        # Clubs: everyone drafts in a Phase A; a Phase B waits for guesses, never for a build (the
        # service builds the best hand of whoever sends none)
        ("clubs 1A", lambda: new_match("clubs", CLUBS_SIX), {p: ("draft",) for p in CLUBS_SIX}),
        ("clubs 2A+1B", lambda: resolved(new_match("clubs", CLUBS_SIX)), {p: ("draft", "guess") for p in CLUBS_SIX}),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_each_game_says_what_the_open_phase_waits_for_from_whom(case, match, owes) -> None:
    opened = match()
    assert opened.phase.owes == owes
    # and nothing owed is beyond what the phase accepts from its actors
    for participant, kinds in opened.phase.owes.items():
        assert participant in opened.phase.actors and set(kinds) <= set(opened.phase.accepts)


@pytest.mark.parametrize(
    ("sent", "still_owed", "closes"),
    [
        # A owes bid and construction, B a bid (palindrome_round_2)
        ({}, {"A": ("bid", "construction"), "B": ("bid",)}, False),
        ({"A": {"bid"}}, {"A": ("construction",), "B": ("bid",)}, False),  # one of two kinds is not done
        ({"A": {"bid"}, "B": {"bid"}}, {"A": ("construction",)}, False),
        ({"A": {"construction"}, "B": {"bid"}}, {"A": ("bid",)}, False),
        ({"A": {"bid", "construction"}, "B": {"bid"}}, {}, True),
        ({"A": {"bid", "construction"}, "B": {"construction"}}, {"B": ("bid",)}, False),
    ],
)
def test_still_owed_and_early_close_give_one_answer(sent, still_owed, closes) -> None:
    match = palindrome_round_2().model_copy(update={"early_close": True})
    assert engine.still_owed(match.phase, sent) == still_owed
    done = {who for who, kinds in sent.items() if engine.has_done(match, who, kinds)}
    assert engine.closes_early(match, done) is closes
    # the header's done set gives the same answer as reading every sheet
    assert engine.waiting_for(match.model_copy(update={"done": frozenset(done)})) == tuple(still_owed)


def test_a_phase_that_waits_for_nobody_never_closes_early() -> None:
    # mm8's pregame takes nothing: it runs its time even with early close on
    pregame = new_match("palindrome", ("A", "B"), early_close=True)
    assert engine.still_owed(pregame.phase, {}) == {}
    assert not engine.closes_early(pregame, set())
    assert pregame.reminders_due == ()  # and nobody is reminded of anything


def test_only_whoever_owed_something_and_sent_nothing_is_named_when_the_phase_resolves() -> None:
    # Domino, auction 2 and placing 1: A owes a bid and the placement of tile 1, B a bid.
    match = domino_auction_2(10)
    game = registry.load("domino")
    # B bids; A sends nothing at all: A alone is named
    record = engine.resolve(match, game, {"B": {"bid": {"bids": []}}}, T0 + timedelta(seconds=200)).record
    assert record.missing == ("A",)
    # A sends only a bid (the tile is forfeited); B sends nothing: B alone, A sent something
    record = engine.resolve(match, game, {"A": {"bid": {"bids": []}}}, T0 + timedelta(seconds=200)).record
    assert record.missing == ("B",)


def test_a_participant_owing_nothing_is_never_named() -> None:
    # Palindrome mm5 round 2: B owes a bid only, sends it; A sends both. Nobody is named.
    match = palindrome_round_2()
    game = registry.load("palindrome")
    sent = {"A": {"bid": {}, "construction": {"steps": []}}, "B": {"bid": {}}}
    assert engine.resolve(match, game, sent, T0 + timedelta(seconds=200)).record.missing == ()


@pytest.mark.parametrize(
    ("case", "match", "sent", "closes"),
    [
        # Crates, Round 1: everyone's round closes it; a late multiplier change is not awaited
        ("crates", crates_round_1, {"a": {"round"}, "b": {"round"}}, True),
        (
            "crates",
            crates_round_1,
            {"a": {"round"}, "b": {"multipliers"}},
            False,
        ),
        # Palindrome: B, with no digits to place, is done with a bid alone
        ("palindrome", lambda: early(palindrome_round_2()), {"A": {"bid", "construction"}, "B": {"bid"}}, True),
        # Domino: B, who won no tile, is done with a bid alone; A, with no chips, with the placement
        ("domino", lambda: early(domino_auction_2(300)), {"A": {"place"}, "B": {"bid"}}, True),
        ("domino", lambda: early(domino_auction_2(300)), {"B": {"bid"}}, False),
        # Abstrac: the mover's move closes the phase (closes_on_submit); B owes nothing in it
        ("abstrac", lambda: new_match("abstrac", ("A", "B")), {"A": {"starter"}}, True),
        # Clubs 2A+1B: drafts and guesses close it; nobody's build is waited for
        (
            "clubs",
            clubs_2a_1b,
            {p: {"draft", "guess"} for p in CLUBS_SIX},
            True,
        ),
        (
            "clubs",
            clubs_2a_1b,
            {p: {"draft", "build"} for p in CLUBS_SIX},
            False,
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_every_game_closes_early_once_everyone_who_owes_has_sent_it(case, match, sent, closes) -> None:
    opened = match()
    done = {who for who, kinds in sent.items() if engine.has_done(opened, who, kinds)}
    assert engine.closes_early(opened, done) is closes
