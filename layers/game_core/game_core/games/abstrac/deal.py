"""The `deal` rule set: the original deal-by-deal Abstrac.

Each deal lays the 24 cards face up in a line (the host's fixed line for that deal, else a shuffle
from the match's random source); the deal's starter moves first and players alternate taking the
top 1-3 cards until the line is empty. The first deal's starter is `first_starter` (default the
first player); it alternates each deal.

Deal score = base points x the cards the opponent took. Zero swap: a player whose base is 0 while
the opponent's is not scores what the opponent would have scored (the opponent's base x the zero
player's cards) and the opponent scores 0; both bases 0: both score 0.

The match ends after a deal at whose end someone's total is at the target (400, 500 or 600) or
more and the totals differ; the higher total wins. Equal totals (at or past the target) play more
deals until a deal ends with the totals different.

Clock (see clocks.py): `start_periods` periods (5) at the start, +1 for each player at the start of
every later deal; the periods held are a move's whole time; a move made within its first period
uses none up, each further period it starts uses one up; using up the last one (a timeout) leaves
none, and the player loses the match.
"""

from __future__ import annotations

import random
from typing import Any

from game_core.errors import Reason
from game_core.games.abstrac.cards import DECK, hand_json, points, remain
from game_core.games.abstrac.clocks import PeriodClock, periods_used, used_seconds
from game_core.games.abstrac.models import (
    AbstracSettings,
    AbstracState,
    DealMove,
    DealPart,
    DealRecord,
    LineSource,
    Take,
)
from game_core.games.protocol import Model, OpenPhase, PhaseKind, Resolution, Result
from game_core.games.standings import standings

MOVE = PhaseKind("Move", ("take",))
TIMELINE = (MOVE,)


def deal_line(settings: AbstracSettings, number: int, rng: random.Random) -> tuple[list[str], LineSource]:
    """Deal `number`'s line (top first) and where it came from."""
    if settings.deal_lines and number <= len(settings.deal_lines):
        return list(settings.deal_lines[number - 1]), "host"
    line = list(DECK)
    rng.shuffle(line)
    return line, "shuffle"


def setup(state: AbstracState, rng: random.Random) -> DealPart:
    settings = state.settings
    starter = settings.first_starter or state.players[0]
    line, source = deal_line(settings, 1, rng)
    return DealPart(
        starter=starter,
        to_move=starter,
        line=line,
        line_source=source,
        taken={p: [] for p in state.players},
        totals={p: 0 for p in state.players},
        clocks={p: PeriodClock(periods_left=settings.start_periods) for p in state.players},
    )


def deal_scores(base: dict[str, int], cards: dict[str, int]) -> tuple[dict[str, int], bool]:
    """Each player's deal score from both bases and card counts, and whether the zero swap applied."""
    a, b = list(base)
    if base[a] == 0 and base[b] == 0:
        return {a: 0, b: 0}, False
    if base[a] == 0:
        return {a: base[b] * cards[a], b: 0}, True
    if base[b] == 0:
        return {a: 0, b: base[a] * cards[b]}, True
    return {a: base[a] * cards[b], b: base[b] * cards[a]}, False


def open_phase(state: AbstracState) -> OpenPhase | None:
    part = state.deal
    assert part is not None
    if part.over or part.to_move is None:
        return None
    seconds = part.clocks[part.to_move].allowance(state.settings.period_seconds)
    return OpenPhase(MOVE.name, MOVE.accepts, (part.to_move,), seconds=seconds, closes_on_submit=True)


def check(state: AbstracState, player: str, kind: str, submission: Model) -> list[Reason]:
    """Every reason a take is illegal now (the match layer has checked it is the mover's)."""
    part = state.deal
    assert part is not None and isinstance(submission, Take)
    return take_count(part, submission)[1]


def take_count(part: DealPart, move: Take) -> tuple[int, list[Reason]]:
    """How many cards the take means, and every reason it is not a legal take here."""
    remaining = len(part.line) - part.position
    top = part.line[part.position : part.position + 3]
    if move.last is not None:
        if move.last not in top:
            text = f"{move.last} is not among the top cards of the line ({', '.join(top)})"
            return 0, [Reason("card_not_on_top", text)]
        return top.index(move.last) + 1, []
    if move.cards is not None:
        count = len(move.cards)
        if not 1 <= count <= 3:
            return count, [Reason("card_count", f"a move takes 1, 2 or 3 cards, not {count}")]
        taken = part.line[part.position : part.position + count]
        if sorted(move.cards) != sorted(taken):
            text = f"the top {count} cards are {', '.join(taken)}, not {', '.join(move.cards)}"
            return count, [Reason("cards_not_on_top", text)]
        return count, []
    assert move.count is not None
    reasons = []
    if not 1 <= move.count <= 3:
        reasons.append(Reason("card_count", f"a move takes 1, 2 or 3 cards, not {move.count}"))
    if move.count > remaining:
        text = f"only {remain(remaining, 'card')} in the line, and the move takes {move.count}"
        reasons.append(Reason("cards_short", text))
    return move.count, reasons


def _finish_deal(state: AbstracState, rng: random.Random) -> None:
    part = state.deal
    assert part is not None
    base = {p: points(part.taken[p]) for p in state.players}
    counts = {p: len(part.taken[p]) for p in state.players}
    scores, swapped = deal_scores(base, counts)
    for p in state.players:
        part.totals[p] += scores[p]
    part.finished.append(
        DealRecord(
            number=part.number,
            starter=part.starter,
            line=list(part.line),
            taken={p: list(part.taken[p]) for p in state.players},
            base=base,
            scores=scores,
            zero_swap=swapped,
            totals_after=dict(part.totals),
        )
    )
    a, b = state.players
    if max(part.totals.values()) >= state.settings.target and part.totals[a] != part.totals[b]:
        part.over, part.to_move = True, None
        return
    part.number += 1
    part.starter = state.opponent(part.starter)
    part.to_move = part.starter
    part.line, part.line_source = deal_line(state.settings, part.number, rng)
    part.position = 0
    part.taken = {p: [] for p in state.players}
    for clock in part.clocks.values():
        clock.periods_left += 1


def _fresh_copy(state: AbstracState) -> AbstracState:
    """A copy that a move may change without changing `state` (no deep copy): the deal part, its
    clocks and totals and the lists a move extends are new; the line, the finished deals and the
    moves recorded are shared, never changed."""
    part = state.deal
    assert part is not None
    fresh = part.model_copy(
        update={
            "taken": {p: list(cards) for p, cards in part.taken.items()},
            "totals": dict(part.totals),
            "finished": list(part.finished),
            "clocks": {p: clock.model_copy() for p, clock in part.clocks.items()},
            "moves": list(part.moves),
        }
    )
    return state.model_copy(update={"deal": fresh})


def resolve(state: AbstracState, resolution: Resolution) -> AbstracState:
    state = _fresh_copy(state)
    part = state.deal
    assert part is not None
    mover = part.to_move
    if part.over or mover is None:
        return state
    period = state.settings.period_seconds
    clock = part.clocks[mover]
    elapsed, extension = resolution.elapsed_seconds, resolution.extension_seconds
    move = resolution.sent(mover, "take", Take)
    if move is None:
        if not (resolution.timed_out or clock.out_of_time(period, elapsed, extension)):
            clock.pending = used_seconds(clock.pending, elapsed, extension)
            return state
        part.moves.append(
            DealMove(
                deal=part.number,
                player=mover,
                elapsed=elapsed,
                extension=extension,
                periods_used=clock.periods_left,
            )
        )
        clock.periods_left, clock.pending = 0, 0
        part.lost_on_time = mover
        part.over, part.to_move = True, None
        return state
    count, _ = take_count(part, move)
    # A move accepted in time (at most `period * periods_left` used) keeps the period it was made in.
    used = min(periods_used(used_seconds(clock.pending, elapsed, extension), period), clock.periods_left - 1)
    clock.periods_left -= used
    clock.pending = 0
    cards = part.line[part.position : part.position + count]
    part.moves.append(
        DealMove(
            deal=part.number,
            player=mover,
            count=count,
            cards=cards,
            elapsed=elapsed,
            extension=extension,
            periods_used=used,
            periods_after=clock.periods_left,
        )
    )
    part.taken[mover].extend(cards)
    part.position += count
    if part.position == len(part.line):
        _finish_deal(state, resolution.rng)
    else:
        part.to_move = state.opponent(mover)
    return state


def record_json(record: DealRecord) -> dict[str, Any]:
    return {
        "number": record.number,
        "starter": record.starter,
        "line": list(record.line),
        "zero_swap": record.zero_swap,
        "players": {
            p: {**hand_json(cards), "base": record.base[p], "score": record.scores[p]}
            for p, cards in record.taken.items()
        },
        "totals_after": dict(record.totals_after),
    }


def result(state: AbstracState) -> Result:
    part = state.deal
    assert part is not None
    a, b = state.players
    if part.lost_on_time is not None:
        loser = part.lost_on_time
        winner = state.opponent(loser)
        how = f"{loser} ran out of time (no period left) and loses"
    else:
        winner = a if part.totals[a] > part.totals[b] else b
        loser = state.opponent(winner)
        how = f"{winner} wins {part.totals[winner]} to {part.totals[loser]}"
    order = (winner, loser)
    return Result(
        standings=standings(order, {winner: 1, loser: 0}, {p: str(part.totals[p]) for p in order}),
        tol=(),
        ec=(loser,),
        garnets={p: 0 for p in state.players},
        details={
            "rule_set": "deal",
            "ended_by": "clock" if part.lost_on_time is not None else "score",
            "how": how,
            "winner": winner,
            "loser": loser,
            "target": state.settings.target,
            "totals": dict(part.totals),
            "lost_on_time": part.lost_on_time,
            "deals": [record_json(record) for record in part.finished],
        },
    )
