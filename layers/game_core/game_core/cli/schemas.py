"""Print a game's JSON Schemas (settings and each submission kind), each kind's plain-text grammar
(play by e-mail) and its timeline; or its rules written for players.

match-schemas crates [--rule-set mm5]
match-schemas crates --rules > docs/rules/crates.md     the rules written for players (HELP RULES)
"""

from __future__ import annotations

import json
import sys

from pydantic import ValidationError

from game_core.cli.failures import CliError, OneLineParser, one_line_errors
from game_core.games import registry
from game_core.match.model import MatchRequest, PlayerEntry
from game_core.service.matches.absence import ABSENCE_ACTION
from game_core.service.matches.press import PressAction
from game_core.service.matches.ready import ReadyVote

HOST_FIELDS = ("host_email", "host_zone")
GRACE_FIELDS = ("graces", "grace_seconds")
PRESS_FIELDS = ("press", "press_per_hour")


def describe(game_id: str, rule_set: str | None) -> dict:
    game = registry.load(game_id)
    try:
        settings = game.Settings.model_validate({"rule_set": rule_set} if rule_set else {})
    except ValidationError:
        known = game.Settings.model_json_schema()["properties"]["rule_set"]
        names = known.get("enum") or [known.get("const")]
        raise CliError(f"{game.title} has no rule set {rule_set!r}; it has {', '.join(names)}") from None
    settings_file = MatchRequest.model_json_schema()
    return {
        "game": game.id,
        "title": game.title,
        "players": {"min": game.min_players, "max": game.max_players},
        "rule_set": settings.rule_set,
        "settings_schema": game.Settings.model_json_schema(),
        # A player's entry in the settings file: id, name, email, zone (where their mail's deadlines are given)
        "player_schema": PlayerEntry.model_json_schema(),
        # The host's fields of the settings file: their address (commands by mail) and zone
        "host_schema": {field: settings_file["properties"][field] for field in HOST_FIELDS},
        "submission_schemas": {kind: model.model_json_schema() for kind, model in game.submissions.items()},
        "submission_text": {kind: game.text.text_help(kind) for kind in game.submissions},
        "timeline": [{"phase": kind.name, "accepts": list(kind.accepts)} for kind in game.timeline(settings)],
        # Where early close is off: POST .../actions {"kind": "ready", "action": {"ready": true}}
        "ready_action_schema": ReadyVote.model_json_schema(),
        # POST .../actions {"kind": "absence", "action": {"from": "2026-12-24", "to": "2026-12-27"}} or {"cancel": true}
        "absence_action_schema": ABSENCE_ACTION.json_schema(by_alias=True),
        # Grace periods: the settings file's graces (each participant's) and grace_seconds (each hold)
        "grace_settings_schema": {
            field: MatchRequest.model_json_schema()["properties"][field] for field in GRACE_FIELDS
        },
        # Messages between players: POST .../actions {"kind": "press", "action": {"to": "all", "text": "..."}},
        # as the settings file's press fields allow
        "press_action_schema": PressAction.model_json_schema(),
        "press_settings_schema": {field: settings_file["properties"][field] for field in PRESS_FIELDS},
    }


@one_line_errors("match-schemas")
def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="match-schemas", description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=registry.AVAILABLE)
    parser.add_argument("--rule-set")
    parser.add_argument("--rules", action="store_true", help="print the rules written for players instead")
    args = parser.parse_args(argv)
    if args.rules:  # what HELP RULES mails; docs/rules/<game>.md is this
        sys.stdout.write(registry.load(args.game).rules_text)
        return 0
    json.dump(describe(args.game, args.rule_set), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
