"""Puzzler's Clubs' open phase and its immediate actions (`ActsAtOnce`): a puzzle sent and answered
(timed by the service), a transfer of tokens, a peek at a card, and the host's entry of tokens.
"""

from __future__ import annotations

from typing import Any

from game_core.errors import Illegal, Reason
from game_core.games.capabilities import Acted
from game_core.games.clubs import puzzles
from game_core.games.clubs.models import (
    ClubsState,
    HostTokens,
    Peek,
    PeekRecord,
    PuzzleAnswer,
    PuzzleClock,
    PuzzleRequest,
    RoundState,
    Transfer,
)
from game_core.games.clubs.rules import (
    PARTICIPANT_ACTIONS,
    PEEK_COST,
    PHASES,
    TIMELINE,
    round_a,
    token_value,
    with_round,
)
from game_core.games.protocol import Model, OpenPhase


def open_phase(state: ClubsState) -> OpenPhase | None:
    if state.phase > PHASES:
        return None
    actions = PARTICIPANT_ACTIONS if round_a(state) is not None else ("transfer", "peek")
    kind = TIMELINE[state.phase - 1]
    # Every participant owes a draft in a Phase A and guesses in a Phase B. A build is theirs to
    # send but never waited for: without one, the service builds their best hand.
    owed = tuple(owing for owing in ("draft", "guess") if owing in kind.accepts)
    participants = tuple(state.participants)
    owes = {participant: owed for participant in participants}
    return OpenPhase(kind.name, kind.accepts, participants, owes=owes, actions=actions)


def act(state: ClubsState, actor: str | None, kind: str, action: Model, at_ms: int) -> Acted:
    if actor is None:
        if not isinstance(action, HostTokens):
            raise _refused(kind, "host_cannot", f"the host does not {kind}; the host enters tokens")
        return enter_tokens(state, action)
    if isinstance(action, PuzzleRequest):
        return send_puzzle(state, actor, action, at_ms)
    if isinstance(action, PuzzleAnswer):
        return answer_puzzle(state, actor, action, at_ms)
    if isinstance(action, Transfer):
        return transfer(state, actor, action)
    if isinstance(action, Peek):
        return peek(state, actor, action)
    raise _refused(kind, "host_only", "only the host enters token values")


def _refused(kind: str, code: str, text: str) -> Illegal:
    return Illegal(f"the {kind} is not allowed", [Reason(code, text)])


def _open_round(state: ClubsState, kind: str) -> tuple[int, RoundState]:
    number = round_a(state)
    if number is None:
        raise _refused(kind, "no_puzzles_now", "puzzles are only solved in a round's Phase A")
    return number, state.rounds[number - 1]


def send_puzzle(state: ClubsState, actor: str, request: PuzzleRequest, at_ms: int) -> Acted:
    """The puzzle, its clock started the first time it is asked for (asked again: sent again,
    the clock running on)."""
    number, round_state = _open_round(state, "puzzle")
    key = str(request.puzzle)
    clocks = round_state.clocks.get(actor, {})
    new_state = state
    if key not in clocks:
        clocks = clocks | {key: PuzzleClock(sent_ms=at_ms)}
        new_state = with_round(
            state, number, round_state.model_copy(update={"clocks": round_state.clocks | {actor: clocks}})
        )
    seed = round_state.puzzle_seeds[request.puzzle - 1]
    sent = puzzles.puzzle(round_state.puzzle_type, seed)
    answer = {
        "round": number,
        "puzzle": request.puzzle,
        "type": round_state.puzzle_type,
        "rules": puzzles.RULES[round_state.puzzle_type],
        "text": sent.text,
        "data": sent.data,
        "solved": clocks[key].solved_ms is not None,
    }
    return Acted(new_state, answer)


def answer_puzzle(state: ClubsState, actor: str, answer: PuzzleAnswer, at_ms: int) -> Acted:
    number, round_state = _open_round(state, "answer")
    key = str(answer.puzzle)
    clocks = round_state.clocks.get(actor, {})
    if key not in clocks:
        raise _refused("answer", "puzzle_not_sent", f"ask for puzzle {answer.puzzle} before answering it")
    clock = clocks[key]
    if clock.solved_ms is not None:
        raise _refused("answer", "puzzle_solved", f"puzzle {answer.puzzle} is solved already")
    correct = puzzles.is_correct(round_state.puzzle_type, round_state.puzzle_seeds[answer.puzzle - 1], answer.answer)
    if correct:
        clock = clock.model_copy(update={"solved_ms": at_ms})
    else:
        clock = clock.model_copy(update={"wrong": clock.wrong + 1})
    clocks = clocks | {key: clock}
    new_state = with_round(
        state, number, round_state.model_copy(update={"clocks": round_state.clocks | {actor: clocks}})
    )
    reply: dict[str, Any] = {"round": number, "puzzle": answer.puzzle, "correct": correct}
    if correct:
        reply["token"] = token_value(clock)
    else:
        reply["message"] = "wrong: the clock keeps running"
    return Acted(new_state, reply)


def transfer(state: ClubsState, actor: str, move: Transfer) -> Acted:
    """A player gives to any guest, a guest to any player (never to themself)."""
    if move.to not in state.participants:
        raise _refused("transfer", "not_a_participant", f"{move.to!r} is not a participant of this match")
    if (actor in state.guests) == (move.to in state.guests):
        text = "garnets go from a player to a guest, or from a guest to a player"
        raise _refused("transfer", "transfer_between", text)
    answer = {"to": move.to, "garnets": move.garnets}
    return Acted(state, answer, {actor: -move.garnets, move.to: move.garnets})


def peek(state: ClubsState, actor: str, wanted: Peek) -> Acted:
    """1 garnet: another participant's three token values of a round whose Phase A resolved."""
    reasons = []
    if wanted.participant == actor or wanted.participant not in state.participants:
        reasons.append(Reason("peek_target", "peek at another participant of this match"))
    if wanted.round >= state.phase:
        reasons.append(Reason("round_not_puzzled", f"round {wanted.round}'s tokens are not fixed yet"))
    if reasons:
        raise Illegal("the peek is not allowed", reasons)
    tokens = state.rounds[wanted.round - 1].tokens[wanted.participant]
    record = PeekRecord(participant=wanted.participant, round=wanted.round, tokens=list(tokens))
    peeks = state.peeks | {actor: [*state.peeks[actor], record]}
    return Acted(state.model_copy(update={"peeks": peeks}), record.model_dump(mode="json"), {actor: -PEEK_COST})


def enter_tokens(state: ClubsState, entry: HostTokens) -> Acted:
    number, round_state = _open_round(state, "tokens")
    if entry.participant not in state.participants:
        raise _refused("tokens", "not_a_participant", f"{entry.participant!r} is not a participant of this match")
    host_tokens = round_state.host_tokens | {entry.participant: list(entry.tokens)}
    new_state = with_round(state, number, round_state.model_copy(update={"host_tokens": host_tokens}))
    return Acted(new_state, {"round": number, "participant": entry.participant, "tokens": list(entry.tokens)})
