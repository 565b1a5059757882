"""Abstrac's case book: both rule sets (the Death Match's row, the original deals), every rule of the
seed and every ruling, each case worked by hand. Cards are a number and a colour: 3R is red 3 (the
deal text's suits A-D are R, Y, G, B)."""

from __future__ import annotations

from typing import Any

from casebook_support import Attempt, Book, Call, Case, Phase, Play, Section, creation

from game_core.games.abstrac.cards import combinations, fraction_text, ratio
from game_core.games.abstrac.deal import deal_scores

SEED = "003_632569c66eaadc58.txt"
DAY = 86_400
PLAYERS = ("ann", "bob")


def other(player: str) -> str:
    return PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]


def row_game(
    picks: list[str], starter: str = "ann", attempt: Attempt | None = None, until: int | None = None, **settings: Any
) -> Play:
    """A row game whose picking takes these groups in turn (the first by whoever picks first): the
    row is the groups in order, laid three cards a move from `starter` on. Eight laying moves leave
    the last card to the one who did not lay first, so `starter` picks first. ann is the protected
    player unless `settings` says otherwise. `until`: only the first so many phases."""
    row = " ".join(picks).split()
    protected = settings.get("protected", "ann")
    phases = [Phase({protected: {"starter": {"starter": starter}}})]
    layer = starter
    for start in range(0, len(row), 3):
        phases.append(Phase({layer: {"lay": {"cards": row[start : start + 3]}}}))
        layer = other(layer)
    picker = layer  # who did not lay the last card
    for group in picks:
        phases.append(Phase({picker: {"pick": {"count": len(group.split())}}}))
        picker = other(picker)
    return Play(PLAYERS, tuple(phases[:until]), settings, attempt)


def deals(*takes: list[str], attempt: Attempt | None = None, until: int | None = None, **settings: Any) -> Play:
    """Deal games whose deal k is taken as `takes[k]`'s groups in turn (from that deal's starter:
    ann first, then alternately); the host's lines are the groups in order. `until`: only the
    first so many moves."""
    lines = [" ".join(groups).split() for groups in takes]
    phases = []
    starter = settings.get("first_starter", "ann")
    for groups in takes:
        mover = starter
        for group in groups:
            phases.append(Phase({mover: {"take": {"cards": group.split()}}}))
            mover = other(mover)
        starter = other(starter)
    everything = {"rule_set": "deal", "deal_lines": lines} | settings
    said = ", ".join(f"{key} {value}" for key, value in everything.items() if key != "deal_lines")
    said += "; the host's lines: each deal's cards in the order they are taken below"
    return Play(PLAYERS, tuple(phases[:until]), everything, attempt, settings_said=said)


def scored(cards: list[str], opponent_cards: int | None = None) -> dict[str, Any]:
    found = {combo.name: combo.points for combo in combinations(cards)}
    values: dict[str, Any] = {"combinations": found or "none", "points": sum(found.values())}
    if opponent_cards is None:
        values["row_score"] = fraction_text(ratio(cards))
    else:
        values["deal_score"] = values["points"] * opponent_cards
    return values


def hand(cards: str, opponent_cards: int | None = None) -> Call:
    said = f"A hand of {len(cards.split())} cards: {cards}"
    said += "." if opponent_cards is None else f"; the opponent took {opponent_cards}."
    return Call(scored, {"cards": cards.split(), "opponent_cards": opponent_cards}, (said,))


def scores(base: dict[str, int], cards: dict[str, int]) -> Call:
    said = ", ".join(f"{p}: base {base[p]}, {cards[p]} cards" for p in base)
    return Call(lambda: {"deal_scores": deal_scores(base, cards)[0]}, {}, (f"A deal ends. {said}.",))


def _mover(game, outcome) -> str:
    opening = game.open_phase(outcome.state)
    return f"{opening.name}: {', '.join(opening.actors)}"


def _winner(game, outcome) -> dict[str, Any]:
    result = outcome.result(game)
    return {"winner": result.standings[0].player, "EC": list(result.ec), "how": result.details["how"]}


OBSERVE = {
    "next": ("the move now owed", _mover),
    "result": ("the result", _winner),
    "hands": (
        "each one's cards and score",
        lambda game, o: {p: f"{len(t)} cards, {fraction_text(ratio(t))}" for p, t in o.state.row.taken.items()},
    ),
    "reserve": ("reserve left (seconds)", lambda game, o: {p: c.reserve_left for p, c in o.state.row.clocks.items()}),
    "row": ("the row, front first", lambda game, o: " ".join(o.state.row.row)),
    "by_service": (
        "moves the service played",
        lambda game, o: [f"{m.player} {m.kind} {' '.join(m.cards)}" for m in o.state.row.moves if m.by_service],
    ),
    "deal_totals": (
        "each deal's scores (deal: player score)",
        lambda game, o: {r.number: r.scores for r in o.state.deal.finished},
    ),
    "totals": ("totals", lambda game, o: o.state.deal.totals),
    "zero_swap": ("zero swap in the last deal", lambda game, o: o.state.deal.finished[-1].zero_swap),
    "periods": ("periods left", lambda game, o: {p: c.periods_left for p, c in o.state.deal.clocks.items()}),
}

COMBINATIONS = Section(
    "Combinations (both rule sets)",
    (
        Case(
            "The row text's example hand",
            "Red 23456, yellow 1345, green 13, blue 123.",
            hand("2R 3R 4R 5R 6R 1Y 3Y 4Y 5Y 1G 3G 1B 2B 3B"),
            {
                "combinations": {
                    "Three-of-a-kind of 1": 2,
                    "Four-of-a-kind of 3": 8,
                    "Five-in-a-row of red": 6,
                    "Three-in-a-row of yellow": 3,
                    "Three-in-a-row of blue": 3,
                },
                "points": 22,
                "row_score": "11/7",
            },
            'Seed, Death Match 12: "Three-of-a-kind of 1: 2pt / Four-of-a-kind of 3: 8pt / Five-in-a-row of red: 6pt '
            "/ Three-in-a-row of yellow: 3pt / Three-in-a-row of blue: 3pt / Final score: 22 points / 14 cards = "
            '1.5714."',
            "1s: Y, G, B; 3s: all four; red 2-6; yellow 3-5 (1 stands apart); blue 1-3. 22 / 14 = 11 / 7.",
        ),
        Case(
            "The deal text's example hand",
            "A1 A2 A3 A4 A6 B2 B3 B5 B6 C1 C2 C3 D2, suits A-D read as R, Y, G, B; the opponent took 11.",
            hand("1R 2R 3R 4R 6R 2Y 3Y 5Y 6Y 1G 2G 3G 2B", opponent_cards=11),
            {
                "combinations": {
                    "Four-of-a-kind of 2": 8,
                    "Three-of-a-kind of 3": 2,
                    "Four-in-a-row of red": 4,
                    "Three-in-a-row of green": 3,
                },
                "points": 17,
                "deal_score": 187,
            },
            'Seed, Abstrac: "Your base score is 17 points ... your base score of 17 is multiplied by 11 to give your '
            'score of 187 points."',
            "2s: all four (8); 3s: R, Y, G (2); red 1-4 (4; 6 stands apart); green 1-3 (3). 17 x 11 = 187.",
        ),
        Case(
            "6 and 1 are not consecutive",
            "Red 5, 6, 1.",
            hand("5R 6R 1R"),
            {"combinations": "none", "points": 0, "row_score": "0"},
            'Seed, Abstrac: "Cards of the same color and with numbers in order (1 and 6 are not consecutive)".',
            "5-6 is two long, 1 stands apart.",
        ),
        Case(
            "Only the maximal run counts",
            "Red 1 to 6.",
            hand("1R 2R 3R 4R 5R 6R"),
            {"combinations": {"Six-in-a-row of red": 12}, "points": 12, "row_score": "2"},
            "Seed, Death Match 12: \"a run is always maximal; a five-in-a-row doesn't count as two four-in-a-rows or "
            'three three-in-a-rows. ... a six-in-a-row is worth 12 points."',
            "12 / 6 = 2.",
        ),
        Case(
            "A card in a set and a run",
            "Red 1, 2, 3 and the yellow and green 1.",
            hand("1R 2R 3R 1Y 1G"),
            {"combinations": {"Three-of-a-kind of 1": 2, "Three-in-a-row of red": 3}, "points": 5, "row_score": "1"},
            'Seed, Death Match 12: "A card may belong to two combinations simultaneously (one set and one run). Both '
            'are counted."',
            "1R is in both: 2 + 3 = 5; 5 / 5 = 1.",
        ),
    ),
)

SEED_ROW = ["2R 3R 4R", "1R 2Y 6Y", "5R 6R 1Y", "2G 4G 5G", "3Y 4Y 5Y", "6G 4B 5B", "1G 3G 1B", "6B", "2B 3B"]
"""The row text's example hand for ann (14 cards) in five picks, bob's ten cards in four between."""
EQUAL_RATIO = ["1G 1Y 2G", "1B 1R 2B", "2R 3R 4B", "2Y 3B 3G", "4G 4R 4Y", "3Y 5B 5G", "6B", "5R 5Y 6G", "6R", "6Y"]
"""ann 11 cards (four 4s, red 2-4: 11 points), bob 13 (four 5s, three 3s, blue 1-3: 13 points)."""

ROW = Section(
    "The Death Match's row (`row`)",
    (
        Case(
            "The protected player names who starts",
            "ann (protected: not the EC) names bob to lay first.",
            row_game(SEED_ROW, starter="bob", until=1),
            {"next": "Laying move: bob"},
            'Seed, Death Match 12: "apple.singer (as the non-Elimination Candidate) will decide the starting player."',
            "The protected player is ann unless the host names the other.",
        ),
        Case(
            "Only the protected player names the starter",
            "The match is created; bob is the protected player.",
            row_game(SEED_ROW, until=0, protected="bob"),
            {"next": "Choose starter: bob"},
            'RULINGS, Abstrac: "The protected player (the non-EC) names who starts."',
            "The first move is bob's, whoever is listed first.",
        ),
        Case(
            "Laying: one to three unused cards",
            "ann lays four cards in her first laying move.",
            row_game(SEED_ROW, until=1, attempt=Attempt("ann", "lay", {"cards": ["1R", "2R", "3R", "4R"]})),
            {"refused": ["card_count"]},
            'Seed, Death Match 12: "Alternately, you will lay down one, two, or three cards that haven\'t been used".',
            "Four is more than three.",
        ),
        Case(
            "A card already laid",
            "ann laid 2R 3R 4R; bob lays 4R 1R.",
            row_game(SEED_ROW, until=2, attempt=Attempt("bob", "lay", {"cards": ["4R", "1R"]})),
            {"refused": ["card_laid"]},
            'Seed, Death Match 12: "cards that haven\'t been used".',
            "4R is in the row.",
        ),
        Case(
            "Picking starts with who did not lay the last card",
            "ann names herself; eight laying moves of three, ann first, so bob lays the last card.",
            row_game(SEED_ROW, until=9),
            {"next": "Picking move: ann"},
            'Seed, Death Match 12: "The person that didn\'t lay down the last card begins the second phase."',
            "Moves 1, 3, 5, 7 are ann's; move 8 is bob's.",
        ),
        Case(
            "Picking: one to three from the front",
            "The row is laid; ann picks four.",
            row_game(SEED_ROW, until=9, attempt=Attempt("ann", "pick", {"count": 4})),
            {"refused": ["card_count"]},
            'Seed, Death Match 12: "Alternately, you will pick up one, two, or three cards from the front of the row."',
            "Four is more than three.",
        ),
        Case(
            "Score: points over cards, exactly",
            "ann picks the row text's example hand; bob the other ten cards.",
            row_game(SEED_ROW),
            {
                "hands": {"ann": "14 cards, 11/7", "bob": "10 cards, 4/5"},
                "result": {"winner": "ann", "EC": ["bob"], "how": "ann wins on score"},
            },
            'Seed, Death Match 12: "your combination total is then divided by the number of cards you take. This is '
            'your final score. The winner is the player with higher score"; RULINGS: "compared exactly (as '
            'fractions)".',
            "ann 22 / 14 = 11/7. bob holds 1R, 2Y 6Y, 2G 4G 5G 6G, 4B 5B 6B: three 6s (2), green 4-6 (3), blue 4-6 "
            "(3) = 8; 8 / 10 = 4/5. The loser is EC.",
        ),
        Case(
            "Equal scores: more cards wins",
            "ann picks 11 cards worth 11 points, bob 13 worth 13.",
            row_game(EQUAL_RATIO),
            {
                "hands": {"ann": "11 cards, 1", "bob": "13 cards, 1"},
                "result": {"winner": "bob", "EC": ["ann"], "how": "bob wins on more cards"},
            },
            'Seed, Death Match 12: "in case of a tie, the player with more cards taken".',
            "ann holds 1G 1Y 2G 2R 3R 4B 4G 4R 4Y 6B 6R: four 4s (8) and red 2-4 (3) = 11; "
            "11 / 11 = 1. bob holds the rest: four 5s (8), 3s B G Y (2), blue 1-3 (3) = 13; 13 / 13 = 1. 13 > 11 "
            "cards, so bob wins although ann is protected.",
        ),
        Case(
            "Equal scores and cards: the protected player",
            "ann picks red and yellow, bob green and blue, three at a time.",
            row_game(["1R 2R 3R", "1G 2G 3G", "4R 5R 6R", "4G 5G 6G", "1Y 2Y 3Y", "1B 2B 3B", "4Y 5Y 6Y", "4B 5B 6B"]),
            {
                "hands": {"ann": "12 cards, 2", "bob": "12 cards, 2"},
                "result": {"winner": "ann", "EC": ["bob"], "how": "ann wins on protected player"},
            },
            'Seed, Death Match 12: "in case of a tie, apple.singer wins."',
            "Each holds two runs of six: 24 / 12 = 2, 12 cards each; ann is protected.",
        ),
        Case(
            "Overtime comes out of the reserve",
            "ann names the starter 26 hours after the match starts.",
            Play(
                PLAYERS, (Phase({"ann": {"starter": {"starter": "ann"}}}, elapsed_seconds=DAY + 7200, timed_out=False),)
            ),
            {"reserve": {"ann": 2 * DAY - 7200, "bob": 2 * DAY}},
            'RULINGS, Abstrac: "Clock: 24 hours a move plus a 48-hour reserve that overtime eats".',
            "26 h - 24 h = 2 h = 7200 s of overtime: 172800 - 7200 = 165600.",
        ),
        Case(
            "The reserve gone: the player loses",
            "ann makes no move for 72 hours.",
            Play(PLAYERS, (Phase(elapsed_seconds=3 * DAY),)),
            {"result": {"winner": "bob", "EC": ["ann"], "how": "ann ran out of time (the reserve was gone) and loses"}},
            'Seed, Death Match 12: "you have 24 hours per move, plus 48 hours of reserve time."; RULINGS: "when the '
            'reserve is gone, the player loses".',
            "24 h + 48 h = 72 h and no move.",
        ),
        Case(
            "Configurable: the service plays the smallest legal move",
            "With that setting, ann names herself, then makes no laying move for 72 hours.",
            Play(
                PLAYERS,
                (Phase({"ann": {"starter": {"starter": "ann"}}}), Phase(elapsed_seconds=3 * DAY)),
                {"on_empty_reserve": "smallest_move"},
            ),
            {
                "by_service": ["ann lay 1R"],
                "row": "1R",
                "next": "Laying move: bob",
                "reserve": {"ann": 0, "bob": 2 * DAY},
            },
            'RULINGS, Abstrac: "(configurable: the service plays the smallest legal move)".',
            "The smallest legal lay is one card, the smallest unused: 1R. ann's reserve is spent; bob lays next.",
        ),
    ),
)

RED_YELLOW = ["1R 2R 3R", "1G 2G 3G", "4R 5R 6R", "4G 5G 6G", "1Y 2Y 3Y", "1B 2B 3B", "4Y 5Y 6Y", "4B 5B 6B"]
"""A deal in which ann takes red and yellow, bob green and blue (ann first)."""
GREEN_BLUE = ["1G 2G 3G", "1R 2R 3R", "4G 5G 6G", "4R 5R 6R", "1B 2B 3B", "1Y 2Y 3Y", "4B 5B 6B", "4Y 5Y 6Y"]
"""The same split when bob starts."""
ANN_FIFTEEN = ["4G 5G 6G", "1R 2R 3R", "1B 2B", "4R 5R 6R", "3B 4B", "1Y 2Y 3Y", "5B", "4Y 5Y 6Y", "6B", "1G 2G 3G"]
"""bob starts; ann takes red, yellow and green 1-3 (15 cards), bob green 4-6 and blue (9)."""

DEAL = Section(
    "The original deals (`deal`)",
    (
        Case(
            "The first starter is named at creation",
            "The host names bob to start the first deal.",
            Play(PLAYERS, (), {"rule_set": "deal", "first_starter": "bob"}),
            {"next": "Move: bob"},
            'RULINGS, Abstrac: "The first starting player is named at creation; it alternates per deal."',
            "bob takes first.",
        ),
        Case(
            "A starter who does not play",
            "The host names cy, who is not in the match, to start.",
            creation("abstrac", "ann bob", rule_set="deal", first_starter="cy"),
            {"refused": ["not_a_player"]},
            'Seed, Abstrac: "Decide the starting player for the first deal."',
            "Only ann or bob can start.",
        ),
        Case(
            "Taking: one to three from the top, said three ways",
            "The line starts 1R 2R 3R 1G; ann takes to 2R (the last card taken).",
            deals(RED_YELLOW, attempt=Attempt("ann", "take", {"last": "2R"}), until=0),
            {"refused": []},
            "Seed, Abstrac: \"State how many cards you take; alternatively, state the last card among the ones you're "
            "going to take, or state all the cards you're going to take.\"",
            "2R is the second card from the top: a take of two.",
        ),
        Case(
            "No skipping",
            "The line starts 1R 2R 3R 1G; ann takes 1R and 3R.",
            deals(RED_YELLOW, attempt=Attempt("ann", "take", {"cards": ["1R", "3R"]}), until=0),
            {"refused": ["cards_not_on_top"]},
            'Seed, Abstrac: "You may not skip cards; for example, if you want to take the second card, you must also '
            'take the first card."',
            "The top two are 1R 2R.",
        ),
        Case(
            "Four cards",
            "ann takes four.",
            deals(RED_YELLOW, attempt=Attempt("ann", "take", {"count": 4}), until=0),
            {"refused": ["card_count"]},
            'Seed, Abstrac: "On your turn, take the top 1, 2, or 3 cards of the line."',
            "Four is more than three.",
        ),
        Case(
            "Deal score: base times the opponent's cards; the starter alternates",
            "Deal 1: ann takes red and yellow, bob green and blue.",
            deals(RED_YELLOW),
            {"deal_totals": {1: {"ann": 288, "bob": 288}}, "next": "Move: bob"},
            'Seed, Abstrac: "your score is the your base score, multiplied by the number of cards that your opponent '
            'took." and "Starting player for future deals alternates."',
            "Each base: two runs of six, 12 + 12 = 24 (each number twice: no set); 24 x 12 = 288. bob starts deal 2.",
        ),
        Case(
            "Zero base: the swap",
            "ann takes 11 cards that make nothing; bob the other 13.",
            deals(
                ["1R 2R 4R", "3R 6R 3Y", "5R 1Y 2Y", "6Y 6B 1G", "4Y 5Y 3G", "2G 4G 5G", "6G", "1B 2B 4B", "3B", "5B"]
            ),
            {"deal_totals": {1: {"ann": 55, "bob": 0}}, "zero_swap": True},
            "Seed, Abstrac: \"if a player scores 0 points, the two players swap their scores: the player that didn't "
            "have any combination instead scores the points the opponent would have gotten, and the opponent scores "
            'nothing."',
            "ann: no number three times, no three in a row. bob: 6s R Y B (2), blue 4-6 (3) = 5; he would have had "
            "5 x 11 = 55: ann scores it, bob 0.",
        ),
        Case(
            "Both zero: both 0",
            "Each takes twelve cards that make nothing.",
            deals(["1R 2R 4R", "3R 6R 3Y", "5R 1Y 2Y", "6Y 1G 2G", "4Y 5Y 3G", "4G 5G 1B", "6G 3B 6B", "2B 4B 5B"]),
            {"deal_totals": {1: {"ann": 0, "bob": 0}}, "zero_swap": False},
            'RULINGS, Abstrac: "(both 0: both 0)".',
            "ann 1R 2R 4R 5R 1Y 2Y 4Y 5Y 3G 6G 3B 6B and bob the rest: each number twice in each hand, no colour "
            "three in a row.",
        ),
        Case(
            "Deal scores by rule",
            "The scores of a deal from the bases and cards, each way.",
            scores({"ann": 0, "bob": 7}, {"ann": 10, "bob": 14}),
            {"deal_scores": {"ann": 70, "bob": 0}},
            'RULINGS, Abstrac: "a player with 0 base points takes the score the opponent would have had (the '
            "opponent's base x the zero player's cards), and the opponent scores 0\".",
            "bob would have had 7 x 10 = 70.",
        ),
        Case(
            "The target reached: the higher total wins",
            "Deal 1 as above (288 each); in deal 2 bob starts and ann takes 15 cards, bob 9.",
            deals(RED_YELLOW, ANN_FIFTEEN),
            {
                "deal_totals": {1: {"ann": 288, "bob": 288}, 2: {"ann": 297, "bob": 225}},
                "result": {"winner": "ann", "EC": ["bob"], "how": "ann wins 585 to 513"},
            },
            'Seed, Abstrac: "The game ends after a deal when a player reaches cumulative score of 400 or more. The '
            'player with higher score wins."',
            "Deal 2: ann has red and yellow 1-6 (24) and green 1-3 (3), 1s, 2s, 3s three times (6): 33 x 9 = 297. "
            "bob green 4-6 (3) and blue 1-6 (12): 15 x 15 = 225. 288 + 297 = 585 >= 400; 585 > 513.",
        ),
        Case(
            "Tied at the target: another deal",
            "Two deals of 288 each.",
            deals(RED_YELLOW, GREEN_BLUE),
            {"totals": {"ann": 576, "bob": 576}, "next": "Move: ann"},
            'Seed, Abstrac: "In case of a tie, play additional deals until the tie is broken."',
            "576 >= 400 but level: deal 3 starts, ann's turn to start again.",
        ),
        Case(
            "Another target",
            "The host sets the target to 450.",
            creation("abstrac", "ann bob", rule_set="deal", target=450),
            {"refused": ["literal_error"]},
            'Seed, Abstrac: "the game may be played to another point target: 400 (default), 500, or 600."',
            "450 is none of the three.",
        ),
        Case(
            "A move later than one period uses one up",
            "ann's first take comes one period and one second after the deal starts.",
            Play(
                PLAYERS,
                (Phase({"ann": {"take": {"count": 1}}}, elapsed_seconds=DAY + 1, timed_out=False),),
                {"rule_set": "deal"},
            ),
            {"periods": {"ann": 4, "bob": 5}},
            'Seed, Abstrac: "Time controls: 5 periods of 1 minute"; RULINGS: "a move later than one period uses up '
            'one more; with none left, the player loses." (a period is 24 hours in the service).',
            "86401 s starts a second period: 5 - 1 = 4.",
        ),
        Case(
            "One more period at each later deal",
            "Deal 1 as above, every move in time.",
            deals(RED_YELLOW),
            {"periods": {"ann": 6, "bob": 6}},
            'Seed, Abstrac: "add 1 period at the start of each deal after the first."',
            "5 + 1 = 6 each at the start of deal 2.",
        ),
        Case(
            "No period left: the player loses",
            "ann makes no move for five periods.",
            Play(PLAYERS, (Phase(elapsed_seconds=5 * DAY),), {"rule_set": "deal"}),
            {"result": {"winner": "bob", "EC": ["ann"], "how": "ann ran out of time (no period left) and loses"}},
            'RULINGS, Abstrac: "with none left, the player loses."',
            "Five periods of 24 hours pass without a move.",
        ),
    ),
)

BOOK = Book("abstrac", "ABSTRAC", SEED, (COMBINATIONS, ROW, DEAL), OBSERVE)
