"""The host page's "New season" form (local_stack/laptop/season_pages.py serves it;
local_stack/laptop/new_season_reading.py reads it back): the cast one a row (id, name, e-mail, time zone,
webhook), the episodes one a row (the Main Match's game and rule set, the Death Matches'), and
the settings of docs/SEASONS.md's table with their defaults; or the settings file, pasted or
uploaded, as `match-host season create` reads it.

Each field is named by its path in the settings ("cast.2.email", "episodes.0.main"), so the
season's own validation (`season.settings.read_settings`) names the field it refuses; each
refusal is shown beside it in its own words, one about no field at the top.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from html import escape

from game_core.errors import Reason
from game_core.games import registry
from game_core.match.model import MAX_PLAYERS
from game_core.season.settings import MAX_EPISODES, EpisodeSettings, SeasonSettings
from game_core.service.page.forms import Form, Group, Input
from game_core.service.page.inputs import Choices, Given, inputs
from local_stack.laptop.new_match_form import MAX_HOURS, PHASE_HOURS, hidden_fields

FORM_ID = "new-season"
FILE_FORM_ID = "season-file"
FIRST_CAST, FIRST_EPISODES = 6, 3
"""Rows offered at first (more with "Add a player row", "Add an episode row")."""
CAST_COLUMNS = (
    ("id", "Id", 40, "letters, digits, . _ - (none: made from the name)"),
    ("name", "Name", 80, ""),
    ("email", "E-mail", 254, ""),
    ("zone", "Time zone", 64, 'e.g. "Europe/Paris" (none: UTC)'),
    ("webhook", "Webhook URL", 2048, "their bot's https:// address (optional)"),
)


@cache
def game_choices() -> tuple[tuple[str, str], ...]:
    """Each game and rule set a season's match may be: its value ("abstrac/row", or the game's id
    where it has one rule set) and its words ("Abstrac, rule set row")."""
    found = []
    for game_id in registry.AVAILABLE:
        game = registry.load(game_id)
        rule_set = game.Settings.model_json_schema()["properties"].get("rule_set", {})
        if "enum" in rule_set:
            found += [(f"{game_id}/{one}", f"{game.title}, rule set {one}") for one in rule_set["enum"]]
        else:
            found.append((game_id, game.title))
    return tuple(found)


def choice_value(game: str, rule_set: str | None) -> str:
    """The form's value of a game and rule set (the game's default rule set: its first value)."""
    values = [value for value, _ in game_choices()]
    wanted = f"{game}/{rule_set}" if rule_set else game
    if wanted in values:
        return wanted
    return next((value for value in values if value.partition("/")[0] == game and rule_set is None), wanted)


def _games(name: str, label: str, required: bool) -> Input:
    """A choice of game and rule set, each in words (`Choices`: the form's one such list)."""
    return Input(name, label, "participant", required)


def _number(name: str, label: str, least: int, most: int, hint: str, required: bool = True) -> Input:
    return Input(name, label, "number", required, least, most, hint=hint)


def settings_parts() -> tuple[Input, ...]:
    """The season's own settings: docs/SEASONS.md's table, each with its default's words."""
    return (
        Input("name", "Season name (optional)", "text", max_length=80),
        Input(
            "season_id",
            "Season id (optional)",
            "text",
            pattern="s-[0-9a-z-]{1,40}",
            hint="s- then letters, digits, dashes (none: one is drawn)",
            max_length=42,
        ),
        _number(
            "naming_hours", "Naming hours", 1, 366 * 24, "How long an EC has to name an opponent (and to spend a ToL)."
        ),
        _number(
            "host_hours",
            "Host hours",
            1,
            366 * 24,
            "How long you then have to name for a silent EC, before a lot does.",
        ),
        Input(
            "tol_spending",
            "ToL spending",
            "checkbox",
            hint="An EC holding a ToL may spend one to be safe this episode.",
        ),
        _number("finals_at", "Finals at", 2, MAX_PLAYERS, "The Finals begin when this many players are left."),
        _games("final", "The Finals' game", True),
        _number(
            "seed", "Seed (optional)", 0, 2**63 - 1, "Every match's seed and lot derive from it (none: drawn).", False
        ),
        Input(
            "host_email", "Your e-mail (optional)", "text", max_length=254, hint="Where the season's alerts reach you."
        ),
        Input("host_zone", "Your time zone (optional)", "text", max_length=64),
        _number(
            "phase_hours",
            "Phase length (hours)",
            1,
            MAX_HOURS,
            "How long each phase of each match stays open: 24 is a day.",
        ),
        Input(
            "early_close", "Close a phase early", "checkbox", hint="Resolve a phase once everyone owing a move sent it."
        ),
    )


def new_season_form(cast_rows: int, episode_rows: int) -> Form:
    cast = tuple(
        Input(f"cast.{i}.{key}", f"{label} ({i + 1})", "text", max_length=most, hint=hint if i == 0 else "")
        for i in range(cast_rows)
        for key, label, most, hint in CAST_COLUMNS
    )
    episodes = tuple(
        one
        for j in range(episode_rows)
        for one in (
            _games(f"episodes.{j}.main", f"Episode {j + 1}: Main Match (none: no episode)", False),
            _games(f"episodes.{j}.death_match", f"Episode {j + 1}: Death Matches", True),
        )
    )
    cast_legend = (
        "The cast: each player once, one a row; a row left empty is not sent. Every match of the season seats them."
    )
    episode_legend = (
        "The episodes, in order: each a Main Match, then the Death Matches (two players each) of its ECs. "
        "Each game's own settings (fixed deals, clocks) are for a settings file, below."
    )
    return Form(
        FORM_ID,
        "",
        (*settings_parts(), Group(cast_legend, cast, len(CAST_COLUMNS)), Group(episode_legend, episodes, 2)),
        prefix="",
    )


def defaults() -> dict[str, str]:
    """The form as the rules' defaults fill it (SeasonSettings' own: a day each turn, the Finals
    at 2, Abstrac deal; each Death Match Abstrac row)."""
    fields = SeasonSettings.model_fields
    filled = {key: str(fields[key].default) for key in ("naming_hours", "host_hours", "finals_at")}
    final = fields["final"].get_default(call_default_factory=True)
    dm = EpisodeSettings.model_fields["death_match"].get_default(call_default_factory=True)
    filled |= {"phase_hours": str(PHASE_HOURS), "final": choice_value(final.game, final.rule_set)}
    return filled | {f"episodes.{j}.death_match": choice_value(dm.game, dm.rule_set) for j in range(MAX_EPISODES)}


def rows_posted(posted: Mapping[str, str]) -> tuple[int, int]:
    """The form's rows as posted (at least the first offered, at most what a season takes)."""

    def count(key: str, least: int, most: int) -> int:
        raw = posted.get(key, "")
        return min(most, max(least, int(raw) if raw.isdigit() else least))

    return count("cast_rows", FIRST_CAST, MAX_PLAYERS), count("episode_rows", FIRST_EPISODES, MAX_EPISODES)


def form_body(
    cast_rows: int, episode_rows: int, kept: Mapping[str, str], given: Mapping[str, str], reasons: list[Reason]
) -> str:
    """The form filled in with `given`, each reason beside its field (one naming none at the top)."""
    form = new_season_form(cast_rows, episode_rows)
    labels = {one.name: one.label for one in form.inputs}
    beside = tuple(reason for reason in reasons if reason.text.partition(": ")[0] in labels)
    shown = inputs(FORM_ID, form, Given(given, beside, field_named=False), Choices(dict(game_choices()), ""))
    alert = _alert(reasons, labels)
    more = '<button type="submit" name="more" value="cast">Add a player row</button>' if cast_rows < MAX_PLAYERS else ""
    more += (
        ' <button type="submit" name="more" value="episodes">Add an episode row</button>'
        if episode_rows < MAX_EPISODES
        else ""
    )
    rows = {"cast_rows": str(cast_rows), "episode_rows": str(episode_rows)}
    return (
        f'{alert}<form id="{FORM_ID}-form" method="post" action="/seasons/new">{hidden_fields({**kept, **rows})}{shown}'
        f'<p><button type="submit" name="create" value="yes">Create the season</button> {more}</p></form>'
    )


def _alert(reasons: list[Reason], labels: Mapping[str, str]) -> str:
    listed = []
    for reason in reasons:
        where, _, said = reason.text.partition(": ")
        listed.append(f"{labels[where]}: {said}" if where in labels else reason.text)
    if not listed:
        return ""
    items = "".join(f"<li>{escape(line)}</li>" for line in listed)
    said = "<p>Not created: what to change is said beside each field.</p>"
    return f'<div id="reasons" role="alert">{said}<ul>{items}</ul></div>'


def file_form(kept: Mapping[str, str], given: str = "", reasons: tuple[Reason, ...] = ()) -> str:
    """The settings file, pasted or uploaded (the settings alone, or the console's create event)."""
    said = "".join(f"<li>{escape(reason.text)}</li>" for reason in reasons)
    alert = (
        f'<div id="file-reasons" role="alert"><p>Not created: the settings file is refused.</p><ul>{said}</ul></div>'
        if said
        else ""
    )
    error = ' aria-invalid="true" aria-describedby="settings-file-error"' if said else ""
    beside = (
        f'<span class="error" id="settings-file-error">{len(reasons)} reasons, listed above.</span>' if said else ""
    )
    return (
        f'<section id="{FILE_FORM_ID}" aria-labelledby="season-file-title">'
        '<h2 id="season-file-title">Or: its settings file</h2>'
        "<p>As <code>match-host season create</code> reads it (docs/SEASONS.md): the settings, or the console's "
        f'create event.</p>{alert}<form method="post" action="/seasons/file" enctype="multipart/form-data">'
        f'{hidden_fields(kept)}<div class="field"><label for="settings-file">Paste it</label>'
        f'<textarea id="settings-file" name="settings_file" rows="8"{error}>{escape(given)}</textarea>{beside}</div>'
        '<div class="field"><label for="settings-upload">Or upload it</label>'
        '<input type="file" id="settings-upload" name="upload" accept=".json,application/json"></div>'
        '<p><button type="submit">Create the season from the file</button></p></form></section>'
    )
