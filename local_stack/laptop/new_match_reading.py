"""What the host page's "New match" form says (local_stack/laptop/new_match_form.py builds it): the match
to create, as `MatchRequest`'s JSON, or why it cannot be, each reason "<field>: <sentence>" for the
form to show beside that field, in words.

- A player's id is made from their name ("Ada Lovelace": ada-lovelace); ids are one person across
  the deployment (`service.matches.lifecycle.register_contacts`), so a name another person plays under
  here is refused beside it, saying what to do.
- The rows and the models (`MatchRequest`, the game's Settings) are checked before anything is
  sent; the service's own refusals of a participant (a known id with another address, a refused
  webhook URL) are placed at their row (`placed`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from game_core.errors import Reason
from game_core.games.protocol import AnyGame
from game_core.match.engine import guests_per_player
from game_core.match.model import MatchRequest
from local_stack.laptop.new_match_form import MAX_HOURS, WEBHOOK, columns, seats, settings_of


def player_id(name: str, fallback: str) -> str:
    """The id a name makes ("Zoë O'Neil": zoe-o-neil), `fallback` when it has no letter or digit of ASCII."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    made = re.sub(r"[^a-z0-9_.]+", "-", ascii_name).strip("-.")[:40].strip("-.")
    return made or fallback


@dataclass
class Reading:
    """What the form says: the match to create (`MatchRequest`'s JSON), or the reasons it cannot
    be, each "<field>: <sentence>"."""

    match: dict[str, Any]
    reasons: list[Reason] = field(default_factory=list)
    named_at: dict[str, str] = field(default_factory=dict)
    """Each participant id's name field."""
    addressed_at: dict[str, str] = field(default_factory=dict)
    """Each participant id's address field."""

    def refuse(self, where: str, said: str, code: str = "new_match") -> None:
        if not any(reason.text.startswith(f"{where}: ") for reason in self.reasons):  # one reason a field
            self.reasons.append(Reason(code, f"{where}: {said}" if where else said))


def _entry(reading: Reading, row: str, who: str, values: Mapping[str, str], seen: dict[str, str]) -> dict[str, Any]:
    """One participant's entry (a player, or a guest): `row` its fields' start ("players.2." or
    "players.2.guests.0."), `who` where it stands in words ("row 3"); a name too like another's is
    refused (`seen`: each word naming one, and where)."""
    name = values.get("name", "")
    entry: dict[str, Any] = {"id": player_id(name, who.replace(" ", "-").replace("'s", "")), "name": name}
    if not name:
        reading.refuse(f"{row}name", "Give their name.")
    words = {entry["id"], name.lower()} - {""}
    for word in words & seen.keys():
        reading.refuse(f"{row}name", f"Too like the name in {seen[word]}: give each player a name of their own.")
    seen.update(dict.fromkeys(words - seen.keys(), who))
    address = values.get("address", "")
    if WEBHOOK.match(address):
        reading.match.setdefault("webhooks", {})[entry["id"]] = address
    elif address:
        entry["email"] = address
    if values.get("zone"):
        entry["zone"] = values["zone"]
    reading.named_at[entry["id"]] = f"{row}name"
    reading.addressed_at[entry["id"]] = f"{row}address"
    return entry


def read_form(game: AnyGame, rows: int, posted: Mapping[str, str]) -> Reading:
    """The match the posted form asks for, or why it cannot be made, each reason at its field."""
    reading = Reading({"game": game.id, "settings": {}, "players": []})
    seen: dict[str, str] = {}
    seated: dict[str, str] = {}
    for i in range(rows):
        values = {key: posted.get(f"players.{i}.{key}", "").strip() for key, _, _ in columns(game)}
        if not any(values.values()):
            continue
        player = _entry(reading, f"players.{i}.", f"row {i + 1}", values, seen)
        player["guests"] = []
        for k in range(guests_per_player(game)):
            own = {key.rpartition(".")[2]: value for key, value in values.items() if key.startswith(f"guests.{k}.")}
            player["guests"].append(_entry(reading, f"players.{i}.guests.{k}.", f"row {i + 1}'s guest", own, seen))
        reading.match["players"].append(player)
        seated[str(i + 1)] = player["id"]
    if not game.min_players <= len(seated) <= game.max_players:
        empty = next((i for i in range(rows) if str(i + 1) not in seated), 0)
        named = f"{len(seated)} named" if seated else "none named yet"
        reading.refuse(f"players.{empty}.name", f"{game.title} takes {seats(game)} ({named}): one a row.")
    _read_settings(game, posted, seated, reading)
    hours = posted.get("phase_hours", "").strip()
    if not (hours.isdigit() and 1 <= int(hours) <= MAX_HOURS):
        reading.refuse("phase_hours", f"A whole number of hours, from 1 to {MAX_HOURS} (24 is a day).")
    else:
        reading.match["phase_seconds"] = int(hours) * 3600
    reading.match["early_close"] = "early_close" in posted
    _check(game, reading)
    return reading


def _read_settings(game: AnyGame, posted: Mapping[str, str], seated: Mapping[str, str], reading: Reading) -> None:
    settings, _ = settings_of(game.id)
    for setting in settings:
        one, key = setting.one, setting.one.name.removeprefix("settings.")
        raw = posted.get(one.name, "").strip()
        if one.widget == "checkbox":
            reading.match["settings"][key] = one.name in posted
        elif not raw:
            continue
        elif one.widget == "participant":
            if raw in seated:
                reading.match["settings"][key] = seated[raw]
            else:
                reading.refuse(one.name, f"Row {raw} has no player: choose a row with one.")
        elif one.widget == "number" or setting.numbers:
            if re.fullmatch(r"-?\d+", raw):
                reading.match["settings"][key] = int(raw)
            else:
                reading.refuse(one.name, "A whole number, please.")
        else:
            reading.match["settings"][key] = raw


def _check(game: AnyGame, reading: Reading) -> None:
    """The models' own checks, each reason placed at its field in words."""
    try:
        game.Settings.model_validate(reading.match["settings"])
    except ValidationError as error:
        for problem in error.errors():
            reading.refuse(f"settings.{problem['loc'][0]}" if problem["loc"] else "settings", _in_words(problem))
    try:
        MatchRequest.model_validate(reading.match)
    except ValidationError as error:
        found = reading.reasons[:]
        for problem in error.errors():
            where = _field_of(reading, tuple(problem["loc"]))
            if where or not found:  # the whole request's (two names alike) is said at its field already
                reading.refuse(where, _in_words(problem))


def _field_of(reading: Reading, loc: tuple[str | int, ...]) -> str:
    """The form's field a `MatchRequest` complaint is about ("" for the whole form)."""
    match loc:
        case ("players", int(j), "guests", int(k), key, *_):
            player = reading.match["players"][j]["guests"][k]["id"]
        case ("players", int(j), key, *_):
            player = reading.match["players"][j]["id"]
        case ("webhooks", str(player), *_):
            key = "email"
        case ("phase_seconds", *_):
            return "phase_hours"
        case _:
            return ""
    return (
        reading.addressed_at[player]
        if key == "email"
        else reading.named_at[player].removesuffix("name") + ("zone" if key == "zone" else "name")
    )


def _in_words(problem: Mapping[str, Any]) -> str:
    """A pydantic complaint as a sentence (its own words where a validator gave them)."""
    bounds = problem.get("ctx") or {}
    said = {
        "greater_than_equal": f"At least {bounds.get('ge')}.",
        "greater_than": f"More than {bounds.get('gt')}.",
        "less_than_equal": f"At most {bounds.get('le')}.",
        "less_than": f"Less than {bounds.get('lt')}.",
        "string_too_long": f"At most {bounds.get('max_length')} characters.",
        "literal_error": f"One of {bounds.get('expected')}.",
        "int_parsing": "A whole number, please.",
        "missing": "Required.",
    }.get(problem["type"])
    if said is not None:
        return said
    text = str(problem["msg"]).removeprefix("Value error, ")
    return text[:1].upper() + text[1:]


def placed(reading: Reading, reasons: list[Mapping[str, Any]]) -> list[Reason]:
    """The service's refusal of the match, each reason about one participant placed at their row."""
    found = []
    for reason in reasons:
        code, text = str(reason.get("code", "")), str(reason.get("text", ""))
        known = re.search(r"player id '([^']+)'", text) if code == "contact_changed" else None
        urls = {url[:100]: player for player, url in reading.match.get("webhooks", {}).items()}
        hooked = next((player for url, player in urls.items() if text.startswith(f"{url}: ")), None)
        if known is not None and known.group(1) in reading.named_at:
            said = (
                "Someone else plays on this server under this name, with another address (a name is one "
                "person across matches): give the address they play with here, or another name."
            )
            found.append(Reason(code, f"{reading.named_at[known.group(1)]}: {said}"))
        elif code == "webhook_url" and hooked is not None:
            why = text.partition(": ")[2]
            found.append(Reason(code, f"{reading.addressed_at[hooked]}: This webhook URL is refused: {why}"))
        else:
            found.append(Reason(code, text))
    return found
