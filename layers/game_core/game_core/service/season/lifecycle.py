"""A season's use cases behind its store port: creating one from the host's settings, and
applying one step of its rules (`game_core.season`) exactly once.

Every step reads the season, applies a pure transition and stores the result conditional on the
version read. A step the season already took (the machine's retry of a step whose reply was lost,
a duplicated delivery, the host sending a command again) finds nothing to do in the state it
reads and writes nothing; a step that raced another write reads again and is judged afresh."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game_core.errors import Conflict
from game_core.match.model import secret_hash
from game_core.season.episode import new_season
from game_core.season.settings import SeasonSettings, read_settings
from game_core.season.state import SeasonState, Stepped
from game_core.season.waiting import pending
from game_core.service.ports import Clock, Event, Ids, SeasonStore

STEP_ATTEMPTS = 3
"""Reads and writes of one step while other writes to the season keep landing first."""


Step = Callable[[SeasonSettings, SeasonState], Stepped]
"""One transition of the season, given its settings and its state."""


@dataclass(frozen=True)
class Created:
    state: SeasonState
    secrets: dict[str, str]
    """Each cast member's secret (told once: only their hashes are kept)."""


def create_season(store: SeasonStore, clock: Clock, ids: Ids, data: Any, season_id: str | None = None) -> Created:
    """A season from the host's settings (refused whole, with every reason, before anything is
    stored): its seed drawn when none is given, a secret for each cast member."""
    settings = read_settings(data)
    if settings.seed is None:
        settings = settings.model_copy(update={"seed": ids.seed()})
    season_id = season_id or f"s-{ids.match_id().removeprefix('m-')}"
    stepped = new_season(settings, season_id)
    secrets = {member.id: ids.secret() for member in settings.cast}
    now = clock.now()
    state = stepped.state.model_copy(
        update={"secret_hashes": {p: secret_hash(s) for p, s in secrets.items()}, "opened_at": now}
    )
    store.create_season(settings, state, [Event(e.type, now, e.data) for e in stepped.events])
    return Created(state, secrets)


def apply(store: SeasonStore, clock: Clock, season_id: str, step: Step) -> SeasonState:
    """The season after `step`, stored once: nothing written when the step finds nothing to do
    (taken already); read again and judged afresh when another write landed first."""
    for _attempt in range(STEP_ATTEMPTS):
        stored = store.season(season_id)
        stepped = step(stored.settings, stored.state)
        if not stepped.changed:
            return stored.state
        now = clock.now()
        after = stepped.state.model_copy(update={"version": stored.state.version + 1})
        if pending(after) != pending(stored.state):
            after.opened_at = now  # a new wait begins: its deadlines count from now
        try:
            store.save_season(stored.state, after, [Event(e.type, now, e.data) for e in stepped.events])
        except Conflict:
            continue
        return after
    raise Conflict(f"season {season_id} kept changing meanwhile; try again")
