"""Cold start: each handler's whole-process import against `import boto3; boto3.client('dynamodb')`.

    .venv/bin/python -m benchmarks.cold_start [ROUNDS]

Each measurement is a fresh interpreter (`python -c "import app"`, the function's folder and the
layer on its path, the environment a Lambda has) timed from its start until the import is done.
The process then leaves by `os._exit`: a Lambda container is never torn down between requests,
and the interpreter's teardown grows with the modules loaded, so it is left out of both sides.
Next to it, for the record, the same import followed by making the DynamoDB client that the
handler's first request makes (game_core.aws.wiring makes no client at import).
The baseline and the handlers run interleaved, in a new order each round, so noise from the other
work on this machine falls on all of them alike; each figure is the median of its rounds. The goal
(issue 8) is at most 1.3x the baseline for every handler.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUNCTIONS = ROOT / "functions"
LAYER = ROOT / "layers" / "game_core"
GOAL = 1.3
HANDLERS = tuple(sorted(path.parent.name for path in FUNCTIONS.glob("*/app.py")))

_ARN = "arn:aws:{service}:us-east-1:123456789012:{name}"
LAMBDA_ENV = {
    "TABLE_NAME": "matches",
    "PUBLIC_TOPIC_ARN": _ARN.format(service="sns", name="public"),
    "PRIVATE_TOPIC_ARN": _ARN.format(service="sns", name="private"),
    "HOST_TOPIC_ARN": _ARN.format(service="sns", name="host"),
    "STATE_MACHINE_ARN_PREFIX": _ARN.format(service="states", name="stateMachine:match-"),
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "cold",
    "AWS_SECRET_ACCESS_KEY": "start",
    "AWS_SESSION_TOKEN": "bench",
    "AWS_LAMBDA_FUNCTION_NAME": "bench",
    "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "256",
    "POWERTOOLS_LOG_LEVEL": "INFO",
    "POWERTOOLS_METRICS_NAMESPACE": "MatchService",
}
"""What template.yaml gives the functions, plus what Lambda itself sets (fake values: nothing is
called). No ~/.aws files are read, as on Lambda."""

BASELINE = "import boto3; boto3.client('dynamodb')"
_CODE = {
    "baseline": "import boto3, os; boto3.client('dynamodb'); os._exit(0)",
    "import": "import app, os; os._exit(0)",
    "ready": "import app, os; from game_core.aws.wiring import ports_from_environment; "
    "ports_from_environment().store.client.meta; os._exit(0)",
}
"""What each process runs: the baseline; a handler's import; its import, then its DynamoDB client."""

Run = tuple[str, str]
"""(what: a key of _CODE, handler: a folder of functions/, or "" for the baseline)"""


def _command(run: Run) -> tuple[list[str], dict[str, str], Path]:
    what, handler = run
    folder = FUNCTIONS / handler if handler else FUNCTIONS
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": os.pathsep.join([str(folder), str(LAYER)] if handler else [str(LAYER)]),
        "AWS_CONFIG_FILE": os.devnull,
        "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
        "HOME": tempfile.gettempdir(),
    } | LAMBDA_ENV
    return [sys.executable, "-c", _CODE[what]], env, folder


def _once(run: Run) -> float:
    command, env, cwd = _command(run)
    started = time.perf_counter()
    subprocess.run(command, env=env, cwd=cwd, check=True)
    return time.perf_counter() - started


def measure(rounds: int = 15, seed: int = 8) -> dict[Run, float]:
    """Median seconds of each run, the baseline's and each handler's, measured interleaved."""
    runs: list[Run] = [("baseline", "")] + [(what, name) for name in HANDLERS for what in ("import", "ready")]
    for run in runs:
        _once(run)  # compile and cache the bytecode: a deployed package ships it
    timings: dict[Run, list[float]] = {run: [] for run in runs}
    order = random.Random(seed)
    for _ in range(rounds):
        order.shuffle(runs)
        for run in runs:
            timings[run].append(_once(run))
    return {run: statistics.median(times) for run, times in timings.items()}


def report(rounds: int = 15) -> dict[str, float]:
    """Print each handler's median import, the baseline's, and the ratio next to the goal;
    return the ratios."""
    medians = measure(rounds)
    base = medians[("baseline", "")]
    print(f"cold start, baseline {BASELINE}: {base * 1e3:6.1f} ms   (median of {rounds} processes each)")
    ratios = {}
    for name in HANDLERS:
        ratios[name] = medians[("import", name)] / base
        ready = medians[("ready", name)]
        verdict = "ok" if ratios[name] <= GOAL else "over"
        print(
            f"cold start, import {name + ':':<16}{medians[('import', name)] * 1e3:6.1f} ms   "
            f"{ratios[name]:.2f}x the baseline (goal <= {GOAL}x: {verdict});   "
            f"then its DynamoDB client: {ready * 1e3:6.1f} ms, {ready / base:.2f}x"
        )
    return ratios


if __name__ == "__main__":
    report(int(sys.argv[1]) if len(sys.argv) > 1 else 9)
