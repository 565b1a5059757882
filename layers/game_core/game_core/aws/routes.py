"""The HTTP API's route templates as patterns: one reading of `template.yaml`'s paths for the
webhook handler (which routes its own requests) and for the laptop's host server (which routes
requests to the functions as API Gateway does)."""

from __future__ import annotations

import re


def route_pattern(template: str) -> re.Pattern[str]:
    """A path template ("/matches/{match_id}", "/{proxy+}") as a pattern of a whole path:
    `{name}` is one segment, `{name+}` the rest of the path, each captured by name; a trailing
    slash is taken too."""
    pattern = re.sub(r"\\\{(\w+)\\\+\\\}", r"(?P<\1>.+)", re.escape(template))
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", pattern)
    return re.compile(pattern + "/?")
