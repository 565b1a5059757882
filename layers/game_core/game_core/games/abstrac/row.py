"""The `row` rule set: Death Match 12.

Choose starter (the protected player names who lays first), then laying moves (1-3 unused cards at
the back of the row) alternating until all 24 are laid, then picking moves (1-3 cards from the
front) alternating until the row is empty, begun by the player who did not lay the last card.

Score = combination points / cards taken, an exact fraction, reported reduced ("11/7" for 22
points on 14 cards; the details also give "22/14" and 1.5714). Ties: more cards taken, then the
protected player.

Clock (see clocks.py): 24 h a move plus a 48 h reserve that overtime eats; the starter choice is a
move of the protected player on their clock. Out of time (the reserve is gone): the player loses,
or with on_empty_reserve="smallest_move" the service plays the smallest legal move for them (the
starter choice: the protected player starts; a lay: the single lowest unused card, by number
then colour R, Y, G, B; a pick: 1 card) and play goes on with their reserve at 0.
"""

from __future__ import annotations

from typing import Any

from game_core.errors import Reason
from game_core.games.abstrac.cards import (
    DECK,
    decimal_text,
    fraction_text,
    hand_json,
    points,
    ratio,
    remain,
    sort_key,
    sorted_cards,
)
from game_core.games.abstrac.clocks import ReserveClock, overtime, used_seconds
from game_core.games.abstrac.models import AbstracState, Lay, Pick, RowMove, RowPart, Starter
from game_core.games.protocol import Model, OpenPhase, PhaseKind, Resolution, Result
from game_core.games.standings import standings

STARTER = PhaseKind("Choose starter", ("starter",))
LAYING = PhaseKind("Laying move", ("lay",))
PICKING = PhaseKind("Picking move", ("pick",))
TIMELINE = (STARTER, LAYING, PICKING)
_PHASE_OF_STAGE = {"starter": STARTER, "lay": LAYING, "pick": PICKING}
_MODELS: dict[str, type[Model]] = {"starter": Starter, "lay": Lay, "pick": Pick}


def setup(state: AbstracState) -> RowPart:
    settings = state.settings
    return RowPart(
        protected=settings.protected or state.players[0],
        taken={p: [] for p in state.players},
        clocks={p: ReserveClock(reserve_left=settings.reserve_seconds) for p in state.players},
    )


def whose_move(part: RowPart) -> str | None:
    if part.stage == "over":
        return None
    return part.protected if part.stage == "starter" else part.to_move


def unused(part: RowPart) -> list[str]:
    return [card for card in DECK if card not in part.row]


def open_phase(state: AbstracState) -> OpenPhase | None:
    part = state.row
    assert part is not None
    mover = whose_move(part)
    if mover is None:
        return None
    kind = _PHASE_OF_STAGE[part.stage]
    seconds = part.clocks[mover].allowance(state.settings.move_seconds)
    return OpenPhase(kind.name, kind.accepts, (mover,), seconds=seconds, closes_on_submit=True)


def check(state: AbstracState, player: str, kind: str, submission: Model) -> list[Reason]:
    """Every reason a move is illegal now (the match layer has checked it is the mover's, of the
    kind the phase takes)."""
    part = state.row
    assert part is not None
    reasons: list[Reason] = []
    if isinstance(submission, Starter):
        if submission.starter not in state.players:
            names = " or ".join(state.players)
            reasons.append(Reason("not_a_player", f"{submission.starter} is not a player in this match; name {names}"))
    elif isinstance(submission, Lay):
        cards = submission.cards
        left = unused(part)
        if not 1 <= len(cards) <= 3:
            reasons.append(Reason("card_count", f"a laying move lays 1, 2 or 3 cards, not {len(cards)}"))
        if len(cards) > len(left):
            text = f"only {remain(len(left), 'unused card')}, and the move lays {len(cards)}"
            reasons.append(Reason("cards_short", text))
        for card in sorted_cards(list(dict.fromkeys(cards))):
            if cards.count(card) > 1:
                reasons.append(Reason("card_repeated", f"{card} is named {cards.count(card)} times"))
            if card in part.row:
                reasons.append(Reason("card_laid", f"{card} has already been laid"))
    elif isinstance(submission, Pick):
        remaining = len(part.row) - part.picked
        if not 1 <= submission.count <= 3:
            reasons.append(Reason("card_count", f"a picking move takes 1, 2 or 3 cards, not {submission.count}"))
        if submission.count > remaining:
            text = f"only {remain(remaining, 'card')} in the row, and the move takes {submission.count}"
            reasons.append(Reason("cards_short", text))
    return reasons


def _smallest(state: AbstracState, kind: str) -> Model:
    part = state.row
    assert part is not None
    if kind == "starter":
        return Starter(starter=part.protected)
    if kind == "lay":
        return Lay(cards=[min(unused(part), key=sort_key)])
    return Pick(count=1)


def _fresh_copy(state: AbstracState) -> AbstracState:
    """A copy that a move may change without changing `state` (no deep copy): the row part, its
    clocks and the lists a move extends are new; the moves recorded are shared, never changed."""
    part = state.row
    assert part is not None
    fresh = part.model_copy(
        update={
            "row": list(part.row),
            "taken": {p: list(cards) for p, cards in part.taken.items()},
            "clocks": {p: clock.model_copy() for p, clock in part.clocks.items()},
            "moves": list(part.moves),
        }
    )
    return state.model_copy(update={"row": fresh})


def resolve(state: AbstracState, resolution: Resolution) -> AbstracState:
    state = _fresh_copy(state)
    part = state.row
    assert part is not None
    mover = whose_move(part)
    if mover is None:
        return state
    settings = state.settings
    kind = _PHASE_OF_STAGE[part.stage].accepts[0]
    clock = part.clocks[mover]
    elapsed, extension = resolution.elapsed_seconds, resolution.extension_seconds
    move = resolution.sent(mover, kind, _MODELS[kind])
    by_service = False
    if move is None:
        if not (resolution.timed_out or clock.out_of_time(settings.move_seconds, elapsed, extension)):
            clock.pending = used_seconds(clock.pending, elapsed, extension)
            return state
        spent = clock.reserve_left
        clock.reserve_left, clock.pending = 0, 0
        if settings.on_empty_reserve == "lose":
            part.moves.append(RowMove(player=mover, kind=kind, elapsed=elapsed, extension=extension, overtime=spent))
            part.lost_on_time = mover
            part.stage, part.to_move = "over", None
            return state
        move, by_service = _smallest(state, kind), True
    else:
        spent = overtime(used_seconds(clock.pending, elapsed, extension), settings.move_seconds)
        clock.reserve_left = max(0, clock.reserve_left - spent)
        clock.pending = 0
    record = RowMove(
        player=mover,
        kind=kind,
        elapsed=elapsed,
        extension=extension,
        overtime=spent,
        reserve_after=clock.reserve_left,
        by_service=by_service,
    )
    _play(state, part, mover, move, record)
    part.moves.append(record)
    return state


def _play(state: AbstracState, part: RowPart, mover: str, move: Model, record: RowMove) -> None:
    """The move laid on the row (its starter, the cards laid or picked) and the turn passed on."""
    if isinstance(move, Starter):
        record.starter = move.starter
        part.starter = move.starter
        part.stage, part.to_move = "lay", move.starter
    elif isinstance(move, Lay):
        record.cards = list(move.cards)
        part.row.extend(move.cards)
        part.last_layer = mover
        if len(part.row) == len(DECK):
            part.stage, part.to_move = "pick", state.opponent(mover)
        else:
            part.to_move = state.opponent(mover)
    elif isinstance(move, Pick):
        cards = part.row[part.picked : part.picked + move.count]
        record.cards = cards
        part.taken[mover].extend(cards)
        part.picked += move.count
        if part.picked == len(part.row):
            part.stage, part.to_move = "over", None
        else:
            part.to_move = state.opponent(mover)


def score_json(state: AbstracState, player: str) -> dict[str, Any]:
    part = state.row
    assert part is not None
    cards = part.taken[player]
    score = ratio(cards)
    return {
        **hand_json(cards),
        "score": fraction_text(score),
        "points_over_cards": f"{points(cards)}/{len(cards)}",
        "score_decimal": decimal_text(score),
    }


def result(state: AbstracState) -> Result:
    part = state.row
    assert part is not None
    a, b = state.players
    scores = {p: ratio(part.taken[p]) for p in state.players}
    counts = {p: len(part.taken[p]) for p in state.players}
    if part.lost_on_time is not None:
        loser = part.lost_on_time
        winner = state.opponent(loser)
        decided_by = "clock"
    elif scores[a] != scores[b]:
        winner = a if scores[a] > scores[b] else b
        decided_by = "score"
    elif counts[a] != counts[b]:
        winner = a if counts[a] > counts[b] else b
        decided_by = "more cards"
    else:
        winner = part.protected
        decided_by = "protected player"
    loser = state.opponent(winner)
    if part.lost_on_time is not None:
        how = f"{loser} ran out of time (the reserve was gone) and loses"
    else:
        how = f"{winner} wins on {decided_by}"
    order = (winner, loser)
    return Result(
        standings=standings(order, {winner: 1, loser: 0}, {p: fraction_text(scores[p]) for p in order}),
        tol=(),
        ec=(loser,),
        garnets={p: 0 for p in state.players},
        details={
            "rule_set": "row",
            "ended_by": "clock" if part.lost_on_time is not None else "score",
            "decided_by": decided_by,
            "how": how,
            "winner": winner,
            "loser": loser,
            "protected": part.protected,
            "lost_on_time": part.lost_on_time,
            "players": {p: score_json(state, p) for p in state.players},
            "moves_by_service": [m.model_dump(mode="json") for m in part.moves if m.by_service],
        },
    )
