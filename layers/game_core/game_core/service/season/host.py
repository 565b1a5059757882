"""The host's acts on a season: create it (and start its machine), its status, decide in place of a
silent EC or a lot (or break a tie the rules leave to the host), extend the naming deadline,
cancel, and recover a season whose machine stopped.

Every act is one conditional write of the season (service/season/lifecycle.apply: sent again, it finds
itself done and writes nothing) and then wakes the season's machine (service/season/waits.py),
which reads the season afresh and goes on from it.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from game_core.errors import Conflict, NotFound, NotOpen
from game_core.match.clock import iso
from game_core.season import death_match, episode, naming
from game_core.season.errors import NotNow
from game_core.season.settings import SeasonSettings, read_settings
from game_core.season.state import SeasonEvent, SeasonState, Stepped, copy
from game_core.season.waiting import Waiting, as_json, pending, says, waits_now
from game_core.service.host import powers as host
from game_core.service.matches import handover
from game_core.service.ports import Ports
from game_core.service.season import hooks as season_hooks
from game_core.service.season import machine as season_machine
from game_core.service.season import waits as season_waits
from game_core.service.season.lifecycle import Step, apply, create_season
from game_core.service.season.machine import deadlines, store
from game_core.service.season.ports import SeasonLinks, StoredSeason

RECOVER_GRACE_SECONDS = 3600
"""How long a naming or spending turn whose deadline passed while the season was stopped stays
open after `recover` (the mail queue's tries are hourly by then; the laptop's restart grace)."""


def create(ports: Ports, data: Any, season_id: str | None = None) -> dict[str, Any]:
    """A season from the host's settings (named `season_id`, or a new id), and its machine
    started: each player's secret is told once (every match of the season takes it)."""
    settings = read_settings(data)
    season_id = season_id or f"s-{ports.ids.match_id().removeprefix('m-')}"
    if _exists(ports, season_id):
        raise Conflict(f"season {season_id} exists already")
    hook_secrets = season_hooks.subscribe_cast(ports, settings, season_id)
    created = create_season(store(ports), ports.clock, ports.ids, data, season_id)
    reply: dict[str, Any] = {"season_id": season_id, "secrets": created.secrets}
    if hook_secrets:
        reply["webhook_secrets"] = hook_secrets
    try:
        reply["execution"] = ports.workflow.start_season(season_id)
    except Exception as error:  # an AWS failure after the season was stored: recover starts it
        reply["warnings"] = [
            f"the season is created, but its machine did not start ({type(error).__name__}): run recover"
        ]
    return reply


def _exists(ports: Ports, season_id: str) -> bool:
    try:
        store(ports).season(season_id)
    except NotFound:
        return False
    return True


def status(ports: Ports, season_id: str) -> dict[str, Any]:
    """Where the season stands: who is left (ToL held), the episodes so far, what it waits on."""
    stored = store(ports).season(season_id)
    state = stored.state
    paused = _links(ports).paused_at(season_id) is not None
    return {
        "season_id": season_id,
        "stage": state.stage,
        "champion": state.champion,
        "left": [{"id": p.id, "tol": p.tol, "finalist": p.finalist_in is not None} for p in state.players if p.left],
        "eliminated": {p.id: p.eliminated_in for p in state.players if not p.left},
        "episodes": [
            e.model_dump(mode="json", include={"number", "main_match_id", "stage", "ecs", "death_matches"})
            for e in state.episodes
        ],
        "waiting": [_until(stored, wait, paused) for wait in waits_now(stored.settings, state)],
        "opened_at": state.opened_at.isoformat() if state.opened_at else None,
        "paused": paused,
    }


def _until(stored: StoredSeason, wait: Waiting, paused: bool) -> dict[str, Any]:
    """The wait as the status shows it, with its deadlines where it has some (an EC's spending and
    naming: their own, then the host's before a lot names; none run while the season is paused)."""
    shown = as_json(wait, stored.state.season_id)
    if wait.kind in ("spend", "naming") and not paused:
        ec_until, host_until = deadlines(stored)
        shown["until"] = iso(ec_until)
        if wait.kind == "naming":
            shown["host_until"] = iso(host_until)
    return shown


def decide(ports: Ports, season_id: str, player: str, match_id: str | None = None) -> dict[str, Any]:
    """The host acts where the season waits on them or on a silent EC: names `player` as the
    opponent of the EC whose turn it is, picks `player` among those tied for EC or champion, or
    names `player` the loser of the tied Death Match (`match_id` when several are tied)."""
    stored = store(ports).season(season_id)
    waiting = _decidable(waits_now(stored.settings, stored.state), match_id, season_id)
    after = apply(store(ports), ports.clock, season_id, _decision(waiting, player))
    season_waits.wake_season(ports, season_id)
    return {"season_id": season_id, "decided": waiting.kind, "player": player, "version": after.version}


def _decidable(waits: list[Waiting], match_id: str | None, season_id: str) -> Waiting:
    kinds = ("naming", "replacement_tie", "death_match_tie", "champion_tie")
    found = [w for w in waits if w.kind in kinds and (match_id is None or w.match_id == match_id)]
    if not found:
        waiting = "; ".join(f"{w.kind}, {says(w, season_id)}" for w in waits) or "nothing"
        raise NotNow(f"the season waits on nothing the host decides (it waits on: {waiting})")
    if len(found) > 1:
        raise NotNow(f"several ties wait for the host: name the Death Match ({[w.match_id for w in found]})")
    return found[0]


def _decision(waiting: Waiting, player: str) -> Step:
    if waiting.kind == "naming":
        ec = waiting.who[0]
        return lambda _, s: naming.name_opponent(s, ec, player, by="host")
    if waiting.kind == "replacement_tie":
        return lambda _, s: episode.decide_replacement(s, player)
    if waiting.kind == "death_match_tie":
        tied = waiting.match_id or ""
        return lambda _, s: death_match.decide_death_match(s, tied, player)
    return lambda _, s: death_match.decide_champion(s, player)


def extend(ports: Ports, season_id: str, seconds: int) -> dict[str, Any]:
    """Put off the deadlines of the season's current wait (an EC's naming, the host's) by `seconds`."""
    after = apply(store(ports), ports.clock, season_id, _put_off(seconds))
    season_waits.wake_season(ports, season_id)
    return {"season_id": season_id, "opened_at": after.opened_at.isoformat() if after.opened_at else None}


def _put_off(seconds: int, **said: Any) -> Step:
    """The current wait's deadlines `seconds` later, logged as an extension (with `said`)."""

    def later(_: SeasonSettings, state: SeasonState) -> Stepped:
        after = copy(state)
        assert state.opened_at is not None, "a stored season has opened its waits"
        after.opened_at = state.opened_at + timedelta(seconds=seconds)
        return Stepped(after, (SeasonEvent("extended", {"seconds": seconds, **said}),))

    return later


def pause(ports: Ports, season_id: str) -> dict[str, Any]:
    """The season's deadlines stop (an EC's naming, the host's turn) and so does each of its
    matches running; everyone is told by each match, and the season's log keeps it."""
    links = _links(ports)
    if links.paused_at(season_id) is None:
        now = ports.clock.now()
        apply(store(ports), ports.clock, season_id, lambda _, s: Stepped(copy(s), (SeasonEvent("paused", {}),)))
        links.set_paused(season_id, now)
    state = store(ports).season(season_id).state
    paused = [match_id for match_id in _running_matches(ports, state) if _quietly(host.pause, ports, match_id)]
    season_waits.wake_season(ports, season_id)
    return {"season_id": season_id, "paused": True, "matches_paused": paused}


def resume(ports: Ports, season_id: str) -> dict[str, Any]:
    """The season's deadlines run again, put off by as long as it was paused; its matches resume."""
    links = _links(ports)
    since = links.paused_at(season_id)
    if since is not None:
        held = int((ports.clock.now() - since).total_seconds())

        def resumed(_: SeasonSettings, state: SeasonState) -> Stepped:
            after = copy(state)
            after.opened_at = (state.opened_at or since) + timedelta(seconds=held)
            return Stepped(after, (SeasonEvent("resumed", {"paused_seconds": held}),))

        apply(store(ports), ports.clock, season_id, resumed)
        links.set_paused(season_id, None)
    state = store(ports).season(season_id).state
    resumed_matches = [m for m in _running_matches(ports, state) if _quietly(host.resume, ports, m)]
    season_waits.wake_season(ports, season_id)
    return {"season_id": season_id, "paused": False, "matches_resumed": resumed_matches}


def _quietly(act: Any, ports: Ports, match_id: str) -> bool:
    """The act on the match, False when it has nothing to do (paused already, or not paused)."""
    try:
        act(ports, match_id)
    except NotOpen:
        return False
    return True


def _links(ports: Ports) -> SeasonLinks:
    assert ports.season_links is not None, "a season runs where its links are kept"
    return ports.season_links


def cancel(ports: Ports, season_id: str) -> dict[str, Any]:
    """Nothing more is played: the season is cancelled, and so is each of its matches still running."""
    after = apply(store(ports), ports.clock, season_id, lambda _, s: death_match.cancel(s))
    cancelled = []
    for match_id in _running_matches(ports, after):
        host.cancel(ports, match_id)
        cancelled.append(match_id)
    season_waits.wake_season(ports, season_id)
    return {"season_id": season_id, "stage": after.stage, "matches_cancelled": cancelled}


def _running_matches(ports: Ports, state: SeasonState) -> list[str]:
    ids = [state.finals_match_id] if state.finals_match_id else []
    if state.episode is not None:
        ids += [state.episode.main_match_id, *(dm.match_id for dm in state.episode.death_matches if dm.match_id)]
    running = []
    for match_id in dict.fromkeys(i for i in ids if i):
        try:
            if ports.store.get(match_id).status == "running":
                running.append(match_id)
        except NotFound:
            continue  # its slot is recorded, the match not created yet: nothing to cancel
    return running


def recover(ports: Ports, season_id: str) -> dict[str, Any]:
    """A new execution for a season whose machine stopped: each of its matches that stalled is
    recovered first, then the season goes on from what is stored."""
    assert ports.season_links is not None, "a season runs where its links are kept"
    attempt = ports.season_links.attempt(season_id)
    if ports.workflow.season_running(season_id, attempt):
        raise Conflict(f"the state machine of season {season_id} is running; there is nothing to recover")
    state = store(ports).season(season_id).state
    recovered = []
    for match_id in _running_matches(ports, state):
        match = ports.store.get(match_id)
        if match.stalled is not None or not handover.is_running(ports, match):
            host.recover(ports, match_id)
            recovered.append(match_id)
    reopened = reopen_overdue_turn(ports, season_id)
    ports.season_links.next_attempt(season_id, attempt)
    execution = ports.workflow.start_season(season_id, attempt + 1)
    reply = {"season_id": season_id, "execution": execution, "matches_recovered": recovered}
    return reply | ({"turn_reopened_until": reopened.isoformat()} if reopened else {})


def reopen_overdue_turn(ports: Ports, season_id: str) -> datetime | None:
    """A turn whose deadline passed while the season's machine was stopped (a running machine acts
    at the deadline: a turn still open past it passed while stopped, in an outage), put off to end
    `RECOVER_GRACE_SECONDS` from now; when it now ends. So an EC's act mailed during the outage,
    kept in the mail queue's retries (hourly by then) or its dead letters (`redrive-mail`), is
    taken before the lot is drawn or the spending closes, and the host may still decide."""
    record = store(ports).season(season_id)
    kinds = {waiting.kind for waiting in pending(record.state)}
    if not kinds & {"spend", "naming"} or _links(ports).paused_at(season_id) is not None:
        return None
    ec_deadline, host_deadline = season_machine.deadlines(record)
    due = ec_deadline if "spend" in kinds else host_deadline  # the spending closes, or a lot names
    now = ports.clock.now()
    if due > now:
        return None
    seconds = math.ceil((now - due).total_seconds()) + RECOVER_GRACE_SECONDS
    apply(store(ports), ports.clock, season_id, _put_off(seconds, recovered=True))
    return due + timedelta(seconds=seconds)
