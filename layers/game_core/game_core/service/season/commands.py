"""The host's season command (`{"command": "season", "action": ...}`): the console's event, what
`match-host season ...` sends, one use case of service/season/host.py each."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from game_core.errors import Illegal, NotFound, Reason
from game_core.games.protocol import Model
from game_core.match.model import MAX_SECONDS
from game_core.service.ports import Ports
from game_core.service.season import guests as season_guests
from game_core.service.season import host as season_host
from game_core.service.season.export import export_season


class Season(Model):
    command: Literal["season"]
    action: Literal["create", "status", "decide", "guests", "extend", "pause", "resume", "cancel", "recover", "export"]
    season_id: str | None = Field(default=None, pattern=r"^s-[0-9a-z-]{1,40}$")
    """The season (create: its id, when the host names it; else one is drawn)."""
    season: dict[str, Any] | None = None
    """create: the season's settings (RULINGS.md, "Seasons")."""
    player: str | None = Field(default=None, min_length=1, max_length=64)
    """decide: the opponent named for the EC whose turn it is, or the one picked among a tie."""
    match_id: str | None = Field(default=None, pattern=r"^m-[0-9a-f]{12}$")
    """decide: the tied Death Match, when several wait for the host."""
    guests: dict[str, list[Any]] | None = None
    """guests: each player's guests for the coming episode (a cast member's id, or an entry with
    id, name, email, zone); each new guest's secret and link come back once."""
    seconds: int | None = Field(default=None, gt=0, le=MAX_SECONDS)
    """extend: seconds added to the current wait's deadlines."""


SAMPLE_SEASON_ID = "s-0123456789ab"
"""The season id the sample events in events/ carry: a host who sends one unedited is told so."""


def run_season_command(ports: Ports, command: Season) -> dict[str, Any]:
    try:
        return _run(ports, command)
    except NotFound as error:
        if command.season_id != SAMPLE_SEASON_ID:
            raise
        hint = f"{error.message}: that is the sample events' id; put your season's id (create's reply gives it)"
        raise NotFound(hint) from None


def _run(ports: Ports, command: Season) -> dict[str, Any]:
    if command.action == "create":
        return season_host.create(ports, _given(command.season, "season", "the season's settings"), command.season_id)
    season_id = _given(command.season_id, "season_id", "the season's id")
    match command.action:
        case "status":
            return season_host.status(ports, season_id)
        case "decide":
            return season_host.decide(
                ports, season_id, _given(command.player, "player", "who the host names or picks"), command.match_id
            )
        case "guests":
            given = _given(command.guests, "guests", "each player's guests")
            return season_guests.name_guests(ports, season_id, given)
        case "extend":
            return season_host.extend(ports, season_id, _given(command.seconds, "seconds", "seconds to add"))
        case "pause":
            return season_host.pause(ports, season_id)
        case "resume":
            return season_host.resume(ports, season_id)
        case "cancel":
            return season_host.cancel(ports, season_id)
        case "export":  # the season's record: what match-replay and match-verify read
            return export_season(ports, season_id).model_dump(mode="json")
    return season_host.recover(ports, season_id)


def _given(value: Any, field: str, what: str) -> Any:
    if value is None:
        raise Illegal(f"the season command needs {field}: {what}", [Reason("missing", f"{field} is {what}")])
    return value
