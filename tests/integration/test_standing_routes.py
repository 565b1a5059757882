"""Players can always see where they stand: the webhook's GET routes, through the real handler on
the local stack. A participant's route answers its holder of the secret with exactly their view;
the public route needs no secret and holds no private part."""

from __future__ import annotations

import json
from typing import Any

import pytest

from game_core.games import registry
from game_core.match.engine import game_state

ORDER = [2, 1, 1, 0, -1, -1]


def get(stack: Any, path: str, secret: str | None = None) -> tuple[int, dict[str, Any]]:
    """GET `path` as API Gateway (HTTP API, payload 2.0) hands it to the webhook function."""
    parts = path.strip("/").split("/")
    route = "GET /matches/{match_id}" + ("/players/{player_id}" if len(parts) > 2 else "")
    parameters = {"match_id": parts[1]} | ({"player_id": parts[3]} if len(parts) > 2 else {})
    event = {
        "version": "2.0",
        "routeKey": route,
        "rawPath": path,
        "rawQueryString": "",
        "headers": {"authorization": f"Bearer {secret}"} if secret else {},
        "requestContext": {
            "http": {"method": "GET", "path": path, "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1"},
            "requestId": "r-1",
            "routeKey": route,
            "stage": "$default",
        },
        "pathParameters": parameters,
        "isBase64Encoded": False,
    }
    reply = stack.invoke("SubmitWebhookFunction", event)
    return reply["statusCode"], json.loads(reply["body"])


def test_a_participant_sees_their_view_what_they_sent_and_their_garnets(stack, crates_match) -> None:
    match = crates_match(2, garnets={"p1": 3})
    assert match.multipliers("p1", ORDER)[0] == 200

    code, standing = get(stack, f"/matches/{match.match_id}/players/p1", match.secrets["p1"])

    assert code == 200
    stored = match.ports.store.get(match.match_id)
    game = registry.load("crates")
    assert standing["view"] == json.loads(json.dumps(game.view(game_state(game, stored), "p1")))
    assert standing["submitted"] == {"multipliers": {"multipliers": ORDER}}
    assert standing["garnets"] == {"balance": 3, "available": 3}
    assert (standing["you"], standing["open"]["phase"], standing["status"]) == ("p1", "Pregame", "running")
    assert standing["open"]["deadline"] == match.status()["open"]["deadline"]


@pytest.mark.parametrize(
    ("player", "secret_of", "code", "error"),
    [
        ("p1", "p2", 401, "Unauthorized"),  # another participant's secret
        ("p1", None, 401, "Unauthorized"),  # none
        ("p9", "p1", 404, "NotFound"),  # not a participant
    ],
)
def test_a_participants_route_refuses_anyone_else(stack, crates_match, player, secret_of, code, error) -> None:
    match = crates_match(2)
    secret = match.secrets[secret_of] if secret_of else None
    status, reply = get(stack, f"/matches/{match.match_id}/players/{player}", secret)
    assert (status, reply["error"]) == (code, error)
    assert "view" not in reply


def test_the_public_view_needs_no_secret_and_holds_nothing_private(stack, crates_match) -> None:
    match = crates_match(2)
    assert match.multipliers("p1", ORDER)[0] == 200
    code, public = get(stack, f"/matches/{match.match_id}")
    assert code == 200
    assert "private" not in public["view"] and "submitted" not in public
    assert json.dumps(ORDER) not in json.dumps(public)
    assert get(stack, "/matches/m-000000000000")[0] == 404
