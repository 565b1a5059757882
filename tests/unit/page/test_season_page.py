"""The season's page for a player of one of its matches (GET and POST /play/{match_id}/season),
through the page function's handler on the fakes: the EC sees whom they may name and names them;
a refused naming is shown in words and changes nothing; the same form sent twice names once."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from talk_table import Talk

from benchmarks.page import page_call, sign_in
from game_core.service.season.lifecycle import apply, create_season
from game_core.service.season.ports import Link
from local_stack.aws.lambda_adapter import FakeContext, load_handler

ROOT = Path(__file__).resolve().parents[3]
sys.path.append(str(ROOT / "tests" / "unit" / "season"))

from season_memory import MemorySeasonStore, SeasonIds, StepClock  # noqa: E402
from season_support import domino_ended  # noqa: E402


@dataclass
class SeasonMatch:
    """Every match linked to season s-1, whose machine waits on the ECs."""

    def linked(self, match_id: str) -> Link | None:
        return Link("s-1", "match-token", True)

    def token(self, season_id: str) -> str | None:
        return "naming-token"


class Served:
    """The page function over the fakes, with a season after Domino: ada (Ada Lovelace) holds
    2 ToL, fay is the one EC; the match is fay's and di's."""

    def __init__(self) -> None:
        self.seasons = MemorySeasonStore()
        cast = [{"id": "ada", "name": "Ada Lovelace"}, *({"id": p} for p in ["bo", "cy", "di", "ed", "fay"])]
        data = {"cast": cast, "episodes": [{"main": {"game": g}} for g in ("domino", "crates", "clubs")]}
        create_season(self.seasons, StepClock(), SeasonIds(), data, season_id="s-1")
        for step in domino_ended():
            apply(self.seasons, StepClock(), "s-1", step)
        self.table = Talk.open(players=[{"id": "fay"}, {"id": "di"}])
        ports = replace(self.table.ports, seasons=self.seasons, season_links=SeasonMatch())
        self.handler = load_handler(ROOT / "functions" / "player_page", "app.handler", lambda: ports)

    def invoke(self, name: str, event: dict[str, Any]) -> dict[str, Any]:
        reply: dict[str, Any] = self.handler(event, FakeContext(name))
        return reply

    def page(self, who: str) -> tuple[str, str]:
        mid = self.table.match_id
        cookie, _ = sign_in(self, mid, self.table.secrets[who])
        return cookie, page_call(self, "GET", "/play/{match_id}/season", f"/play/{mid}/season", cookie=cookie)["body"]

    def post(self, cookie: str, form: dict[str, str]) -> dict[str, Any]:
        mid = self.table.match_id
        return page_call(self, "POST", "/play/{match_id}/season", f"/play/{mid}/season", cookie=cookie, form=form)

    def events(self) -> list[str]:
        return [event.type for event in self.seasons.season_events("s-1")]


def csrf(body: str) -> str:
    return re.findall(r'name="csrf" value="([^"]*)"', body)[0]


def test_the_ec_names_from_the_season_page_once() -> None:
    served = Served()
    cookie, body = served.page("fay")
    options = re.findall(r'<option value="(\w+)">', body)
    assert options == ["bo", "cy", "di", "ed"]  # not ada (2 ToL), not fay herself
    assert "Ada Lovelace" in body and "<td>2</td>" in body  # the standing: ada's two ToL
    before = served.events()
    form = {"csrf": csrf(body), "act": "name", "opponent": "di"}
    done = served.post(cookie, form)
    assert done["statusCode"] == 200 and "Your opponent is named." in done["body"]
    assert "fay named di" in done["body"] and "<select" not in done["body"]  # named: no form left
    again = served.post(cookie, form)  # sent twice (a reload of the POST): nothing more
    assert again["statusCode"] == 200 and served.events() == [*before, "named", "death_matches_set"]


def test_a_refused_naming_says_why_and_changes_nothing() -> None:
    served = Served()
    cookie, body = served.page("fay")
    before = served.events()
    refused = served.post(cookie, {"csrf": csrf(body), "act": "name", "opponent": "ada"})  # 2 ToL
    assert refused["statusCode"] == 422 and "fay may not name ada: they may name bo, cy, di, ed" in refused["body"]
    forged = served.post(cookie, {"csrf": "not-the-page's", "act": "name", "opponent": "di"})
    assert forged["statusCode"] == 422 and "this form is not from your page" in forged["body"]
    di_cookie, di_body = served.page("di")  # di is no EC: no form; a crafted one is refused
    assert "<select" not in di_body
    mid = served.table.match_id
    di_page = page_call(served, "GET", "/play/{match_id}", f"/play/{mid}", cookie=di_cookie)["body"]
    crafted = served.post(di_cookie, {"csrf": csrf(di_page), "act": "name", "opponent": "bo"})
    assert "di is no EC naming an opponent in episode 1" in crafted["body"]
    assert served.events() == before
