"""`match-host season ...`: the host's season command (service/season/commands.py) from the
command line, sent as every other host command is.

    match-host season create season.json [--id s-spring]   the season id and each player's secret
    match-host season status SEASON_ID                     who is left (ToL), episodes, what it waits on
    match-host season decide SEASON_ID bo [--match MATCH_ID]   name bo for the silent EC whose turn it
                                               is, or pick bo among a tie (EC, champion), or name bo the
                                               loser of a tied Death Match
    match-host season guests SEASON_ID guests.json   each player's guests for the coming episode
                                               ({"ada": ["fay"], "bo": [{"id": "gwen", "email": ...}]});
                                               each new guest's secret and link, once
    match-host season extend SEASON_ID 3600    seconds added to the current naming deadlines
    match-host season pause|resume|cancel|recover SEASON_ID
    match-host season export SEASON_ID > season.json   its record (match-replay, match-verify read it)
"""

from __future__ import annotations

import argparse
from typing import Any

from game_core.cli.failures import CliError, read_json

SIMPLE = ("status", "pause", "resume", "cancel", "recover", "export")


def add_season_parser(commands: Any, seconds: Any) -> None:
    """`season` and its actions, under match-host's commands (`seconds`: its argument type)."""
    season = commands.add_parser("season", help="a whole season: create, status, decide, extend, pause, cancel")
    actions = season.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create")
    create.add_argument("settings", help="the season's settings file (JSON; docs/SEASONS.md)")
    create.add_argument("--id", dest="season_id", help="the season's id (s- then letters, digits, dashes)")
    for name in SIMPLE:
        actions.add_parser(name).add_argument("season_id")
    decide = actions.add_parser("decide")
    decide.add_argument("season_id")
    decide.add_argument("player", help="who the host names, picks, or names the loser")
    decide.add_argument("--match", dest="match_id", help="the tied Death Match, when several are tied")
    guests = actions.add_parser("guests")
    guests.add_argument("season_id")
    guests.add_argument("guests", help="each player's guests (JSON: player id -> list of guests)")
    extend = actions.add_parser("extend")
    extend.add_argument("season_id")
    extend.add_argument("seconds", type=seconds)


def season_command(args: argparse.Namespace) -> dict[str, Any]:
    command: dict[str, Any] = {"command": "season", "action": args.action, "season_id": args.season_id}
    if args.action == "create":
        loaded = read_json(args.settings, "a season's settings file (docs/SEASONS.md)")
        if not isinstance(loaded, dict):
            raise CliError(f"{args.settings} holds no settings object {{...}}; see events/host_season_create.json")
        # Either the season's settings alone or the whole console event (events/host_season_create.json).
        command["season"] = loaded.get("season", loaded) if "command" in loaded else loaded
        if args.season_id is None:
            del command["season_id"]
    if args.action == "decide":
        command |= {"player": args.player} | ({"match_id": args.match_id} if args.match_id else {})
    if args.action == "extend":
        command["seconds"] = args.seconds
    if args.action == "guests":
        given = read_json(args.guests, "each player's guests (docs/SEASONS.md)")
        if not isinstance(given, dict):
            raise CliError(f"{args.guests} holds no object {{player: [guests]}}")
        # Either the guests alone or the whole console event (events/host_season_guests.json).
        command["guests"] = given.get("guests", given) if "command" in given else given
    return command
