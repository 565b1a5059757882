"""The 9-player mm8 match of the cost goals, played on the local stack for a test module's bill."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

from benchmarks.costs import Bill, bench_request, match_bill


def played(channel: str) -> Iterator[Bill]:
    """The match's bill by `channel` ("webhook", "email"); the environment the stack set restored."""
    saved = dict(os.environ)
    try:
        bill, _largest = match_bill(bench_request("palindrome", "mm8", 9), channel=channel)
        yield bill
    finally:
        os.environ.clear()
        os.environ.update(saved)
        time.tzset()
