"""Palindrome Construction's case book: both rule sets (mm8, mm5), every rule of the seed and every
ruling, each case worked by hand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from casebook_support import Attempt, Book, Call, Case, Phase, Play, Section, creation

from game_core.games import registry
from game_core.games.palindrome.construction import Construction, run
from game_core.games.palindrome.rules import standings_result
from game_core.games.palindrome.scoring import CRITERIA, score_all
from game_core.games.palindrome.workbench import Bench

SEED = "000_cb3eb2335a3fc92b.txt"
MM5_PACKS = ["01234", "56789"] * 5
"""A legal mm5 round: every digit five times (at least three are required); odd packs 01234."""
MM8_PACKS = ["012", "345", "678", "901", "234", "567", "890", "123", "456", "789"]
"""A legal mm8 round: every digit three times (at least twice are required)."""
BIG = "98765"
"""A string that is no palindrome (it scores 0) but is larger than every other string of its case,
so no other string there is Maximal."""


def card(value: int, pack: int | None = None, item: int | None = None) -> dict[str, Any]:
    return {"card": value} | ({"pack": pack} if pack is not None else {}) | ({"item": item} if item is not None else {})


def bid(*cards: dict[str, Any], garnets: int = 0) -> dict[str, Any]:
    return {"bid": {"cards": list(cards), "garnets": garnets}}


def append(string: int, digits: str, position: int | None = None) -> dict[str, Any]:
    return {"action": "append", "string": string, "digits": digits} | ({"position": position} if position else {})


def use(action: str, **fields: Any) -> dict[str, Any]:
    return {"action": action, **fields}


def build(*steps: dict[str, Any]) -> dict[str, Any]:
    return {"construction": {"steps": list(steps)}}


def mm5(*phases: Mapping[str, Any], attempt: Attempt | None = None, **settings: Any) -> Play:
    """ann and bob in Main Match 5, round 1's packs the MM5_PACKS and its items set by `settings`."""
    return Play(
        ("ann", "bob"),
        tuple(Phase(p) for p in phases),
        {"rule_set": "mm5", "packs": {1: MM5_PACKS}} | settings,
        attempt,
    )


def constructed(strings: list[str], digits: str, items: list[str], steps: list[dict[str, Any]]) -> dict[str, Any]:
    bench = Bench.start(strings, digits, items)
    reasons = run(bench, Construction.model_validate({"steps": steps}).steps)
    if reasons:
        return {"refused": [reason.code for reason in reasons]}
    return {"refused": [], "her_strings": bench.strings, "items_used_up": bench.used}


def bench(strings: list[str], digits: str, items: list[str], *steps: dict[str, Any]) -> Call:
    """A construction on a bare position: ann's strings, this round's digits, the items she holds."""
    model = Construction.model_validate({"steps": list(steps)})
    lines = registry.load("palindrome").text.write_text("construction", model)
    held = ", ".join(items) or "none"
    describe = (
        f"ann's strings: {' / '.join(s or '(empty)' for s in strings)}; this round's digits: {digits or 'none'}; "
        f"items held: {held}. Her construction:",
        *(f"    {line}" for line in lines),
    )
    return Call(constructed, {"strings": strings, "digits": digits, "items": items, "steps": list(steps)}, describe)


def scored(strings: Mapping[str, list[str]]) -> dict[str, Any]:
    final = score_all(dict(strings))
    shown = {}
    for player, scores in final.items():
        for number, score in enumerate(scores, start=1):
            if score.string:
                parts = [f"{c} {getattr(score, c)}" for c in CRITERIA if getattr(score, c)]
                shown[f"{player}'s string {number} ({score.string})"] = (
                    ", ".join(parts) or "nothing"
                ) + f" = {score.total}"
    return {"scores": shown, "totals": {p: sum(s.total for s in scores) for p, scores in final.items()}}


def strings(**owned: str) -> Call:
    """Final strings, each player's three separated by slashes (an empty one left blank)."""
    split = {player: three.split("/") for player, three in owned.items()}
    describe = tuple(
        f"{player}'s strings: {' / '.join(s or '(empty)' for s in three)}" for player, three in split.items()
    )
    return Call(scored, {"strings": split}, describe)


def ranked(totals: Mapping[str, int]) -> dict[str, Any]:
    result = standings_result(list(totals), dict(totals))
    return {
        "tol": result.tol_awarded,
        "ec": list(result.ec),
        "host_decides": [line.to_json() for line in result.tied_lines],
        "garnets": result.garnets,
    }


def totals(**scores: int) -> Call:
    describe = ("Final scores: " + ", ".join(f"{p} {s}" for p, s in scores.items()) + ".",)
    return Call(ranked, {"totals": scores}, describe)


def _packs_kept_the_rule(game, outcome) -> dict[str, Any]:
    rules = outcome.state.settings.rules
    packs = outcome.state.rounds[0].packs
    counts = Counter("".join(packs))
    return {
        "packs": len(packs),
        "digits in each": sorted({len(pack) for pack in packs}),
        f"every digit at least {rules.digit_minimum} times": min(counts[d] for d in "0123456789")
        >= rules.digit_minimum,
    }


def _items_drawn(game, outcome) -> dict[str, Any]:
    rounds = outcome.state.rounds
    first_pass = [item for r in rounds[:4] for item in r.items]
    return {
        "rounds 1-4 repeat no item": len(set(first_pass)) == len(first_pass),
        "each round's two differ": all(len(set(r.items)) == 2 for r in rounds),
    }


def _item_pass(items: list[str]) -> dict[str, Any]:
    return {
        "round 7": items[6],
        "rounds 1-6 offer Mirror": "Mirror" in items[:6],
        "all seven differ": len(set(items)) == len(items),
    }


def _announced(game, outcome, what: str) -> list[str | None]:
    """Who received each pack or item of the round whose bidding resolved last, as announced to
    everyone (the public view; the round after it is already drawn, not yet bid on)."""
    resolved = [r for r in game.view(outcome.state, None)["public"]["round_log"] if r["resolved"]]
    return [entry["received_by"] for entry in resolved[-1][what]]


OBSERVE = {
    "open": ("the phase open", lambda game, o: game.open_phase(o.state).name),
    "packs": ("round 1's packs", _packs_kept_the_rule),
    "items": ("the items drawn", _items_drawn),
    "pack_winners": ("announced: who received each pack (1-10)", lambda game, o: _announced(game, o, "packs")),
    "item_winners": ("announced: who received each item", lambda game, o: _announced(game, o, "items")),
    "item_rounds": ("the items of rounds 1-7", lambda game, o: _item_pass([r.items[0] for r in o.state.rounds])),
    "digits": ("digits each holds to place", lambda game, o: {p: seat.digits for p, seat in o.state.seats.items()}),
    "spent": ("garnets spent", lambda game, o: {p: seat.garnets_spent for p, seat in o.state.seats.items()}),
    "strings": ("each one's strings", lambda game, o: {p: seat.strings for p, seat in o.state.seats.items()}),
    "lost": (
        "digits lost in the last construction",
        lambda game, o: {p: s.constructions[-1].discarded for p, s in o.state.seats.items()},
    ),
    "result": (
        "scores, ToL, EC, garnets",
        lambda game, o: {
            "scores": o.result(game).details["totals"],
            "ToL": o.result(game).tol_awarded,
            "EC": list(o.result(game).ec),
            "garnets": o.result(game).garnets,
        },
    ),
}

PHASES = Section(
    "Phases and packs",
    (
        Case(
            "Main Match 8 opens with a pregame",
            "A Main Match 8 is created.",
            Play(("ann", "bob"), settings={"rule_set": "mm8"}),
            {"open": "Pregame"},
            'Seed, Main Match 8: "This game will have a single pregame phase, lasting 24 hours."',
            "The pregame comes first; round 1's packs are announced when it ends.",
        ),
        Case(
            "Main Match 5 has no pregame",
            "A Main Match 5 is created.",
            Play(("ann", "bob"), settings={"rule_set": "mm5"}),
            {"open": "Round 1 bidding"},
            'Seed, Main Match 5: "For phases we will have: Round 1 bidding, Round 2 bidding + Round 1 construction".',
            "Its timeline starts with round 1's bidding.",
        ),
        Case(
            "Main Match 8's packs: ten of three, every digit at least twice",
            "Round 1's packs are drawn with the match seed.",
            Play(("ann", "bob"), (Phase(),), {"rule_set": "mm8"}),
            {"packs": {"packs": 10, "digits in each": [3], "every digit at least 2 times": True}},
            'Seed: "Each digit pack contains 3 digits, and there are 10 digit packs per round. ... each digit from '
            '0-9 must appear at least twice among all packs in each round."',
            "10 packs x 3 = 30 digits, 20 of them the required two of each digit.",
        ),
        Case(
            "Main Match 5's packs: ten of five, every digit at least three times",
            "Round 1's packs are drawn with the match seed.",
            Play(("ann", "bob"), settings={"rule_set": "mm5"}),
            {"packs": {"packs": 10, "digits in each": [5], "every digit at least 3 times": True}},
            'Seed, Main Match 5: "Each digit packs contains 5 digits,, and there are 10 digit packs per round. ... '
            'each digit from 0-9 must appear at least three times".',
            "10 x 5 = 50 digits, 30 of them the required three of each digit.",
        ),
        Case(
            "Packs set by the host must keep the rule",
            "The host sets round 1's packs of a Main Match 8 with no 9 in them.",
            creation("palindrome", "ann bob", rule_set="mm8", packs={1: ["012", "345", "678"] * 3 + ["012"]}),
            {"refused": ["value_error"]},
            'Seed: "each digit from 0-9 must appear at least twice among all packs in each round."',
            "The packs hold no 9 at all: the settings are refused, with the reason.",
        ),
        Case(
            "Items: no repeat until the catalogue is used up; a round's two always differ",
            "A Main Match 5 whose five rounds' items are all drawn (two a round, ten in all, from eight).",
            Play(("ann", "bob"), tuple(Phase() for _ in range(4)), {"rule_set": "mm5"}),
            {"items": {"rounds 1-4 repeat no item": True, "each round's two differ": True}},
            'RULINGS, Palindrome: "Items are drawn without repeats until the catalogue is used up, then from the '
            'full catalogue again. The two items of one mm5 round always differ".',
            "Rounds 1-4 draw 8 items: the whole catalogue once. Round 5 draws from it again, two different ones.",
        ),
        Case(
            "The host may not set one item twice in a round",
            "The host sets round 1 of a Main Match 5 to offer Mirror and Mirror.",
            creation("palindrome", "ann bob", rule_set="mm5", items={1: ["Mirror", "Mirror"]}),
            {"refused": ["value_error"]},
            'RULINGS, Palindrome: "The two items of one mm5 round always differ, also when the host sets them."',
            "Refused at creation, with the reason.",
        ),
        Case(
            "A drawn round avoids the items the host set in its pass",
            "Main Match 8; the host sets round 7's item to Mirror and leaves rounds 1-6 drawn (played to round 7).",
            Play(("ann", "bob"), tuple(Phase() for _ in range(7)), {"rule_set": "mm8", "items": {7: ["Mirror"]}}),
            {"item_rounds": {"round 7": "Mirror", "rounds 1-6 offer Mirror": False, "all seven differ": True}},
            'RULINGS, Palindrome: "When the host sets some rounds and leaves others drawn, a drawn round avoids the '
            'items set for rounds of the same pass through the catalogue".',
            "Seven rounds draw from eight items in one pass: rounds 1-6 never draw Mirror, and no item repeats.",
        ),
    ),
)

PACK_BIDS = Section(
    "Bidding on packs",
    (
        Case(
            "The highest card nobody else played wins the pack",
            "Main Match 5. ann and bob both play 9 on pack 1; cat plays 7 there.",
            Play(
                ("ann", "bob", "cat"),
                (Phase({"ann": bid(card(9, 1)), "bob": bid(card(9, 1)), "cat": bid(card(7, 1))}),),
                {"rule_set": "mm5", "packs": {1: MM5_PACKS}},
            ),
            {"pack_winners": ["cat", None, None, None, None, None, None, None, None, None]},
            'Seed: "the player who bid the highest unique card on each digit pack receives that pack."',
            "9 is played twice, so it is not unique; 7 is the highest unique card: cat. No card is on packs 2-10.",
        ),
        Case(
            "No unique card: nobody gets the pack",
            "Main Match 5. ann and bob both play 5 on pack 2.",
            mm5({"ann": bid(card(5, 2)), "bob": bid(card(5, 2))}),
            {"pack_winners": [None] * 10},
            'Seed: "(If such a player does not exist, nobody receives the pack.)"',
            "The only card on pack 2 is played twice.",
        ),
        Case(
            "A lone 0 wins",
            "Main Match 5. ann plays her 0 on pack 3 and nobody else bids there.",
            mm5({"ann": bid(card(0, 3))}),
            {
                "pack_winners": [None, None, "ann", None, None, None, None, None, None, None],
                "digits": {"ann": "01234", "bob": ""},
            },
            'RULINGS, Palindrome: "A pack goes to the player whose card is the highest among the cards on it that '
            'no other player also played on it."',
            "0 is the only card there, so the highest unique one; pack 3 (odd) is 01234.",
        ),
        Case(
            "No bid: cards on nothing",
            "Main Match 5. ann sends nothing; bob plays 1 on pack 1.",
            mm5({"bob": bid(card(1, 1))}),
            {
                "pack_winners": ["bob", None, None, None, None, None, None, None, None, None],
                "digits": {"ann": "", "bob": "01234"},
            },
            'Seed: "Failure to submit in bidding phases means you bid on no digit packs."',
            "bob's 1 is the only card on pack 1.",
        ),
        Case(
            "Two cards on one pack",
            "Main Match 5. ann puts 9 and 8 on pack 1.",
            mm5(attempt=Attempt("ann", "bid", {"cards": [card(9, 1), card(8, 1)]})),
            {"refused": ["pack_repeated"]},
            'RULINGS, Palindrome: "At most one card per pack".',
            "Refused whole.",
        ),
        Case(
            "One card twice",
            "Main Match 5. ann puts her 9 on pack 1 and on pack 2.",
            mm5(attempt=Attempt("ann", "bid", {"cards": [card(9, 1), card(9, 2)]})),
            {"refused": ["card_repeated"]},
            'RULINGS, Palindrome: "Each round a player holds cards 0-9, each usable once."',
            "Refused whole.",
        ),
    ),
)

ITEM_BIDS = Section(
    "Bidding on items",
    (
        Case(
            "The highest sum nobody else has wins the item",
            "Main Match 5, items Mirror and Swap. On item 1 ann puts 9 + 8, bob 9 + 7 + 1, cat 5 + 6.",
            Play(
                ("ann", "bob", "cat"),
                (
                    Phase(
                        {
                            "ann": bid(card(9, item=1), card(8, item=1)),
                            "bob": bid(card(9, item=1), card(7, item=1), card(1, item=1)),
                            "cat": bid(card(5, item=1), card(6, item=1)),
                        }
                    ),
                ),
                {"rule_set": "mm5", "packs": {1: MM5_PACKS}, "items": {1: ["Mirror", "Swap"]}},
            ),
            {"item_winners": ["cat", None]},
            'Seed: "you may spend any number of cards on it, and the player who bids the highest unique sum of all '
            'cards receives the item."',
            "ann 17, bob 17, cat 11: 17 is not unique, 11 is.",
        ),
        Case(
            "A garnet adds 5 in Main Match 8",
            "Main Match 8 (pregame passed). ann puts 9 and 1 garnet on the item, bob 9 + 4.",
            Play(
                ("ann", "bob"),
                (
                    Phase(),
                    Phase({"ann": bid(card(9, item=1), garnets=1), "bob": bid(card(9, item=1), card(4, item=1))}),
                ),
                {"rule_set": "mm8", "packs": {1: MM8_PACKS}},
            ),
            {"item_winners": ["ann"], "spent": {"ann": 1, "bob": 0}},
            'Seed, Main Match 8: "you may spend garnets to increase your sum, at the rate of 1 Garnet = +5 to your '
            'sum."',
            "ann 9 + 5 = 14 beats bob's 13.",
        ),
        Case(
            "Garnets bid are spent when the item is lost",
            "Main Match 8 (pregame passed). ann puts 1 and 1 garnet on the item, bob 9.",
            Play(
                ("ann", "bob"),
                (Phase(), Phase({"ann": bid(card(1, item=1), garnets=1), "bob": bid(card(9, item=1))})),
                {"rule_set": "mm8", "packs": {1: MM8_PACKS}},
            ),
            {"item_winners": ["bob"], "spent": {"ann": 1, "bob": 0}},
            'RULINGS, Palindrome: "Garnets bid are spent whether or not the item is won."',
            "ann 1 + 5 = 6 loses to 9, and her garnet is spent.",
        ),
        Case(
            "No garnets on items in Main Match 5",
            "Main Match 5. ann bids 1 garnet on item 1.",
            mm5(attempt=Attempt("ann", "bid", {"cards": [card(9, item=1)], "garnets": 1})),
            {"refused": ["garnets_not_bid"]},
            'RULINGS, Palindrome: mm5 has "no garnets on items"; the Main Match 5 text has no garnet rule.',
            "Refused whole.",
        ),
        Case(
            "A 0 on an item is a bid; no card is none",
            "Main Match 5, items Mirror and Swap. ann puts her 0 on item 2; bob puts nothing on it.",
            mm5({"ann": bid(card(0, item=2)), "bob": bid(card(9, 1))}, items={1: ["Mirror", "Swap"]}),
            {"item_winners": [None, "ann"]},
            'RULINGS, Palindrome: "A player who put no card and no garnet on an item is not a bidder."',
            "ann's sum is 0, the only sum on item 2: hers. Nobody bid on item 1.",
        ),
    ),
)

CONSTRUCTION = Section(
    "Construction",
    (
        Case(
            "The seed's example",
            "Digits go to the ends of the strings in the order given.",
            bench(["123", "456", "789"], "235", [], append(1, "32"), append(2, "5")),
            {"refused": [], "her_strings": ["12332", "4565", "789"]},
            'Seed: "if you currently have the digit strings 123, 456, and 789, and just received the digit pack 235, '
            'you may form the new digit strings 12332, 4565, and 789."',
            "123 + 32 = 12332, 456 + 5 = 4565.",
        ),
        Case(
            "The seed's example with Duplicate",
            "As the case before, holding Duplicate.",
            bench(
                ["123", "456", "789"],
                "235",
                ["Duplicate"],
                use("duplicate", digit="3"),
                append(1, "332"),
                append(2, "5"),
            ),
            {"refused": [], "her_strings": ["123332", "4565", "789"], "items_used_up": ["Duplicate"]},
            'Seed: "If you also had the item Duplicate ... you could form the digit strings 123332, 4565, and 789."',
            "Duplicate adds a second 3 to the unplaced 2, 3, 5; 123 + 332 = 123332.",
        ),
        Case(
            "Digits one did not receive",
            "ann received 235 and places 99.",
            bench(["", "", ""], "235", [], append(1, "99")),
            {"refused": ["digits_missing"]},
            'Seed: "players use the digits from the packs they received".',
            "There is no 9 among 2, 3, 5.",
        ),
        Case(
            "No construction: the round's digits are lost",
            "Main Match 5. ann wins pack 1 (01234) in round 1 and sends no construction in round 2.",
            mm5({"ann": bid(card(9, 1))}, {}),
            {"strings": {"ann": ["", "", ""], "bob": ["", "", ""]}, "digits": {"ann": "", "bob": ""}},
            'Seed: "Failure to submit in construction phases means you do no actions, which means you will lose your '
            'digit packs from the round."',
            "01234 is discarded when round 1's construction resolves.",
        ),
        Case(
            "An item won this round is usable in this round's construction, once",
            "Main Match 5, items Mirror and Swap. ann wins pack 1 (01234) and Mirror, builds 1 and mirrors it; "
            "in round 3 she tries Mirror again.",
            mm5(
                {"ann": bid(card(9, 1), card(8, item=1))},
                {"ann": build(append(1, "1"), use("mirror", string=1))},
                items={1: ["Mirror", "Swap"]},
                attempt=Attempt("ann", "construction", {"steps": [use("mirror", string=1)]}),
            ),
            {"strings": {"ann": ["11", "", ""], "bob": ["", "", ""]}, "refused": ["item_not_held"]},
            'RULINGS, Palindrome: "An item can be used in the construction phase of the round it was won or any later '
            'one."; Seed: "Items are one-time use".',
            "1 mirrored is 11; the Mirror is used up, so the second use is refused.",
        ),
        Case(
            "An item kept for a later round",
            "Main Match 5, items Mirror and Swap. ann wins pack 1 (01234) and Mirror in round 1, builds 12 without "
            "it, and mirrors string 1 in round 2's construction.",
            mm5(
                {"ann": bid(card(9, 1), card(8, item=1))},
                {"ann": build(append(1, "12"))},
                {"ann": build(use("mirror", string=1))},
                items={1: ["Mirror", "Swap"]},
            ),
            {"strings": {"ann": ["1221", "", ""], "bob": ["", "", ""]}},
            'RULINGS, Palindrome: "An item can be used in the construction phase of the round it was won or any later '
            'one."',
            "12 + its reverse 21 = 1221.",
        ),
    ),
)

ITEMS = Section(
    "Items",
    (
        Case(
            "Shift",
            "ann received 12 and holds Shift.",
            bench(["", "", ""], "12", ["Shift"], use("shift", digit="1", to="2"), append(1, "22")),
            {"refused": [], "her_strings": ["22", "", ""]},
            'RULINGS, Palindrome: "Shift: change one of this round\'s digits not yet placed into a different digit."',
            "The unplaced 1 becomes a 2: 2, 2.",
        ),
        Case(
            "Shift into the same digit",
            "ann received 12 and shifts 1 into 1.",
            bench(["", "", ""], "12", ["Shift"], use("shift", digit="1", to="1")),
            {"refused": ["shift_to_same_digit"]},
            'RULINGS, Palindrome: "into a different digit".',
            "1 into 1 is no change.",
        ),
        Case(
            "Insert",
            "ann's string 1 is 11; she received 2 and holds Insert.",
            bench(["11", "", ""], "2", ["Insert"], use("insert", string=1), append(1, "2", position=2)),
            {"refused": [], "her_strings": ["121", "", ""]},
            "RULINGS, Palindrome: \"Insert: for the steps after it, one chosen string may take this round's digits at "
            'any position, not only at its end".',
            "Position 2 is between the two 1s.",
        ),
        Case(
            "Two Inserts: two strings",
            "ann's strings are 11 and 22; she received 3 and 3 and holds two Inserts.",
            bench(
                ["11", "22", ""],
                "33",
                ["Insert", "Insert"],
                use("insert", string=1),
                use("insert", string=2),
                append(1, "3", position=2),
                append(2, "3", position=2),
            ),
            {"refused": [], "her_strings": ["131", "232", ""]},
            'RULINGS, Palindrome: "Insert: ... (two Inserts: two strings)."',
            "Each 3 goes between its string's two digits.",
        ),
        Case(
            "A second Insert on one string, a second Keep: legal, and used",
            "ann's string 1 is 11; she received 2 and holds two Inserts and two Keeps.",
            bench(
                ["11", "", ""],
                "2",
                ["Insert", "Insert", "Keep", "Keep"],
                use("insert", string=1),
                use("insert", string=1),
                use("keep"),
                use("keep"),
                append(1, "2", position=2),
            ),
            {"refused": [], "her_strings": ["121", "", ""], "items_used_up": ["Insert", "Insert", "Keep", "Keep"]},
            'RULINGS, Palindrome: "Using an item to no effect (Mirror or Clone of an empty string, a second Insert on '
            'the same string, a second Keep) is legal and uses the item."',
            "The second Insert and the second Keep change nothing, and are gone.",
        ),
        Case(
            "A position without Insert",
            "ann's string 1 is 11; she received 2 and places it at position 2 without Insert.",
            bench(["11", "", ""], "2", [], append(1, "2", position=2)),
            {"refused": ["insert_needed"]},
            'RULINGS, Palindrome: "A player places each digit received ... appended at the end".',
            "Only an Insert opens a string's middle.",
        ),
        Case(
            "Eraser, on any round's digit",
            "ann's string 1 is 1213 from earlier rounds; she holds Eraser.",
            bench(["1213", "", ""], "", ["Eraser"], use("eraser", string=1, position=4)),
            {"refused": [], "her_strings": ["121", "", ""]},
            "RULINGS, Palindrome: \"Eraser: remove the digit at one position of one of your strings (any round's "
            'digit)."',
            "Position 4 is the 3.",
        ),
        Case(
            "Swap",
            "ann's string 1 is 112; she holds Swap.",
            bench(["112", "", ""], "", ["Swap"], use("swap", string=1, first=2, second=3)),
            {"refused": [], "her_strings": ["121", "", ""]},
            'RULINGS, Palindrome: "Swap: exchange the digits at two different positions of one of your strings."',
            "Positions 2 and 3 hold 1 and 2.",
        ),
        Case(
            "Mirror",
            "ann's string 1 is 123; she holds Mirror.",
            bench(["123", "", ""], "", ["Mirror"], use("mirror", string=1)),
            {"refused": [], "her_strings": ["123321", "", ""]},
            'RULINGS, Palindrome: "Mirror: append to one of your strings the reverse of that same string (123 -> '
            '123321)."',
            "As the ruling's example.",
        ),
        Case(
            "Clone, and a use to no effect",
            "ann's strings are 12 and 3; she holds Clone and Mirror; she clones string 1 onto string 2, and "
            "mirrors the empty string 3.",
            bench(["12", "3", ""], "", ["Clone", "Mirror"], use("clone", string=2, source=1), use("mirror", string=3)),
            {"refused": [], "her_strings": ["12", "312", ""], "items_used_up": ["Clone", "Mirror"]},
            'RULINGS, Palindrome: "Clone: append to one string a copy of another of your strings as it is at that '
            'step." and "Using an item to no effect (Mirror or Clone of an empty string ...) is legal and uses the '
            'item."',
            "3 + 12 = 312; the empty string mirrored stays empty, and the Mirror is used.",
        ),
        Case(
            "Keep: the unplaced digits join the next round's",
            "Main Match 5, items Keep and Swap. ann wins pack 1 (01234) and Keep; round 1's construction uses Keep "
            "and places 0; in round 2 she wins nothing and places the kept digits.",
            mm5(
                {"ann": bid(card(9, 1), card(8, item=1))},
                {"ann": build(use("keep"), append(1, "0"))},
                {"ann": build(append(2, "1234"))},
                items={1: ["Keep", "Swap"]},
            ),
            {"strings": {"ann": ["0", "1234", ""], "bob": ["", "", ""]}},
            'RULINGS, Palindrome: "Keep: the digits still unplaced at the end of this phase are not discarded; they '
            "join the next round's digits\".",
            "1234 stayed unplaced in round 1 and was hers to place in round 2.",
        ),
        Case(
            "Keep in the last round: lost",
            "Main Match 5 played to the end; round 5's packs are the same and its items Keep and Swap. ann wins pack 1 "
            "(01234) and Keep in round 5 and, in the last construction, keeps and places 1.",
            mm5(
                {},
                {},
                {},
                {},
                {"ann": bid(card(9, 1), card(8, item=1))},
                {"ann": build(use("keep"), append(1, "1"))},
                packs={1: MM5_PACKS, 5: MM5_PACKS},
                items={5: ["Keep", "Swap"]},
            ),
            {"strings": {"ann": ["1", "", ""], "bob": ["", "", ""]}, "lost": {"ann": "0234", "bob": ""}},
            'RULINGS, Palindrome: Keep "... they join the next round\'s digits (after the last round they are lost)."',
            "0, 2, 3, 4 stay unplaced; there is no next round.",
        ),
    ),
)

SCORING = Section(
    "Scoring",
    (
        Case(
            "A non-palindrome scores 0 but is still the largest",
            "ann's only string is 123; bob's is 22.",
            strings(ann="123//", bob="22//"),
            {"scores": {"ann's string 1 (123)": "nothing = 0", "bob's string 1 (22)": "accumulation 2, length 1 = 3"}},
            'Seed: "if a string is empty or is not a palindrome ... the string scores zero points automatically. The '
            'string will still affect "Normality" and "Maximal" of other strings."',
            "123 reversed is 321. 22: digit sum 4, log2 4 = 2; length 2 / 2 = 1; it is not the largest (123 is): 3.",
        ),
        Case(
            "Primality",
            "ann's only string is 131; bob's is 98765.",
            strings(ann="131//", bob=f"{BIG}//"),
            {
                "scores": {
                    "ann's string 1 (131)": "primality 2, accumulation 2, length 1 = 5",
                    f"bob's string 1 ({BIG})": "nothing = 0",
                }
            },
            'Seed: "Primality: If this digit string forms a prime number in base 10, it scores 2 points."',
            "131 is prime (not divisible by 2, 3, 5, 7, 11; 11 x 11 < 131 < 12 x 12). Sum 5: log2 5 = 2.3, so 2. "
            "Length 3 / 2 = 1. Two distinct digits: no Differences.",
        ),
        Case(
            "A lone 0: the O and nothing else",
            "ann's only string is 0; bob's is 98765.",
            strings(ann="0//", bob=f"{BIG}//"),
            {"scores": {"ann's string 1 (0)": "zeros 1 = 1", f"bob's string 1 ({BIG})": "nothing = 0"}},
            'RULINGS, Palindrome: "Accumulation: floor(log2(A)) for digit sum A >= 1; 0 when A = 0."',
            "0 is not prime; digit sum 0: Accumulation 0; length 1 / 2 = 0; one zero: 1.",
        ),
        Case(
            "Repetition: one digit, four or more times",
            "ann's strings are 9999 and 999; bob's is 98765.",
            strings(ann="9999/999/", bob=f"{BIG}//"),
            {
                "scores": {
                    "ann's string 1 (9999)": "accumulation 5, length 2, repetition 2 = 9",
                    "ann's string 2 (999)": "accumulation 4, length 1 = 5",
                    f"bob's string 1 ({BIG})": "nothing = 0",
                }
            },
            'Seed: "Repetition: If your string consists only of a single digit repeated at least four times, it '
            'scores 2 points."',
            "9999 = 9 x 1111, not prime; sum 36, 32 <= 36 < 64: 5; length 2. 999 = 27 x 37; sum 27, 16 <= 27 < 32: "
            "4; length 1; only three 9s: no Repetition.",
        ),
        Case(
            "Differences and the O's",
            "ann's strings are 12321 and 10001; bob's is 98765.",
            strings(ann="12321/10001/", bob=f"{BIG}//"),
            {
                "scores": {
                    "ann's string 1 (12321)": "accumulation 3, length 2, differences 1 = 6",
                    "ann's string 2 (10001)": "accumulation 1, length 2, zeros 3 = 6",
                    f"bob's string 1 ({BIG})": "nothing = 0",
                }
            },
            'Seed: "Differences: A digit string with D unique digits for D>2 scores D-2 points." and "O\'s: Digit '
            'strings score 1 point for every zero in the string."',
            "12321 = 111 x 111; sum 9: 3; length 2; digits 1, 2, 3: 3 - 2 = 1. 10001 = 73 x 137; sum 2: 1; length 2; "
            "two distinct digits: none; three zeros: 3.",
        ),
        Case(
            "Identical: another player's string, once",
            "ann, bob and cat each built 22; cat also built 33 twice; dan built 98765.",
            strings(ann="22//", bob="22//", cat="22/33/33", dan=f"{BIG}//"),
            {
                "scores": {
                    "ann's string 1 (22)": "accumulation 2, length 1, identical 2 = 5",
                    "bob's string 1 (22)": "accumulation 2, length 1, identical 2 = 5",
                    "cat's string 1 (22)": "accumulation 2, length 1, identical 2, normality 1 = 6",
                    "cat's string 2 (33)": "accumulation 2, length 1, normality 1 = 4",
                    "cat's string 3 (33)": "accumulation 2, length 1, normality 1 = 4",
                    f"dan's string 1 ({BIG})": "nothing = 0",
                }
            },
            'Seed: "Identical: If your string is the same as one that a different player created, gain 2 points."; '
            'RULINGS: "2, once, however many players built it (your own other strings do not count)".',
            "22: sum 4: 2; length 1; built by two others: 2 once. 33: sum 6: 2; length 1; only cat built it. cat's "
            "three strings are all two long: Normality 1 each.",
        ),
        Case(
            "Normality counts only scoring strings",
            "ann's strings are 11, 22 and 12; bob's is 98765.",
            strings(ann="11/22/12", bob=f"{BIG}//"),
            {
                "scores": {
                    "ann's string 1 (11)": "primality 2, accumulation 1, length 1, normality 1 = 5",
                    "ann's string 2 (22)": "accumulation 2, length 1, normality 1 = 4",
                    "ann's string 3 (12)": "nothing = 0",
                    f"bob's string 1 ({BIG})": "nothing = 0",
                },
                "totals": {"ann": 9, "bob": 0},
            },
            'Seed: "Normality: If your three digit strings all contain the same number of digits, gain 1 point (for '
            'each one)."; RULINGS: "1 for each scoring string".',
            "All three are two long; 12 is no palindrome, so it scores nothing, Normality included. 11 is prime; "
            "sum 2: 1. 22: sum 4: 2.",
        ),
        Case(
            "Maximal: the same value, leading zero or not",
            "ann built 0110, bob 110, cat 99.",
            strings(ann="0110//", bob="110//", cat="99//"),
            {
                "scores": {
                    "ann's string 1 (0110)": "accumulation 1, length 2, zeros 2, maximal 3 = 8",
                    "bob's string 1 (110)": "nothing = 0",
                    "cat's string 1 (99)": "accumulation 4, length 1 = 5",
                }
            },
            'Seed: "Maximal: If this digit string is the numerical largest out of all players, it scores 3 points."; '
            'RULINGS: "Every string at that value scores it (0110 and 110 are the same value)."',
            "0110 and 110 are both 110, the largest; 110 is no palindrome. 0110: 110 is even; sum 2: 1; length 2; "
            "two zeros. 99: sum 18: 4; length 1.",
        ),
        Case(
            "Exodia",
            "ann built 01234567899876543210; bob built a 23-digit non-palindrome.",
            strings(ann="01234567899876543210//", bob="98765432109876543210987//"),
            {
                "scores": {
                    "ann's string 1 (01234567899876543210)": (
                        "accumulation 6, length 10, differences 8, zeros 2, exodia 8 = 34"
                    ),
                    "bob's string 1 (98765432109876543210987)": "nothing = 0",
                }
            },
            'Seed: "Exodia: If this digit string is 20 characters long consisting of two of each digit, it scores 8 '
            'points. This is in addition to the point reward of Differences."',
            "Ends in 0: not prime. Sum 2 x 45 = 90, 64 <= 90 < 128: 6. Length 10. Ten distinct digits: 8. Two "
            "zeros: 2. Exodia 8. bob's is larger, so no Maximal.",
        ),
    ),
)

RESULTS = Section(
    "Results",
    (
        Case(
            "One winner: 2 ToL; garnets by fifths of the winning score",
            "Six players finish.",
            totals(ann=20, bob=16, cat=12, dan=8, eve=4, fay=3),
            {
                "tol": {"ann": 2},
                "ec": ["fay"],
                "host_decides": [],
                "garnets": {"ann": 5, "bob": 4, "cat": 3, "dan": 2, "eve": 1, "fay": 0},
            },
            'Seed: "The player with the highest sum ... receives two Tokens of Life." and "The winning player(s) will '
            "receive 5 Garnets. Any player whose total score is 80% or higher of the winner's receives 4 ...\"; "
            'RULINGS: "Bands compare whole numbers (80%: 5 x score >= 4 x winning score, and so on)".',
            "bob 5 x 16 = 80 >= 4 x 20: 4. cat 60 >= 3 x 20: 3. dan 40 >= 40: 2. eve 20 >= 20: 1. fay 15 < 20: 0. "
            "fay is lowest: EC.",
        ),
        Case(
            "Just below a band",
            "Two players finish.",
            totals(ann=20, bob=15),
            {"tol": {"ann": 2}, "ec": ["bob"], "host_decides": [], "garnets": {"ann": 5, "bob": 3}},
            'RULINGS, Palindrome: "Bands compare whole numbers ..., never floating point."',
            "bob: 5 x 15 = 75 < 80, >= 60: 3.",
        ),
        Case(
            "Tied at the top: 1 ToL each",
            "Three players finish.",
            totals(ann=10, bob=10, cat=5),
            {"tol": {"ann": 1, "bob": 1}, "ec": ["cat"], "host_decides": [], "garnets": {"ann": 5, "bob": 5, "cat": 2}},
            'Seed: "If multiple people have the same highest score, they all receive one ToL each."',
            "Both winners get 5 garnets. cat: 5 x 5 = 25 >= 2 x 10: 2.",
        ),
        Case(
            "Tied at the bottom: all named, the host decides",
            "Three players finish.",
            totals(ann=10, bob=3, cat=3),
            {
                "tol": {"ann": 2},
                "ec": ["bob", "cat"],
                "host_decides": [{"line": "ec", "players": ["bob", "cat"], "places": 1, "award": 1}],
                "garnets": {"ann": 5, "bob": 1, "cat": 1},
            },
            'RULINGS, Palindrome: "The lowest score is EC; players tied at the bottom are all named."; Everywhere: '
            '"the result names the tied players and the host decides".',
            "bob and cat share the lowest score. 5 x 3 = 15 >= 10: 1 garnet each.",
        ),
        Case(
            "Everyone tied: no EC",
            "Three players finish level.",
            totals(ann=7, bob=7, cat=7),
            {
                "tol": {"ann": 1, "bob": 1, "cat": 1},
                "ec": [],
                "host_decides": [],
                "garnets": {"ann": 5, "bob": 5, "cat": 5},
            },
            'RULINGS, Everywhere: "A player is never both" ToL and EC; "(with everyone tied, no EC is named)".',
            "All three are winners.",
        ),
        Case(
            "A whole Main Match 5",
            "ann wins pack 1 (01234) in round 1 and builds 1; nothing else happens in five rounds.",
            mm5({"ann": bid(card(9, 1))}, {"ann": build(append(1, "1"))}, {}, {}, {}, {}),
            {
                "result": {
                    "scores": {"ann": 3, "bob": 0},
                    "ToL": {"ann": 2},
                    "EC": ["bob"],
                    "garnets": {"ann": 5, "bob": 0},
                }
            },
            'Seed, Main Match 5: "there are six rounds of gameplay total"; the scoring and results above.',
            "1: not prime, sum 1: log2 1 = 0, length 0, and the largest (the only) string: Maximal 3. bob: 0 < 20% "
            "of 3.",
        ),
    ),
)

BOOK = Book(
    "palindrome", "PALINDROME", SEED, (PHASES, PACK_BIDS, ITEM_BIDS, CONSTRUCTION, ITEMS, SCORING, RESULTS), OBSERVE
)
