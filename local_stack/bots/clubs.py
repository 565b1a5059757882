"""Puzzler's Clubs bot: plays from its own view and its own answers alone.

In a Phase A it asks for each puzzle, thinks a little (a wrong answer now and then), and answers
(`act`, through the match's immediate actions); it drafts six cards near its hole card and the
community card, clubs with its cheapest unused tokens. In a Phase B it builds its best hand from
the cards it may use (the service's rule for a missing hand) and guesses each other participant's
hand as their hole card with the community card.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import permutations, product
from typing import Any

from game_core.games.clubs.cards import DECK, best_hand, is_club, rank
from game_core.games.clubs.puzzles import differing_cells, haps
from game_core.games.protocol import OpenPhase

Send = Callable[[str, dict[str, Any]], dict[str, Any]]
"""Sends one immediate action and returns the answer (what the webhook replied)."""
Think = Callable[[float], None]
"""Lets the match's clock run on while the bot thinks (seconds)."""
WRONG_FIRST = 0.2


def solve(puzzle: dict[str, Any]) -> str:
    """The answer to a puzzle as sent: its data solved by brute force."""
    data = puzzle["data"]
    if puzzle["type"] == "gyul_hap":
        found = sorted("".join(map(str, sorted(triple))) for triple in haps([tuple(t) for t in data["tiles"]]))
        return " ".join([*found, "GYUL"])
    if puzzle["type"] == "target":
        return _reach(data["numbers"], data["target"])
    return " ".join(sorted(differing_cells(data["left"], data["right"])))


def _reach(numbers: list[int], target: int) -> str:
    """A left-to-right chain of + - * over some of the numbers that reaches the target (the
    puzzle is built as one)."""
    for size in range(1, len(numbers) + 1):
        for chosen in permutations(numbers, size):
            for operations in product("+-*", repeat=size - 1):
                value, text = chosen[0], str(chosen[0])
                for operation, number in zip(operations, chosen[1:], strict=True):
                    value = {"+": value + number, "-": value - number, "*": value * number}[operation]
                    text = f"({text}{operation}{number})"
                if value == target:
                    return text
    return "0"


def act(view: dict[str, Any], phase: OpenPhase, player: str, rng: random.Random, send: Send, think: Think) -> None:
    """Solve the round's three puzzles: ask, think, answer (now and then wrongly first)."""
    if view["public"]["round_a"] is None:  # no Phase A open: no puzzles
        return
    for number in (1, 2, 3):
        puzzle = send("puzzle", {"puzzle": number})
        if puzzle.get("solved"):
            continue
        think(rng.uniform(5, 60))
        if rng.random() < WRONG_FIRST:
            send("answer", {"puzzle": number, "answer": "GYUL" if puzzle["type"] != "gyul_hap" else "123 GYUL"})
            think(rng.uniform(5, 30))
        send("answer", {"puzzle": number, "answer": solve(puzzle)})


def choose(view: dict[str, Any], phase: OpenPhase, player: str, rng: random.Random) -> dict[str, dict[str, Any]]:
    public, private = view["public"], view.get("private", {})
    chosen: dict[str, dict[str, Any]] = {}
    if "draft" in phase.accepts:
        chosen["draft"] = _draft(public, private, player, rng)
    if "build" in phase.accepts:
        chosen["build"] = {"cards": best_hand(private["usable"])}
        chosen["guess"] = _guess(public, player)
    return chosen


def _draft(public: dict[str, Any], private: dict[str, Any], player: str, rng: random.Random) -> dict[str, Any]:
    shown = public["rounds"][public["round_a"] - 1]
    mine = [shown["community"], shown["holes"][player]]
    out = {shown["community"], *shown["holes"].values()}
    tokens = sorted(
        (value, token) for token, value in private.get("tokens", {}).items() if token not in private["used_tokens"]
    )
    # Cards that pair what I hold, then high cards; clubs only while I have tokens for them.
    wanted = [card for card in DECK if card not in out and any(rank(card) == rank(m) for m in mine)]
    wanted += sorted((card for card in DECK if card not in out and card not in wanted), key=rank, reverse=True)
    picks: list[dict[str, Any]] = []
    spare = list(tokens)
    for card in wanted:
        if len(picks) == 6:
            break
        if is_club(card):
            if not spare or rng.random() < 0.5:
                continue
            picks.append({"card": card, "token": spare.pop(0)[1]})
        else:
            picks.append({"card": card})
    priorities = list(range(1, 7))
    rng.shuffle(priorities[2:])
    return {"picks": [pick | {"priority": p} for pick, p in zip(picks, sorted(priorities), strict=True)]}


def _guess(public: dict[str, Any], player: str) -> dict[str, Any]:
    shown = public["rounds"][public["round_b"] - 1]
    others = [p for team in public["teams"] for p in (team["player"], team["guest"]) if p != player]
    guesses = []
    for other in others:
        hole = shown["holes"][other]
        pair = [c for c in DECK if rank(c) == rank(hole) and c not in (hole, shown["community"])][:1]
        guesses.append({"participant": other, "cards": [hole, shown["community"], *pair]})
    return {"guesses": guesses}
