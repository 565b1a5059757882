"""Worked match: Puzzler's Clubs (one rule set), three players and their guests, checked by hand
against the rule text (seeds/002_6f6ea569c9d3ed6b.txt) and RULINGS.md "Puzzler's Clubs".

Covers: a puzzle solved on the service's clock (a wrong answer first), host-entered tokens, the
1800 tokens of puzzles not solved, a token kept for a later round, a garnet transfer from a player
to her guest, a peek, the draft (a non-club to the single lowest priority, a shared lowest
discarding the card, a club won by the lower token x priority though its priority number is
larger, a club tie discarded, a priority lowered by 2 garnets, one lowered to 0 on a club), hands
of fewer than five cards (a one-card hand losing to a two-card one of the same top card), hands
built by the service for those who sent none, the club tie-break between equal hands, equal hands
without clubs sharing the lowest place of their block, guesses (right cards, wrong cards, the
right type, a teammate guessed, the +10 for every type right), team scores, a tie between teams
broken by the last end of a round at which they differed (the host's lot would have ordered them
the other way), the Death Match pair and its opponent, and the garnet awards.

Teams (team order): ann with her guest amy, bob with ben, cat with cal. Cards: rank then suit.
"""

from __future__ import annotations

import pytest
from worked_support import (
    action,
    garnets_spent_in_a_legal_match,
    phase,
    private_view_at_the_end,
    record,
    replay_as_the_cli_does,
)

PARTICIPANTS = ["ann", "amy", "bob", "ben", "cat", "cal"]
# Rounds 3-7 deal the same cards: a fresh deck each round.
QUIET = {"community": "2S", "holes": {"ann": "AH", "amy": "QH", "bob": "KH", "ben": "5H", "cat": "KD", "cal": "5D"}}
DEALS = [
    {"community": "9H", "holes": {"ann": "9S", "amy": "KH", "bob": "9D", "ben": "4S", "cat": "QD", "cal": "QS"}},
    {"community": "TH", "holes": {"ann": "5S", "amy": "6S", "bob": "AS", "ben": "KS", "cat": "3D", "cal": "3S"}},
    *[QUIET] * 5,
]


def draft(*cards: str, lowered: tuple[int, ...] = ()) -> dict[str, object]:
    """Six cards in priority order 1-6; a club as "9C/1.1", with the token it is drafted with."""
    picks = []
    for priority, written in enumerate(cards, start=1):
        card, _, token = written.partition("/")
        picks.append({"card": card, "priority": priority, "token": token or None})
    return {"draft": {"picks": picks, "lowered": list(lowered)}}


def build(*cards: str) -> dict[str, object]:
    return {"build": {"cards": list(cards)}}


def guess(**hands: str) -> dict[str, object]:
    return {"guess": {"guesses": [{"participant": who, "cards": cards.split()} for who, cards in hands.items()]}}


def tokens(participant: str, *values: int, at: str) -> dict[str, object]:
    return action(None, "tokens", {"participant": participant, "tokens": list(values)}, at)


RECORD = record(
    "worked-clubs",
    "clubs",
    {"rule_set": "default", "puzzles": ["target"] * 7, "deals": DEALS, "lot": ["bob", "cat", "ann"]},
    PARTICIPANTS,
    {"ann": 2, "bob": 1, "cat": 2},
    [
        # 1A. Tokens of round 1: the host enters ann 100 200 300, amy 40 50 60, bob 30 400 500,
        # ben 5 600 700, cat 700 800 900. cal asks for puzzle 1 ("Numbers: 1 5 7 8 10 25,
        # Target: 450") at 09:00:00, answers 25*10+8 (258: wrong, the clock runs on), then
        # 25*(10+8) = 450 at 09:01:35.5: 95.5 s, whole seconds 95. Puzzles 2 and 3 he never
        # solves: 1800 each (fixed when 1A resolves). ann gives amy her 2 garnets.
        # The draft (value: priority, or token x priority for a club; lowered numbers 1 less):
        #   9C ann 1 x 100 = 100, bob 2 x 30 = 60: bob (the larger number wins on a small token).
        #   8C ann 2 x 200 = 400 = bob 1 x 400: discarded.   6S ann 6 = bob 6: discarded.
        #   KD amy 1, bob 3, cal 6: amy.   KS amy 2 lowered to 1 (her 2 garnets), ben 2: amy.
        #   JD bob 4, ben 5, cal 5: bob.   2D amy 3, ben 4: amy.   6H amy 5, cal 4: cal.
        #   AC cat 1 lowered to 0 (2 garnets) x 900 = 0, ben 1 x 5 = 5, cal 2 x 95 = 190: cat.
        #   Alone: ann 2H 3H 5H; bob TD; amy 3S 7D; ben 4H QH; cat 8H 6D 2S 3D 5S; cal AH 8D.
        # Won: ann 2H 3H 5H | amy KD KS 2D 3S 7D | bob 9C JD TD | ben 4H QH |
        #      cat AC 8H 6D 2S 3D 5S | cal AH 6H 8D.
        phase(
            1,
            "1A",
            {
                "ann": draft("9C/1.1", "8C/1.2", "2H", "3H", "5H", "6S"),
                "amy": draft("KD", "KS", "2D", "3S", "6H", "7D", lowered=(2,)),
                "bob": draft("8C/1.2", "9C/1.1", "KD", "JD", "TD", "6S"),
                "ben": draft("AC/1.1", "KS", "4H", "2D", "JD", "QH"),
                "cat": draft("AC/1.3", "8H", "6D", "2S", "3D", "5S", lowered=(1,)),
                "cal": draft("AH", "AC/1.1", "8D", "6H", "JD", "KD"),
            },
            actions=[
                tokens("ann", 100, 200, 300, at="2026-03-02T08:00:00Z"),
                tokens("amy", 40, 50, 60, at="2026-03-02T08:00:01Z"),
                tokens("bob", 30, 400, 500, at="2026-03-02T08:00:02Z"),
                tokens("ben", 5, 600, 700, at="2026-03-02T08:00:03Z"),
                tokens("cat", 700, 800, 900, at="2026-03-02T08:00:04Z"),
                action("cal", "puzzle", {"puzzle": 1}, "2026-03-02T09:00:00Z"),
                action("cal", "answer", {"puzzle": 1, "answer": "25*10+8"}, "2026-03-02T09:00:40Z"),
                action("cal", "answer", {"puzzle": 1, "answer": "25*(10+8)"}, "2026-03-02T09:01:35.500Z"),
                action("ann", "transfer", {"to": "amy", "garnets": 2}, "2026-03-02T10:00:00Z"),
            ],
        ),
        # 1B. Hands (community 9H):
        #   amy KH KD KS: three kings (3 cards)                         1st  15
        #   bob 9C 9D 9H JD TD: three nines, 1 club                      2nd  10 + 1 = 11
        #   ann 9S 9H 5H 3H 2H: a pair of nines                          3rd   6
        #   ben sends no hand: the service's best of 9H 4S 4H QH is all four, a pair of fours
        #                                                                4th   3
        #   cat AC QD 9H 8H 6D and cal (the service's: AH QS 9H 8D 6H, his only five) are both
        #   ace-queen-nine-eight-six: cat's club breaks the tie          5th   1 + 1 = 2; cal 6th 0
        # Guesses (taken from the one guessed; + to the guesser):
        #   cat: ann "9S 9H" 2 right + pair 2 = 4; amy "KH KD KS" 3 + 2 = 5; bob "9C 9D 9H" 3 + 2
        #     = 5; ben "4S 4D" 1 - 1 + pair 2 = 2; cal "QS" 1 + high card 2 = 3. Every type
        #     right: +10. cat +29; ann -4, amy -5, bob -5, ben -2, cal -3.
        #   ann: bob "9C 9D 9S" 2 - 1 + three of a kind 2 = 3.   cal: cat (his teammate) "AC KC"
        #   1 - 1 + high card 2 = 2.   bob: amy "AS AD" 0 - 2, a pair is not three: -2 (amy +2).
        # Round 1: ann 6 - 4 + 3 = 5, amy 15 - 5 + 2 = 12, bob 11 - 5 - 3 - 2 = 1, ben 3 - 2 = 1,
        #   cat 2 + 29 - 2 = 29, cal 0 - 3 + 2 = -1. Teams: ann 17, bob 2, cat 28.
        # 2A. The host enters bob's tokens 10 20 30; the others do no puzzle (1800s). bob peeks
        # at cal's round 1 tokens (1 garnet): 95 1800 1800.
        # The draft: AC bob 1 x 10: bob. TC bob 2 x 500 (token 1.3, kept from round 1) = 1000,
        #   ann 4 x 300 (her 1.3) = 1200: bob. 2H bob 3, ben 6: bob. The rest each drafted once.
        # Won: bob AC TC 2H 4S 7D 8S | ann 5D JH QH 2S 7S | ben KD 4D 6H 8H 9H.
        phase(
            2,
            "2A+1B",
            {
                "ann": {
                    **draft("5D", "JH", "QH", "TC/1.3", "2S", "7S"),
                    **build("9S", "9H", "5H", "3H", "2H"),
                    **guess(bob="9C 9D 9S"),
                },
                "amy": build("KH", "KD", "KS"),
                "bob": {
                    **draft("AC/2.1", "TC/1.3", "2H", "4S", "7D", "8S"),
                    **build("9C", "9D", "9H", "JD", "TD"),
                    **guess(amy="AS AD"),
                },
                "ben": draft("KD", "4D", "6H", "8H", "9H", "2H"),
                "cat": {
                    **build("AC", "QD", "9H", "8H", "6D"),
                    **guess(ann="9S 9H", amy="KH KD KS", bob="9C 9D 9H", ben="4S 4D", cal="QS"),
                },
                "cal": guess(cat="AC KC"),
            },
            actions=[
                tokens("bob", 10, 20, 30, at="2026-03-03T08:00:00Z"),
                action("bob", "peek", {"participant": "cal", "round": 1}, "2026-03-03T09:00:00Z"),
            ],
        ),
        # 2B (community TH): bob AS AC TH TC 8S two pair, 2 clubs 1st 15 + 2 = 17; ben KS KD TH a
        #   pair of kings (3 cards) 2nd 10; ann QH JH TH 5S 5D a pair of fives 3rd 6; the service
        #   builds amy TH 6S 4th 3 and cat TH 3D 5th 1; cal sends TH alone, which loses to cat's
        #   ten-three (a missing card loses to any card) 6th 0. No guesses.
        # Round 2: ann 11, amy 15, bob 18, ben 11, cat 30, cal -1. Teams: ann 26, bob 29, cat 29.
        # Rounds 3-7 (community 2S): nobody drafts, builds or guesses; the service builds
        #   ann AH 2S 1st 15; bob KH 2S and cat KD 2S equal without clubs: places 2-3 both 3rd, 6
        #   each; amy QH 2S 4th 3; ben 5H 2S and cal 5D 2S places 5-6 both 6th, 0 each.
        #   Each round: teams ann +18, bob +6, cat +6.
        phase(
            3,
            "3A+2B",
            {
                "ann": build("QH", "JH", "TH", "5S", "5D"),
                "bob": build("AS", "AC", "TH", "TC", "8S"),
                "ben": build("KS", "KD", "TH"),
                "cal": build("TH"),
            },
        ),
        *[phase(n, f"{n}A+{n - 1}B") for n in range(4, 8)],
        phase(8, "7B"),
    ],
)

# Team scores at the ends of rounds 1-7: ann 17 26 44 62 80 98 116; bob 2 29 35 41 47 53 59;
#   cat 28 29 35 41 47 53 59. Participants at the end: ann 11 + 5 x 15 = 86, amy 15 + 5 x 3 = 30,
#   bob 18 + 30 = 48, ben 11, cat 30 + 30 = 60, cal -1.
# ann's team wins (to the Finals). bob and cat are tied at the ends of rounds 7 back to 2; at the
#   end of round 1 cat 28 > bob 2: cat second, the Death Match opponent; bob third. (The host's
#   lot, bob first, is not reached.) Garnets: floor(116 / 15) = 7, floor(59 / 15) = 3 each.
ROUND_END_TEAMS = [
    {"ann": 17, "bob": 2, "cat": 28},
    {"ann": 26, "bob": 29, "cat": 29},
    *({"ann": 26 + 18 * k, "bob": 29 + 6 * k, "cat": 29 + 6 * k} for k in range(1, 6)),
]
QUIET_RANKING = [
    {"place": 1, "participants": ["ann"]},
    {"place": 3, "participants": ["bob", "cat"]},
    {"place": 4, "participants": ["amy"]},
    {"place": 6, "participants": ["ben", "cal"]},
]
RANKINGS = [
    [{"place": n, "participants": [p]} for n, p in enumerate(["amy", "bob", "ann", "ben", "cat", "cal"], start=1)],
    [{"place": n, "participants": [p]} for n, p in enumerate(["bob", "ben", "ann", "amy", "cat", "cal"], start=1)],
    *[QUIET_RANKING] * 5,
]
# Round 1's draft per card: (how many drafted it, given). Round 2's: every card given, TC and 2H
# drafted twice, the rest once.
DRAFT_1 = {
    "9C": (2, True), "8C": (2, False), "6S": (2, False), "KD": (3, True), "KS": (2, True), "JD": (3, True),
    "2D": (2, True), "6H": (2, True), "AC": (3, True),
    **dict.fromkeys(["2H", "3H", "5H", "TD", "3S", "7D", "4H", "QH", "8H", "6D", "2S", "3D", "5S", "AH", "8D"],
                    (1, True)),
}  # fmt: skip
DRAFT_2 = {
    "TC": (2, True), "2H": (2, True),
    **dict.fromkeys(["AC", "4S", "7D", "8S", "5D", "JH", "QH", "2S", "7S", "KD", "4D", "6H", "8H", "9H"], (1, True)),
}  # fmt: skip
# Each participant's rounds 1 and 2 as told to them: cards won, hand (the service's listed highest
# first, clubs > spades > hearts > diamonds), built by the service, hand points, guessing total.
SEATS = {
    "ann": [("2H 3H 5H", "9S 9H 5H 3H 2H", False, 6, 3), ("5D JH QH 2S 7S", "QH JH TH 5S 5D", False, 6, 0)],
    "amy": [("KD KS 2D 3S 7D", "KH KD KS", False, 15, 0), ("", "TH 6S", True, 3, 0)],
    "bob": [("9C JD TD", "9C 9D 9H JD TD", False, 11, -2), ("AC TC 2H 4S 7D 8S", "AS AC TH TC 8S", False, 17, 0)],
    "ben": [("4H QH", "QH 9H 4S 4H", True, 3, 0), ("KD 4D 6H 8H 9H", "KS KD TH", False, 10, 0)],
    "cat": [("AC 8H 6D 2S 3D 5S", "AC QD 9H 8H 6D", False, 2, 29), ("", "TH 3D", True, 1, 0)],
    "cal": [("AH 6H 8D", "AH QS 9H 8D 6H", True, 0, 2), ("", "TH", False, 0, 0)],
}
QUIET_HANDS = {"ann": ("AH 2S", 15), "amy": ("QH 2S", 3), "bob": ("KH 2S", 6), "ben": ("5H 2S", 0)}
QUIET_HANDS |= {"cat": ("KD 2S", 6), "cal": ("5D 2S", 0)}


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    return replay_as_the_cli_does(RECORD, tmp_path_factory.mktemp("clubs"))


@pytest.fixture(scope="module")
def seats():
    return {participant: private_view_at_the_end(RECORD, participant) for participant in PARTICIPANTS}


def test_every_act_is_legal_and_the_garnets_spent():
    # amy's lowering (with the 2 garnets ann gave her; a transfer is no spending), cat's lowering,
    # bob's peek.
    assert garnets_spent_in_a_legal_match(RECORD) == {"ann": 0, "amy": 2, "bob": 1, "ben": 0, "cat": 2, "cal": 0}


def test_the_match_is_over(outcome):
    assert (outcome["finished"], outcome["phases"]) == (True, 8)


@pytest.mark.parametrize(("number", "expected"), [(1, DRAFT_1), (2, DRAFT_2), *((n, {}) for n in range(3, 8))])
def test_each_rounds_public_draft_reveal(outcome, number, expected):
    shown = outcome["public_view"]["public"]["rounds"][number - 1]["draft"]
    assert {card["card"]: (card["drafted"], card["given"]) for card in shown} == expected


@pytest.mark.parametrize("number", range(1, 8))
def test_each_rounds_public_ranking(outcome, number):
    assert outcome["public_view"]["public"]["rounds"][number - 1]["ranking"] == RANKINGS[number - 1]


@pytest.mark.parametrize("participant", PARTICIPANTS)
def test_each_seat_rounds_1_and_2(seats, participant):
    told = seats[participant]["rounds"][:2]
    seen = [
        (" ".join(sorted(r["won"])), " ".join(r["hand"]), r["built_by_service"], r["hand_points"], r["guessing_total"])
        for r in told
    ]
    expected = [(" ".join(sorted(won.split())), *rest) for won, *rest in SEATS[participant]]
    assert seen == expected


@pytest.mark.parametrize("participant", PARTICIPANTS)
def test_each_seat_rounds_3_to_7_built_by_the_service(seats, participant):
    hand, points = QUIET_HANDS[participant]
    told = seats[participant]["rounds"][2:]
    assert [(" ".join(r["hand"]), r["built_by_service"], r["hand_points"]) for r in told] == [(hand, True, points)] * 5


@pytest.mark.parametrize(
    ("participant", "used"),
    [("ann", ["1.1", "1.2", "1.3"]), ("amy", []), ("bob", ["1.2", "1.1", "2.1", "1.3"]), ("ben", ["1.1"]),
     ("cat", ["1.3"]), ("cal", ["1.1"])],
)  # fmt: skip
def test_tokens_used_won_or_lost(seats, participant, used):
    assert seats[participant]["used_tokens"] == used


def test_cals_timed_puzzle_the_1800s_of_no_puzzle_and_bobs_peek(seats):
    assert [seats["cal"]["tokens"][f"1.{n}"] for n in (1, 2, 3)] == [95, 1800, 1800]
    assert [seats["cat"]["tokens"][f"2.{n}"] for n in (1, 2, 3)] == [1800, 1800, 1800]
    assert [seats["bob"]["tokens"][f"2.{n}"] for n in (1, 2, 3)] == [10, 20, 30]
    assert seats["bob"]["peeks"] == [{"participant": "cal", "round": 1, "tokens": [95, 1800, 1800]}]
    assert [seats["cat"]["peeks"], seats["cal"]["peeks"]] == [[], []]


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ("standings", [
            {"place": 1, "player": "ann", "score": "116", "tied_with": []},
            {"place": 2, "player": "cat", "score": "59", "tied_with": []},
            {"place": 3, "player": "bob", "score": "59", "tied_with": []},
        ]),
        ("tol", ["ann"]),
        ("ec", ["cat", "bob"]),
        ("undecided", []),
        ("garnets", {"ann": 7, "bob": 3, "cat": 3}),
    ],
)  # fmt: skip
def test_result(outcome, field, expected):
    assert outcome["result"][field] == expected


@pytest.mark.parametrize(
    ("detail", "expected"),
    [
        ("team_scores", {"ann": 116, "bob": 59, "cat": 59}),
        ("participant_scores", {"ann": 86, "amy": 30, "bob": 48, "ben": 11, "cat": 60, "cal": -1}),
        ("round_end_scores", ROUND_END_TEAMS),
        ("teams", {"ann": ["amy"], "bob": ["ben"], "cat": ["cal"]}),
        ("finals", "ann"),
        ("death_match", ["cat", "bob"]),
        ("death_match_opponent", "cat"),
        ("lot_decided", False),
    ],
)
def test_result_details(outcome, detail, expected):
    assert outcome["result"]["details"][detail] == expected
