"""Every registered game's functions are pure: resolve, check, view, result (and act, for a game
that takes immediate actions) leave what they were handed as it was.

The match layer hands one state to every view it renders, to each check of a submission and then
to the resolution; a replay hands a record's submissions to resolve again. A function that changed
its inputs would make one participant's notice depend on another's, or a replay differ from the
live match. Checked over bot matches through each game's whole timeline (tests/unit/games/
bot_matches.py): every call's inputs, as JSON, before and after it.
"""

from __future__ import annotations

import pytest
from bot_matches import CASES, IDS, play_through

from game_core.games import registry
from game_core.games.capabilities import ActsAtOnce


@pytest.mark.parametrize(("game_id", "rule_set"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", [5, 17])
def test_no_function_of_a_game_changes_what_it_was_handed(game_id, rule_set, seed) -> None:
    played = play_through(game_id, rule_set, seed)

    assert not played.impure, "\n".join(played.impure)
    # and each function was called: at least once per phase resolved (the result at the end)
    phases = len(played.trail)
    assert played.calls["resolve"] == phases
    assert played.calls["view"] >= phases and played.calls["check"] >= phases
    assert played.calls["result"] == 1
    if isinstance(registry.load(game_id), ActsAtOnce):
        assert played.calls["act"] >= phases
