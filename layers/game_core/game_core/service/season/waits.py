"""How a season waits on its matches and its people: the task tokens of the season machine's
waits (cli/season_asl.py), kept where the waker finds them.

A season's match is linked to the season by the token of the wait for it (`SeasonLinks.link`):
the match's last step (phase_step's advance once the match is over or cancelled, or its stalled
step) sends that token back, so the season goes on as soon as the match ends and stalls as soon as
the match does. A wait on people (an EC's naming, the host's decision) keeps its token with the
season (`keep_token`), and each act wakes it. A token may be sent twice (a retried step, a wake
racing the wait's own check): the second finds the wait over and is ignored (`Workflow.wake`).
"""

from __future__ import annotations

import json
from typing import Any

from game_core.service.ports import Ports
from game_core.service.season.stages import MATCH_STALLED


def match_ended(ports: Ports, match_id: str) -> bool:
    """Wake the season waiting for this match (whose execution is over or cancelled), if any."""
    link = ports.season_links.linked(match_id) if ports.season_links else None
    if link is None:
        return False
    ports.workflow.wake(link.token)
    return True


def match_stalled(ports: Ports, match_id: str, error: dict[str, Any]) -> bool:
    """Stall the season waiting for this match: its wait fails with MATCH_STALLED, and the host,
    told by the season's Stalled step, recovers the season (which recovers the match)."""
    link = ports.season_links.linked(match_id) if ports.season_links else None
    if link is None:
        return False
    cause = json.dumps({"match_id": match_id, "error": error.get("Error", "")})
    ports.workflow.fail(link.token, MATCH_STALLED, cause)
    return True


def match_decided(ports: Ports, match_id: str) -> bool:
    """The host decided a tie the match's result left: the season waiting on the host reads it."""
    link = ports.season_links.linked(match_id) if ports.season_links else None
    return link is not None and wake_season(ports, link.season_id)


def wake_season(ports: Ports, season_id: str) -> bool:
    """Wake the season's current wait on people (an EC named, the host decided, ...)."""
    token = ports.season_links.token(season_id) if ports.season_links else None
    if token is None:
        return False
    ports.workflow.wake(token)
    return True
