"""Palindrome Construction: the timeline, the state and the protocol functions."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from game_core.games.palindrome.bidding import Bid, check_bid, resolve_items, resolve_packs
from game_core.games.palindrome.construction import Construction, run
from game_core.games.palindrome.packs import draw_items, draw_packs, fixed_later_in_pass, take_fixed_items
from game_core.games.palindrome.scoring import StringScore, score_all
from game_core.games.palindrome.settings import CATALOGUE, STRINGS, ItemName, RuleSet
from game_core.games.palindrome.settings import Settings as PalindromeSettings
from game_core.games.palindrome.workbench import Bench
from game_core.games.protocol import Model, OpenPhase, PhaseKind, Resolution, Result, Standing

BID = "bid"
CONSTRUCTION = "construction"


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


class RoundState(Model):
    round: int
    packs: list[str]
    items: list[ItemName]
    pack_winners: list[str | None] | None = None
    """Who received each pack; None until the round's bidding resolves."""
    item_winners: list[str | None] | None = None


class OwnedItem(Model):
    name: ItemName
    round: int
    """The round it was won in."""
    used_in_round: int | None = None
    """The round whose construction used it."""


class RoundBid(Model):
    round: int
    bid: Bid | None
    """None: nothing was submitted (no cards on anything)."""


class RoundConstruction(Model):
    round: int
    construction: Construction | None
    """None: nothing was submitted (every digit lost)."""
    digits: str
    """The round's digits it worked with."""
    discarded: str
    kept: str


class Seat(Model):
    strings: list[str] = [""] * STRINGS
    digits: str = ""
    """The digits of the round awaiting construction (won in it, plus any kept)."""
    items: list[OwnedItem] = []
    bids: list[RoundBid] = []
    constructions: list[RoundConstruction] = []
    garnets_spent: int = 0


class PalindromeState(Model):
    settings: PalindromeSettings
    players: list[str]
    phase: int = 0
    """Index into the schedule; equal to its length when the match is over."""
    rounds: list[RoundState] = []
    item_pool: list[ItemName] = list(CATALOGUE)
    """Items not yet offered in the current pass over the catalogue."""
    seats: dict[str, Seat]
    final: dict[str, list[StringScore]] | None = None


M = TypeVar("M", bound=Model)


def _as(model: type[M], value: Any) -> M:
    return value if isinstance(value, model) else model.model_validate(value)


class PalindromeGame:
    id: ClassVar[str] = "palindrome"
    title: ClassVar[str] = "Palindrome Construction"
    Settings = PalindromeSettings
    State = PalindromeState
    submissions: dict[str, type[Model]] = {BID: Bid, CONSTRUCTION: Construction}
    min_players = 2
    max_players = 12

    # --- timeline -------------------------------------------------------------------------------

    def timeline(self, settings: PalindromeSettings) -> tuple[PhaseKind, ...]:
        return tuple(spec.kind for spec in schedule(settings.rules))

    def _spec(self, state: PalindromeState) -> PhaseSpec | None:
        specs = schedule(state.settings.rules)
        return specs[state.phase] if state.phase < len(specs) else None

    def setup(self, settings: PalindromeSettings, players: tuple[str, ...], rng: random.Random) -> PalindromeState:
        if len(set(players)) != len(players):
            raise ValueError("player names must differ")
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"Palindrome Construction takes {self.min_players} to {self.max_players} players")
        state = PalindromeState(settings=settings, players=list(players), seats={p: Seat() for p in players})
        first = schedule(settings.rules)[0]
        if first.bid_round == 1:
            self._open_round(state, 1, rng)
        return state

    def _open_round(self, state: PalindromeState, number: int, rng: random.Random) -> None:
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

    def open_phase(self, state: PalindromeState) -> OpenPhase | None:
        spec = self._spec(state)
        if spec is None:
            return None
        # Everyone is an actor, also in the pregame (which accepts nothing): an early close then
        # never cuts the pregame short; it resolves at its deadline or when the host says.
        return OpenPhase(name=spec.kind.name, accepts=spec.kind.accepts, actors=tuple(state.players))

    # --- submissions ----------------------------------------------------------------------------

    def check(self, state: PalindromeState, player: str, kind: str, submission: Model, garnets: int) -> list[str]:
        spec = self._spec(state)
        if player not in state.seats:
            return [f"{player} is not playing this match"]
        if spec is None or kind not in spec.kind.accepts:
            return [f"the open phase does not take a {kind} submission"]
        if kind == BID:
            return check_bid(state.settings.rules, _as(Bid, submission), garnets)
        bench = self._bench(state, player)
        return run(bench, _as(Construction, submission).steps)

    def garnet_cost(self, kind: str, submission: Model) -> int:
        return _as(Bid, submission).garnets if kind == BID else 0

    def _bench(self, state: PalindromeState, player: str) -> Bench:
        seat = state.seats[player]
        usable = [item.name for item in seat.items if item.used_in_round is None]
        return Bench.start(seat.strings, seat.digits, usable)

    # --- resolution -----------------------------------------------------------------------------

    def resolve(self, state: PalindromeState, resolution: Resolution) -> PalindromeState:
        spec = self._spec(state)
        if spec is None:
            raise ValueError("the match is over; there is no phase to resolve")
        state = self._fresh_copy(state)
        if spec.construction_round is not None:
            self._construct(state, spec.construction_round, resolution)
        if spec.bid_round is not None:
            self._bid(state, spec.bid_round, resolution)
        if spec.opens_round is not None:
            self._open_round(state, spec.opens_round, resolution.rng)
        state.phase += 1
        if self._spec(state) is None:
            state.final = score_all({p: list(state.seats[p].strings) for p in state.players})
        return state

    @staticmethod
    def _fresh_copy(state: PalindromeState) -> PalindromeState:
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

    def _construct(self, state: PalindromeState, number: int, resolution: Resolution) -> None:
        last = number == state.settings.rules.rounds
        for player in state.players:
            seat = state.seats[player]
            raw = resolution.submissions.get(player, {}).get(CONSTRUCTION)
            construction = None if raw is None else _as(Construction, raw)
            bench = self._bench(state, player)
            if construction is not None:
                reasons = run(bench, construction.steps)
                if reasons:
                    raise ValueError(f"{player}'s construction is illegal: {'; '.join(reasons)}")
            leftover = "".join(bench.pool)
            kept = leftover if bench.keep and not last else ""
            self._mark_used(seat, bench.used, number)
            seat.constructions.append(
                RoundConstruction(
                    round=number,
                    construction=construction,
                    digits=seat.digits,
                    discarded="" if kept else leftover,
                    kept=kept,
                )
            )
            seat.strings = bench.strings
            seat.digits = kept

    @staticmethod
    def _mark_used(seat: Seat, used: list[str], number: int) -> None:
        for name in used:
            index = next(k for k, i in enumerate(seat.items) if i.name == name and i.used_in_round is None)
            seat.items[index] = seat.items[index].model_copy(update={"used_in_round": number})

    def _bid(self, state: PalindromeState, number: int, resolution: Resolution) -> None:
        rules = state.settings.rules
        bids: dict[str, Bid] = {}
        for player in state.players:
            raw = resolution.submissions.get(player, {}).get(BID)
            bid = None if raw is None else _as(Bid, raw)
            state.seats[player].bids.append(RoundBid(round=number, bid=bid))
            if bid is not None:
                bids[player] = bid
                state.seats[player].garnets_spent += bid.garnets
        current = state.rounds[number - 1]
        pack_winners, item_winners = resolve_packs(rules, bids), resolve_items(rules, bids)
        state.rounds[number - 1] = current.model_copy(
            update={"pack_winners": pack_winners, "item_winners": item_winners}
        )
        for pack, winner in zip(current.packs, pack_winners, strict=True):
            if winner is not None:
                state.seats[winner].digits += pack
        for item, winner in zip(current.items, item_winners, strict=True):
            if winner is not None:
                state.seats[winner].items.append(OwnedItem(name=item, round=number))

    # --- information ----------------------------------------------------------------------------

    def view(self, state: PalindromeState, player: str | None) -> dict[str, Any]:
        rules = state.settings.rules
        spec = self._spec(state)
        public: dict[str, Any] = {
            "game": self.id,
            "rule_set": rules.key,
            "rule_set_title": rules.title,
            "rounds": rules.rounds,
            "pack_size": rules.pack_size,
            "items_per_round": rules.items_per_round,
            "garnet_value": rules.garnet_value,
            "players": list(state.players),
            "phase": spec.kind.name if spec else None,
            "bidding_round": spec.bid_round if spec else None,
            "construction_round": spec.construction_round if spec else None,
            "over": spec is None,
            "round_log": [self._round_view(r) for r in state.rounds],
        }
        if state.final is not None:
            public["final"] = {
                p: {
                    "strings": [s.string for s in state.final[p]],
                    "scores": [s.model_dump(mode="json") for s in state.final[p]],
                    "total": sum(s.total for s in state.final[p]),
                }
                for p in state.players
            }
        if player is None or player not in state.seats:
            return {"public": public}
        seat = state.seats[player]
        private = {
            "strings": list(seat.strings),
            "digits": seat.digits,
            "items": [item.model_dump(mode="json") for item in seat.items],
            "bids": [b.model_dump(mode="json") for b in seat.bids],
            "constructions": [c.model_dump(mode="json") for c in seat.constructions],
            "garnets_spent": seat.garnets_spent,
        }
        return {"public": public, "private": private}

    @staticmethod
    def _round_view(r: RoundState) -> dict[str, Any]:
        resolved = r.pack_winners is not None
        packs = []
        for i, digits in enumerate(r.packs):
            entry: dict[str, Any] = {"pack": i + 1, "digits": digits}
            if r.pack_winners is not None:
                entry["received_by"] = r.pack_winners[i]
            packs.append(entry)
        items = []
        for i, name in enumerate(r.items):
            entry = {"item": i + 1, "name": name}
            if r.item_winners is not None:
                entry["received_by"] = r.item_winners[i]
            items.append(entry)
        return {"round": r.round, "resolved": resolved, "packs": packs, "items": items}

    # --- result ---------------------------------------------------------------------------------

    def result(self, state: PalindromeState) -> Result:
        if state.final is None:
            raise ValueError("the match is not over")
        totals = {p: sum(s.total for s in state.final[p]) for p in state.players}
        return standings_result(state.players, totals, state.final)


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
    order = sorted(players, key=lambda p: (-totals[p], players.index(p)))
    standings = tuple(
        Standing(
            player=p,
            place=1 + sum(1 for q in players if totals[q] > totals[p]),
            score=str(totals[p]),
            tied_with=tuple(q for q in order if q != p and totals[q] == totals[p]),
        )
        for p in order
    )
    top, bottom = max(totals.values()), min(totals.values())
    winners = tuple(p for p in order if totals[p] == top)
    losers = () if bottom == top else tuple(p for p in order if totals[p] == bottom)
    garnets = {p: garnet_award(totals[p], top, p in winners) for p in players}
    details: dict[str, Any] = {"totals": dict(totals)}
    if final is not None:
        details["strings"] = {p: [s.string for s in final[p]] for p in players}
        details["scores"] = {p: [s.model_dump(mode="json") for s in final[p]] for p in players}
    return Result(
        standings=standings,
        tol=winners,
        tol_awarded={p: 2 if len(winners) == 1 else 1 for p in winners},
        ec=losers,
        garnets=garnets,
        undecided=losers if len(losers) > 1 else (),
        details=details,
    )
