"""The page never shows one participant anything of another's secrets: every game's bot match,
at every position it passes through (the setup, each phase after its immediate actions, each
resolution), rendered for each participant through the page's own read on the fakes; then the
same with every other participant's private seat changed (`Demo.private_seat`, the games' own
non-interference change): the participant's page must not change. And with their own seat
changed it must, somewhere in the match, or the comparison proved nothing. Every page is also
held to `check_markup` (labels, unique ids, nothing inline)."""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from game_core.games import registry
from game_core.match.clock import open_clock
from game_core.match.model import MatchRequest
from game_core.service.matches.lifecycle import create_match
from game_core.service.page import play, render
from game_core.service.ports import Event

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from bot_matches import players_for, standing_players  # noqa: E402
from fakes import Fakes  # noqa: E402
from page_support import played  # noqa: E402
from test_page_quality import check_markup  # noqa: E402

KEYS = re.compile(r"page-[A-Za-z0-9_-]{22}")
"""Each rendered form's delivery key is new (random): blanked before pages are compared."""


def seated(game_id: str) -> tuple[Fakes, str, dict[str, str]]:
    """The bot match's participants in a match on the fakes: its id and each one's cookie."""
    game = registry.load(game_id)
    players, every = standing_players(game), players_for(game)
    guests = {
        p: [g for g in every[every.index(p) + 1 :] if g not in players][: len(every) // len(players) - 1]
        for p in players
    }
    request = {
        "game": game_id,
        "players": [{"id": p, "guests": [{"id": g} for g in guests[p]]} for p in players],
        "seed": 7,
    }
    fakes = Fakes()
    match_id = create_match(fakes.ports, MatchRequest.model_validate(request))["match_id"]
    match = fakes.store.get(match_id)
    now = fakes.clock.now()
    cookies = {p.id: play.sessions.issue(match, p.id, now).cookie for p in match.players}
    return fakes, match_id, cookies


def stage(fakes: Fakes, match_id: str, game: Any, state_json: dict[str, Any], number: int) -> None:
    """Store the match at this position (its open phase's clock from the game's own opening)."""
    match = fakes.store.get(match_id)
    opening = game.open_phase(game.State.model_validate(state_json))
    now = fakes.clock.now()
    phase = open_clock(opening, number, now, 3600) if opening is not None else None
    update = {"state": state_json, "phase": phase, "status": "running" if phase is not None else "finished"}
    fakes.store.save(match, match.model_copy(update=update), Event("staged", now, {}))


def page_of(fakes: Fakes, match_id: str, cookie: str) -> str:
    return KEYS.sub("page-KEY", render.page(play.show(fakes.ports, match_id, cookie)))


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_no_page_shows_anything_of_another_participants_private_seat(game_id: str) -> None:
    game = registry.load(game_id)
    change = game.demo.private_seat
    if change is None:
        pytest.skip(f"{game_id} has no private information")
    fakes, match_id, cookies = seated(game_id)
    participants = list(cookies)
    own_seat_shows = set()
    for number, state in enumerate(played(game_id).states, start=1):
        data = state.model_dump(mode="json")
        stage(fakes, match_id, game, data, number)
        pages = {p: page_of(fakes, match_id, cookies[p]) for p in participants}
        for page in pages.values():
            check_markup(page)
        for p in participants:
            others = _changed(data, change, [q for q in participants if q != p])
            stage(fakes, match_id, game, others, number)
            assert page_of(fakes, match_id, cookies[p]) == pages[p], f"another's seat shows on {p}'s page"
            if p not in own_seat_shows:
                stage(fakes, match_id, game, _changed(data, change, [p]), number)
                if page_of(fakes, match_id, cookies[p]) != pages[p]:
                    own_seat_shows.add(p)
        stage(fakes, match_id, game, data, number)
    assert own_seat_shows == set(participants), "each one's own seat shows on their own page"


def _changed(data: dict[str, Any], change: Any, whose: list[str]) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    for q in whose:
        change(changed, q)
    return changed


def test_a_private_message_shows_on_its_senders_and_recipients_pages_alone() -> None:
    from talk_table import Talk

    table = Talk.open()
    everyone = ("ada", "bo", "cy")

    def pages(who: str) -> tuple[str, str]:
        return KEYS.sub("page-KEY", table.page(who)), KEYS.sub("page-KEY", table.messages_page(who))

    before = {who: pages(who) for who in everyone}
    secret = "Bo: push crate 3 left, I push it up; tell nobody."
    form = table.form("ada", **{"f.to.bo": "true", "f.text": secret})
    assert table.press("ada", form)[0].refusal is None
    after = {who: pages(who) for who in everyone}
    for who in everyone:
        check_markup(after[who][1])
        assert after[who][0] == before[who][0]  # the page itself shows no message, to anyone
    # Cy's pages: not a word of it, nor that it was sent (both as they were before).
    assert after["cy"] == before["cy"] and "crate 3" not in "".join(after["cy"])
    [message_id] = [event.data["id"] for event in table.fakes.store.events(table.match_id) if event.type == "press"]
    for who in ("ada", "bo"):  # its sender and recipient read it on their messages page
        assert "push crate 3 left" in after[who][1] and f'id="message-{message_id}"' in after[who][1]
    # A message to everyone does show on Cy's: the comparison above could have failed.
    table.press("bo", table.form("bo", **{"f.everyone": "true", "f.text": "Good luck, all."}))
    assert "Good luck, all." in table.messages_page("cy")
