"""Replay an exported match record and print the outcome as JSON (same record, same bytes).

match-replay record.json        (or - for standard input)
"""

from __future__ import annotations

import argparse
import sys

from game_core.match.model import MatchRecord
from game_core.match.replay import canonical_json, replay


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="match-replay", description=__doc__.splitlines()[0])
    parser.add_argument("record", help="an exported match record (JSON), or - for standard input")
    args = parser.parse_args(argv)
    text = sys.stdin.read() if args.record == "-" else open(args.record, encoding="utf-8").read()
    record = MatchRecord.model_validate_json(text)
    sys.stdout.write(canonical_json(replay(record)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
