"""The host's alert for an EC's naming turn.

The season machine does not wake when an EC's naming deadline passes (the pick then passes to the
host, which changes nothing stored: waking for it would cost three transitions an episode), so
the host cannot be alerted at that instant. Instead the host is alerted once when the turn opens
(the season's Advance runs then anyway), with both instants: when the EC's time ends and the
host's own turn begins, and when a lot names the opponent if the host is silent too."""

from __future__ import annotations

from datetime import datetime

from game_core.errors import NotFound
from game_core.match.clock import iso
from game_core.season.state import SeasonState
from game_core.season.waiting import pending
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
    key = told_key(f"{season_id}/naming/{episode.number}/{ec}/{iso(state.opened_at)}")
    try:
        match = ports.store.get(episode.main_match_id)
    except NotFound:
        return False
    if key in match.told:
        return False  # a retried Advance: alerted already
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
    ports.notifier.alert_host(match, subject, body)
    ports.store.remember_told(match.match_id, frozenset({key}))
    return True
