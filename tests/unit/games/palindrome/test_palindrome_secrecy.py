"""Palindrome's secrets stay where the rules keep them: bids and strings are private until the end."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from game_core.games import registry
from game_core.games.protocol import Resolution
from local_stack.bots import bot_for

GAME = registry.load("palindrome")


def played_until_the_last_construction(players: tuple[str, ...]) -> Iterator[tuple[Any, dict]]:
    """An mm8 match played by bots: (state, submissions) after each phase before the final one,
    whose resolution reveals everything."""
    state = GAME.setup(GAME.Settings(), players, random.Random(3))
    bot = bot_for("palindrome")
    step = 0
    while (phase := GAME.open_phase(state)) is not None and phase.name != "Round 7 construction":
        submissions = {}
        for player in phase.actors:
            chosen = bot(GAME.view(state, player), phase, player, random.Random(f"{step}:{player}"))
            submissions[player] = {k: GAME.submissions[k].model_validate(v) for k, v in chosen.items()}
        state = GAME.resolve(state, Resolution(submissions, random.Random(step)))
        step += 1
        yield state, submissions
    assert step == 8, "pregame, 7 biddings and 6 constructions share 8 phases before the last one"


def test_palindrome_views_do_not_depend_on_another_players_secrets():
    """Non-interference: when one player's seat (bids, digits, strings, items) is replaced by
    another's, every third player's view and the public view stay exactly the same, after every phase."""
    players = tuple(f"p{i}" for i in range(1, 6))
    for state, _ in played_until_the_last_construction(players):
        for secret_holder, donor in zip(players, players[1:] + players[:1], strict=True):
            altered = state.model_copy(deep=True)
            altered.seats[secret_holder] = state.seats[donor].model_copy(deep=True)
            assert GAME.view(altered, None) == GAME.view(state, None)
            for onlooker in set(players) - {secret_holder, donor}:
                assert GAME.view(altered, onlooker) == GAME.view(state, onlooker), (secret_holder, onlooker)
    assert any(seat.strings != ["", "", ""] for seat in state.seats.values()), "strings were built"


def keys_anywhere(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for inner in value.values() for key in keys_anywhere(inner)}
    if isinstance(value, list):
        return {key for inner in value for key in keys_anywhere(inner)}
    return set()


def test_palindrome_bids_and_strings_stay_out_of_the_public_view_until_the_end():
    """The public view has no bids or strings, and each player's private part holds exactly the
    bids they sent."""
    players = tuple(f"p{i}" for i in range(1, 8))
    sent: dict[str, list] = {p: [] for p in players}
    for state, submissions in played_until_the_last_construction(players):
        for player, kinds in submissions.items():
            if "bid" in kinds:
                sent[player].append(kinds["bid"].model_dump(mode="json"))
        public = GAME.view(state, None)
        assert "private" not in public and not {"bid", "bids", "cards", "strings"} & keys_anywhere(public)
        for player in players:
            view = GAME.view(state, player)
            assert view["public"] == public["public"], "everything beyond the public part is the player's own"
            assert [entry["bid"] for entry in view["private"]["bids"]] == sent[player]
