"""The page's session: a cookie naming the match and the participant, signed with their secret's
hash, and the form token that proves a POST came from the page itself.

The cookie is `<participant>.<issued>.<mac>`, the MAC an HMAC-SHA256 keyed by the participant's
stored secret hash over the match, the participant and when it was issued. So:
- the secret itself never leaves the one POST that exchanges it (a URL's fragment is never sent);
- a leaked cookie lets its holder use this match's page as that participant until it expires
  (`MAX_AGE`) or the secret is reissued, never the webhook or mail, and it reveals no secret;
- reissuing the secret (the host's `reissue-secret`, a replacement) changes the hash, and every
  cookie made from the old one stops matching at once: nothing to revoke one by one.
Checking a cookie needs only the match header, which the page reads anyway: no AWS call more.

The form token (`csrf`) is an HMAC of the cookie under the same key: a page of another site can
neither read it nor, the cookie being SameSite=Strict, get the cookie sent at all.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import datetime

from game_core.match.model import Match, secret_hash

MAX_AGE = 30 * 86_400
"""A session lasts 30 days (longer than any match's phase); then the secret is asked again."""
COOKIE_PREFIX = "genius_"
"""The cookie of match m-... is `genius_m-...`: one session per match, each scoped to its path."""
_FORM = re.compile(r"^([A-Za-z0-9_.-]{1,40})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$")


def cookie_name(match_id: str) -> str:
    return COOKIE_PREFIX + match_id


def _mac(key_hash: str, purpose: str, text: str) -> str:
    digest = hmac.new(key_hash.encode(), f"{purpose}|{text}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


@dataclass(frozen=True)
class Session:
    match_id: str
    participant: str
    cookie: str
    """The cookie's value, as set and as sent back."""
    csrf: str
    """The token every form of this session's page carries: an HMAC of the cookie under the same
    key (a new secret or a new session, a new token; the page shows it, never the cookie)."""


def issue(match: Match, participant: str, now: datetime) -> Session:
    """A new session for `participant` (already authenticated by their secret)."""
    found = match.participant(participant)
    assert found is not None
    issued = str(int(now.timestamp()))
    mac = _mac(found.secret_hash, "session", f"{match.match_id}|{participant}|{issued}")
    return _session(match.match_id, participant, f"{participant}.{issued}.{mac}", found.secret_hash)


def claimed(cookie: str | None) -> str | None:
    """The participant a cookie claims, unchecked: whose standing to read, before
    `participant_of` checks the cookie against the match read (an id may hold dots: the last two
    parts are the cookie's own)."""
    parts = (cookie or "").rsplit(".", 2)
    return parts[0] if len(parts) == 3 and 0 < len(parts[0]) <= 40 else None


def participant_of(match: Match, cookie: str | None, now: datetime) -> Session | None:
    """The session `cookie` carries for `match`, if it is one this match signed for a participant
    whose secret is still the one it was signed with, and is not expired; else None."""
    found = _FORM.fullmatch(cookie or "")
    if found is None:
        return None
    participant_id, issued, mac = found.groups()
    participant = match.participant(participant_id)
    if participant is None or not 0 <= now.timestamp() - int(issued) <= MAX_AGE:
        return None
    expected = _mac(participant.secret_hash, "session", f"{match.match_id}|{participant_id}|{issued}")
    if not hmac.compare_digest(expected, mac):
        return None
    return _session(match.match_id, participant_id, cookie or "", participant.secret_hash)


def _session(match_id: str, participant: str, cookie: str, key_hash: str) -> Session:
    return Session(match_id, participant, cookie, _mac(key_hash, "form", cookie))


def whose_secret(match: Match, secret: str) -> str | None:
    """The participant whose secret this is, or None (every hash compared, in constant time each)."""
    hashed = secret_hash(secret)
    owners = [p.id for p in match.players if hmac.compare_digest(p.secret_hash, hashed)]
    return owners[0] if owners else None


def form_is_ours(session: Session, token: str) -> bool:
    return hmac.compare_digest(session.csrf, token)
