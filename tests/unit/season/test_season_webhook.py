"""An EC's acts by the webhook (POST /seasons/{season_id}/players/{player_id}/acts, the player's
season secret as Bearer): answered with the season's standing; refused in the webhook's one shape
with the reason in words and nothing changed; sent again, nothing changes twice."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from season_memory import MemorySeasonStore, SeasonIds, StepClock
from season_support import TWO_MAY_SPEND, domino_ended, two_may_spend

sys.path.append(str(Path(__file__).resolve().parent.parent / "service"))  # the ports' fakes

from fakes import Fakes  # noqa: E402

from game_core.service.season.lifecycle import apply, create_season  # noqa: E402
from local_stack.aws.lambda_adapter import FakeContext, load_handler  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]


@dataclass
class OneWait:
    """The season's links while its machine waits on the ECs: one token."""

    def token(self, season_id: str) -> str | None:
        return "naming-token"


class Api:
    """The webhook's function on the fakes, with a season once Domino ended (ada, 'Ada Lovelace',
    holds 2 ToL; fay is the EC) and each player's season secret."""

    def __init__(self, data: dict[str, Any] | None = None, steps: list | None = None) -> None:  # type: ignore[type-arg]
        self.store = MemorySeasonStore()
        cast = [{"id": "ada", "name": "Ada Lovelace"}, *({"id": p} for p in ["bo", "cy", "di", "ed", "fay"])]
        data = data or {"cast": cast, "episodes": [{"main": {"game": g}} for g in ("domino", "crates", "clubs")]}
        self.secrets = create_season(self.store, StepClock(), SeasonIds(), data, season_id="s-1").secrets
        for step in domino_ended() if steps is None else steps:
            apply(self.store, StepClock(), "s-1", step)
        self.fakes = Fakes()
        ports = replace(self.fakes.ports, seasons=self.store, season_links=OneWait())
        self.handler = load_handler(ROOT / "functions" / "submit_webhook", "app.handler", lambda: ports)

    def post(self, player: str, body: dict[str, Any], secret: str | None = None) -> tuple[int, dict[str, Any]]:
        event = {
            "rawPath": f"/seasons/s-1/players/{player}/acts",
            "requestContext": {"http": {"method": "POST"}},
            "headers": {"authorization": f"Bearer {secret or self.secrets[player]}"},
            "body": json.dumps(body),
        }
        reply = self.handler(event, FakeContext("SubmitWebhook"))
        return reply["statusCode"], json.loads(reply["body"])

    def events(self) -> list[str]:
        return [event.type for event in self.store.season_events("s-1")]


def test_the_ec_names_by_webhook_and_gets_the_standing_after_it() -> None:
    api = Api()
    before = api.events()
    status, body = api.post("fay", {"act": "name", "opponent": "Di"})
    assert status == 200 and body["accepted"] and body["act"] == "name"
    [episode] = body["season"]["episodes"]
    assert [(n["ec"], n["opponent"]) for n in episode["namings"]] == [("fay", "di")]
    assert api.events() == [*before, "named", "death_matches_set"]
    assert api.fakes.workflow.woken == ["naming-token"]
    again = api.post("fay", {"act": "name", "opponent": "di"})  # a retried delivery
    assert again == (200, body) and api.events() == [*before, "named", "death_matches_set"]


def test_an_illegal_naming_is_refused_in_words_and_changes_nothing() -> None:
    api = Api()
    before = api.events()
    # ada holds 2 ToL; fay is the EC herself; di is no EC; a wrong secret; an act no one knows
    refusals = [
        api.post("fay", {"act": "name", "opponent": "ada lovelace"}),
        api.post("fay", {"act": "name", "opponent": "fay"}),
        api.post("di", {"act": "name", "opponent": "bo"}),
        api.post("fay", {"act": "name", "opponent": "di"}, secret="not-hers"),
        api.post("fay", {"act": "swap"}),
    ]
    texts = [" ".join(r["text"] for r in body["reasons"]) or body["message"] for _, body in refusals]
    assert [status for status, _ in refusals] == [422, 422, 422, 401, 400]
    assert all(400 <= status < 500 and not body["accepted"] for status, body in refusals)
    assert "fay may not name ada: they may name" in texts[0]
    assert "fay may not name fay" in texts[1]
    assert "di is no EC naming an opponent in episode 1" in texts[2]
    assert "act: Input should be 'name', 'spend' or 'keep'" in texts[4]
    assert api.events() == before and api.fakes.workflow.woken == []


def test_someone_already_named_cannot_be_named_instead() -> None:
    api = Api()
    assert api.post("fay", {"act": "name", "opponent": "di"})[0] == 200
    after = api.events()
    status, body = api.post("fay", {"act": "name", "opponent": "bo"})
    assert (status, body["error"]) == (422, "AlreadyDone")
    assert "fay already named di" in " ".join(r["text"] for r in body["reasons"])
    assert api.events() == after


def test_ecs_spend_and_keep_a_tol_by_webhook_once() -> None:
    # fay and ed, both EC of episode 2, may spend (season_support.two_may_spend)
    api = Api(TWO_MAY_SPEND, two_may_spend())
    status, body = api.post("fay", {"act": "spend"})
    tol = {p["id"]: p["tol"] for p in body["season"]["players"]}
    assert status == 200 and tol["fay"] == 0  # her one ToL spent: safe this episode
    assert "fay" in body["season"]["episodes"][1]["safe"]
    assert api.post("fay", {"act": "spend"}) == (status, body)  # sent again: nothing more
    assert [e for e in api.events() if e == "tol_spent"] == ["tol_spent"]
    status, body = api.post("ed", {"act": "keep"})
    assert status == 200 and {p["id"]: p["tol"] for p in body["season"]["players"]}["ed"] == 1
