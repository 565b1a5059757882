"""The rules of Highest Unique Bid: a bid's check, a round's resolution, the result."""

from __future__ import annotations

from game_core.errors import Reason
from game_core.games.protocol import PhaseKind, Result
from game_core.games.standings import best_and_worst, sole_highest, standings
from highbid.models import ROUNDS, Bid, HighbidState, RoundRecord

TIMELINE = tuple(PhaseKind(f"Round {number}", ("bid",)) for number in range(1, ROUNDS + 1))


def bid_reasons(state: HighbidState, player: str, bid: Bid) -> list[Reason]:
    left = state.chips[player]
    if bid.chips > left:
        return [Reason("chips_short", f"you bid {bid.chips} chips but have {left}")]
    return []


def resolve_round(state: HighbidState, bids: dict[str, Bid | None]) -> HighbidState:
    """Everyone pays what they bid (nothing sent: a bid of 0); the highest amount bid by exactly
    one player wins the round."""
    amounts = {player: 0 if (bid := bids[player]) is None else bid.chips for player in state.players}
    winner = sole_highest(amounts)
    record = RoundRecord(
        round=len(state.rounds) + 1,
        bids=amounts,
        winner=winner,
        amount=None if winner is None else amounts[winner],
    )
    chips = {player: state.chips[player] - amounts[player] for player in state.players}
    return state.model_copy(update={"chips": chips, "rounds": [*state.rounds, record]})


def wins(state: HighbidState, player: str) -> int:
    return sum(1 for record in state.rounds if record.winner == player)


def result(state: HighbidState) -> Result:
    """Most rounds won, then most chips left; equal on both, equal places. Every best player is
    ToL, every worst one EC (nobody when all are equal); no garnets."""
    merit = {player: (wins(state, player), state.chips[player]) for player in state.players}
    order = sorted(state.players, key=lambda player: merit[player], reverse=True)
    score = {player: f"{wins(state, player)} won, {state.chips[player]} chips" for player in order}
    tol, ec = best_and_worst(order, merit)
    return Result(standings(order, merit, score), tol, ec, garnets=dict.fromkeys(state.players, 0))
