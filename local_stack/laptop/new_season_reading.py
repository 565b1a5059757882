"""What the host page's "New season" form says (local_stack/laptop/new_season_form.py builds it): the
season's settings, as `match-host season create` sends them, and every reason they cannot make a
season, each "<field>: <sentence>" at the form's field it is about.

The settings are checked here by the season's own validation (`season.settings.read_settings`,
what the service runs again on create) before anything is sent; its reasons, and the service's
own (a season id taken, a webhook URL refused), are placed at their field (`placed`): a path
("cast.1.email") at that field, an episode's ("episode 2 main match (clubs) would have ...") at
its row, a projection of the whole ("after episode 3 ... add episodes") at the last episode's row.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

from game_core.errors import GameCoreError, Reason
from game_core.season.settings import read_settings
from local_stack.laptop.new_match_reading import player_id
from local_stack.laptop.new_season_form import CAST_COLUMNS, game_choices, new_season_form

EPISODE = re.compile(r"^(?:after )?episode (\d+) (main match|death match)?")
SEASON_ID = re.compile(r"^s-[0-9a-z-]{1,40}$")


@dataclass
class SeasonReading:
    """The season to create (its settings, and the id the host gave, if any), or why not."""

    settings: dict[str, Any]
    season_id: str | None = None
    reasons: list[Reason] = field(default_factory=list)

    def refuse(self, where: str, said: str, code: str = "new_season") -> None:
        if not any(reason.text.startswith(f"{where}: ") for reason in self.reasons if where):
            self.reasons.append(Reason(code, f"{where}: {said}" if where else said))


def _choice(value: str) -> dict[str, Any]:
    game, _, rule_set = value.partition("/")
    return {"game": game} | ({"rule_set": rule_set} if rule_set else {})


def _whole(raw: str, reading: SeasonReading, where: str, least: int = 0) -> int | None:
    if re.fullmatch(r"\d+", raw) and int(raw) >= least:
        return int(raw)
    reading.refuse(where, f"A whole number{f' from {least}' if least else ''}, please.")
    return None


def read_form(cast_rows: int, episode_rows: int, posted: Mapping[str, str]) -> SeasonReading:
    """The season the posted form asks for, checked as the service checks it, each reason at its field."""
    reading = SeasonReading({"cast": [], "episodes": [], "match_options": {}})
    settings = reading.settings
    known = {value for value, _ in game_choices()}
    for key in ("name", "host_email", "host_zone"):
        if posted.get(key, "").strip():
            settings[key] = posted[key].strip()
    for key in ("naming_hours", "host_hours", "finals_at", "seed"):
        raw = posted.get(key, "").strip()
        number = _whole(raw, reading, key) if raw else None
        if number is not None:
            settings[key] = number
    settings["tol_spending"] = "tol_spending" in posted
    if posted.get("final", "") in known:
        settings["final"] = _choice(posted["final"])
    hours = _whole(posted.get("phase_hours", "").strip(), reading, "phase_hours", 1)
    if hours is not None:
        settings["match_options"]["phase_seconds"] = hours * 3600
    settings["match_options"]["early_close"] = "early_close" in posted
    season_id = posted.get("season_id", "").strip()
    if season_id and not SEASON_ID.fullmatch(season_id):
        reading.refuse("season_id", "s- then up to 40 small letters, digits or dashes (s-winter-2026).")
    reading.season_id = season_id or None
    _read_cast(cast_rows, posted, reading)
    _read_episodes(episode_rows, posted, known, reading)
    if not reading.reasons:
        check(reading, cast_rows, episode_rows)
    return reading


def _read_cast(rows: int, posted: Mapping[str, str], reading: SeasonReading) -> None:
    for i in range(rows):
        values = {key: posted.get(f"cast.{i}.{key}", "").strip() for key, *_ in CAST_COLUMNS}
        if not any(values.values()):
            continue
        member = {key: value for key, value in values.items() if value}
        if not values["id"]:
            if not values["name"]:
                reading.refuse(f"cast.{i}.name", "Give their name (or their id).")
            member["id"] = player_id(values["name"], f"player-{i + 1}")
        member["_row"] = i  # the form's row, taken off before sending (`placed` finds a member's row)
        reading.settings["cast"].append(member)


def _read_episodes(rows: int, posted: Mapping[str, str], known: set[str], reading: SeasonReading) -> None:
    for j in range(rows):
        main, death = posted.get(f"episodes.{j}.main", ""), posted.get(f"episodes.{j}.death_match", "")
        if not main:
            continue
        for where, value in ((f"episodes.{j}.main", main), (f"episodes.{j}.death_match", death)):
            if value not in known:
                reading.refuse(where, "Choose one of the games offered.")
        reading.settings["episodes"].append({"main": _choice(main), "death_match": _choice(death), "_row": j})


def sent(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings as the service takes them (each row's place on the form taken off)."""
    strip = lambda rows: [{k: v for k, v in row.items() if k != "_row"} for row in rows]  # noqa: E731
    return dict(settings) | {"cast": strip(settings.get("cast", [])), "episodes": strip(settings.get("episodes", []))}


def check(reading: SeasonReading, cast_rows: int, episode_rows: int) -> None:
    """The season's own validation of what the form says, each reason placed at its field."""
    try:
        read_settings(sent(reading.settings))
    except GameCoreError as error:
        reading.reasons += placed(reading.settings, [r.__dict__ for r in error.reasons], cast_rows, episode_rows)


def placed(
    settings: Mapping[str, Any], reasons: list[Mapping[str, Any]], cast_rows: int, episode_rows: int
) -> list[Reason]:
    """Each reason of the season's (or the service's) at the form's field it is about; one about
    no field as it is (shown at the top)."""
    fields = {one.name for one in new_season_form(cast_rows, episode_rows).inputs}
    found = []
    for reason in reasons:
        text = str(reason.get("text", ""))
        where = _field_of(settings, text, fields)
        said = text.partition(": ")[2] if where and text.startswith(_path(text)) and _path(text) else text
        found.append(Reason(str(reason.get("code", "")), f"{where}: {said[:1].upper()}{said[1:]}" if where else text))
    return found


def _path(text: str) -> str:
    found = re.match(r"^([a-z_]+(?:\.[a-z0-9_]+)*): ", text)
    return found.group(1) if found else ""


def _row_of(rows: list[Mapping[str, Any]], index: int) -> int | None:
    return rows[index].get("_row") if 0 <= index < len(rows) else None


def _field_of(settings: Mapping[str, Any], text: str, fields: set[str]) -> str:
    """The form's field a reason is about ("" for none)."""
    path = _path(text).split(".") if _path(text) else []
    cast, episodes = settings.get("cast", []), settings.get("episodes", [])
    match path:
        case ["cast", index, key, *_] if index.isdigit() and _row_of(cast, int(index)) is not None:
            row = _row_of(cast, int(index))
            return f"cast.{row}.{key}" if f"cast.{row}.{key}" in fields else f"cast.{row}.name"
        case ["cast"]:  # two alike (at the second's row), or too few (at the first row left empty)
            twice = re.search(r"and '([^']+)'", text)
            used = {m.get("_row") for m in cast}
            empty = next(i for i in range(len(used) + 1) if i not in used)
            row = next((m.get("_row") for m in cast if twice and m.get("id") == twice.group(1)), empty)
            return f"cast.{row}.name"
        case ["episodes", index, part, *_] if index.isdigit() and _row_of(episodes, int(index)) is not None:
            return f"episodes.{_row_of(episodes, int(index))}.{'main' if part == 'main' else 'death_match'}"
        case ["episodes"]:
            return "episodes.0.main"
        case ["final", *_]:
            return "final"
        case ["match_options", "phase_seconds"]:
            return "phase_hours"
        case [key] if key in fields:
            return key
    return _in_words_field(settings, text, fields)


def _in_words_field(settings: Mapping[str, Any], text: str, fields: set[str]) -> str:
    """The field of a reason that names an episode, the final, or a season id in words."""
    episodes = settings.get("episodes", [])
    found = EPISODE.match(text)
    if found and episodes:
        index = min(int(found.group(1)), len(episodes)) - 1
        row = _row_of(episodes, index)
        return f"episodes.{row}.{'death_match' if found.group(2) == 'death match' else 'main'}"
    if text.startswith("final "):
        return "final"
    if re.match(r"^(a )?season s-[0-9a-z-]+ exists", text):
        return "season_id"
    webhook = next(
        (m.get("_row") for m in settings.get("cast", []) if m.get("webhook") and text.startswith(m["webhook"][:100])),
        None,
    )
    return f"cast.{webhook}.webhook" if webhook is not None else ""


# -- the settings file ----------------------------------------------------------------------------


def form_values(body: bytes, content_type: str) -> dict[str, str]:
    """A multipart/form-data body's fields as text (an uploaded file's content under its field)."""
    message = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body)
    values: dict[str, str] = {}
    if not message.is_multipart():
        return values
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        content = part.get_payload(decode=True) or b""
        if isinstance(name, str):
            values[name] = content.decode("utf-8", "replace")
    return values


def read_file(text: str) -> SeasonReading:
    """The season a settings file gives: the settings alone, or the console's create event (its
    `season`, and its `season_id` if it names one), checked as the service checks it."""
    try:
        loaded = json.loads(text)
    except ValueError as error:
        return SeasonReading({}, None, [Reason("not_json", f"Not JSON: {error}")])
    if not isinstance(loaded, dict):
        return SeasonReading({}, None, [Reason("not_settings", "No settings object {...}: see docs/SEASONS.md")])
    event = "command" in loaded
    settings = loaded.get("season", loaded) if event else loaded
    season_id = loaded.get("season_id") if event else None
    reading = SeasonReading(
        settings if isinstance(settings, dict) else {}, season_id if isinstance(season_id, str) else None
    )
    try:
        read_settings(settings)
    except GameCoreError as error:
        reading.reasons = list(error.reasons)
    return reading
