"""Puzzler's Clubs bot: plays from its own view and its own answers alone.

In a Phase A it asks for each puzzle, thinks a little on the match clock (a wrong answer now and
then), and answers (`act`, through the match's immediate actions); with garnets free, now and then
a player gives some to their guest, and a guest peeks and gives the rest back. It drafts six cards
near its hole card and the community card, clubs with its cheapest unused tokens. In a Phase B it
builds its best hand from the cards it may use (the service's rule for a missing hand) and guesses
each other participant's hand as their hole card with the community card.
"""

from __future__ import annotations

import random
from functools import cache, reduce
from itertools import permutations, product
from operator import add, mul, sub
from typing import Any

from game_core.games.clubs.cards import DECK, best_hand, is_club, rank
from game_core.games.clubs.puzzles import differing_cells, haps
from game_core.games.protocol import OpenPhase
from local_stack.bots import Acting

WRONG_FIRST = 0.2
MOVES_GARNETS = 0.5
"""How often a bot moves garnets in a phase (when it has any free)."""


def solve(puzzle: dict[str, Any]) -> str:
    """The answer to a puzzle as sent: its data solved by brute force."""
    data = puzzle["data"]
    if puzzle["type"] == "gyul_hap":
        found = sorted("".join(map(str, sorted(triple))) for triple in haps([tuple(t) for t in data["tiles"]]))
        return " ".join([*found, "GYUL"])
    if puzzle["type"] == "target":
        return _reach(tuple(data["numbers"]), data["target"])
    return " ".join(sorted(differing_cells(data["left"], data["right"])))


OPERATIONS = {"+": add, "-": sub, "*": mul}


@cache
def _reach(numbers: tuple[int, ...], target: int) -> str:
    """A left-to-right chain of + - * over some of the numbers that reaches the target (the
    puzzle is built as one). Every participant solves the same puzzles: each is searched once."""
    for size in range(1, len(numbers) + 1):
        for chosen in permutations(numbers, size):
            for operations in product("+-*", repeat=size - 1):
                steps = list(zip(operations, chosen[1:], strict=True))
                if reduce(lambda value, step: OPERATIONS[step[0]](value, step[1]), steps, chosen[0]) == target:
                    return reduce(lambda text, step: f"({text}{step[0]}{step[1]})", steps, str(chosen[0]))
    return "0"


def act(view: dict[str, Any], phase: OpenPhase, player: str, rng: random.Random, acting: Acting) -> None:
    """Solve the round's three puzzles: ask, think, answer (now and then wrongly first); then move
    garnets now and then (`move_garnets`)."""
    public = view["public"]
    if public["round_a"] is not None:  # a Phase A is open: its puzzles
        for number in (1, 2, 3):
            puzzle = acting.send("puzzle", {"puzzle": number})
            if puzzle.get("solved"):
                continue
            acting.think(rng.uniform(5, 60))
            if rng.random() < WRONG_FIRST:
                wrong = "GYUL" if puzzle["type"] != "gyul_hap" else "123 GYUL"
                acting.send("answer", {"puzzle": number, "answer": wrong})
                acting.think(rng.uniform(5, 30))
            acting.send("answer", {"puzzle": number, "answer": solve(puzzle)})
    if rng.random() < MOVES_GARNETS:
        move_garnets(public, player, rng, acting)


def move_garnets(public: dict[str, Any], player: str, rng: random.Random, acting: Acting) -> None:
    """Only with garnets free (its standing says): a player gives some to their guest; a guest
    peeks at another participant's tokens of a round already puzzled (1 garnet), then gives
    what is left back to their player."""
    free = int(acting.standing()["garnets"]["available"])
    if not free:
        return
    teams = {team["guest"]: team["player"] for team in public["teams"]}
    if player not in teams:
        acting.send(
            "transfer", {"to": next(g for g, p in teams.items() if p == player), "garnets": rng.randint(1, free)}
        )
        return
    puzzled = public["round_a"] - 1 if public["round_a"] is not None else public["round_b"]
    if puzzled:
        others = [p for pair in teams.items() for p in pair if p != player]
        acting.send("peek", {"participant": rng.choice(others), "round": rng.randint(1, puzzled)})
        free -= 1
    if free:
        acting.send("transfer", {"to": teams[player], "garnets": free})


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
