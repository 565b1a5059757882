"""The page's two files, served by the service itself (no CDN): one style sheet, one script.
The host's page (bin/host-server) uses them too."""

from __future__ import annotations

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
