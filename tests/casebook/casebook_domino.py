"""Domino Auction's case book: every rule of the seed, its clarifications and every ruling, each
case worked by hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook_support import Attempt, Book, Case, Phase, Play, Section, creation, garnets_of, standings_of

SEED = "004_b4daeb01e3f72c4b.txt"
TILES = [
    *("O4", "I3", "L4", "I5", "V5", "O4", "L3", "T4", "S4", "P5"),
    *("U5", "W5", "X5", "Y5", "Z5", "F5", "N5", "T5", "L5", "I4"),
]
"""Every round's 20 tiles as the host sets them in these cases: round 1 offers tiles 1-20 (1 an O4,
2 an I3, 3 an L4, 5 a V5, 6 an O4, 7 an L3), round 2 tiles 21-40 in the same shapes, round 3 41-60."""
SETTINGS = {"tiles": {1: TILES, 2: TILES, 3: TILES}}
O4_CORNER = "A1 B1 A2 B2"
"""A 2x2 square in the grid's top-left corner (columns A-L, rows 1-12)."""
V5_AROUND_O4 = "C1 C2 C3 B3 A3"
"""A V5 (an L of 3 + 3 sharing its corner) closing O4_CORNER into the 3x3 square A1-C3."""


def bids(**chips: int) -> dict[str, Any]:
    """A bid submission from `t<tile>=<chips>` keywords."""
    return {"bid": {"bids": [{"tile": int(tile[1:]), "chips": amount} for tile, amount in chips.items()]}}


def place(*placements: tuple[int | str, str]) -> dict[str, Any]:
    """A place submission from (tile, or "square", and its cells) pairs."""
    return {"place": {"placements": [{"tile": tile, "cells": cells.split()} for tile, cells in placements]}}


def match(*phases: Mapping[str, Any], players: str = "ann bob cat", attempt: Attempt | None = None) -> Play:
    """The host's tiles; `phases` in order: auction 1, auction 2 and placing 1, auction 3 and
    placing 2, placing 3 (each player -> their submissions, merged)."""
    said = "the host's tiles, the same shapes each round: " + ", ".join(
        f"{n} {t}" for n, t in enumerate(TILES, start=1)
    )
    return Play(tuple(players.split()), tuple(Phase(phase) for phase in phases), SETTINGS, attempt, settings_said=said)


def _last_auction(game, outcome) -> dict[int, str]:
    """Each tile of the last auction someone won, as announced to everyone."""
    last = len(outcome.state.auctions)
    tiles = game.view(outcome.state, None)["public"]["tiles"]
    return {t["tile"]: t["won_by"] for t in tiles if t["round"] == last and t["won_by"] is not None}


def _shown(tiles: list[dict[str, Any]]) -> dict[str, Any]:
    return {"count": len(tiles), "tile 21": tiles[20]["shape"], "tile 60": tiles[59]["shape"]}


def _ends(game, outcome) -> dict[str, str]:
    details = outcome.result(game).details
    return {
        p: f"side {d['side']}, chips left {d['chips_left']}, cells outside {d['outside']}" for p, d in details.items()
    }


OBSERVE = {
    "won": ("tiles won in the last auction (tile winner; any other: nobody)", _last_auction),
    "spent": ("announced: chips each spent that round", lambda game, o: o.state.auctions[-1].spent),
    "chips_left": ("chips left", lambda game, o: game.view(o.state, None)["public"]["chips_left"]),
    "boards": (
        "each board's cells, as revealed to everyone",
        lambda game, o: {
            p: [cell for piece in pieces for cell in piece["cells"]]
            for p, pieces in game.view(o.state, None)["public"]["boards"].items()
        },
    ),
    "shown": (
        "tiles shown to everyone",
        lambda game, o: _shown(game.view(o.state, None)["public"]["tiles"]),
    ),
    "forfeited": ("tiles forfeited", lambda game, o: dict(o.state.forfeited)),
    "public_auction": (
        "what everyone sees of the auction",
        lambda game, o: game.view(o.state, None)["public"]["auctions"][-1],
    ),
    "ends": ("each one's end", _ends),
    "standings": (
        "standings (place, player, side)",
        standings_of,
    ),
    "tol": ("Tokens of Life", lambda game, o: o.result(game).tol_awarded),
    "ec": ("Elimination Candidate", lambda game, o: list(o.result(game).ec)),
    "host_decides": (
        "ties the host decides",
        lambda game, o: [line.to_json() for line in o.result(game).tied_lines],
    ),
    "garnets": ("garnets earned", garnets_of),
}

AUCTION = Section(
    "The auction",
    (
        Case(
            "All 60 tiles are shown at the start",
            "The host sets the same 20 shapes for each of the three rounds.",
            match(),
            {"shown": {"count": 60, "tile 21": "O4", "tile 60": "I4"}},
            'Seed: "Each round, 20 domino tiles will be brought up for auction. ... All tiles for auctions will be '
            'shown in advance."',
            "Round 2 offers tiles 21-40 (21 is its first, an O4), round 3 41-60 (60 its last, an I4).",
        ),
        Case(
            "Tiles of no known shape",
            "The host sets round 1's tiles to 20 of a shape named Q9.",
            creation("domino", "ann bob", tiles={1: ["Q9"] * 20}),
            {"refused": ["value_error"]},
            'RULINGS, Domino: "Tiles are polyominoes of 3 to 5 cells."',
            "Q9 is none of the 19 shapes of 3 to 5 cells.",
        ),
        Case(
            "The highest bid wins; every chip bid is spent",
            "ann bids 10 on tile 1, bob 5.",
            match({"ann": bids(t1=10), "bob": bids(t1=5)}),
            {
                "won": {1: "ann"},
                "spent": {"ann": 10, "bob": 5, "cat": 0},
                "chips_left": {"ann": 290, "bob": 295, "cat": 300},
            },
            'Seed: "For every tile, the highest bidder will take the tile ... All chips used will be spent, regardless '
            'of whether you won the tile or not."',
            "10 > 5: ann. bob's 5 are spent too: 300 - 10 = 290, 300 - 5 = 295.",
        ),
        Case(
            "A tied top falls to the next amount",
            "ann and bob bid 10 on tile 1; cat bids 7.",
            match({"ann": bids(t1=10), "bob": bids(t1=10), "cat": bids(t1=7)}),
            {"won": {1: "cat"}, "spent": {"ann": 10, "bob": 10, "cat": 7}},
            'Seed: "the next highest winning on ties"; RULINGS: "a tied top falls to the next distinct amount, and '
            'so on".',
            "10 is bid twice and falls; 7 is bid once: cat.",
        ),
        Case(
            "Every amount tied: nobody",
            "ann and bob bid 5 on tile 2.",
            match({"ann": bids(t2=5), "bob": bids(t2=5)}),
            {"won": {}, "spent": {"ann": 5, "bob": 5, "cat": 0}},
            'RULINGS, Domino: "with no such amount, nobody gets it."',
            "5 is the only amount and it is bid twice; both still spend it.",
        ),
        Case(
            "Zero is no bid",
            "ann bids 0 on tile 3; nobody else bids on it.",
            match({"ann": bids(t3=0)}),
            {"won": {}, "spent": {"ann": 0, "bob": 0, "cat": 0}},
            'RULINGS, Domino: "zero is no bid".',
            "No amount above zero is on tile 3.",
        ),
        Case(
            "No bid sent: no bids",
            "ann sends nothing; bob bids 1 on tile 1.",
            match({"bob": bids(t1=1)}),
            {"won": {1: "bob"}, "spent": {"ann": 0, "bob": 1, "cat": 0}},
            'RULINGS, Everywhere: "No submission means exactly what each game\'s text says"; Domino: "zero is no bid".',
            "ann bids on nothing and spends nothing; bob's 1 is the only bid on tile 1.",
        ),
        Case(
            "More chips than are left",
            "In auction 1 ann bids 301 in all.",
            match(attempt=Attempt("ann", "bid", {"bids": [{"tile": 1, "chips": 300}, {"tile": 2, "chips": 1}]})),
            {"refused": ["chips_short"]},
            'Seed: "as long as you have the sufficient bidding chips there is no limit to how much you can bid on each '
            'shape."',
            "300 + 1 = 301 > 300.",
        ),
        Case(
            "Chips last the whole match",
            "ann spent 200 in auction 1; in auction 2 she bids 101.",
            match({"ann": bids(t1=200)}, attempt=Attempt("ann", "bid", {"bids": [{"tile": 21, "chips": 101}]})),
            {"refused": ["chips_short"]},
            'Seed: "Players will have a total of 300 bidding chips that will persist the entire game."',
            "300 - 200 = 100 left, and 101 > 100.",
        ),
        Case(
            "A tile of another round",
            "In auction 1 ann bids on tile 21, which auction 2 offers.",
            match(attempt=Attempt("ann", "bid", {"bids": [{"tile": 21, "chips": 1}]})),
            {"refused": ["tile_not_offered"]},
            'Seed: "Each round, 20 domino tiles will be brought up for auction."',
            "Auction 1 offers tiles 1 to 20.",
        ),
        Case(
            "What the auction reveals",
            "ann bids 10 on tile 1 and 4 on tile 2; bob 5 on tile 1.",
            match({"ann": bids(t1=10, t2=4), "bob": bids(t1=5)}),
            {"public_auction": {"round": 1, "spent": {"ann": 14, "bob": 5, "cat": 0}}, "won": {1: "ann", 2: "ann"}},
            'Seed: "After everyone bids, only who won which tile and the total amount of chips spent that round will '
            'be revealed."',
            "Everyone sees each tile's winner and the totals 10 + 4 = 14 and 5, never the bids on each tile.",
        ),
    ),
)

PLACING = Section(
    "Placing",
    (
        Case(
            "The first tile goes anywhere on the grid",
            "ann won tile 1 (an O4) in auction 1 and places it in the corner.",
            match({"ann": bids(t1=1)}, {"ann": place((1, O4_CORNER))}),
            {
                "boards": {"ann": ["A1", "B1", "A2", "B2"], "bob": [], "cat": []},
                "forfeited": {"ann": [], "bob": [], "cat": []},
            },
            'Seed: "Players must also place all of their dominoes 1 round after they win them."',
            "The 2x2 is an O4; nothing of ann's is there yet.",
        ),
        Case(
            "Turned and reflected, in the order listed",
            "ann won tiles 3 (an L4) and 7 (an L3); she places the L4 mirrored and on its side, then the L3 "
            "touching it.",
            match({"ann": bids(t3=1, t7=1)}, {"ann": place((3, "A1 B1 C1 A2"), (7, "D1 D2 C2"))}),
            {"boards": {"ann": ["A1", "B1", "C1", "A2", "D1", "D2", "C2"], "bob": [], "cat": []}},
            "RULINGS, Domino: \"must all be placed in the next round's submission (rotations and reflections allowed), "
            'in the order listed".',
            "A1 B1 C1 over A2 is an L of four; D1 D2 C2 is an L of three touching C1 and D1.",
        ),
        Case(
            "Cells that are not the tile's shape",
            "ann won tile 1 (an O4) and places it as a line of four.",
            match(
                {"ann": bids(t1=1)},
                attempt=Attempt("ann", "place", {"placements": [{"tile": 1, "cells": ["A1", "B1", "C1", "D1"]}]}),
            ),
            {"refused": ["wrong_shape"]},
            'RULINGS, Domino: "Tiles won in a round must all be placed ... (rotations and reflections allowed)".',
            "A1-D1 is an I4, not an O4.",
        ),
        Case(
            "Off the grid",
            "ann won tile 2 (an I3) and places it on K12, L12 and M12.",
            match(
                {"ann": bids(t2=1)},
                attempt=Attempt("ann", "place", {"placements": [{"tile": 2, "cells": ["K12", "L12", "M12"]}]}),
            ),
            {"refused": ["outside_grid"]},
            'Seed: "The game will take place on an individual 12x12 Square grid."; RULINGS: "inside the grid".',
            "Columns run A to L: M12 is off the grid.",
        ),
        Case(
            "On one's own covered cell",
            "ann won tiles 1 (an O4) and 2 (an I3); the I3 lies across the O4.",
            match(
                {"ann": bids(t1=1, t2=1)},
                attempt=Attempt(
                    "ann",
                    "place",
                    {"placements": [{"tile": 1, "cells": O4_CORNER.split()}, {"tile": 2, "cells": ["B2", "C2", "D2"]}]},
                ),
            ),
            {"refused": ["cell_covered"]},
            'Seed: "The only restriction to placing is that it cannot overlap your own tiles".',
            "B2 is the O4's.",
        ),
        Case(
            "Apart from one's other cells",
            "ann won tiles 1 (an O4) and 2 (an I3); the I3 lies away from the O4.",
            match(
                {"ann": bids(t1=1, t2=1)},
                attempt=Attempt(
                    "ann",
                    "place",
                    {"placements": [{"tile": 1, "cells": O4_CORNER.split()}, {"tile": 2, "cells": ["E5", "F5", "G5"]}]},
                ),
            ),
            {"refused": ["not_connected"]},
            'Seed: "it must be orthogonally connected to one of your tiles after the first one is placed."',
            "E5-G5 touches no cell of A1-B2.",
        ),
        Case(
            "Another player's cells do not count",
            "ann and bob each won an O4 (tiles 1 and 6) and both place it in the same corner of their own grids.",
            match({"ann": bids(t1=1), "bob": bids(t6=1)}, {"ann": place((1, O4_CORNER)), "bob": place((6, O4_CORNER))}),
            {"boards": {"ann": ["A1", "B1", "A2", "B2"], "bob": ["A1", "B1", "A2", "B2"], "cat": []}},
            'Seed: "The game will take place on an individual 12x12 Square grid."',
            "Each board is its owner's alone.",
        ),
        Case(
            "A tile left out is forfeited",
            "ann won tiles 1 and 2; she places only tile 1.",
            match({"ann": bids(t1=1, t2=1)}, {"ann": place((1, O4_CORNER))}),
            {
                "boards": {"ann": ["A1", "B1", "A2", "B2"], "bob": [], "cat": []},
                "forfeited": {"ann": [2], "bob": [], "cat": []},
            },
            'RULINGS, Domino: "a tile not placed by a submission is forfeited".',
            "Tile 2 is gone for good.",
        ),
        Case(
            "No placing sent: every tile forfeited",
            "ann won tiles 1 and 2 and sends nothing in the next phase.",
            match({"ann": bids(t1=1, t2=1)}, {}),
            {"boards": {"ann": [], "bob": [], "cat": []}, "forfeited": {"ann": [1, 2], "bob": [], "cat": []}},
            'RULINGS, Domino: "A tile with no legal place is forfeited; a tile not placed by a submission is '
            'forfeited."',
            "Nothing placed: both are lost.",
        ),
        Case(
            "Only the last auction's tiles",
            "ann won tile 1 in auction 1 and did not place it; in auction 3's phase she places it.",
            match(
                {"ann": bids(t1=1)},
                {},
                attempt=Attempt("ann", "place", {"placements": [{"tile": 1, "cells": O4_CORNER.split()}]}),
            ),
            {"refused": ["tile_not_held"]},
            'Seed: "Players must also place all of their dominoes 1 round after they win them."',
            "Placing 2 places auction 2's tiles; tile 1 was forfeited in placing 1.",
        ),
        Case(
            "A 1x1 square for 2 garnets",
            "ann won tile 1 and places it with a square beside it.",
            match(
                {"ann": bids(t1=1)},
                attempt=Attempt(
                    "ann",
                    "place",
                    {"placements": [{"tile": 1, "cells": O4_CORNER.split()}, {"tile": "square", "cells": ["C1"]}]},
                ),
            ),
            {"refused": [], "cost": 2},
            'Seed: "Players can buy a 1x1 square for 2 garnets, up to three times in the entire game."',
            "One square: 2 garnets.",
        ),
        Case(
            "A square without the garnets",
            "ann holds 1 garnet and places a square.",
            match(
                {}, attempt=Attempt("ann", "place", {"placements": [{"tile": "square", "cells": ["A1"]}]}, garnets=1)
            ),
            {"refused": ["garnets_short"]},
            'RULINGS, Everywhere: "a submission that spends more than the balance is refused".',
            "2 > 1.",
        ),
        Case(
            "A square is placed the same way",
            "ann won tile 1 and places it in the corner, then a square away from it.",
            match(
                {"ann": bids(t1=1)},
                attempt=Attempt(
                    "ann",
                    "place",
                    {"placements": [{"tile": 1, "cells": O4_CORNER.split()}, {"tile": "square", "cells": ["L12"]}]},
                ),
            ),
            {"refused": ["not_connected"]},
            'RULINGS, Domino: "Up to three 1x1 squares a match, 2 garnets each, placed the same way."',
            "L12 touches none of A1-B2.",
        ),
        Case(
            "A fourth square",
            "ann placed three squares in placing 1 and places another in placing 2.",
            match(
                {},
                {"ann": place(("square", "A1"), ("square", "B1"), ("square", "C1"))},
                attempt=Attempt("ann", "place", {"placements": [{"tile": "square", "cells": ["D1"]}]}),
            ),
            {"refused": ["squares_used_up"]},
            'Seed: "up to three times in the entire game."',
            "Three were bought already.",
        ),
    ),
)

FINISHED_3X3 = match(
    {"ann": bids(t1=1, t5=1), "bob": bids(t6=1)},
    {"ann": place((1, O4_CORNER), (5, V5_AROUND_O4)), "bob": place((6, O4_CORNER))},
    {},
    {},
)

RESULTS = Section(
    "Results",
    (
        Case(
            "The largest fully covered square: 2 ToL, EC, garnets 2k",
            "ann closes a 3x3 with an O4 and a V5; bob places an O4; cat places nothing.",
            FINISHED_3X3,
            {
                "standings": ["1 ann 3", "2 bob 2", "3 cat 0"],
                "tol": {"ann": 2},
                "ec": ["cat"],
                "host_decides": [],
                "garnets": {"ann": 6, "bob": 4, "cat": 0},
            },
            'Seed: "The player with the biggest square pattern will win the main match and win 2 TOLs, and the player '
            'with the smallest square will become EC." and "Players will earn garnets equal to 2x the side length".',
            "ann covers A1-C3: 3. bob A1-B2: 2. cat nothing: 0. Garnets 2 x 3, 2 x 2, 0.",
        ),
        Case(
            "Cells outside the square",
            "The match of the case before.",
            FINISHED_3X3,
            {
                "ends": {
                    "ann": "side 3, chips left 298, cells outside 0",
                    "bob": "side 2, chips left 299, cells outside 0",
                    "cat": "side 0, chips left 300, cells outside 0",
                }
            },
            'RULINGS, Domino: "The largest k with a fully covered k x k square."',
            "ann spent 2 chips, bob 1; every covered cell is inside the square.",
        ),
        Case(
            "Tied on the square: more chips left",
            "ann and bob each place an O4; ann paid 1 chip for hers, bob 5.",
            match(
                {"ann": bids(t1=1), "bob": bids(t6=5)},
                {"ann": place((1, O4_CORNER)), "bob": place((6, O4_CORNER))},
                {},
                {},
            ),
            {"standings": ["1 ann 2", "2 bob 2", "3 cat 0"], "tol": {"ann": 2}, "ec": ["cat"]},
            'Seed: "The ECs are tiebroken by remaining chips." and "CLARIFICATION: The EC tiebreaker (chips -> '
            'remaining tiles outside biggest square) also applies to winners."',
            "Both 2x2; ann has 299 chips left, bob 295.",
        ),
        Case(
            "Tied on square and chips: fewer cells outside",
            "ann and bob each place an O4 for 1 chip; bob also places a square beside his.",
            match(
                {"ann": bids(t1=1), "bob": bids(t6=1)},
                {"ann": place((1, O4_CORNER)), "bob": place((6, O4_CORNER), ("square", "C1"))},
                {},
                {},
            ),
            {"standings": ["1 ann 2", "2 bob 2", "3 cat 0"], "tol": {"ann": 2}},
            'Seed: "If the chips are tied, the player with the smaller amount of squares that are NOT in the square '
            'pattern will win."',
            "Both 2x2 with 299 chips; bob's C1 lies outside his square (1 cell), ann has none outside.",
        ),
        Case(
            "Tied on everything at the top: the host decides",
            "ann and bob each place an O4 for 1 chip; cat places nothing.",
            match(
                {"ann": bids(t1=1), "bob": bids(t6=1)},
                {"ann": place((1, O4_CORNER)), "bob": place((6, O4_CORNER))},
                {},
                {},
            ),
            {
                "standings": ["1 ann 2", "1 bob 2", "3 cat 0"],
                "tol": {},
                "ec": ["cat"],
                "host_decides": [{"line": "tol", "players": ["ann", "bob"], "places": 1, "award": 2}],
            },
            'RULINGS, Everywhere: "A tie that every tie-break of the game leaves standing is reported as a tie with '
            "all its names; when it decides a ToL or an EC place, the result names the tied players and the host "
            'decides".',
            "Side 2, 299 chips, 0 outside each: the host gives the 2 ToL to one of them.",
        ),
        Case(
            "Tied at the bottom: the host decides",
            "ann places an O4; bob and cat place nothing and bid nothing.",
            match({"ann": bids(t1=1)}, {"ann": place((1, O4_CORNER))}, {}, {}),
            {
                "tol": {"ann": 2},
                "ec": [],
                "host_decides": [{"line": "ec", "players": ["bob", "cat"], "places": 1, "award": 1}],
                "garnets": {"ann": 4, "bob": 0, "cat": 0},
            },
            'Seed: "the player with the smallest square will become EC."; RULINGS, Everywhere: "the result names the '
            'tied players and the host decides".',
            "bob and cat: side 0, 300 chips, 0 outside.",
        ),
        Case(
            "Everyone tied: no EC",
            "Nobody bids or places anything all match.",
            match({}, {}, {}, {}),
            {
                "tol": {},
                "ec": [],
                "host_decides": [{"line": "tol", "players": ["ann", "bob", "cat"], "places": 1, "award": 2}],
            },
            'RULINGS, Everywhere: "(with everyone tied, no EC is named)".',
            "All three: side 0, 300 chips, 0 outside.",
        ),
        Case(
            "An L is not a square",
            "ann places an L3 (three cells of a 2x2); bob and cat place nothing.",
            match({"ann": bids(t7=1)}, {"ann": place((7, "A1 A2 B2"))}, {}, {}),
            {
                "ends": {
                    "ann": "side 1, chips left 299, cells outside 2",
                    "bob": "side 0, chips left 300, cells outside 0",
                    "cat": "side 0, chips left 300, cells outside 0",
                },
                "garnets": {"ann": 2, "bob": 0, "cat": 0},
            },
            'RULINGS, Domino: "The largest k with a fully covered k x k square."',
            "B1 is not covered, so no 2x2; any one cell is a 1x1, and the other two lie outside it.",
        ),
    ),
)

BOOK = Book("domino", "DOMINO", SEED, (AUCTION, PLACING, RESULTS), OBSERVE)
