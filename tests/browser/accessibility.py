"""What every page the browser tests open is held to (issue 30 item 7): axe-core, injected into the
page as loaded, reports no serious or critical violation; the view weighs under 100 KB (its HTML,
style sheet and script, as the browser's Resource Timing counts them); and a player's page view
costs one read of the store (counted on the stack's clients while the browser loads it).

axe-core is the npm package bin/setup --browser fetches into .venv/npm (a test skips without it,
naming the command)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from local_stack.aws.metering import Meter

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / ".venv" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
MOST_BYTES = 100 * 1024
"""The heaviest a page view may be (issue 30 item 7)."""
READS = frozenset({"GetItem", "BatchGetItem", "Query", "Scan"})
"""The store's reading calls (DynamoDB's)."""
WEIGHT = """
const entries = [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')];
return entries.map((entry) => [entry.name, entry.transferSize || entry.encodedBodySize || 0]);
"""
"""Each thing the view loaded with its bytes (what came over the wire; from the cache: its body)."""
RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then(
  (results) => done(results.violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map(
    (v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' '))}))),
  (error) => done([{id: 'axe-error', impact: 'critical', help: String(error), nodes: []}]));
"""


def axe_source() -> str:
    if not AXE.exists():
        pytest.skip(f"{AXE} missing: bin/setup --browser fetches axe-core from the npm registry")
    return AXE.read_text()


def serious_violations(driver: Any, source: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it stands (each rule once, with
    up to four of the elements it names)."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(source)
    driver.set_script_timeout(60)
    return list(driver.execute_async_script(RUN_AXE))


def weight(driver: Any) -> tuple[int, list[tuple[str, int]]]:
    """The page view's bytes in all, and each thing it loaded."""
    loaded = [(str(name), int(size)) for name, size in driver.execute_script(WEIGHT)]
    return sum(size for _, size in loaded), loaded


class Reads:
    """Counts the store's reads the stack's clients make from now on (what a page view costs)."""

    def __init__(self, stack: Any) -> None:
        self.meter = Meter(stack)  # the handlers' clients, the page function's among them

    def taken(self) -> Counter[str]:
        """The reads since last asked, by operation."""
        calls = self.meter.reset()
        return Counter({operation: n for (service, operation), n in calls.items() if operation in READS})
