"""The host's alerts for an EC's naming turn, and for a match that cannot begin.

The season machine does not wake when an EC's naming deadline passes (the pick then passes to the
host, which changes nothing stored: waking for it would cost three transitions an episode), so
the host cannot be alerted at that instant. Instead the host is alerted once when the turn opens
(the season's Advance runs then anyway), with both instants: when the EC's time ends and the
host's own turn begins, and when a lot names the opponent if the host is silent too."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from game_core.errors import NotFound
from game_core.match.clock import iso
from game_core.season.settings import SeasonSettings
from game_core.season.state import SeasonState
from game_core.season.waiting import pending, says, waits_now
from game_core.service.ports import Ports
from game_core.service.telling.notices import told_key


def alert_naming_turn(ports: Ports, state: SeasonState, ec_deadline: datetime, host_deadline: datetime) -> bool:
    """Alert the host, once per naming turn, that an EC names now and when the pick passes to
    them and then to a lot (on the episode's Main Match's alert channel); True when alerted now."""
    turn = next((w for w in pending(state) if w.kind == "naming"), None)
    episode = state.episode
    if turn is None or episode is None or state.opened_at is None:
        return False
    ec, season_id = turn.who[0], state.season_id
    subject = f"[{season_id}] {ec} names an opponent by {iso(ec_deadline)}; then you may, until {iso(host_deadline)}"
    body = {
        "season_id": season_id,
        "episode": episode.number,
        "ec": ec,
        "among": list(turn.among),
        "ec_deadline": iso(ec_deadline),
        "host_deadline": iso(host_deadline),
        "then": "a lot names the opponent",
        "decide": f"match-host season decide {season_id} PLAYER",
    }
    once = f"{season_id}/naming/{episode.number}/{ec}/{iso(state.opened_at)}"
    return _alert_once(ports, episode.main_match_id, once, subject, body)


def alert_unplayable(ports: Ports, settings: SeasonSettings, state: SeasonState) -> bool:
    """Alert the host, once, that the next match cannot begin: its game does not take the players
    left (the settings' projection is checked at creation; a tie can still keep more in). The
    season waits for the host, who can only cancel it; True when alerted now."""
    stop = next((w for w in waits_now(settings, state) if w.kind == "unplayable"), None)
    episode = state.episode
    if stop is None or episode is None:
        return False
    season_id = state.season_id
    coming = f"episode {stop.episode}" if stop.episode else "the Finals"
    subject = f"[{season_id}] {coming} cannot begin: {stop.why}"
    body = {"season_id": season_id, "episode": stop.episode, "players": list(stop.among)}
    body["what_to_do"] = says(stop, season_id)
    return _alert_once(ports, episode.main_match_id, f"{season_id}/unplayable/{stop.episode}", subject, body)


def _alert_once(ports: Ports, match_id: str, once: str, subject: str, body: dict[str, Any]) -> bool:
    """The alert on match `match_id`'s alert channel, unless told already under `once` (a retried
    Advance); True when alerted now."""
    key = told_key(once)
    try:
        match = ports.store.get(match_id)
    except NotFound:
        return False
    if key in match.told:
        return False
    ports.notifier.alert_host(match, subject, body)
    ports.store.remember_told(match.match_id, frozenset({key}))
    return True
