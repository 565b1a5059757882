"""The season machine's steps (cli/season_asl.py), each one use case on the stored season.

`advance` applies whatever has become due, one transition of the season's rules at a time
(game_core.season), each written conditionally on the version it read: a match that ended (its
result), a deadline passed (spending closed, a lot drawn), the next episode or the Finals to begin
or a Death Match to start (its id recorded before it is created). Then it says which stage the
season is in and how long to wait (`progress`), which the ASL's Choice routes on.

The waits (`wait_for_match`, `wait_for_people`) keep their task token where the waker finds it
(service/season/waits.py) and then look once more at what they wait for: a match created here if it
is not yet (its id is the season's and its slot's, so a retried step finds it), or already over,
wakes the wait at once; so does a wait the season has moved past (a stale route). Nothing here
changes the season twice: a step run again finds its transition applied and writes nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import Field

from game_core.errors import Conflict, NotFound
from game_core.games.protocol import Model
from game_core.match.model import Match, MatchRequest
from game_core.season import death_match, episode, naming, requests
from game_core.season.errors import MatchUndecided
from game_core.season.settings import SeasonSettings
from game_core.season.state import SeasonState, Stepped
from game_core.season.waiting import Waiting, pending
from game_core.service.matches.lifecycle import opening_notices, store_new_match
from game_core.service.ports import Ports
from game_core.service.season import alerts as season_alerts
from game_core.service.season import hooks as season_hooks
from game_core.service.season import news as season_news
from game_core.service.season import stages
from game_core.service.season.lifecycle import apply
from game_core.service.season.ports import SeasonStore, StoredSeason
from game_core.service.telling.channels import tell

RECHECK_SECONDS = 86_400
"""How long a wait on a match, or on the host, sleeps before it looks again by itself (a lost
wake costs a day at most, and three transitions a day)."""
MOST_CHANGES_PER_STEP = 40
"""A bound on the transitions one `advance` applies in a row (a season's episode has a handful)."""
Transition = Callable[[SeasonSettings, SeasonState], Stepped]


class MatchStalled(Exception):
    """The match a season waits on stopped (its execution stalled): the season stalls too (the
    ASL never retries this error); the host's season `recover` recovers the match and the season."""


class SeasonStep(Model):
    """What the season's state machine sends to the season-step function."""

    step: Literal["advance", "match", "people", "death_match", "stalled"]
    season_id: str = Field(min_length=1, max_length=64)
    version: int = 0
    """The season's version its Advance read (a people wait wakes at once if it has changed)."""
    stage: str | None = None
    token: str | None = None
    match_id: str | None = Field(default=None, pattern=r"^m-[0-9a-f]{12}$")
    error: dict[str, Any] | None = None


def run_season_step(ports: Ports, step: SeasonStep) -> dict[str, Any]:
    if step.step == "advance":
        return advance(ports, step.season_id)
    if step.step == "stalled":
        return stalled(ports, step.season_id, step.error or {})
    assert step.token, "a wait step needs its task token"
    if step.step == "people":
        wait_for_people(ports, step.season_id, step.token, step.version)
    else:
        wait_for_match(ports, step.season_id, step.token, step.match_id)
    return {}


def season_match_id(season_id: str, slot: str) -> str:
    """A season's match id, the same for the same season and slot ("e2-main", "e2-dm-ada",
    "finals"), in the form of every match id (m- and 12 hex digits)."""
    return "m-" + hashlib.sha256(f"{season_id}/{slot}".encode()).hexdigest()[:12]


# -- advance -----------------------------------------------------------------------------------------


def advance(ports: Ports, season_id: str) -> dict[str, Any]:
    """Apply every transition due, then say where the season stands (`progress`)."""
    for _change in range(MOST_CHANGES_PER_STEP):
        record = store(ports).season(season_id)
        transition = due(ports, record)
        if transition is None:
            season_news.announce(ports, record)  # everyone told what the steps so far did
            if not paused(ports, season_id):
                season_alerts.alert_naming_turn(ports, record.state, *deadlines(record))
                season_alerts.alert_unplayable(ports, record.settings, record.state)
            return progress(ports, record)
        try:
            apply(store(ports), ports.clock, season_id, transition)
        except (Conflict, MatchUndecided):
            continue  # another step or act changed it meanwhile: look again
    return progress(ports, store(ports).season(season_id))


def store(ports: Ports) -> SeasonStore:
    assert ports.seasons is not None, "seasons run where their store is"
    return ports.seasons


def due(ports: Ports, record: StoredSeason) -> Transition | None:
    """The one transition the season is due now, if any."""
    state, settings = record.state, record.settings
    waits = pending(state)
    if not waits:
        return _next(settings, state)
    for waiting in waits:
        transition = _due_of(ports, record, waiting)
        if transition is not None:
            return transition
    return None


def _next(settings: SeasonSettings, state: SeasonState) -> Transition | None:
    coming = death_match.next_step(state, settings)
    if coming.kind == "episode":
        main = season_match_id(state.season_id, f"e{coming.number}-main")
        return lambda _, s: episode.start_episode(s, coming.number, main)
    if coming.kind == "finals":
        finals = season_match_id(state.season_id, "finals")
        return lambda settings, s: death_match.start_finals(s, settings, finals)
    return None


def _due_of(ports: Ports, record: StoredSeason, waiting: Waiting) -> Transition | None:
    state = record.state
    if waiting.kind == "death_match" and waiting.match_id is None:
        ec, number = waiting.who[0], len(state.episodes)
        started = season_match_id(state.season_id, f"e{number}-dm-{ec}")
        return lambda _, s: death_match.start_death_match(s, ec, started)
    if waiting.kind in ("main_match", "death_match", "finals") and waiting.match_id:
        result = _result(ports, waiting.match_id)
        if result is None:
            return None
        match_id = waiting.match_id
        if waiting.kind == "main_match":
            return lambda settings, s: episode.main_match_ended(s, settings, match_id, result)
        if waiting.kind == "death_match":
            return lambda _, s: death_match.death_match_ended(s, match_id, result)
        return lambda _, s: death_match.finals_ended(s, match_id, result)
    if waiting.kind in ("spend", "naming") and not paused(ports, state.season_id):
        ec_deadline, host_deadline = deadlines(record)
        now = ports.clock.now()
        if waiting.kind == "spend" and now >= ec_deadline:
            return lambda _, s: episode.close_spending(s)
        ec = waiting.who[0]
        if waiting.kind == "naming" and now >= host_deadline:
            return lambda _, s: naming.draw_lot(s, ec)
    return None


def _result(ports: Ports, match_id: str) -> dict[str, Any] | None:
    """The match's result once it has finished and is announced (None until then)."""
    try:
        match = ports.store.get(match_id)
    except NotFound:
        return None
    if match.status != "finished" or match.result is None or match.announced < match.phases_resolved:
        return None
    return match.result


def paused(ports: Ports, season_id: str) -> bool:
    return ports.season_links is not None and ports.season_links.paused_at(season_id) is not None


def deadlines(record: StoredSeason) -> tuple[datetime, datetime]:
    """When the turn open now passes to the host (an EC's `naming_hours` after it opened: when the
    season's waits last changed), and when the host's turn passes to a lot (`host_hours` more)."""
    opened = record.state.opened_at
    assert opened is not None, "a stored season has opened its waits"
    ec = opened + timedelta(hours=record.settings.naming_hours)
    return ec, ec + timedelta(hours=record.settings.host_hours)


# -- where the season stands ---------------------------------------------------------------------


def progress(ports: Ports, record: StoredSeason) -> dict[str, Any]:
    """The stage the ASL routes on, how long its wait sleeps, and the Death Matches to wait for."""
    state = record.state
    where: dict[str, Any] = {
        "season_id": state.season_id,
        "version": state.version,
        "wait_seconds": RECHECK_SECONDS,
        "death_matches": [],
    }
    if state.stage in ("over", "cancelled"):
        return where | {"stage": stages.SEASON_OVER if state.stage == "over" else stages.SEASON_CANCELLED}
    waits = pending(state)
    kinds = {waiting.kind for waiting in waits}
    if _needs_host(ports, waits):
        return where | {"stage": stages.HOST}
    if "death_match" in kinds:
        items = [
            {
                "season_id": state.season_id,
                "stage": stages.DEATH_MATCHES,
                "match_id": w.match_id,
                "wait_seconds": RECHECK_SECONDS,
            }
            for w in waits
            if w.kind == "death_match"
        ]
        return where | {"stage": stages.DEATH_MATCHES, "death_matches": items}
    if kinds & {"spend", "naming"} and paused(ports, state.season_id):
        return where | {"stage": stages.NAMING}  # no deadline runs: an act, or the host's resume, wakes it
    if kinds & {"spend", "naming"}:
        ec_deadline, host_deadline = deadlines(record)
        now = ports.clock.now()
        # Spending closes at the EC's deadline; a naming passes to the host then, which changes
        # nothing stored (the host may name at any time), so its wait sleeps on to the lot's
        wake = ec_deadline if "spend" in kinds else host_deadline
        return where | {"stage": stages.NAMING, "wait_seconds": max(1, int((wake - now).total_seconds()))}
    if kinds & {"main_match", "finals"}:
        return where | {"stage": stages.MAIN_MATCH if "main_match" in kinds else stages.FINALS}
    return where | {"stage": stages.HOST}


def _needs_host(ports: Ports, waits: list[Waiting]) -> bool:
    """A match waited for has finished with a tie the host must decide (match-host decide), or was
    cancelled (the host cancels the season, or decides what the season does without it)."""
    for waiting in waits:
        if waiting.match_id and waiting.kind in ("main_match", "death_match", "finals"):
            try:
                match = ports.store.get(waiting.match_id)
            except NotFound:
                continue
            if match.status == "cancelled" or (match.status == "finished" and (match.result or {}).get("undecided")):
                return True
    return False


# -- the waits ------------------------------------------------------------------------------------


def wait_for_people(ports: Ports, season_id: str, token: str, version: int) -> None:
    """Keep the token for whoever acts next (an EC, the host); the wait sleeps until its deadline.
    An act stored since Advance read the season (`version`) found no token to wake, or an old one:
    this wait wakes at once instead."""
    assert ports.season_links is not None, "a season runs where its links are kept"
    ports.season_links.keep_token(season_id, token)
    if store(ports).season(season_id).state.version != version:
        ports.workflow.wake(token)


def wait_for_match(ports: Ports, season_id: str, token: str, match_id: str | None) -> None:
    """Create and start the match the season waits on if it is not yet, link the wait's token to
    it, and wake the wait at once if the match is over already (or the season has moved on)."""
    record = store(ports).season(season_id)
    match_id = match_id or _stage_match(record.state)
    if match_id is None or not _awaited(record.state, match_id):
        ports.workflow.wake(token)  # a stale route: Advance says where the season is
        return
    match = ensure_match(ports, record, match_id, token)
    if match.status != "running":
        ports.workflow.wake(token)
    elif match.stalled is not None:
        raise MatchStalled(f"match {match_id} has stalled ({match.stalled.get('error')}): recover the season")


def _stage_match(state: SeasonState) -> str | None:
    if state.stage == "finals":
        return state.finals_match_id
    current = state.episode
    return current.main_match_id if state.stage == "episode" and current and current.stage == "main_match" else None


def _awaited(state: SeasonState, match_id: str) -> bool:
    return any(w.match_id == match_id for w in pending(state))


def ensure_match(ports: Ports, record: StoredSeason, match_id: str, token: str) -> Match:
    """The season's match `match_id`, created and started now if it is not yet (its players seated
    with their season secrets' hashes, its id the season's for its slot), and linked to the wait's
    `token`. The link is written last, as the mark that the match's start is complete (`tell`'s
    `then`): a step failing before it (after the match was stored) is retried and completes the
    start, the execution started once (a second start finds it) and each opening notice told once
    (what a failed telling had sent is remembered and skipped)."""
    links = ports.season_links
    assert links is not None, "a season runs where its links are kept"
    try:
        match = ports.store.get(match_id)
    except NotFound:
        request = MatchRequest.model_validate(_request(record, match_id))
        fixed = replace(ports, ids=_FixedMatchId(ports.ids, match_id))
        season = record.state.season_id
        signing = season_hooks.cast_secrets(ports, season, list(request.webhooks))
        # Every player holds their season secret and signing secret: nothing new to tell.
        match, _told_once = store_new_match(fixed, request, record.state.secret_hashes, signing, season)
    link = links.linked(match_id)
    season_id = record.state.season_id
    if (link is not None and link.opened) or match.phases_resolved > 0 or match.status != "running":
        links.link(match_id, season_id, token)
        return match
    if not ports.mailer.domain:
        ports.notifier.subscribe(match)  # SNS mails each address its notices (as create_match does)
    ports.workflow.start(match)
    tell(ports, match, opening_notices(match), then=lambda: links.link(match_id, season_id, token))
    return match


def _request(record: StoredSeason, match_id: str) -> dict[str, Any]:
    """The settings file of the season's match `match_id` (season/requests.py)."""
    state, settings = record.state, record.settings
    if match_id == state.finals_match_id:
        return requests.finals_request(settings, state)
    current = state.episode
    assert current is not None, f"season {state.season_id} has no match {match_id}"
    if match_id == current.main_match_id:
        return requests.main_request(settings, state, current.number)
    fight = current.death_match(match_id)
    assert fight is not None, f"season {state.season_id} has no match {match_id}"
    return requests.death_match_request(settings, state, current.number, fight)


class _FixedMatchId:
    """The ids port, but the match id is the season's for its slot (`season_match_id`)."""

    def __init__(self, ids: Any, match_id: str) -> None:
        self._ids, self._match_id = ids, match_id

    def match_id(self) -> str:
        return self._match_id

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ids, name)


# -- stalled ----------------------------------------------------------------------------------------


def stalled(ports: Ports, season_id: str, error: dict[str, Any]) -> dict[str, Any]:
    """Tell the host why the season stopped, and that `recover` resumes it (the season stays as
    stored). Before its first match there is no match to name: the machine's failed-execution
    alarm, on the same topic, tells the host then."""
    state = store(ports).season(season_id).state
    reason = {"error": str(error.get("Error", "unknown"))[:200], "cause": str(error.get("Cause", ""))[:500]}
    current = _stage_match(state) or next((w.match_id for w in pending(state) if w.match_id), None)
    if current is None and state.episode is not None:
        current = state.episode.main_match_id
    if current is not None:
        subject = f"[{season_id}] the season has stopped: run `match-host season recover {season_id}`"
        ports.notifier.alert_host(ports.store.get(current), subject, {"season_id": season_id, "stalled": reason})
    return {"season_id": season_id, "stalled": reason}
