"""`bin/play --season`: a whole season played by bots on the local stack, printing each match as it
begins, every announcement, the season's log and who is left (local_stack/bots/season_play.py plays it).

    bin/play --season                 six players: Domino, Pushing Crates, Domino, then the Finals
    bin/play --season season.json     a season's settings file (docs/SEASONS.md)

The ECs never name: each pick passes to the host after the naming hours and, the host silent
too, to a lot (drawn with the season's seed); `--ecs-name` has each EC name at once (by webhook),
`--host-names` the host in their place.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack
from local_stack.bots.printed import compact, say
from local_stack.bots.season_play import play_season

DEMO = {
    "name": "Demo season",
    "seed": 2026,
    "cast": [{"id": player} for player in ("ada", "bo", "cy", "di", "ed", "fay")],
    "episodes": [{"main": {"game": "domino"}}, {"main": {"game": "crates"}}, {"main": {"game": "domino"}}],
    "match_options": {"phase_seconds": 600, "early_close": True},
}
"""Six players: Domino names one EC (five left), Crates two (three), Domino one (two: the Finals)."""


def show(kind: str, data: dict[str, Any]) -> None:
    if kind == "created":
        say(f"season {data['season_id']} created")
    elif kind == "match":
        say(f"\n=== match {data['match_id']}: {data['game']} among {', '.join(data['players'])}")
    elif kind == "announcement":
        say(f"  {data['subject']}")
        if "result" in data:
            result = data["result"]
            places = ", ".join(f"{s['place']}. {s['player']}" for s in result["standings"])
            say(f"    result: {places}; ToL {compact(result.get('tol_awarded', {}))}; EC {result['ec']}")
    elif kind == "ec_named":
        say(f"  {data['ec']} names {data['opponent']} (by webhook)")
    elif kind == "decided":
        say(f"  the host decides: {compact(data)}")


def host_names_at_once(status: dict[str, Any]) -> dict[str, Any] | None:
    naming = [w for w in status["waiting"] if w["kind"] == "naming"]
    return {"player": naming[0]["among"][0]} if naming else None


def play(settings_file: Path | None, host_names: bool, ecs_name: bool = False) -> int:
    settings = DEMO if settings_file is None else json.loads(settings_file.read_text(encoding="utf-8"))
    settings = settings.get("season", settings) if "command" in settings else settings
    started = time.monotonic()
    clock = VirtualClock()
    began = clock.time()
    with LocalStack(clock=clock) as stack:
        say(f"local stack up: moto, state machines for {', '.join(stack.state_machines)}, handlers in-process")
        host = host_names_at_once if host_names else None
        run = play_season(stack, settings, host=host, observe=show, ecs_name=ecs_name)
        seasons = stack.ports().seasons
        assert seasons is not None
        say("\n=== the season's log")
        for event in seasons.season_events(run.season_id):
            say(f"  {event.at.isoformat()}  {event.type} {compact(event.data, 160)}")
        status = stack.host({"command": "season", "action": "status", "season_id": run.season_id})
    say(f"\nchampion: {status['champion']}; eliminated: {compact(status['eliminated'])}")
    say(
        f"season machine {run.status} after {time.monotonic() - started:.1f} s "
        f"({(clock.time() - began) / 3600:.1f} hours on the season's clock), {len(run.matches)} matches"
    )
    return 0 if run.status == "SUCCEEDED" else 1
