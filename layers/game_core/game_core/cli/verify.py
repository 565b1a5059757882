"""Check an exported match record: its event log's hash chain, and that it replays to its result.

match-verify record.json                    (or - for standard input)
match-verify record.json --head HASH        the head hash the match's final notice published
match-verify record.json --receipt FILE     the receipts a player kept (JSON: one, a list, or one a line)
match-verify season.json [--head HASH]      a season's record: its log's chain, every match's
                                            record, and its replay to the same eliminations
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from game_core.cli.failures import CliError, OneLineParser, one_line_errors, read_text
from game_core.cli.replay import mismatch_text, read_record
from game_core.match import chain, receipts
from game_core.match.model import MatchRecord
from game_core.match.replay import replay
from game_core.season.record import SeasonRecord, replayed
from game_core.season.replay import ReplayMismatch

FAILED = 1
"""The exit code of a record that does not hold (an unreadable one is every tool's EXIT, 2)."""


class NotVerified(Exception):
    """What in the record does not hold, in one line."""


def verdict(record: MatchRecord, published_head: str | None, kept: Sequence[Any] = ()) -> str:
    """The one line a record that holds earns; NotVerified names the first thing that does not:
    the chain, each kept receipt (the move and salt the record publishes make its commitment),
    the commitments the chained log sealed (the same, for every move), then the replay (to the
    record's result, and to the one its `finished` event logged)."""
    head = None
    if record.events is not None:
        try:
            head = chain.head(record.match_id, record.events)
        except chain.ChainBroken as broken:
            raise NotVerified(f"the event log is broken: {broken}") from None
    if published_head is not None and head != published_head:
        raise NotVerified(
            f"the log's head {head or '(none: the record is unchained)'} is not the published {published_head}: "
            "events were added, cut or changed since"
        )
    for receipt in kept:
        try:
            receipts.check(record, receipt)
        except receipts.ReceiptMismatch as mismatch:
            raise NotVerified(str(mismatch)) from None
    try:
        receipts.check_log(record)
    except receipts.ReceiptMismatch as mismatch:
        raise NotVerified(f"the log's commitments: {mismatch}") from None
    try:
        replayed = replay(record)["result"]
        undecided = replay(record.model_copy(update={"decision": None}))["result"]
    except ValueError as error:  # a record this game's rules do not lead to
        raise NotVerified(f"the record does not replay: {error}") from None
    if record.result is not None and replayed != record.result:
        raise NotVerified("the record's result is not the one its phases replay to")
    events = record.events or []
    ends = [position for position, event in enumerate(events) if event.get("type") == "finished"]
    if ends and undecided != events[ends[-1]].get("data", {}).get("result"):
        raise NotVerified(f"the phases do not replay to the result event {ends[-1] + 1} (finished) logged")
    opened = f"; {len(kept)} receipt(s) open to the moves counted" if kept else ""
    if head is None:
        return f"unchained: exported before the event log was chained; replayed {len(record.phases)} phases{opened}"
    return f"verified: {len(events)} events, head {head}{opened}"


def season_verdict(record: SeasonRecord, published_head: str | None) -> str:
    """A season's record holds when the season's own log chains (to `published_head`, if given),
    every match's record holds (`verdict`), and the log replays on those matches' results to the
    state the record holds; NotVerified names the first thing that does not."""
    try:
        head = chain.head(record.season_id, record.events)
    except chain.ChainBroken as broken:
        raise NotVerified(f"the season's log is broken: {broken}") from None
    if published_head is not None and head != published_head:
        raise NotVerified(f"the season's log head {head} is not the published {published_head}")
    for match in record.matches:
        try:
            verdict(match, None)
        except NotVerified as failure:
            raise NotVerified(f"match {match.match_id}: {failure}") from None
    try:
        season = replayed(record)
    except ReplayMismatch as mismatch:
        raise NotVerified(f"the season does not replay: {mismatch_text(mismatch)}") from None
    except ValueError as error:
        raise NotVerified(f"a match of the season does not replay: {error}") from None
    left = "champion " + season.champion if season.champion else f"still {season.stage}"
    return (
        f"verified: season {record.season_id}, {len(record.events)} events, head {head}; "
        f"{len(record.matches)} matches verified; {left}"
    )


KEPT = "the receipts a submission's answers gave (JSON: one, a list, or one a line)"


def read_receipts(path: str) -> list[Any]:
    """The receipts in a file as the answers gave them: a receipt, a webhook reply holding one, a
    list of either, or one of those a line (as a mail gives them)."""
    text = read_text(path, KEPT)
    try:
        loaded = json.loads(text)
        found = loaded if isinstance(loaded, list) else [loaded]
    except json.JSONDecodeError:
        found = []
        for number, line in enumerate(text.splitlines(), 1):
            try:
                found += [json.loads(line)] if line.strip() else []
            except json.JSONDecodeError as error:
                raise CliError(f"{path} line {number} is not JSON ({error.msg}); expected {KEPT}") from None
    if not found:
        raise CliError(f"{path} holds no receipt; expected {KEPT}")
    return [item["receipt"] if isinstance(item, dict) and "receipt" in item else item for item in found]


@one_line_errors("match-verify")
def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="match-verify", description=__doc__.splitlines()[0])
    parser.add_argument("record", help="an exported match record (JSON), or - for standard input")
    parser.add_argument("--head", help="the head hash the match's final notice published")
    parser.add_argument("--receipt", help=KEPT)
    args = parser.parse_args(argv)
    record = read_record(args.record)
    kept = read_receipts(args.receipt) if args.receipt else []
    if kept and isinstance(record, SeasonRecord):
        raise CliError("receipts are checked against a match's record: export the match they are for")
    try:
        if isinstance(record, SeasonRecord):
            sys.stdout.write(season_verdict(record, args.head) + "\n")
        else:
            sys.stdout.write(verdict(record, args.head, kept) + "\n")
    except NotVerified as failure:
        sys.stderr.write(f"match-verify: {args.record} FAILS: {failure}\n")
        return FAILED
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
