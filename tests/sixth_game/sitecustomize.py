"""Registers Highest Unique Bid (with its bot) in every Python process started with this folder on
PYTHONPATH: the test's pytest run and each process it starts in turn (the determinism script, the
replay command), as if `highbid` had been added to `registry.AVAILABLE`. Python imports this
module by itself at start-up; nothing else names the game."""

from __future__ import annotations

from contextlib import ExitStack

from game_core.games import registry
from local_stack import bots

REGISTERED = ExitStack()
"""Kept open for the life of the process."""
REGISTERED.enter_context(registry.registered("highbid"))
REGISTERED.enter_context(bots.registered("highbid", "highbid_bot"))
