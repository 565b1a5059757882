"""Pushing Crates' case book: every rule of the seed and every ruling, each case worked by hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook_support import Attempt, Book, Case, Phase, Play, Section, garnets_of, standings_of

SEED = "001_69628b9268bd3f9b.txt"
LISTED = [-1, -1, 0, 1, 1, 2]
"""The listed order: every player's multipliers when they send none."""


def push(crate: str, times: int = 1, direction: str = "right") -> list[dict[str, str]]:
    return [{"crate": crate, "direction": direction}] * times


def turn(ground: str | None, *groups: list[dict[str, str]]) -> dict[str, Any]:
    """A round submission: its pushes in order, and its ground (None: the line left out)."""
    body: dict[str, Any] = {"pushes": [one for group in groups for one in group]}
    return body if ground is None else body | {"ground": ground}


def match(
    players: str,
    rounds: Mapping[int, Mapping[str, Any]] | None = None,
    pregame: Mapping[str, list[int]] | None = None,
    until: int = 6,
    attempt: Attempt | None = None,
    **settings: Any,
) -> Play:
    """The pregame and rounds 1..`until` (0: the pregame alone; -1: nothing, the pregame open):
    `rounds[n]` is round n's submissions (player -> a round's body, or a mapping of kinds when it
    also sends multipliers)."""
    rounds = rounds or {}

    def moves(number: int) -> dict[str, Any]:
        return {p: body if "multipliers" in body else {"round": body} for p, body in rounds.get(number, {}).items()}

    opening = Phase({p: {"multipliers": {"multipliers": m}} for p, m in (pregame or {}).items()})
    phases = (opening, *(Phase(moves(number)) for number in range(1, until + 1)))[: until + 1]
    return Play(tuple(players.split()), phases, settings, attempt)


def _result(key: str):
    return lambda game, outcome: getattr(outcome.result(game), key)


OBSERVE = {
    "at": (
        "each crate's location now",
        lambda game, o: {p: at[-1] if at else 0 for p, at in o.state.locations.items()},
    ),
    "round_points": ("points of the last round", lambda game, o: {p: pts[-1] for p, pts in o.state.points.items()}),
    "multipliers": ("the multipliers that stand", lambda game, o: dict(o.state.multipliers)),
    "reveal": (
        "announced to everyone (location mod 5)",
        lambda game, o: game.view(o.state, None)["public"]["reveals"][-1]["mod5"],
    ),
    "told": (
        "each told privately (own total)",
        lambda game, o: {p: game.view(o.state, p)["private"]["total"] for p in o.state.players},
    ),
    "standings": (
        "standings (place, player, points)",
        standings_of,
    ),
    "tol": ("Tokens of Life", _result("tol")),
    "ec": ("Elimination Candidates", _result("ec")),
    "garnets": ("garnets earned", garnets_of),
    "first_pick": (
        "picks a Death Match opponent first",
        lambda game, o: o.result(game).details["first_to_pick_opponent"],
    ),
    "lot_decided": ("the lot decided a tie", lambda game, o: o.result(game).details["lot_decided"]),
}

TIE_ON_SIX = match(
    "ann bob cat",
    {
        4: {"bob": turn("ice", push("bob", 3))},
        5: {"bob": turn("stone", push("bob", 2))},
        6: {"ann": turn("ice", push("ann", 3))},
    },
)
SIX_PLAYERS = match(
    "ann bob cat dan eve fay",
    {
        6: {
            "ann": turn("ice", push("ann", 7)),
            "bob": turn("ice", push("bob", 5)),
            "cat": turn("ice", push("cat", 4)),
            "dan": turn("ice", push("dan", 3)),
            "eve": turn("stone", push("eve", 2)),
        }
    },
)
SIX_PLAYERS_WORKING = (
    "Nobody sent multipliers, so round 6 is x2 for all. ann: 7 right on ice, 0 -> 21, passes 5, 10, 15, "
    "20: 4 x 2 = 8. bob: 5 on ice, 0 -> 15: 3 x 2 = 6. cat: 4 on ice, 0 -> 12: 2 x 2 = 4. dan: 3 on "
    "ice, 0 -> 9: 1 x 2 = 2. eve: 2 on stone, 0 -> 2: 0. fay sent nothing: 0, at 0. eve and fay tie "
    "on 0 points; eve is further right at the end of round 6 (2 > 0), so eve is fifth."
)

MULTIPLIERS = Section(
    "Multipliers",
    (
        Case(
            "No multipliers at all: the listed order",
            "ann sends no multipliers, then pushes her own crate over a multiple of 5 in round 1.",
            match("ann bob", {1: {"ann": turn("ice", push("ann", 3))}}, until=1),
            {"multipliers": {"ann": LISTED, "bob": LISTED}, "round_points": {"ann": -1, "bob": 0}},
            'RULINGS, Pushing Crates: "None at all: the listed order (round 1 gets -1, ..., round 6 gets 2)."',
            "Round 1 gets the first listed multiplier, -1. ann moves 3 x 3 = 9 on ice, from 0 past 5: "
            "1 point x -1 = -1.",
        ),
        Case(
            "The pregame's multipliers stand",
            "ann gives round 1 the 2 in the pregame and moves past 5 in round 1.",
            match("ann bob", {1: {"ann": turn("ice", push("ann", 3))}}, {"ann": [2, 1, 1, 0, -1, -1]}, until=1),
            {"multipliers": {"ann": [2, 1, 1, 0, -1, -1], "bob": LISTED}, "round_points": {"ann": 2, "bob": 0}},
            'Seed: "During the pregame round, players must assign the point multipliers [-1, -1, 0, 1, 1, 2] '
            'to the six rounds, one to each round."',
            "0 -> 9 passes 5: 1 point x 2 = 2.",
        ),
        Case(
            "Multipliers sent in round 1 replace the pregame's",
            "ann sends multipliers in the pregame, then others with her round 1 pushes.",
            match(
                "ann bob",
                {
                    1: {
                        "ann": {
                            "round": turn("ice", push("ann", 3)),
                            "multipliers": {"multipliers": [0, 2, 1, 1, -1, -1]},
                        }
                    }
                },
                {"ann": [2, 1, 1, 0, -1, -1]},
                until=1,
            ),
            {"multipliers": {"ann": [0, 2, 1, 1, -1, -1], "bob": LISTED}, "round_points": {"ann": 0, "bob": 0}},
            'Seed: "you are allowed to submit your Round 0 submission up until the end of Round 1"; RULINGS: '
            '"accepted from the pregame phase until the end of round 1; the last valid one stands."',
            "The round 1 submission is the later one, so round 1's multiplier is 0: 1 point x 0 = 0.",
        ),
        Case(
            "Multipliers sent only in round 1",
            "ann sends nothing in the pregame and her multipliers with her round 1 pushes.",
            match(
                "ann bob",
                {
                    1: {
                        "ann": {
                            "round": turn("ice", push("ann", 3)),
                            "multipliers": {"multipliers": [1, 2, 0, -1, -1, 1]},
                        }
                    }
                },
                until=1,
            ),
            {"multipliers": {"ann": [1, 2, 0, -1, -1, 1], "bob": LISTED}, "round_points": {"ann": 1, "bob": 0}},
            'Seed: "you are allowed to submit your Round 0 submission up until the end of Round 1".',
            "They arrive in time for round 1, which gets 1: 0 -> 9 passes 5, 1 x 1 = 1.",
        ),
        Case(
            "No multipliers after round 1",
            "Round 1 has resolved; in round 2 ann sends multipliers.",
            match("ann bob", until=1, attempt=Attempt("ann", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})),
            {"refused": ["kind_not_accepted"]},
            'RULINGS, Pushing Crates: multipliers are "accepted from the pregame phase until the end of round 1".',
            "Round 2 takes round submissions only.",
        ),
        Case(
            "Multipliers that are not the permutation",
            "In the pregame ann gives two rounds the 2.",
            match("ann bob", until=-1, attempt=Attempt("ann", "multipliers", {"multipliers": [2, 2, 1, 0, -1, -1]})),
            {"refused": ["value_error"]},
            'Seed: "It must be a permutation of [-1, -1, 0, 1, 1, 2]".',
            "Sorted, [2, 2, 1, 0, -1, -1] is [-1, -1, 0, 1, 2, 2], not the six multipliers: refused whole.",
        ),
        Case(
            "Five multipliers for six rounds",
            "In the pregame ann leaves round 6 out.",
            match("ann bob", until=-1, attempt=Attempt("ann", "multipliers", {"multipliers": [2, 1, 1, 0, -1]})),
            {"refused": ["too_short"]},
            'Seed: "assigning one of these point multipliers to each round".',
            "Six rounds need six multipliers; five is too short.",
        ),
    ),
)

PUSHES = Section(
    "Pushes and garnets",
    (
        Case(
            "Three pushes are free",
            "In round 1 ann pushes three times.",
            match("ann bob", until=0, attempt=Attempt("ann", "round", turn("stone", push("bob", 3)), garnets=0)),
            {"refused": [], "cost": 0},
            'Seed: "all players may push crates up to three times".',
            "Three pushes are within the free three: nothing to pay, so a balance of 0 is enough.",
        ),
        Case(
            "Each push beyond the third costs a garnet",
            "In round 1 ann pushes five times, holding 2 garnets.",
            match("ann bob", until=0, attempt=Attempt("ann", "round", turn("stone", push("bob", 5)), garnets=2)),
            {"refused": [], "cost": 2},
            'Seed: "You may also spend garnets for extra pushes, at the rate of 1 Garnet : 1 additional push."',
            "5 pushes - 3 free = 2 garnets, which she holds.",
        ),
        Case(
            "Extra pushes without the garnets",
            "In round 1 ann pushes five times, holding 1 garnet.",
            match("ann bob", until=0, attempt=Attempt("ann", "round", turn("stone", push("bob", 5)), garnets=1)),
            {"refused": ["garnets_short"]},
            'RULINGS, Everywhere: "never below zero: a submission that spends more than the balance is refused".',
            "5 - 3 = 2 garnets are needed and she holds 1.",
        ),
        Case(
            "A push on nobody's crate",
            "In round 1 ann pushes the crate of zed, who does not play.",
            match("ann bob", until=0, attempt=Attempt("ann", "round", turn("stone", push("zed")))),
            {"refused": ["crate_unknown"]},
            'Seed: "Each player owns a single crate"; RULINGS: "each names a crate (any player\'s, own included, '
            'repeats allowed)".',
            "zed owns no crate in this match; the whole submission is refused.",
        ),
        Case(
            "Refused whole, with every reason",
            "ann chose rubber in round 1; in round 2, holding no garnet, she pushes zed's crate once and bob's "
            "three times, on rubber again.",
            match(
                "ann bob",
                {1: {"ann": turn("rubber")}},
                until=1,
                attempt=Attempt("ann", "round", turn("rubber", push("zed"), push("bob", 3)), garnets=0),
            ),
            {"refused": ["crate_unknown", "ground_used_up", "garnets_short"]},
            'RULINGS, Everywhere: "A submission with any illegal part is refused whole, with every reason listed."',
            "zed has no crate; rubber was used in round 1; 4 pushes need 1 garnet and she holds 0.",
        ),
        Case(
            "Own crate and repeats",
            "ann pushes her own crate twice and bob's once; bob sends nothing.",
            match("ann bob", {1: {"ann": turn("stone", push("ann", 2), push("bob"))}}, until=1),
            {"at": {"ann": 2, "bob": 1}},
            'Seed: "You may push any crate, including your own, and may push a crate multiple times."',
            "ann's crate gets 2 right on her stone: 2. bob's gets 1 right on stone (he sent nothing): 1.",
        ),
    ),
)

GROUND = Section(
    "Ground",
    (
        Case(
            "Rubber: x0",
            "ann pushes her crate right three times on rubber.",
            match("ann bob", {1: {"ann": turn("rubber", push("ann", 3))}}, until=1),
            {"at": {"ann": 0, "bob": 0}},
            'Seed: "You may select rubber (x0 multiplier), stone (x1 multiplier), or ice (x3 multiplier)."',
            "3 x 0 = 0: the crate stays.",
        ),
        Case(
            "Stone: x1",
            "ann pushes her crate right three times on stone.",
            match("ann bob", {1: {"ann": turn("stone", push("ann", 3))}}, until=1),
            {"at": {"ann": 3, "bob": 0}},
            'Seed: "stone (x1 multiplier)".',
            "3 x 1 = 3.",
        ),
        Case(
            "Ice: x3",
            "ann pushes her crate right once on ice.",
            match("ann bob", {1: {"ann": turn("ice", push("ann"))}}, until=1),
            {"at": {"ann": 3, "bob": 0}},
            'Seed: "ice (x3 multiplier)".',
            "1 x 3 = 3.",
        ),
        Case(
            "Rubber a second time",
            "ann chose rubber in round 1 and asks for it again in round 2.",
            match("ann bob", {1: {"ann": turn("rubber")}}, until=1, attempt=Attempt("ann", "round", turn("rubber"))),
            {"refused": ["ground_used_up"]},
            'Seed: "rubber can be selected at most once in total".',
            "Round 1 used the one rubber.",
        ),
        Case(
            "Ice twice",
            "ann chose ice in round 1 and asks for it again in round 2.",
            match("ann bob", {1: {"ann": turn("ice")}}, until=1, attempt=Attempt("ann", "round", turn("ice"))),
            {"refused": [], "cost": 0},
            'Seed: "ice can be selected at most twice in total".',
            "Round 2 would be her second ice: allowed.",
        ),
        Case(
            "Ice a third time",
            "ann chose ice in rounds 1 and 2 and asks for it again in round 3.",
            match(
                "ann bob",
                {1: {"ann": turn("ice")}, 2: {"ann": turn("ice")}},
                until=2,
                attempt=Attempt("ann", "round", turn("ice")),
            ),
            {"refused": ["ground_used_up"]},
            'Seed: "ice can be selected at most twice in total".',
            "Rounds 1 and 2 used both.",
        ),
        Case(
            "A round submission naming no ground",
            "ann pushes her crate right twice and names no ground.",
            match("ann bob", {1: {"ann": turn(None, push("ann", 2))}}, until=1),
            {"at": {"ann": 2, "bob": 0}},
            'RULINGS, Pushing Crates: "None submitted, or a round submission that names no ground: stone".',
            "Stone: 2 x 1 = 2.",
        ),
        Case(
            "No submission: no pushes, on stone",
            "ann sends nothing in round 1; bob pushes ann's crate right twice (and picks ice for his own).",
            match("ann bob", {1: {"bob": turn("ice", push("ann", 2))}}, until=1),
            {"at": {"ann": 2, "bob": 0}},
            'RULINGS, Pushing Crates: "Pushes ... None: no pushes." and "Ground ... None submitted ...: stone".',
            "ann's ground is stone: 2 x 1 = 2. bob's ice is under his own crate, which nobody pushed.",
        ),
    ),
)

MOVEMENT = Section(
    "Movement",
    (
        Case(
            "The seed's example: five right, two left, over ice",
            "ann and bob push cat's crate; cat picks ice and pushes her own crate left once.",
            match(
                "ann bob cat",
                {
                    1: {
                        "ann": turn("stone", push("cat", 3)),
                        "bob": turn("stone", push("cat", 2), push("cat", 1, "left")),
                        "cat": turn("ice", push("cat", 1, "left")),
                    }
                },
                until=1,
            ),
            {"at": {"ann": 0, "bob": 0, "cat": 9}},
            'Seed: "if a crate was pushed right 5 times and left 2 times over ice, it would move a total of 9 '
            'spaces to the right."',
            "R = 3 + 2 = 5, L = 1 + 1 = 2; (5 - 2) x 3 = 9.",
        ),
        Case(
            "As many left as right: it stays",
            "ann pushes cat's crate right twice, bob left twice; cat is on ice.",
            match(
                "ann bob cat",
                {
                    1: {
                        "ann": turn("stone", push("cat", 2)),
                        "bob": turn("stone", push("cat", 2, "left")),
                        "cat": turn("ice"),
                    }
                },
                until=1,
            ),
            {"at": {"ann": 0, "bob": 0, "cat": 0}},
            'Seed: "if there are as many or more left pushes than right pushes, the crate does not move."',
            "R = L = 2.",
        ),
        Case(
            "More left than right: it never moves left",
            "cat's crate is at 3 after round 1; in round 2 ann pushes it left three times and cat right once.",
            match(
                "ann bob cat",
                {
                    1: {"cat": turn("stone", push("cat", 3))},
                    2: {"ann": turn("stone", push("cat", 3, "left")), "cat": turn("stone", push("cat"))},
                },
                until=2,
            ),
            {"at": {"ann": 0, "bob": 0, "cat": 3}},
            'Seed: "The location of a crate will never move leftwards."',
            "Round 2: R = 1 < L = 3, so it stays at 3.",
        ),
    ),
)

POINTS = Section(
    "Points",
    (
        Case(
            "The seed's example: from 1 to 10 with a 2",
            "ann gives round 2 the 2; her crate reaches 1 in round 1 and moves 9 on ice in round 2.",
            match(
                "ann bob",
                {1: {"ann": turn("stone", push("ann"))}, 2: {"ann": turn("ice", push("ann", 3))}},
                {"ann": [0, 2, -1, -1, 1, 1]},
                until=2,
            ),
            {"at": {"ann": 10, "bob": 0}, "round_points": {"ann": 4, "bob": 0}},
            'Seed: "if a player starts at location 1, and moves 9 spaces to the right to location 10, then they '
            "crossed two multiples of 5. If they assigned a point multiplier of 2 for that round, then they would "
            'earn 4 points".',
            "1 -> 10 passes 5 and meets 10: 2 x 2 = 4.",
        ),
        Case(
            "Meeting a multiple of 5 counts",
            "ann gives round 1 a 1; ann and bob push her crate right 5 times in all, on stone.",
            match(
                "ann bob",
                {1: {"ann": turn("stone", push("ann", 3)), "bob": turn("stone", push("ann", 2))}},
                {"ann": [1, 2, 0, -1, -1, 1]},
                until=1,
            ),
            {"at": {"ann": 5, "bob": 0}, "round_points": {"ann": 1, "bob": 0}},
            'Seed: "For every multiple of 5 location that a player\'s crate crosses (or meets)".',
            "0 -> 5 meets 5: 1 x 1 = 1.",
        ),
        Case(
            "Starting on a multiple of 5 does not count it again",
            "As the case before, then in round 2 (her 2) ann moves from 5 to 8.",
            match(
                "ann bob",
                {
                    1: {"ann": turn("stone", push("ann", 3)), "bob": turn("stone", push("ann", 2))},
                    2: {"ann": turn("stone", push("ann", 3))},
                },
                {"ann": [1, 2, 0, -1, -1, 1]},
                until=2,
            ),
            {"at": {"ann": 8, "bob": 0}, "round_points": {"ann": 0, "bob": 0}},
            'RULINGS, Pushing Crates: "A round scores the number of multiples of 5 in (start, end]".',
            "(5, 8] holds no multiple of 5: 0 x 2 = 0.",
        ),
        Case(
            "Several multiples in one round",
            "ann gives round 1 the 2; ann, bob and cat push her crate right 7 times in all, on ice.",
            match(
                "ann bob cat",
                {
                    1: {
                        "ann": turn("ice", push("ann", 3)),
                        "bob": turn("stone", push("ann", 3)),
                        "cat": turn("stone", push("ann")),
                    }
                },
                {"ann": [2, 1, 1, 0, -1, -1]},
                until=1,
            ),
            {"at": {"ann": 21, "bob": 0, "cat": 0}, "round_points": {"ann": 8, "bob": 0, "cat": 0}},
            "Seed: \"For every multiple of 5 location that a player's crate crosses (or meets), that contributes "
            'a point ... multiplied by the assigned point multiplier".',
            "7 x 3 = 21; (0, 21] holds 5, 10, 15, 20: 4 x 2 = 8.",
        ),
        Case(
            "A -1 round takes points away",
            "Nobody sent multipliers (round 1 is -1); ann moves 9 on ice in round 1.",
            match("ann bob", {1: {"ann": turn("ice", push("ann", 3))}}, until=1),
            {"round_points": {"ann": -1, "bob": 0}, "told": {"ann": -1, "bob": 0}},
            'Seed: "This round point total is multiplied by the assigned point multiplier for that round".',
            "0 -> 9 passes 5: 1 x -1 = -1.",
        ),
        Case(
            "A 0 round scores nothing",
            "Nobody sent multipliers (round 3 is 0); ann moves 9 on ice in round 3.",
            match("ann bob", {3: {"ann": turn("ice", push("ann", 3))}}, until=3),
            {"at": {"ann": 9, "bob": 0}, "round_points": {"ann": 0, "bob": 0}},
            'Seed: "multiplied by the assigned point multiplier for that round".',
            "1 multiple x 0 = 0.",
        ),
    ),
)

INFORMATION = Section(
    "What is revealed",
    (
        Case(
            "Each location mod 5 to everyone, each total to its owner",
            "ann gives round 1 the 2 and moves 9 on ice; bob moves 3 on stone; cat sends nothing.",
            match(
                "ann bob cat",
                {1: {"ann": turn("ice", push("ann", 3)), "bob": turn("stone", push("bob", 3))}},
                {"ann": [2, 1, 1, 0, -1, -1]},
                until=1,
            ),
            {"reveal": {"ann": 4, "bob": 3, "cat": 0}, "told": {"ann": 2, "bob": 0, "cat": 0}},
            "Seed: \"At the end of each round, the remainder when each player's location is divided by 5 is "
            'revealed. In addition, each player is privately told their own score."',
            "ann at 9: 9 mod 5 = 4, 1 x 2 = 2 points; bob at 3: 3, 0 points; cat at 0: 0.",
        ),
    ),
)

RESULTS = Section(
    "Standings, lines and garnets",
    (
        Case(
            "Ranked by points; three ToL, two EC",
            "Six players; in round 6 five of them push their own crates; fay sends nothing.",
            SIX_PLAYERS,
            {
                "standings": ["1 ann 8", "2 bob 6", "3 cat 4", "4 dan 2", "5 eve 0", "6 fay 0"],
                "tol": ("ann", "bob", "cat"),
                "ec": ("eve", "fay"),
            },
            'Seed: "The top three players receive Tokens of Life, while the bottom two players are Elimination '
            'Candidates."',
            SIX_PLAYERS_WORKING,
        ),
        Case(
            "The second-to-last picks a Death Match opponent first",
            "The match of the case before.",
            SIX_PLAYERS,
            {"first_pick": "eve"},
            'Seed: "The player who is second to last will pick their Death Match Opponent first."',
            "eve is fifth of six (see the case before).",
        ),
        Case(
            "Garnets: a third of the points, rounded down",
            "The match of the case before.",
            SIX_PLAYERS,
            {"garnets": {"ann": 2, "bob": 2, "cat": 1, "dan": 0, "eve": 0, "fay": 0}},
            'Seed: "Players earn 1 Garnet for every three points they have at the end of the game, rounded down."',
            "8 // 3 = 2, 6 // 3 = 2, 4 // 3 = 1, 2 // 3 = 0, 0, 0.",
        ),
        Case(
            "A negative score earns no garnets",
            "Nobody sent multipliers; ann moves 9 on ice in round 1 (a -1 round) and never scores again.",
            match("ann bob", {1: {"ann": turn("ice", push("ann", 3))}}),
            {"standings": ["1 bob 0", "2 ann -1"], "garnets": {"ann": 0, "bob": 0}},
            'Seed: "If their score is negative, they earn 0 Garnets."',
            "ann: 1 x -1 = -1; bob 0. -1 would round down to -1 garnet: 0 instead.",
        ),
        Case(
            "Tied on points: further right at the end of round 6",
            "Nobody sent multipliers. bob moves 0 -> 9 on ice in round 4 (x1) and 9 -> 11 in round 5 (x1); "
            "ann moves 0 -> 9 on ice in round 6 (x2).",
            TIE_ON_SIX,
            {"standings": ["1 bob 2", "2 ann 2", "3 cat 0"]},
            'Seed: "the player who covered more distance (was more to the right at the end of round 6) wins the tie."',
            "bob: passes 5 in round 4 (1 x 1) and 10 in round 5 (1 x 1) = 2. ann: passes 5 in round 6, 1 x 2 = 2. "
            "Tied on 2; at the end of round 6 bob is at 11, ann at 9: bob first.",
        ),
        Case(
            "Three players: EC the bottom two, ToL the one left",
            "The match of the case before.",
            TIE_ON_SIX,
            {"tol": ("bob",), "ec": ("ann", "cat")},
            'RULINGS, Pushing Crates: "With fewer than 5 players: EC is the bottom min(2, n - 1), ToL the top '
            'min(3, n - EC count)."',
            "n = 3: EC min(2, 2) = 2 (ann, cat), ToL min(3, 3 - 2) = 1 (bob).",
        ),
        Case(
            "Tied at the end of round 6 too: round 5 decides",
            "Nobody sent multipliers. ann: round 5 0 -> 9 on ice, round 6 9 -> 10 on stone. bob: round 4 0 -> 3, "
            "round 5 3 -> 6, round 6 6 -> 10 (four pushes, one garnet), all on stone.",
            match(
                "ann bob cat",
                {
                    4: {"bob": turn("stone", push("bob", 3))},
                    5: {"ann": turn("ice", push("ann", 3)), "bob": turn("stone", push("bob", 3))},
                    6: {"ann": turn("stone", push("ann")), "bob": turn("stone", push("bob", 4))},
                },
            ),
            {"standings": ["1 ann 3", "2 bob 3", "3 cat 0"]},
            'Seed: "If this is a tie, then the player who covered more distance at the end of round 5 wins the tie. '
            'This continues in decreasing round order."',
            "ann: 5 in round 5 (x1) + 10 in round 6 (x2) = 3. bob: 5 in round 5 (x1) + 10 in round 6 (x2) = 3. "
            "Both at 10 after round 6; after round 5 ann is at 9, bob at 6: ann first.",
        ),
        Case(
            "Tied in every round: the lot",
            "ann and bob send nothing all match; cat moves 0 -> 9 on ice in round 6. The host set the lot "
            "bob, ann, cat (the service otherwise draws it with the match seed).",
            match("ann bob cat", {6: {"cat": turn("ice", push("cat", 3))}}, lot=["bob", "ann", "cat"]),
            {"standings": ["1 cat 2", "2 bob 0", "3 ann 0"], "lot_decided": True},
            'Seed: "In the event that the players covered the same distance in each round, the tie is broken '
            'randomly."; RULINGS: "then a lot drawn with the match seed (recorded in the event log)".',
            "cat: 1 x 2 = 2. ann and bob: 0 points, at 0 after every round; the lot puts bob before ann.",
        ),
        Case(
            "Two players: one EC, one ToL",
            "Nobody sent multipliers; ann moves 0 -> 9 on ice in round 6.",
            match("ann bob", {6: {"ann": turn("ice", push("ann", 3))}}),
            {"standings": ["1 ann 2", "2 bob 0"], "tol": ("ann",), "ec": ("bob",), "first_pick": None},
            'RULINGS, Pushing Crates: "With fewer than 5 players: EC is the bottom min(2, n - 1), ToL the top '
            'min(3, n - EC count)."',
            "n = 2: EC min(2, 1) = 1, ToL min(3, 2 - 1) = 1. With one EC there is no second-to-last to pick.",
        ),
        Case(
            "Four players: two EC, two ToL",
            "Nobody sent multipliers; in round 6 ann moves 0 -> 21, bob 0 -> 12, cat 0 -> 9, all on ice.",
            match(
                "ann bob cat dan",
                {
                    6: {
                        "ann": turn("ice", push("ann", 7)),
                        "bob": turn("ice", push("bob", 4)),
                        "cat": turn("ice", push("cat", 3)),
                    }
                },
            ),
            {"tol": ("ann", "bob"), "ec": ("cat", "dan"), "first_pick": "cat"},
            'RULINGS, Pushing Crates: "With fewer than 5 players: EC is the bottom min(2, n - 1), ToL the top '
            'min(3, n - EC count)."',
            "Points 4 x 2 = 8, 2 x 2 = 4, 1 x 2 = 2, 0. n = 4: EC min(2, 3) = 2, ToL min(3, 2) = 2; cat is "
            "second to last.",
        ),
    ),
)

BOOK = Book("crates", "CRATES", SEED, (MULTIPLIERS, PUSHES, GROUND, MOVEMENT, POINTS, INFORMATION, RESULTS), OBSERVE)
