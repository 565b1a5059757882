"""The rules of Palindrome Construction as pure functions: the phases of each rule set, drawing a
round, resolving bids and constructions, and the result.

Bids are judged and resolved in `bidding.py`, constructions step by step in `construction.py`
(with `items.py` and `workbench.py`), strings scored in `scoring.py`, packs and items drawn in
`packs.py`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game_core.games.palindrome.bidding import resolve_items, resolve_packs
from game_core.games.palindrome.construction import Construction, run
from game_core.games.palindrome.models import (
    BID,
    CONSTRUCTION,
    Bid,
    OwnedItem,
    PalindromeState,
    RoundBid,
    RoundConstruction,
    RoundState,
    Seat,
)
from game_core.games.palindrome.packs import draw_items, draw_packs, fixed_later_in_pass, take_fixed_items
from game_core.games.palindrome.rule_sets import RuleSet
from game_core.games.palindrome.scoring import StringScore, score_all
from game_core.games.palindrome.workbench import Bench
from game_core.games.protocol import PhaseKind, Result, TiedLine
from game_core.games.standings import best_and_worst, standings


@dataclass(frozen=True)
class PhaseSpec:
    kind: PhaseKind
    bid_round: int | None = None
    construction_round: int | None = None
    opens_round: int | None = None
    """The round whose packs and items are drawn and announced when this phase resolves."""


def schedule(rules: RuleSet) -> tuple[PhaseSpec, ...]:
    """mm8: Pregame, Round 1 bidding, Round 2 bidding and round 1 construction, ..., Round 7
    construction. mm5: the same without the pregame, over five rounds."""
    specs = []
    if rules.pregame:
        specs.append(PhaseSpec(PhaseKind("Pregame", ()), opens_round=1))
    specs.append(PhaseSpec(PhaseKind("Round 1 bidding", (BID,)), bid_round=1, opens_round=2))
    for r in range(2, rules.rounds + 1):
        specs.append(
            PhaseSpec(
                PhaseKind(f"Round {r} bidding and round {r - 1} construction", (BID, CONSTRUCTION)),
                bid_round=r,
                construction_round=r - 1,
                opens_round=r + 1 if r < rules.rounds else None,
            )
        )
    specs.append(
        PhaseSpec(PhaseKind(f"Round {rules.rounds} construction", (CONSTRUCTION,)), construction_round=rules.rounds)
    )
    return tuple(specs)


def current(state: PalindromeState) -> PhaseSpec | None:
    """The phase the state waits on; None when the match is over."""
    specs = schedule(state.settings.rules)
    return specs[state.phase] if state.phase < len(specs) else None


def owed(state: PalindromeState, spec: PhaseSpec, player: str) -> tuple[str, ...]:
    """What the phase waits for from the player: a bid in every bidding phase (a player always
    holds cards 0-9), a construction only when they received a pack in the round it builds (they
    then have digits to place; who received each pack is public). Digits kept by a Keep, or items
    to use, let a player construct without owing it: whether they kept any is their secret."""
    owes: tuple[str, ...] = (BID,) if spec.bid_round is not None else ()
    built = spec.construction_round
    if built is not None and player in (state.rounds[built - 1].pack_winners or ()):
        owes += (CONSTRUCTION,)
    return owes


def open_round(state: PalindromeState, number: int, rng: random.Random) -> None:
    """Draw (or take the host's) packs and items of round `number` into `state`."""
    settings = state.settings
    rules = settings.rules
    packs = list(settings.packs[number]) if number in settings.packs else draw_packs(rules, rng)
    if number in settings.items:
        items = list(settings.items[number])
        pool = take_fixed_items(state.item_pool, items)
    else:
        reserved = fixed_later_in_pass(rules, settings.items, number)
        items, pool = draw_items(state.item_pool, rules.items_per_round, rng, reserved)
    state.item_pool = pool
    state.rounds.append(RoundState(round=number, packs=packs, items=items))


def bench(state: PalindromeState, player: str) -> Bench:
    """The player's position for a construction: strings, the round's digits, unused items."""
    seat = state.seats[player]
    usable = [item.name for item in seat.items if item.used_in_round is None]
    return Bench.start(seat.strings, seat.digits, usable)


def fresh_copy(state: PalindromeState) -> PalindromeState:
    """A copy that a resolution may change without changing `state` (no deep copy): new seats
    with new lists, a new list of rounds; what is inside them (items, rounds, bids, records) is
    shared and replaced, never changed, where a phase changes it."""
    seats = {
        player: seat.model_copy(
            update={
                "strings": list(seat.strings),
                "items": list(seat.items),
                "bids": list(seat.bids),
                "constructions": list(seat.constructions),
            }
        )
        for player, seat in state.seats.items()
    }
    return state.model_copy(update={"seats": seats, "rounds": list(state.rounds)})


def resolve(
    state: PalindromeState,
    bids: Mapping[str, Bid | None],
    constructions: Mapping[str, Construction | None],
    rng: random.Random,
) -> PalindromeState:
    """The open phase with each player's bid and construction (None: nothing sent, so no cards
    on anything and every digit lost): constructions first, then bids, then the next round is
    drawn; the final strings are scored when the last phase resolves."""
    spec = current(state)
    if spec is None:
        raise ValueError("the match is over; there is no phase to resolve")
    state = fresh_copy(state)
    if spec.construction_round is not None:
        construct(state, spec.construction_round, constructions)
    if spec.bid_round is not None:
        bid(state, spec.bid_round, bids)
    if spec.opens_round is not None:
        open_round(state, spec.opens_round, rng)
    state.phase += 1
    if current(state) is None:
        state.final = score_all({p: list(state.seats[p].strings) for p in state.players})
    return state


def construct(state: PalindromeState, number: int, constructions: Mapping[str, Construction | None]) -> None:
    last = number == state.settings.rules.rounds
    for player in state.players:
        seat = state.seats[player]
        construction = constructions[player]
        worked = bench(state, player)
        if construction is not None:
            run(worked, construction.steps)  # checked legal by the match layer
        leftover = "".join(worked.pool)
        kept = leftover if worked.keep and not last else ""
        _mark_used(seat, worked.used, number)
        seat.constructions.append(
            RoundConstruction(
                round=number,
                construction=construction,
                digits=seat.digits,
                discarded="" if kept else leftover,
                kept=kept,
            )
        )
        seat.strings = worked.strings
        seat.digits = kept


def _mark_used(seat: Seat, used: list[str], number: int) -> None:
    for name in used:
        index = next(k for k, i in enumerate(seat.items) if i.name == name and i.used_in_round is None)
        seat.items[index] = seat.items[index].model_copy(update={"used_in_round": number})


def bid(state: PalindromeState, number: int, sent: Mapping[str, Bid | None]) -> None:
    rules = state.settings.rules
    bids: dict[str, Bid] = {}
    for player in state.players:
        chosen = sent[player]
        state.seats[player].bids.append(RoundBid(round=number, bid=chosen))
        if chosen is not None:
            bids[player] = chosen
            state.seats[player].garnets_spent += chosen.garnets
    drawn = state.rounds[number - 1]
    pack_winners, item_winners = resolve_packs(rules, bids), resolve_items(rules, bids)
    state.rounds[number - 1] = drawn.model_copy(update={"pack_winners": pack_winners, "item_winners": item_winners})
    for pack, winner in zip(drawn.packs, pack_winners, strict=True):
        if winner is not None:
            state.seats[winner].digits += pack
    for item, winner in zip(drawn.items, item_winners, strict=True):
        if winner is not None:
            state.seats[winner].items.append(OwnedItem(name=item, round=number))


def garnet_award(score: int, winning: int, is_winner: bool) -> int:
    """Winners 5; others by score / winning score in whole-number comparisons."""
    if is_winner:
        return 5
    if winning <= 0:
        return 0
    for award, fifths in ((4, 4), (3, 3), (2, 2), (1, 1)):
        if 5 * score >= fifths * winning:
            return award
    return 0


def standings_result(
    players: list[str], totals: dict[str, int], final: dict[str, list[StringScore]] | None = None
) -> Result:
    """Placed by total, ties sharing a place; every top scorer is ToL (two tokens when alone),
    every bottom scorer EC (none when all tie; the host decides between several)."""
    order = sorted(players, key=lambda p: (-totals[p], players.index(p)))
    winners, losers = best_and_worst(order, totals)
    garnets = {p: garnet_award(totals[p], totals[order[0]], p in winners) for p in players}
    details: dict[str, Any] = {"totals": dict(totals)}
    if final is not None:
        details["strings"] = {p: [s.string for s in final[p]] for p in players}
        details["scores"] = {p: [s.model_dump(mode="json") for s in final[p]] for p in players}
    return Result(
        standings=standings(order, totals, {p: str(totals[p]) for p in order}),
        tol=winners,
        tol_awarded={p: 2 if len(winners) == 1 else 1 for p in winners},
        ec=losers,
        garnets=garnets,
        tied_lines=(TiedLine("ec", losers),) if len(losers) > 1 else (),  # one EC place among them
        details=details,
    )


def result(state: PalindromeState) -> Result:
    if state.final is None:
        raise ValueError("the match is not over")
    totals = {p: sum(s.total for s in state.final[p]) for p in state.players}
    return standings_result(state.players, totals, state.final)
