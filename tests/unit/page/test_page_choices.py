"""A field naming a participant (the games' `protocol.PlayerRef`, which their JSON Schema marks
with `PARTICIPANT_FORMAT`) is a choice of the match's participants by name, the id sent: a
player picks "Bo", as on Board Game Arena, and the service gets what the webhook's JSON would
carry. The service still judges it: a value naming nobody (posted by hand) is refused and kept."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from game_core.games import registry
from game_core.games.capabilities import ActsAtOnce
from game_core.match.model import MatchRequest
from game_core.service.matches.lifecycle import create_match
from game_core.service.page import play, render
from game_core.service.page.forms import form_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from crates_driver import Table  # noqa: E402
from fakes import Fakes  # noqa: E402

PARTICIPANT_FIELDS = {
    # Every model field typed protocol.PlayerRef, read from the games' models (N: any row):
    ("crates", "round"): {"pushes.N.crate"},  # Push.crate: whose crate is pushed
    ("abstrac", "starter"): {"starter"},  # Starter.starter: who lays first
    ("clubs", "guess"): {"guesses.N.participant"},  # Guess.participant: whose hand is guessed
    ("clubs", "transfer"): {"to"},  # Transfer.to
    ("clubs", "peek"): {"participant"},  # Peek.participant
    ("clubs", "tokens"): {"participant"},  # HostTokens.participant (the host's: no page shows it)
}
"""Domino's and Palindrome's kinds name no participant."""


def test_the_fields_offered_as_participants_are_those_the_games_models_type_as_one() -> None:
    found = {}
    for game_id in registry.AVAILABLE:
        game = registry.load(game_id)
        models = {**game.submissions, **(game.actions if isinstance(game, ActsAtOnce) else {})}
        for kind, model in models.items():
            form = form_for(game, kind, model.model_json_schema(), [])
            named = {re.sub(r"\.\d+\.", ".N.", one.name) for one in form.inputs if one.widget == "participant"}
            if named:
                found[(game_id, kind)] = named
    assert found == PARTICIPANT_FIELDS


def opened(request: dict[str, Any]) -> tuple[Fakes, str]:
    fakes = Fakes()
    return fakes, create_match(fakes.ports, MatchRequest.model_validate(request))["match_id"]


def select(page: str, input_id: str) -> str:
    start = page.index(f'<select id="{input_id}"')
    return page[start : page.index("</select>", start) + len("</select>")]


def shown(choice: str) -> list[str]:
    return re.findall(r">([^<]+)</option>", choice)


def value_of(choice: str, shown: str) -> str:
    """The value of the option a player picks by what it shows."""
    [value] = re.findall(r'<option value="([^"]*)"(?: selected)?>' + re.escape(shown) + "</option>", choice)
    return value


def test_the_crate_to_push_is_chosen_by_its_players_name_and_sent_as_the_webhooks_id() -> None:
    fakes, match_id = opened({"game": "crates", "players": [{"id": "ada", "name": "Ada"}, {"id": "bo", "name": "Bo"}]})
    table = Table(fakes, match_id, {})
    for player in ("ada", "bo"):
        table.submit(player, "Pregame", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})
    table.resolve_at_deadline()
    ada = play.sign_in(fakes.ports, match_id, "secret-1")
    page = render.page(play.show(fakes.ports, match_id, ada.cookie))
    # Every crate by its player's name in seating order (hers marked), a blank first: a row may be left empty.
    row = select(page, "move-round-pushes-0-crate")
    assert row == (
        '<select id="move-round-pushes-0-crate" name="f.pushes.0.crate"><option value="">(none)</option>'
        '<option value="ada">Ada (you)</option><option value="bo">Bo</option></select>'
    )
    assert select(page, "move-round-pushes-11-crate") == row.replace("-0-", "-11-").replace(".0.", ".11.")
    hidden = {"csrf": ada.csrf, "kind": "round", "phase": "Round 1", "number": "2", "delivery": play.delivery_key()}
    fields = {"f.pushes.0.crate": value_of(row, "Bo"), "f.pushes.0.direction": "left", "f.ground": "ice"}
    assert play.send_move(fakes.ports, match_id, ada.cookie, hidden | fields).refusal is None
    # As the webhook's {"pushes": [{"crate": "bo", "direction": "left"}], "ground": "ice"} is kept: Bo's id.
    assert fakes.store.submissions(match_id, 2)["ada"]["round"] == {
        "pushes": [{"crate": "bo", "direction": "left"}],
        "ground": "ice",
    }
    # The form holds what stands, to send again: Bo chosen in the first row.
    standing = render.page(play.show(fakes.ports, match_id, ada.cookie))
    assert '<option value="bo" selected>Bo</option>' in select(standing, "move-round-pushes-0-crate")


CLUBS = [("p1", "Ann", "p1g1", "Gus"), ("p2", "Ben", "p2g1", "Hal"), ("p3", "Cat", "p3g1", "Ivy")]
"""Three players with a guest each, seated player then guest: secret-1 is Ann's."""


def test_a_clubs_transfer_goes_to_whom_its_name_chooses_and_one_naming_nobody_is_refused_and_kept() -> None:
    players = [{"id": p, "name": n, "garnets": 10, "guests": [{"id": g, "name": gn}]} for p, n, g, gn in CLUBS]
    fakes, match_id = opened({"game": "clubs", "players": players, "seed": 7})
    ann = play.sign_in(fakes.ports, match_id, "secret-1")
    page = render.page(play.show(fakes.ports, match_id, ann.cookie))
    # Required: a blank the browser will not send ("choose one"), then all six by name.
    to = select(page, "action-transfer-to")
    everyone = ["(choose one)", "Ann (you)", "Gus", "Ben", "Hal", "Cat", "Ivy"]
    assert shown(to) == everyone and ' name="f.to" required>' in to
    assert shown(select(page, "action-peek-participant")) == everyone

    def transfer(to: str) -> play.Seen:
        sent = {"csrf": ann.csrf, "kind": "transfer", "delivery": play.delivery_key(), "f.to": to, "f.garnets": "3"}
        return play.act(fakes.ports, match_id, ann.cookie, sent)[0]

    assert transfer(value_of(to, "Gus")).refusal is None
    assert play.show(fakes.ports, match_id, ann.cookie).view.balance == 7  # 10 - 3, to her guest Gus
    refused = transfer("zed")  # posted by hand: the service judges it as the webhook's
    assert refused.refusal is not None and [r.code for r in refused.refusal.error.reasons] == ["not_a_participant"]
    assert play.show(fakes.ports, match_id, ann.cookie).view.balance == 7
    assert select(render.page(refused), "action-transfer-to").endswith(
        '<option value="zed" selected>zed</option></select>'
    )
