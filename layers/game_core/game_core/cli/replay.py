"""Replay an exported match record: each phase's reveal and the result as text, or with --json the
outcome as JSON (same record, same bytes). The text says, under each phase, who a grace held it
for and what the log says happened while it was open: absences, replacements, messages between
players (who wrote to whom, never what), the host's changes to graces and to messages.

match-replay record.json          (or - for standard input)
match-replay --json record.json

A season's record (match-host season export) replays each of its matches from its own record,
then the season's log on their results: the same ECs, namings, eliminations and champion, said
episode by episode (--json: the season's state), or where the log and the matches part.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from game_core.cli.failures import CliError, OneLineParser, one_line_errors, read_json
from game_core.games import registry
from game_core.games.text_layout import table
from game_core.match.clock import day_text, duration_text
from game_core.match.model import MatchRecord
from game_core.match.replay import canonical_json, outcome, replay, states
from game_core.season.record import SeasonRecord, is_season_record, replayed, summary
from game_core.season.replay import ReplayMismatch


def read_record(path: str) -> MatchRecord | SeasonRecord:
    """An exported match record, or a season's (its matches' records inside)."""
    loaded = read_json(path, "an exported match or season record (match-host export MATCH_ID > record.json)")
    model: type[MatchRecord] | type[SeasonRecord] = SeasonRecord if is_season_record(loaded) else MatchRecord
    try:
        return model.model_validate(loaded)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the record"
        kind = "season" if model is SeasonRecord else "match"
        raise CliError(
            f"{path} is not an exported {kind} record ({where}: {first['msg']}); make one with match-host export"
        ) from None


def result_lines(result: Mapping[str, Any]) -> list[str]:
    """The result as a person reads it: the standings, then who holds what the rules award."""
    rows = [[str(s["place"]), s["player"], str(s["score"]), ", ".join(s["tied_with"])] for s in result["standings"]]
    lines = ["Result:", *("  " + line for line in table(["Place", "Player", "Score", "Tied with"], rows))]
    if result["tol"]:
        awarded = ", ".join(f"{player} ({count})" for player, count in result["tol_awarded"].items())
        lines.append(f"Token of Life: {awarded}")
    if result["ec"]:
        lines.append(f"Elimination Candidates: {', '.join(result['ec'])}")
    if result["undecided"]:
        undecided = ", ".join(result["undecided"])
        lines.append(f"Tied across a line, for the host to decide (match-host decide): {undecided}")
    garnets = ", ".join(f"{player} {amount:+d}" for player, amount in result["garnets"].items() if amount)
    if garnets:
        lines.append(f"Garnets: {garnets}")
    return lines


def _when(at: str) -> str:
    return day_text(datetime.fromisoformat(at))


def _whom(to: Any) -> str:
    return "everyone" if to in (None, "all") else ", ".join(to)


def _away(data: Mapping[str, Any]) -> str:
    held = " (the deadline held)" if data.get("deadline_held") else ""
    return f"{data['actor']} away from {_when(data['from'])} until {_when(data['until'])}{held}"


def _graces(data: Mapping[str, Any]) -> str:
    holding = f", each holding {duration_text(data['seconds'])}" if data.get("seconds") else ""
    return f"the host set the graces left of {', '.join(data['players'])} to {data['left']}{holding}"


LOGGED: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "absence_declared": _away,
    "absence_withdrawn": lambda d: f"{d['actor']} withdrew their absence",
    "absence_refused": lambda d: f"the host refused {d['who']}'s absence from {_when(d['from'])}",
    "absence_cut": lambda d: f"the host cut {d['who']}'s absence from {_when(d['from'])} to end {_when(d['until'])}",
    "replaced": lambda d: f"seat {d['seat']}: {d['by']} replaced {d['replaced']}",
    "press": lambda d: f"a message from {d['from']} to {_whom(d['to'])}",
    "host_press": lambda d: f"the host messaged {_whom(d['to'])}",
    "press_mode": lambda d: f"the host set messages between players {d['mode']}, {d['per_hour']} an hour",
    "graces_set": _graces,
}
"""What match-replay says of a logged event, by its type (the others are the phases' own)."""


def logged_lines(events: list[dict[str, Any]] | None) -> dict[int, list[str]]:
    """The log's events `LOGGED` speaks of, as lines, by the number of the phase open when each
    happened (the first opens with the match)."""
    lines: dict[int, list[str]] = {}
    number = 1
    for event in events or []:
        if event["type"] == "phase_opened":
            number = event["data"]["number"]
        elif event["type"] in LOGGED:
            lines.setdefault(number, []).append(LOGGED[event["type"]](event["data"]))
    return lines


def as_text(record: MatchRecord) -> Iterator[str]:
    """The record phase by phase: how each phase ended and the public view after it, then the result."""
    game = registry.load(record.game)
    replayed = states(record)
    _start, state = next(replayed)
    yield f"{game.title}, match {record.match_id}: {len(record.players)} players ({', '.join(record.players)})"
    logged = logged_lines(record.events)
    for phase, state in replayed:
        assert phase is not None
        ended = "resolved early" if not phase.timed_out else "ran its time"
        yield ""
        yield f"== Phase {phase.number}: {phase.name} ({ended}, after {duration_text(phase.elapsed_seconds)}) =="
        if phase.graced:
            yield f"Held by a grace for {', '.join(phase.graced)}"
        yield from (f"While it was open: {line}" for line in logged.pop(phase.number, []))
        yield game.text.render_view(game.view(state, None), {})
    replayed_outcome = outcome(game, record, state)
    yield ""
    yield from (f"While phase {number} is open: {line}" for number, lines in logged.items() for line in lines)
    if replayed_outcome["result"] is None:
        yield f"The match is not over ({record.status}) after {len(record.phases)} phases."
    else:
        yield from result_lines(replayed_outcome["result"])


def mismatch_text(mismatch: ReplayMismatch) -> str:
    """Where a season's replay parts from its log: the step, then how (when the reasons say more)."""
    more = [reason.text for reason in mismatch.reasons if reason.text != mismatch.message]
    return "; ".join([mismatch.message, *more])


@one_line_errors("match-replay")
def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="match-replay", description=__doc__.splitlines()[0])
    parser.add_argument("record", help="an exported match record (JSON), or - for standard input")
    parser.add_argument("--json", action="store_true", help="the outcome as JSON (the final public view and result)")
    args = parser.parse_args(argv)
    record = read_record(args.record)
    try:
        if isinstance(record, SeasonRecord):
            season = replayed(record)
            said = canonical_json(season.model_dump(mode="json")) if args.json else "\n".join(summary(season))
        else:
            said = canonical_json(replay(record)) if args.json else "\n".join(as_text(record))
    except ReplayMismatch as mismatch:  # a season's log its matches and acts do not lead to
        raise CliError(f"{args.record} does not replay: {mismatch_text(mismatch)}") from None
    except ValueError as error:  # a record this game's rules do not lead to
        raise CliError(f"{args.record} does not replay: {error}") from None
    sys.stdout.write(said + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
