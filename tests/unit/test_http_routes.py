"""Route templates read once (game_core.aws.routes), for the webhook and the host server alike."""

from __future__ import annotations

import pytest

from game_core.aws.routes import route_pattern


@pytest.mark.parametrize(
    ("template", "path", "captured"),
    [
        ("/matches/{match_id}", "/matches/m-1", {"match_id": "m-1"}),
        ("/matches/{match_id}", "/matches/m-1/", {"match_id": "m-1"}),  # a trailing slash is taken
        ("/matches/{match_id}", "/matches/m-1/players", None),  # {name} is one segment
        ("/matches/{match_id}", "/matches/", None),  # and never empty
        ("/matches/{match_id}/players/{player_id}", "/matches/m/players/ada", {"match_id": "m", "player_id": "ada"}),
        ("/play/{proxy+}", "/play/a/b.css", {"proxy": "a/b.css"}),  # {name+}: the rest of the path
        ("/a.b/{x}", "/aXb/1", None),  # the template's own characters are literal
    ],
)
def test_a_template_matches_whole_paths_and_captures_each_parameter(template, path, captured) -> None:
    found = route_pattern(template).fullmatch(path)
    assert (found.groupdict() if found else None) == captured
