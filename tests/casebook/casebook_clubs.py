"""Puzzler's Clubs' case book: every rule of the seed, its clarifications and every ruling, each case
worked by hand. Three teams: ann with her guest amy, bob with ben, cat with cal. Cards are rank then
suit: "TH" is the ten of hearts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook_support import Attempt, Book, Call, Case, Phase, Play, Section, creation, garnets_of, shown, standings_of

from game_core.games.clubs.cards import best_hand
from game_core.games.clubs.models import GuessSubmission, PuzzleClock
from game_core.games.clubs.rules import token_value
from game_core.games.clubs.showdown import guessing, hand_points, ranking

SEED = "002_6f6ea569c9d3ed6b.txt"
TEAMS = ("ann", "amy", "bob", "ben", "cat", "cal")
"""Each player followed by their guest."""


def deal(holes: str) -> dict[str, Any]:
    """A round's public cards: the ace of hearts to all, and these hole cards (hearts), in TEAMS order."""
    return {"community": "AH", "holes": dict(zip(TEAMS, holes.split(), strict=True))}


P = deal("KH 8H QH 9H JH TH")
"""ann K, amy 8, bob Q, ben 9, cat J, cal T: with the ace, hands rank by the hole card alone."""
Q = deal("QH 9H KH 8H JH TH")
R = deal("KH 9H QH JH TH 8H")
SETTINGS = {"deals": [P] * 7}
DEALS = (P, Q, R)


def deals_said(deals: list[dict[str, Any]]) -> str:
    """The host's deals in words: which rounds deal what, the community card first."""
    said = []
    for dealt in DEALS:
        rounds = [str(n) for n, d in enumerate(deals, start=1) if d == dealt]
        if rounds:
            holes = ", ".join(f"{who} {card}" for who, card in dealt["holes"].items())
            said.append(f"round{'s' if len(rounds) > 1 else ''} {', '.join(rounds)} deal {dealt['community']}; {holes}")
    return "the host's deals: " + "; ".join(said)


TOKENS = (
    (None, "tokens", {"participant": "ann", "tokens": [100, 50, 30]}),
    (None, "tokens", {"participant": "bob", "tokens": [40, 60, 90]}),
)
"""The host enters ann's and bob's round 1 token values (puzzles run elsewhere)."""
FILLER = {"ann": "2S 3S 4S 5S 6S 7S", "bob": "2D 3D 4D 5D 6D 7D", "amy": "8S 9S TS JS QS KS"}
"""Cards each fills the rest of a draft with (nobody else drafts them)."""


def draft(participant: str, wanted: Mapping[str, int], lowered: tuple[int, ...] = ()) -> dict[str, Any]:
    """`participant`'s draft: `wanted` cards at their priorities ("AC@1.1" drafts the club AC with
    token 1.1), the other priorities filled from their FILLER in order."""
    picks = []
    for written, priority in wanted.items():
        card, _, token = written.partition("@")
        picks.append({"card": card, "priority": priority} | ({"token": token} if token else {}))
    free = [n for n in range(1, 7) if n not in wanted.values()]
    fillers = [card for card in FILLER[participant].split() if card not in wanted]
    picks += [{"card": card, "priority": n} for card, n in zip(fillers, free, strict=False)]
    return {"picks": sorted(picks, key=lambda pick: pick["priority"]), "lowered": list(lowered)}


def play(*phases: Phase, attempt: Attempt | None = None) -> Play:
    """These phases with the host's deals P every round."""
    return Play(TEAMS, phases, SETTINGS, attempt, settings_said=deals_said(SETTINGS["deals"]))


def round_one(*drafts: tuple[str, Mapping[str, int]], attempt: Attempt | None = None) -> Play:
    """Phase 1A: the host's tokens, then these drafts."""
    moves = {who: {"draft": draft(who, wanted)} for who, wanted in drafts}
    return play(Phase(moves, TOKENS), attempt=attempt)


def in_phase_one(attempt: Attempt) -> Play:
    return play(attempt=attempt)


def in_phase_two(attempt: Attempt) -> Play:
    return play(Phase({}, TOKENS), attempt=attempt)


def whole_match(deals: list[dict[str, Any]], **settings: Any) -> Play:
    """Eight phases in which nobody sends anything: the service builds every hand."""
    said = deals_said(deals) + "".join(f", {key} {shown(value)}" for key, value in settings.items())
    return Play(TEAMS, tuple(Phase() for _ in range(8)), {"deals": deals} | settings, settings_said=said)


def _last_a(outcome):
    return outcome.state.rounds[outcome.state.phase - 2]


def _contested(game, outcome) -> dict[str, str]:
    round_state = _last_a(outcome)
    holder = {card: who for who, cards in round_state.won.items() for card in cards}
    return {r.card: holder.get(r.card, "discarded") for r in round_state.reveal if r.drafted > 1}


OBSERVE = {
    "contested": ("who received each card drafted more than once", _contested),
    "announced": (
        "announced for those cards",
        lambda game, o: {
            r.card: f"{r.drafted} drafted, {'given' if r.given else 'discarded'}"
            for r in _last_a(o).reveal
            if r.drafted > 1
        },
    ),
    "received": (
        "cards received (privately)",
        lambda game, o: {p: sorted(cards) for p, cards in _last_a(o).won.items() if cards},
    ),
    "tokens": ("round 1's token values", lambda game, o: o.state.rounds[0].tokens),
    "ranking": (
        "announced: round 1's ranking (place: participants)",
        lambda game, o: {
            p["place"]: p["participants"] for p in game.view(o.state, None)["public"]["rounds"][0]["ranking"]
        },
    ),
    "peeks": (
        "learned by peeking",
        lambda game, o: {
            p: [f"{k.participant} round {k.round}: {k.tokens}" for k in ks] for p, ks in o.state.peeks.items() if ks
        },
    ),
    "moved": ("garnets moved", lambda game, o: dict(o.moved)),
    "standings": (
        "standings (place, player, team score)",
        standings_of,
    ),
    "finals": ("to the Finals", lambda game, o: o.result(game).details["finals"]),
    "opponent": ("Death Match opponent", lambda game, o: o.result(game).details["death_match_opponent"]),
    "garnets": ("garnets earned", garnets_of),
}


def ranked(hands: Mapping[str, str]) -> Call:
    def points() -> dict[str, Any]:
        split = {who: cards.split() for who, cards in hands.items()}
        placings = ranking(split)
        return {
            "places": {who: p.place for p in placings for who in p.participants},
            "points": hand_points(split, placings),
        }

    return Call(points, {}, tuple(f"{who} builds {cards}." for who, cards in hands.items()))


def built(cards: str) -> Call:
    return Call(
        lambda: {"service_builds": " ".join(best_hand(cards.split()))}, {}, (f"Usable cards: {cards}; no build sent.",)
    )


ONE_CARD_HANDS = {"ann": "AH", "amy": "KH", "bob": "QH", "ben": "JH", "cat": "TH", "cal": "9H"}
"""Each participant's hand where a guessing case does not say: the community ace or their hole card."""


def guessed(hands: Mapping[str, str], guesses: Mapping[str, Mapping[str, str]]) -> Call:
    """Hands built (the six participants': ONE_CARD_HANDS where `hands` does not say), and each
    guesser's guessing submission (participant -> cards guessed)."""
    hands = ONE_CARD_HANDS | dict(hands)

    def scored() -> dict[str, Any]:
        named = {
            guesser: GuessSubmission.model_validate(
                {"guesses": [{"participant": who, "cards": cards.split()} for who, cards in said.items()]}
            ).by_participant()
            for guesser, said in guesses.items()
        }
        outcomes, change = guessing(named, {who: cards.split() for who, cards in hands.items()})
        return {
            "guessing_totals": {who: outcome.total for who, outcome in outcomes.items()},
            "changes": {who: delta for who, delta in change.items() if delta},
        }

    said = [f"{who} builds {cards}." for who, cards in hands.items()]
    for guesser, named in guesses.items():
        said.append(
            f"{guesser} guesses " + ("; ".join(f"{w}: {c or '(no cards)'}" for w, c in named.items()) or "nobody") + "."
        )
    return Call(scored, {}, tuple(said))


def timed(**seconds: float | None) -> Call:
    """Puzzles sent at 0 and solved after these many seconds (None: never)."""

    def values() -> dict[str, Any]:
        clocks = {
            name: PuzzleClock(sent_ms=0, solved_ms=None if s is None else int(s * 1000)) for name, s in seconds.items()
        }
        return {"token_values": {name: token_value(clock) for name, clock in clocks.items()}}

    return Call(values, {}, tuple(f"{name}: solved after {s} s." for name, s in seconds.items()))


DRAFT = Section(
    "Puzzles, tokens and the draft",
    (
        Case(
            "No clubs among the public cards",
            "The host's deals give ann the hole card 2C in round 1.",
            creation(
                "clubs",
                "ann bob cat",
                guests={"ann": ["amy"], "bob": ["ben"], "cat": ["cal"]},
                deals=[deal("2C 8H QH 9H JH TH")] + [P] * 6,
            ),
            {"refused": ["deal_cards"]},
            'Seed: "Both the community card and the hole cards are guaranteed to not be clubs".',
            "2C is a club: the settings are refused.",
        ),
        Case(
            "A token: the whole seconds taken, at least 1, at most 1800",
            "Three puzzles timed by the service.",
            timed(quick=0.4, usual=95.5, long=2000),
            {"token_values": {"quick": 1, "usual": 95, "long": 1800}},
            "RULINGS, Clubs: \"a Club Token's value is the whole seconds taken to solve one puzzle (at least 1), "
            'capped at 1800."',
            "0.4 s is under a second: 1. 95.5 s: 95 whole seconds. 2000 s is over the cap: 1800.",
        ),
        Case(
            "Puzzles not solved: 1800 each",
            "The host enters ann's and bob's tokens; nobody else solves anything in Phase 1A.",
            round_one(),
            {
                "tokens": {
                    "ann": [100, 50, 30],
                    "amy": [1800] * 3,
                    "bob": [40, 60, 90],
                    "ben": [1800] * 3,
                    "cat": [1800] * 3,
                    "cal": [1800] * 3,
                }
            },
            'Seed: "Failure to do this will mean you get three Club Tokens with the maximum values possible."; '
            'RULINGS: "A puzzle not solved in the round\'s Phase A gives 1800."',
            "The host's values stand for ann and bob; the rest get the cap.",
        ),
        Case(
            "A non-club to the single lowest priority",
            "ann puts AS at priority 1, bob at 2.",
            round_one(("ann", {"AS": 1}), ("bob", {"AS": 2})),
            {"contested": {"AS": "ann"}, "announced": {"AS": "2 drafted, given"}},
            'Seed: "For all non-clubs, if there is a single lowest priority number from any participant, that '
            'participant receives the card."',
            "1 < 2.",
        ),
        Case(
            "A shared lowest: discarded",
            "ann and bob both put AS at priority 1.",
            round_one(("ann", {"AS": 1}), ("bob", {"AS": 1})),
            {"contested": {"AS": "discarded"}, "announced": {"AS": "2 drafted, discarded"}},
            'Seed: "Otherwise, the card is discarded, and nobody receives it."',
            "Nobody has the single lowest.",
        ),
        Case(
            "A club: token times priority",
            "ann drafts AC at priority 2 with her 100-second token 1.1; bob at priority 6 with his 40-second 1.1.",
            round_one(("ann", {"AC@1.1": 2}), ("bob", {"AC@1.1": 6})),
            {"contested": {"AC": "ann"}},
            'Seed: "if I used a 100 token as priority 2, I have a priority value of 200 for the club, and would win '
            'it over anybody with a larger priority number."',
            "ann 100 x 2 = 200, bob 40 x 6 = 240: 200 is lower.",
        ),
        Case(
            "A club tied on the product: discarded",
            "ann drafts AC at 2 with token 1.1 (100); bob at 5 with token 1.1 (40).",
            round_one(("ann", {"AC@1.1": 2}), ("bob", {"AC@1.1": 5})),
            {"contested": {"AC": "discarded"}},
            'RULINGS, Clubs: "a club to the single lowest token x priority; a shared lowest discards the card."',
            "100 x 2 = 200 = 40 x 5.",
        ),
        Case(
            "A 1 lowered to 0",
            "ann puts AS at 1 and lowers priority 1 for 2 garnets; bob puts AS at 1.",
            play(Phase({"ann": {"draft": draft("ann", {"AS": 1}, (1,))}, "bob": {"draft": draft("bob", {"AS": 1})}})),
            {"contested": {"AS": "ann"}},
            'Seed: "Participants may spend 2 Garnets to decrease a priority number by 1. ... This can be used to turn '
            'a 1 into a 0".',
            "0 < 1.",
        ),
        Case(
            "Lowering costs 2 garnets a number",
            "ann lowers priorities 1 and 2.",
            in_phase_one(Attempt("ann", "draft", draft("ann", {}, (1, 2)))),
            {"refused": [], "cost": 4},
            'Seed: "You may spend 2 Garnets to lower a priority number by 1."',
            "Two numbers: 2 x 2 = 4.",
        ),
        Case(
            "One number lowered twice",
            "ann lowers priority 1 twice.",
            in_phase_one(Attempt("ann", "draft", draft("ann", {}, (1, 1)))),
            {"refused": ["value_error"]},
            'Seed: "This can be used once per priority number, per round."',
            "Refused whole.",
        ),
        Case(
            "Six different cards",
            "ann drafts five cards.",
            in_phase_one(Attempt("ann", "draft", {"picks": draft("ann", {})["picks"][:5]})),
            {"refused": ["too_short"]},
            'Seed: "everybody can draft six cards ... you must pick six different cards."',
            "Five is too few.",
        ),
        Case(
            "A club without a token",
            "ann drafts AC with no token.",
            in_phase_one(Attempt("ann", "draft", draft("ann", {"AC": 1}))),
            {"refused": ["token_missing"]},
            'Seed: "For any club that you select, you must also use a Club Token."',
            "AC is a club.",
        ),
        Case(
            "A token on a non-club",
            "ann drafts AS with token 1.1.",
            round_one(attempt=Attempt("ann", "draft", draft("ann", {"AS@1.1": 1}))),
            {"refused": ["token_not_club"]},
            'RULINGS, Clubs: "Each club drafted names one of the participant\'s unused tokens".',
            "AS is a spade.",
        ),
        Case(
            "A token not earned",
            "In Phase 1A cat, who has solved nothing, drafts AC with token 1.1.",
            in_phase_one(
                Attempt(
                    "cat",
                    "draft",
                    {"picks": [{"card": "AC", "priority": 1, "token": "1.1"}, *draft("ann", {})["picks"][1:]]},
                )
            ),
            {"refused": ["token_unknown"]},
            'Seed: "Each round\'s puzzles will reward participants with three Club Tokens".',
            "cat has no token yet.",
        ),
        Case(
            "A token used up",
            "ann used token 1.1 for AC in round 1; in round 2 she names it for KC.",
            round_one(("ann", {"AC@1.1": 1}), attempt=Attempt("ann", "draft", draft("ann", {"KC@1.1": 1}))),
            {"refused": ["token_used"]},
            'RULINGS, Clubs: "Each club drafted names one of the participant\'s unused tokens, which is used up."',
            "1.1 was spent in round 1.",
        ),
        Case(
            "The community card and hole cards are out of the draft",
            "ann drafts AH, the community card.",
            in_phase_one(Attempt("ann", "draft", draft("ann", {"AH": 1}))),
            {"refused": ["card_not_in_draft"]},
            'RULINGS, Clubs: "The community card and the 6 hole cards are never clubs, are public, and are out of '
            'the draft."',
            "AH is public.",
        ),
        Case(
            "No draft: no cards",
            "ann sends no draft; bob puts AS at 6.",
            round_one(("bob", {"AS": 6})),
            {"received": {"bob": ["2D", "3D", "4D", "5D", "6D", "AS"]}},
            'RULINGS, Clubs: "No submission: no draft."',
            "bob alone drafted each of his six cards.",
        ),
    ),
)

GARNETS = Section(
    "Peeks and garnets",
    (
        Case(
            "A peek: 1 garnet for a round's three tokens",
            "After round 1's Phase A, ann peeks at bob's round 1 tokens.",
            play(Phase({}, TOKENS), Phase({}, (("ann", "peek", {"participant": "bob", "round": 1}),))),
            {"peeks": {"ann": ["bob round 1: [40, 60, 90]"]}, "moved": {"ann": -1}},
            'Seed: "Participants may spend 1 Garnet to learn all three Club Token values of a different participant '
            'for a single round."',
            "The host entered 40, 60, 90 for bob.",
        ),
        Case(
            "A peek before the round's tokens are fixed",
            "In Phase 1A ann peeks at bob's round 1.",
            in_phase_one(Attempt("ann", "peek", {"participant": "bob", "round": 1})),
            {"refused": ["round_not_puzzled"]},
            'RULINGS, Clubs: "Peek. 1 garnet: learn the three token values another participant earned in one round."',
            "Round 1's tokens are fixed when its Phase A ends.",
        ),
        Case(
            "A peek without a garnet",
            "ann holds no garnet.",
            in_phase_two(Attempt("ann", "peek", {"participant": "bob", "round": 1}, garnets=0)),
            {"refused": ["garnets_short"]},
            'RULINGS, Everywhere: "never below zero".',
            "A peek costs 1.",
        ),
        Case(
            "Garnets from a player to a guest",
            "ann gives her guest amy 3 garnets.",
            play(Phase({}, (("ann", "transfer", {"to": "amy", "garnets": 3}),))),
            {"moved": {"ann": -3, "amy": 3}},
            'Seed: "Players may transfer as many of their Garnets as they\'d like to their Guest at any point".',
            "3 leave ann, 3 reach amy.",
        ),
        Case(
            "Not from player to player",
            "ann gives bob 3 garnets.",
            in_phase_one(Attempt("ann", "transfer", {"to": "bob", "garnets": 3})),
            {"refused": ["transfer_between"]},
            'RULINGS, Clubs: "Garnets may be moved between a player and any guest at any time".',
            "bob is a player.",
        ),
    ),
)

BUILD = Section(
    "Building and the ranking of hands",
    (
        Case(
            "Places score 15, 10, 6, 3, 1, 0, plus 1 a club",
            "Six hands of six different types.",
            ranked(
                {
                    "ann": "9S 9H 9D 9C",
                    "amy": "KS KH KD 2S 2H",
                    "bob": "2C 4C 6C 8C TC",
                    "ben": "3S 4H 5D 6S 7H",
                    "cat": "AS AD",
                    "cal": "KC",
                }
            ),
            {
                "places": {"ann": 1, "amy": 2, "bob": 3, "ben": 4, "cat": 5, "cal": 6},
                "points": {"ann": 16, "amy": 10, "bob": 11, "ben": 3, "cat": 1, "cal": 1},
            },
            'Seed: "The point scoring is as follows, from strongest to weakest: 15, 10, 6, 3, 1, 0. ... Furthermore, '
            'a participant earns 1 bonus point for every club in their hand."',
            "Four of a kind, full house, flush, straight, pair, high card. ann 15 + 1 club; bob 6 + 5 clubs; cal "
            "0 + 1.",
        ),
        Case(
            "Fewer than five cards lose a kicker",
            "ann builds a pair of aces; bob two aces and a king (AH, the community card, in both).",
            ranked({"ann": "AS AH", "bob": "AD AH KS"}),
            {"places": {"bob": 1, "ann": 2}, "points": {"ann": 10, "bob": 15}},
            'Seed: "If a hand contains fewer than five cards, it loses any "high card" tiebreakers to one with five '
            'cards. For instance, a hand with just a pair of Aces would lose to a hand with two Aces and a King."',
            "The missing card loses to the king.",
        ),
        Case(
            "Still tied: a club beats none",
            "ann builds KS KD, bob KH KC.",
            ranked({"ann": "KS KD", "bob": "KH KC"}),
            {"places": {"bob": 1, "ann": 2}, "points": {"ann": 10, "bob": 16}},
            'RULINGS, Clubs: "among hands still tied, a hand with a club beats one without".',
            "Both a pair of kings; bob's KC: 15 + 1.",
        ),
        Case(
            "Still tied: the higher club",
            "ann builds KS KC 5D, bob KH KD 5C.",
            ranked({"ann": "KS KC 5D", "bob": "KH KD 5C"}),
            {"places": {"ann": 1, "bob": 2}, "points": {"ann": 16, "bob": 11}},
            'Seed: "If multiple hands are tied, the hand with the highest numbered club wins the tiebreaker."',
            "Kings with a 5 each; ann's club is a king, bob's a 5. 15 + 1, 10 + 1.",
        ),
        Case(
            "Tied without clubs: the lower place for all",
            "ann builds QS QD, amy QH QD (QD the community card), bob 2S.",
            ranked({"ann": "QS QD", "amy": "QH QD", "bob": "2S"}),
            {"places": {"ann": 2, "amy": 2, "bob": 3}, "points": {"ann": 10, "amy": 10, "bob": 6}},
            'Seed: "If multiple hands do not have clubs, they all receive the lower rank (earning less points)."',
            "ann and amy span places 1-2 and both take 2: 10 each; bob third: 6.",
        ),
        Case(
            "Flushes and straights need five cards",
            "ann builds four hearts AH KH QH JH; bob a pair of 2s.",
            ranked({"ann": "AH KH QH JH", "bob": "2S 2D"}),
            {"places": {"bob": 1, "ann": 2}, "points": {"ann": 10, "bob": 15}},
            "Seed: \"couldn't make a flush even if the community card, hole card, and your drafted card were the same "
            'suit; flushes require five cards".',
            "Four hearts are only a high card; a pair beats it.",
        ),
        Case(
            "A-2-3-4-5 is the lowest straight",
            "ann builds A-2-3-4-5, bob 2-3-4-5-6.",
            ranked({"ann": "AS 2D 3H 4S 5D", "bob": "2S 3D 4H 5S 6D"}),
            {"places": {"bob": 1, "ann": 2}, "points": {"ann": 10, "bob": 15}},
            'RULINGS, Clubs: "A-2-3-4-5 is the lowest straight."',
            "Five-high loses to six-high.",
        ),
        Case(
            "The ace is the highest club, also in A-2-3-4-5",
            "ann builds AC 2D 3H 4S 5D, bob AS 2H 3D 4H 5C.",
            ranked({"ann": "AC 2D 3H 4S 5D", "bob": "AS 2H 3D 4H 5C"}),
            {"places": {"ann": 1, "bob": 2}, "points": {"ann": 16, "bob": 11}},
            'RULINGS, Clubs: "The ace is the highest club, also in A-2-3-4-5."',
            "Both five-high straights; ann's club ace beats bob's club 5. 15 + 1, 10 + 1.",
        ),
        Case(
            "The ranking is announced, not the hands",
            "Round 1 as dealt (the community AH; holes ann KH, amy 8H, bob QH, ben 9H, cat JH, cal TH); nobody "
            "builds, so the service builds each hand.",
            play(Phase(), Phase()),
            {"ranking": {1: ["ann"], 2: ["bob"], 3: ["cat"], 4: ["cal"], 5: ["ben"], 6: ["amy"]}},
            'Seed: "The relative rank of hands is revealed at the end of each Phase B."',
            "Each best hand is the ace and the hole card: K, Q, J, T, 9, 8 in that order.",
        ),
        Case(
            "No build: the best hand, then more clubs",
            "Usable: the community AS, the hole 9D, and AC 9C 4C 4H won.",
            built("AS 9D AC 9C 4C 4H"),
            {"service_builds": "AC AS 9C 9D 4C"},
            'RULINGS, Clubs: "No submission: the service builds the hand that ranks highest by these rules; among '
            'equals, the one with more clubs".',
            "Aces and nines with a 4 is the best; 4C and 4H make equal hands (the highest club is AC either way), "
            "4C has one club more.",
        ),
        Case(
            "No build: then suit order",
            "Usable: 9S 9H 9D 2S 2H 2D.",
            built("9S 9H 9D 2S 2H 2D"),
            {"service_builds": "9S 9H 9D 2S 2H"},
            'RULINGS, Clubs: "then the one whose cards are highest in suit order clubs, spades, hearts, diamonds."',
            "Nines full of twos; of the three pairs of 2s, spades and hearts come first.",
        ),
        Case(
            "Only one's own cards",
            "In Phase 2A+1B ann, who drafted nothing, builds with AS.",
            in_phase_two(Attempt("ann", "build", {"cards": ["AS"]})),
            {"refused": ["card_not_held"]},
            'RULINGS, Clubs: "A hand of 1 to 5 cards from the community card, your hole card and your cards won this '
            'round."',
            "ann may use AH and KH only.",
        ),
        Case(
            "No empty hand",
            "ann builds no cards.",
            in_phase_two(Attempt("ann", "build", {"cards": []})),
            {"refused": ["too_short"]},
            'Seed: "You may not form an empty hand."',
            "At least one card.",
        ),
    ),
)

GUESS = Section(
    "Guessing",
    (
        Case(
            "The seed's example",
            "bob's hand is the 5-9 straight flush of clubs; ann guesses the 3-7 one.",
            guessed({"bob": "5C 6C 7C 8C 9C"}, {"ann": {"bob": "3C 4C 5C 6C 7C"}}),
            {"guessing_totals": {"ann": 3}, "changes": {"ann": 3, "bob": -3}},
            "Seed: \"if a participant's hand was the 5-9 straight flush of clubs, and you guessed the 3-7 straight "
            'flush of clubs for them, you steal 3 points from them in total (3+2-2)."',
            "5C 6C 7C right (+3), 3C 4C wrong (-2), both straight flushes (+2).",
        ),
        Case(
            "Wrong cards give points",
            "bob builds KS KH; ann guesses 2D 3D.",
            guessed({"bob": "KS KH"}, {"ann": {"bob": "2D 3D"}}),
            {"guessing_totals": {"ann": -2}, "changes": {"ann": -2, "bob": 2}},
            'Seed: "you give 1 point to the other participant for every card you guess incorrectly."',
            "Two wrong: -2; a high card is not a pair.",
        ),
        Case(
            "A royal flush is a straight flush",
            "bob builds the royal flush of clubs; ann guesses the king-high one.",
            guessed({"bob": "AC KC QC JC TC"}, {"ann": {"bob": "KC QC JC TC 9C"}}),
            {"guessing_totals": {"ann": 5}, "changes": {"ann": 5, "bob": -5}},
            'RULINGS, Clubs: "(a royal flush is a straight flush)".',
            "Four right (+4), 9C wrong (-1), same type (+2).",
        ),
        Case(
            "Every type right: +10 from nobody",
            "Everyone builds one card; ann guesses one wrong card for each of the other five.",
            guessed(
                {},
                {"ann": {"amy": "2S", "bob": "3S", "ben": "4S", "cat": "5S", "cal": "6S"}},
            ),
            {
                "guessing_totals": {"ann": 15},
                "changes": {"ann": 15, "amy": -1, "bob": -1, "ben": -1, "cat": -1, "cal": -1},
            },
            "Seed: \"If you guess every other participant's hand type correctly in a single turn, you earn a 10 point "
            'bonus."; RULINGS: "new points taken from nobody".',
            "Each guess: one wrong card (-1), a high card like the hand (+2): +1 from each of five, and +10.",
        ),
        Case(
            "No guess for one: nothing either way, and no +10",
            "As the case before, but ann guesses nothing for cal.",
            guessed(
                {},
                {"ann": {"amy": "2S", "bob": "3S", "ben": "4S", "cat": "5S"}},
            ),
            {"guessing_totals": {"ann": 4}, "changes": {"ann": 4, "amy": -1, "bob": -1, "ben": -1, "cat": -1}},
            'RULINGS, Clubs: "No guess for a participant: nothing either way, and no +10 that round."',
            "Four guesses at +1; cal unchanged.",
        ),
        Case(
            "A guess of no cards is no guess",
            "ann's guessing names bob with no cards.",
            guessed({"bob": "KS KH"}, {"ann": {"bob": ""}}),
            {"guessing_totals": {"ann": 0}, "changes": {}},
            'RULINGS, Clubs: "A guess of no cards for a participant is no guess for them, and a guessing submission '
            'that guesses for nobody is valid".',
            "Nothing moves.",
        ),
        Case(
            "Up to five cards a participant",
            "ann guesses six cards for bob.",
            in_phase_two(
                Attempt(
                    "ann", "guess", {"guesses": [{"participant": "bob", "cards": ["2S", "3S", "4S", "5S", "6S", "7S"]}]}
                )
            ),
            {"refused": ["too_long"]},
            'Seed: "For each other participant, guess up to five cards for them."',
            "Six is one too many.",
        ),
        Case(
            "Not one's own hand",
            "ann guesses her own hand.",
            in_phase_two(Attempt("ann", "guess", {"guesses": [{"participant": "ann", "cards": ["AH"]}]})),
            {"refused": ["guess_self"]},
            'Seed: "For each other participant, guess up to five cards for them."',
            "Only the others.",
        ),
    ),
)

RESULTS = Section(
    "Results",
    (
        Case(
            "Team scores, the Finals, the Death Match opponent, garnets",
            "Nobody sends anything for seven rounds; every round ann holds KH, amy 8H, bob QH, ben 9H, cat JH, cal "
            "TH beside the community AH.",
            whole_match([P] * 7),
            {
                "standings": ["1 ann 105", "2 bob 77", "3 cat 63"],
                "finals": "ann",
                "opponent": "bob",
                "garnets": {"ann": 7, "bob": 5, "cat": 4},
            },
            'Seed: "each player and their associated guest will have their scores summed ... The player with the '
            "highest score ... advances to the Finals. ... the Death Match Opponent ... is the player with the higher "
            'score." and "Players earn 1 Garnet for every 15 points".',
            "The service builds A + hole card for each: K > Q > J > T > 9 > 8. Per round: ann 15 + amy 0, bob 10 + "
            "ben 1, cat 6 + cal 3. Seven rounds: 105, 77, 63. Garnets 105 // 15 = 7, 77 // 15 = 5, 63 // 15 = 4.",
        ),
        Case(
            "Tied teams: the latest end of a round where they differed",
            "Nobody sends anything. Rounds 1, 3, 5 deal as above (ann's team 15, bob's 11); rounds 2, 4, 6 swap "
            "ann's and bob's cards (11, 15); round 7 gives ann KH, amy 9H, bob QH, ben JH, cat TH, cal 8H (16, 16).",
            whole_match([P, Q, P, Q, P, Q, R]),
            {"standings": ["1 ann 94", "2 bob 94", "3 cat 57"], "finals": "ann", "opponent": "bob"},
            "Seed: \"If there is a tie, we consider the most recent time (at the end of a round) where there wasn't "
            'a tie, and use those scores as a tiebreaker."',
            "Teams: ann 15 + 11 + 15 + 11 + 15 + 11 + 16 = 94, bob 11 + 15 + 11 + 15 + 11 + 15 + 16 = 94; cat "
            "6 x 9 + 3 = 57. Level after rounds 7 and 6; after round 5 ann's team led 67 to 63.",
        ),
        Case(
            "Tied at every end of a round: the lot",
            "Nobody sends anything; all seven rounds deal as round 7 above. The host set the lot bob, ann, cat.",
            whole_match([R] * 7, lot=["bob", "ann", "cat"]),
            {"standings": ["1 bob 112", "2 ann 112", "3 cat 21"], "finals": "bob", "opponent": "ann"},
            'RULINGS, Clubs: "tied at every end of round: a lot drawn with the match seed."',
            "Each round ann's and bob's teams score 16, cat's 3: level at every end; the lot puts bob first.",
        ),
    ),
)

BOOK = Book("clubs", "CLUBS", SEED, (DRAFT, GARNETS, BUILD, GUESS, RESULTS), OBSERVE)
