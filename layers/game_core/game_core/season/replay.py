"""A season replayed from its log and its matches' results: every step the log records taken
again, in order, each required to record exactly what the log holds (so a lot draws the same, a
result gives the same ECs, the same players leave). What a replayed season's export proves: its
eliminations follow from its matches and its recorded acts alone.

Each step of the log begins with the event naming it (`named`, `tol_spent`, ...); the events it
led to follow it. Events no step of the season's rules writes (the machine's own: a stall, a
recovery) are passed over, and so are the host's guests (`guests_named`: contacts, which decide
nothing; the replayed state holds none)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from game_core.errors import Illegal, Reason
from game_core.season import death_match as dm
from game_core.season import episode as ep
from game_core.season import naming
from game_core.season.settings import SeasonSettings
from game_core.season.state import SeasonEvent, SeasonState, Stepped

Results = Mapping[str, dict[str, Any]]
"""Each match's result JSON, by match id (as its own replay gives it)."""
Replayed = Callable[[SeasonSettings, SeasonState, dict[str, Any], Results], Stepped]


class ReplayMismatch(Illegal):
    """The season's log does not follow from its matches and its acts."""

    code = "replay_mismatch"


def _by_host(data: dict[str, Any]) -> bool:
    return bool(data.get("by_host"))


STEPS: dict[str, Replayed] = {
    "episode_started": lambda _se, s, d, _r: ep.start_episode(s, d["episode"], d["match_id"]),
    "main_match_ended": lambda se, s, d, r: ep.main_match_ended(s, se, d["match_id"], r[d["match_id"]]),
    "tol_spent": lambda _se, s, d, _r: ep.spend_tol(s, d["player"]),
    "tol_kept": lambda _se, s, d, _r: ep.close_spending(s) if d.get("silent") else ep.keep_tol(s, d["player"]),
    "ec_replaced": lambda _se, s, d, _r: ep.decide_replacement(s, d["player"]),
    "named": lambda _se, s, d, _r: (
        naming.draw_lot(s, d["ec"]) if d["by"] == "lot" else naming.name_opponent(s, d["ec"], d["opponent"], d["by"])
    ),
    "death_match_started": lambda _se, s, d, _r: dm.start_death_match(s, d["players"][0], d["match_id"]),
    "death_match_tied": lambda _se, s, d, r: dm.death_match_ended(s, d["match_id"], r[d["match_id"]]),
    "death_match_ended": lambda _se, s, d, r: (
        dm.decide_death_match(s, d["match_id"], d["loser"])
        if _by_host(d)
        else dm.death_match_ended(s, d["match_id"], r[d["match_id"]])
    ),
    "finals_started": lambda se, s, d, _r: dm.start_finals(s, se, d["match_id"]),
    "champion_tie": lambda _se, s, d, r: dm.finals_ended(s, d["match_id"], r[d["match_id"]]),
    "champion": lambda _se, s, d, r: (
        dm.decide_champion(s, d["player"])
        if _by_host(d)
        else dm.finals_ended(s, s.finals_match_id or "", r[s.finals_match_id or ""])
    ),
    "season_cancelled": lambda _se, s, _d, _r: dm.cancel(s),
}
"""The step each leading event records; `ec_replaced` leads only when the host picked (else it
follows `tol_spent`), `death_match_ended` and `champion` are the host's when `by_host`."""


def _leads(event: SeasonEvent) -> bool:
    if event.type == "ec_replaced":
        return _by_host(event.data)
    return event.type in STEPS


def replay(settings: SeasonSettings, season_id: str, log: Sequence[SeasonEvent], results: Results) -> SeasonState:
    """The season as its log leaves it, every step taken again; ReplayMismatch at the first step
    that records anything else than the log holds."""
    created = ep.new_season(settings, season_id)
    state, at = created.state, 0
    log = [event for event in log if event.type in STEPS or event.type in _FOLLOWING]
    if not log or log[0] != created.events[0]:
        raise ReplayMismatch("the log does not begin with this season's creation")
    at = 1
    while at < len(log):
        event = log[at]
        if not _leads(event):
            raise ReplayMismatch(f"event {at + 1} ({event.type}) follows no step")
        try:
            stepped = STEPS[event.type](settings, state, event.data, results)
        except KeyError as missing:
            raise ReplayMismatch(f"event {at + 1} ({event.type}) needs match {missing}'s result") from None
        recorded = tuple(log[at : at + len(stepped.events)])
        if not stepped.events or stepped.events != recorded:
            raise ReplayMismatch(f"event {at + 1} ({event.type}) does not replay", [_difference(stepped, recorded)])
        state, at = stepped.state, at + len(recorded)
    return state


def _difference(stepped: Stepped, recorded: tuple[SeasonEvent, ...]) -> Reason:
    """The first event the replay and the log disagree on, both sides."""
    pairs = list(zip(stepped.events, recorded, strict=False))
    index = next((i for i, (mine, theirs) in enumerate(pairs) if mine != theirs), len(pairs))
    mine = stepped.events[index] if index < len(stepped.events) else None
    theirs = recorded[index] if index < len(recorded) else None
    said = [f"{e.type} {e.data}" if e else "nothing" for e in (mine, theirs)]
    return Reason("replay_mismatch", f"replayed {said[0]}, the log has {said[1]}")


_FOLLOWING = frozenset(
    {"season_created", "spending_open", "no_replacement", "replacement_tie", "ec_unopposed", "death_matches_set"}
    | {"eliminated", "episode_ended", "ec_replaced"}
)
"""Events a step writes after its leading one (kept for the comparison)."""
