"""Helpers for the Abstrac tests: two players "A" and "B", moves applied through the protocol."""

from __future__ import annotations

import random
from typing import Any

from game_core.games.abstrac import GAME
from game_core.games.abstrac.models import AbstracState as State
from game_core.games.protocol import Resolution

PLAYERS = ("A", "B")


def new(seed: int = 0, **settings: Any) -> State:
    return GAME.setup(GAME.Settings(**settings), PLAYERS, random.Random(seed))


def mover(state: State) -> str:
    phase = GAME.open_phase(state)
    assert phase is not None, "the match is over"
    assert len(phase.actors) == 1
    return phase.actors[0]


def play(state: State, kind: str, payload: dict[str, Any], elapsed: int = 0, extension: int = 0) -> State:
    """The mover makes a move (checked legal first), taking `elapsed` seconds."""
    player = mover(state)
    submission = GAME.submissions[kind].model_validate(payload)
    assert GAME.check(state, player, kind, submission) == []
    return GAME.resolve(
        state,
        Resolution(
            submissions={player: {kind: submission}},
            rng=random.Random(1),
            elapsed_seconds=elapsed,
            extension_seconds=extension,
            timed_out=False,
        ),
    )


def no_move(state: State, elapsed: int, extension: int = 0, timed_out: bool = True) -> State:
    return GAME.resolve(
        state,
        Resolution(
            submissions={},
            rng=random.Random(1),
            elapsed_seconds=elapsed,
            extension_seconds=extension,
            timed_out=timed_out,
        ),
    )


def refusals(state: State, player: str, kind: str, payload: dict[str, Any]) -> list[tuple[str, str]]:
    """Every reason the game refuses the move, as (code, text)."""
    return [(r.code, r.text) for r in GAME.check(state, player, kind, GAME.submissions[kind].model_validate(payload))]


def reasons(state: State, player: str, kind: str, payload: dict[str, Any]) -> list[str]:
    return [text for _, text in refusals(state, player, kind, payload)]


def cards(text: str) -> list[str]:
    return text.split()


def roundtrip(state: State) -> State:
    dumped = state.model_dump(mode="json")
    again = State.model_validate(dumped)
    assert again.model_dump(mode="json") == dumped
    return again


def played_by_bots(state: State, max_moves: int) -> State:
    """Both seats played by the bot to the end of the match, every move checked legal and the
    state passed through JSON between moves, as the service stores it."""
    from local_stack.bots.abstrac import choose

    for step in range(max_moves):
        phase = GAME.open_phase(state)
        if phase is None:
            return state
        player = phase.actors[0]
        [(kind, payload)] = choose(GAME.view(state, player), phase, player, random.Random(step)).items()
        state = roundtrip(play(state, kind, payload))
    raise AssertionError(f"the match did not end in {max_moves} moves")
