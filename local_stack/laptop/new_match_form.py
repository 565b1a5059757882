"""The host page's "New match" form for one game (local_stack/laptop/create_page.py serves it): the
game's settings made from its Settings JSON schema (what `bin/match-schemas GAME` shows) with the
rules' defaults filled in, each with the schema's title and description; the players one a row;
the phase length. local_stack/laptop/new_match_reading.py reads it back.

- A setting a form can hold (a rule set, a number, a choice, a player) is a field; the host's
  fixed deals (lots, packs, tiles: lists and tables) are left to a settings file, and the page
  names them. A setting naming a player is a choice of the rows (no one is seated yet).
- Each refusal is shown beside its field in its own words; one about no field, at the top.
- "Add a player row" is a submit (no script needed) that shows the form again with one row more.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from html import escape
from typing import Any

from game_core.errors import Reason
from game_core.games import registry
from game_core.games.protocol import AnyGame
from game_core.match.engine import guests_per_player
from game_core.match.model import MAX_SECONDS
from game_core.service.page.forms import Form, Group, Input, parts_of
from game_core.service.page.inputs import Choices, Given, inputs

FORM_ID = "new-match"
FIRST_ROWS = 4
"""Player rows offered at first (fewer when the game seats fewer; more with "Add a player row")."""
PHASE_HOURS = 24
"""The phase length offered (`MatchRequest.phase_seconds`' default, a day)."""
MAX_HOURS = MAX_SECONDS // 3600
WEBHOOK = re.compile(r"(?i)https?://")
COLUMNS = (("name", "Name", 80), ("address", "E-mail or webhook URL", 2048), ("zone", "Time zone", 64))
"""Each row's fields: its key, its label, its most characters (`PlayerEntry`'s bounds)."""


def hidden_fields(values: Mapping[str, str]) -> str:
    return "".join(f'<input type="hidden" name="{escape(k)}" value="{escape(v)}">' for k, v in values.items())


# -- the form -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    one: Input
    default: Any
    numbers: bool
    """A choice of numbers (Abstrac's target): sent as a number."""


@cache
def settings_of(game_id: str) -> tuple[tuple[Setting, ...], tuple[str, ...]]:
    """The game's settings a field can hold, its default filled in, and the titles of the rest
    (the host's fixed deals, which a settings file sets)."""
    schema = registry.load(game_id).Settings.model_json_schema()
    offered, left = [], []
    for key, node in schema["properties"].items():
        node = node | {"enum": [node["const"]]} if "const" in node else node  # a rule set of one
        parts = parts_of(schema | {"properties": {key: node}, "required": []})
        one = parts[0] if parts else None
        if not isinstance(one, Input) or one.widget == "list":
            left.append(str(node.get("title", key)))
            continue
        default = node.get("default")
        numbers = bool(node.get("enum")) and all(isinstance(value, int) for value in node["enum"])
        offered.append(Setting(replace(one, name=f"settings.{key}", required=default is not None), default, numbers))
    return tuple(offered), tuple(left)


def columns(game: AnyGame) -> list[tuple[str, str, int]]:
    guests = [
        (f"guests.{k}.{key}", f"Guest's {label[0].lower()}{label[1:]}", most)
        for k in range(guests_per_player(game))
        for key, label, most in COLUMNS
        if key != "zone"
    ]
    return [*COLUMNS, *guests]


def seats(game: AnyGame) -> str:
    if game.min_players == game.max_players:
        return f"{game.min_players} players"
    return f"{game.min_players} to {game.max_players} players"


def first_rows(game: AnyGame) -> int:
    return min(game.max_players, max(game.min_players, FIRST_ROWS))


def rows_posted(game: AnyGame, posted: Mapping[str, str]) -> int:
    try:
        rows = int(posted.get("rows", ""))
    except ValueError:
        rows = 0
    return min(game.max_players, max(first_rows(game), rows))


def new_match_form(game: AnyGame, rows: int) -> Form:
    settings, _ = settings_of(game.id)
    fields = columns(game)
    cells = tuple(
        Input(f"players.{i}.{key}", f"{label} ({i + 1})", "text", max_length=most)
        for i in range(rows)
        for key, label, most in fields
    )
    legend = (
        f"Players: {game.title} takes {seats(game)}, one a row; a row left empty is not sent. Name: as the "
        "others see it. E-mail or webhook URL: where their news goes (an e-mail address, or the https:// "
        "address of a bot); none: they play on their page alone. Time zone: where they read deadlines, "
        'e.g. "Europe/Paris" (none: UTC).'
    )
    legend += " Each player brings a guest, who plays beside them." if guests_per_player(game) else ""
    phase = Input(
        "phase_hours",
        "Phase length (hours)",
        "number",
        True,
        1,
        MAX_HOURS,
        hint="How long each phase stays open for moves: 24 is a day (a game's own clocks, as Abstrac's, win).",
    )
    early = Input(
        "early_close",
        "Close a phase early",
        "checkbox",
        hint="Resolve a phase as soon as everyone who owes it a move has sent it, before its deadline.",
    )
    parts: tuple[Input | Group, ...] = (*(setting.one for setting in settings), phase, early)
    parts += (Group(legend, cells, len(fields)),)
    return Form(FORM_ID, "", parts, prefix="")


def defaults(game: AnyGame) -> dict[str, str]:
    settings, _ = settings_of(game.id)
    filled = {setting.one.name: str(setting.default) for setting in settings if setting.default is not None}
    return filled | {"phase_hours": str(PHASE_HOURS)}


def form_body(
    game: AnyGame, rows: int, kept: Mapping[str, str], given: Mapping[str, str], reasons: list[Reason]
) -> str:
    """The form filled in with `given`, each reason shown beside its field in its own words (a
    reason naming no field, at the top), `kept` its hidden fields (the session's token and such)."""
    form = new_match_form(game, rows)
    named = {one.name: one.label for one in form.inputs}
    beside = [reason for reason in reasons if reason.text.partition(": ")[0] in named]
    choices = Choices({str(i + 1): f"The player in row {i + 1}" for i in range(rows)}, "")
    shown = inputs(FORM_ID, form, Given(given, tuple(beside), field_named=False), choices)
    listed = []
    for reason in reasons:
        where, _, said = reason.text.partition(": ")
        if where in named:  # listed at the top by the field's label
            listed.append(f"{named[where]}: {said}")
        else:
            listed.append(reason.text)
    alert = ""
    if listed:
        items = "".join(f"<li>{escape(line)}</li>" for line in listed)
        said = "<p>Not created: what to change is said beside each field.</p>"
        alert = f'<div id="reasons" role="alert">{said}<ul>{items}</ul></div>'
    _, left = settings_of(game.id)
    fixed = (
        f"<p>Not on this page: {escape(', '.join(left))} (fixed in advance, to replay a published match): "
        "write a settings file for <code>match-host create</code> (docs/hosts/settings.md in the checkout).</p>"
        if left
        else ""
    )
    more = '<button type="submit" name="more" value="yes">Add a player row</button>' if rows < game.max_players else ""
    return (
        f'{alert}<form id="{FORM_ID}-form" method="post" action="/new">'
        f"{hidden_fields({**kept, 'game': game.id, 'rows': str(rows)})}{shown}{fixed}"
        f'<p><button type="submit" name="create" value="yes">Create the match</button> {more}</p></form>'
    )
