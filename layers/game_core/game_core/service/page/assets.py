"""The page's two files, served by the service itself (no CDN): one style sheet, one script.
The host's page (bin/host-server) uses them too."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

FOLDER = Path(__file__).parent / "static"
TYPES = {"page.css": "text/css; charset=utf-8", "page.js": "text/javascript; charset=utf-8"}
"""Every asset by name, with its content type: nothing else in the folder is served."""


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
