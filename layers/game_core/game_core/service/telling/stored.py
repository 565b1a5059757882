"""A stored act told once: the host's, an absence's, a grace's hold, a setting of press. The act
stands whatever fails in the telling; a failed tell is kept with the match (`Untold.mark`), so the
same act sent again tells only the rest.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from game_core.match.model import Match
from game_core.service.ports import Notice, Ports
from game_core.service.telling.channels import tell
from game_core.service.telling.notices import Untold

logger = logging.getLogger(__name__)


def tell_stored(
    ports: Ports,
    saved: Match,
    notices: list[Notice] | Callable[[], list[Notice]],
    act: Untold,
    sent_again: str,
) -> dict[str, Any]:
    """Tell a stored act (the host's, an absence's); it stands whatever fails here, and the reply
    says so. A failed tell of the `act` (its version and log entry) is kept with the match
    (`Untold.mark`, beside what it did send), so the same act sent again (`Untold.repeat`, its
    `notices` built under that version) tells only the rest, then marks all told: a third sends nothing.
    `notices` built here (a callable) fail as the tell does: a decision's reads the log."""
    repeat = act.repeat
    done = act.all_told(saved.match_id)
    if repeat and done in saved.told:
        return {}

    def all_told() -> None:
        if repeat:  # a first tell that goes through costs no write: no mark says it failed
            ports.store.remember_told(saved.match_id, frozenset({done}))

    try:
        tell(ports, saved, notices() if callable(notices) else notices, then=all_told)
    except Exception as error:  # the act is stored; only its notice is lost
        logger.warning("act notice not sent", extra={"match_id": saved.match_id, "error": type(error).__name__})
        if not (repeat or kept(ports, saved.match_id, act)):
            return {"notice_sent": False}
        warning = f"stored, but not everyone was told: send the same {sent_again} again to tell the rest"
        return {"notice_sent": False, "warning": warning + " (it is not applied twice)"}
    return {}


def kept(ports: Ports, match_id: str, act: Untold) -> bool:
    """Whether the mark of an act left untold is stored (else no repeat could find it)."""
    try:
        ports.store.remember_told(match_id, frozenset({act.mark}))
    except Exception as error:  # the store unavailable as well: the reply promises no repeat
        logger.warning("untold act not kept", extra={"match_id": match_id, "error": type(error).__name__})
        return False
    return True
