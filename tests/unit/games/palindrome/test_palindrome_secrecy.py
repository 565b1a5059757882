"""Palindrome's secrets stay where the rules keep them: bids and strings are private until the end."""

from __future__ import annotations

import random

from game_core.games import registry
from game_core.games.protocol import Resolution
from local_stack.bots import bot_for


def test_palindrome_views_do_not_depend_on_another_players_secrets():
    """Non-interference: given an mm8 match played by bots up to its last construction phase,
    when one player's seat (bids, digits, strings, items) is replaced by another's,
    then every third player's view and the public view stay exactly the same, after every phase."""
    game = registry.load("palindrome")
    players = tuple(f"p{i}" for i in range(1, 6))
    state = game.setup(game.Settings(), players, random.Random(3))
    bot = bot_for("palindrome")
    step = 0
    while (phase := game.open_phase(state)) is not None and phase.name != "Round 7 construction":
        submissions = {}
        for player in phase.actors:
            chosen = bot(game.view(state, player), phase, player, random.Random(f"{step}:{player}"))
            submissions[player] = {k: game.submissions[k].model_validate(v) for k, v in chosen.items()}
        state = game.resolve(state, Resolution(submissions, random.Random(step)))
        step += 1
        for secret_holder, donor in zip(players, players[1:] + players[:1], strict=True):
            altered = state.model_copy(deep=True)
            altered.seats[secret_holder] = state.seats[donor].model_copy(deep=True)
            assert game.view(altered, None) == game.view(state, None)
            for onlooker in set(players) - {secret_holder, donor}:
                assert game.view(altered, onlooker) == game.view(state, onlooker), (secret_holder, onlooker)
    assert step >= 8 and any(seat.strings != ["", "", ""] for seat in state.seats.values())


def keys_anywhere(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for inner in value.values() for key in keys_anywhere(inner)}
    if isinstance(value, list):
        return {key for inner in value for key in keys_anywhere(inner)}
    return set()


def test_palindrome_bids_and_strings_stay_out_of_the_public_view_until_the_end():
    """Given an mm8 match played by bots up to its last construction phase, the public view has no
    bids or strings, and each player's private part holds exactly the bids they sent."""
    game = registry.load("palindrome")
    players = tuple(f"p{i}" for i in range(1, 8))
    state = game.setup(game.Settings(), players, random.Random(3))
    bot = bot_for("palindrome")
    submitted_bids: dict[str, list] = {p: [] for p in players}
    step = 0
    while (phase := game.open_phase(state)) is not None and phase.name != "Round 7 construction":
        submissions = {}
        for player in phase.actors:
            chosen = bot(game.view(state, player), phase, player, random.Random(f"{step}:{player}"))
            submissions[player] = {k: game.submissions[k].model_validate(v) for k, v in chosen.items()}
            if "bid" in chosen:
                submitted_bids[player].append(submissions[player]["bid"].model_dump(mode="json"))
        state = game.resolve(state, Resolution(submissions, random.Random(step)))
        step += 1
        public = game.view(state, None)
        assert "private" not in public and not {"bid", "bids", "cards", "strings"} & keys_anywhere(public)
        for player in players:
            view = game.view(state, player)
            assert view["public"] == public["public"], "everything beyond the public part is the player's own"
            assert [entry["bid"] for entry in view["private"]["bids"]] == submitted_bids[player]
    assert step >= 8
