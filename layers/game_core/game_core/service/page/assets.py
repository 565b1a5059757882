"""The page's files, served by the service itself (no CDN): one style sheet, one script, and for a
game whose moves are made on its drawing, that game's own script (`<game id>.js`, linked from its
pages only, after page.js, whose `window.GeniusPage` it uses; Palindrome's (its bid in palindrome.js,
its construction in palindrome-build.js) and Clubs' after pickers.js, what their pickers share;
Domino's placing in domino.js, its bidding in domino-bid.js).
The host's page (bin/host-server) uses the first two too."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

FOLDER = Path(__file__).parent / "static"
SCRIPT = "text/javascript; charset=utf-8"
GAME_SCRIPTS = {
    "domino": ("domino.js", "domino-bid.js"),
    "abstrac": ("abstrac.js",),
    "palindrome": ("pickers.js", "palindrome.js", "palindrome-build.js"),
    "clubs": ("pickers.js", "clubs.js"),
}
"""The games whose moves are made on the drawing, each with its scripts, in order (pickers.js: what
the moves picked in a table or put in order share, Palindrome's bid and Clubs' draft; domino.js
places tiles, domino-bid.js bids on them)."""
TYPES = {"page.css": "text/css; charset=utf-8", "page.js": SCRIPT} | {
    name: SCRIPT for names in GAME_SCRIPTS.values() for name in names
}
"""Every asset by name, with its content type: nothing else in the folder is served."""


def scripts(game_id: str | None) -> tuple[str, ...]:
    """The scripts a page links, in order: page.js, then the game's own if it has any."""
    return ("page.js", *GAME_SCRIPTS.get(game_id or "", ()))


@cache
def asset(name: str) -> tuple[bytes, str] | None:
    """The asset's bytes and content type, or None for a name that is not one."""
    content_type = TYPES.get(name)
    if content_type is None:
        return None
    return (FOLDER / name).read_bytes(), content_type


@cache
def url(name: str) -> str:
    """The asset's address with its content's hash (`?v=`): a new version is a new address, so a
    browser may keep each for as long as it likes."""
    found = asset(name)
    assert found is not None, name
    return f"/static/{name}?v={hashlib.sha256(found[0]).hexdigest()[:12]}"
