"""Which matches an SMTP login names a participant of (`access.Authenticator`).

A login is a participant's id or e-mail address; the mail port used to read every match to find
where it plays, on the SMTP server's one event loop, so at 50 matches a login took seconds and
logins queued behind it (issue 32's load benchmark). This index maps each id and address (in
lower case) to the matches whose header names it, kept from the table itself: the host server's
journal (`table_file.TableFile`) hands it every match header as loaded at start and as each
write leaves it, so a match created, a seat given to another player (`replace`), or a header
gone is reflected by the write that made it, whichever code path wrote it. The login then reads
only the matches the index names, and checks the secret against each as stored.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from typing import Any

from game_core.errors import NotFound
from game_core.match.model import Match
from game_core.service.ports import MatchStore

HEADER = "META"
MATCH_PREFIX = "MATCH#"

Change = tuple[tuple[str, str], dict[str, Any] | None]
"""An item's key (pk, sk) and the item as a write left it (wire format), None when gone."""


def login_names(header_match: str) -> frozenset[str]:
    """The logins a match header's `match` attribute names: each player's id and e-mail address,
    in lower case."""
    players = json.loads(header_match).get("players", [])
    names = {str(player["id"]).lower() for player in players}
    names |= {str(player["email"]).strip().lower() for player in players if player.get("email")}
    return frozenset(names)


def reader(store: MatchStore) -> Callable[[str], Match | None]:
    """A match by its id as `store` holds it, None when it holds none."""

    def read(match_id: str) -> Match | None:
        try:
            return store.get(match_id)
        except NotFound:
            return None

    return read


class LoginIndex:
    """Login name -> the ids of the matches naming it. `changed` is a `TableFile` watcher."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._headers: dict[str, tuple[str, frozenset[str]]] = {}
        """Each match's header text as last seen, and the names it gave."""
        self._matches: dict[str, set[str]] = {}

    def changed(self, changes: Iterable[Change]) -> None:
        for (pk, sk), item in changes:
            if sk == HEADER and pk.startswith(MATCH_PREFIX):  # an item without the match names no one
                text = (item or {}).get("match", {}).get("S")
                self._header(pk.removeprefix(MATCH_PREFIX), text if isinstance(text, str) else None)

    def _header(self, match_id: str, text: str | None) -> None:
        with self._lock:
            before = self._headers.get(match_id)
            if before is not None and before[0] == text:
                return  # most writes to a header (a submission's `done`) leave the match as it was
            gone = before[1] if before is not None else frozenset()
            now = login_names(text) if text is not None else frozenset()
            for name in gone - now:
                self._matches[name].discard(match_id)
                if not self._matches[name]:
                    del self._matches[name]
            for name in now - gone:
                self._matches.setdefault(name, set()).add(match_id)
            if text is None:
                self._headers.pop(match_id, None)
            else:
                self._headers[match_id] = (text, now)

    def matches(self, login: str) -> list[str]:
        """The ids of the matches whose header names `login` (an id or an address, any case)."""
        with self._lock:
            return sorted(self._matches.get(login.strip().lower(), ()))

    def candidates(self, read: Callable[[str], Match | None]) -> Callable[[str], list[Match]]:
        """`Authenticator`'s candidates: the matches naming a login, each read with `read`."""
        return lambda login: [match for match in map(read, self.matches(login)) if match is not None]
