"""Cold start (issue 8), by counts, not times (benchmarks/cold_start.py times it): importing a
handler makes no boto3 session and no client; the ports make each client on its first use, all
from one session, once; the webhook's idempotency records share the store's DynamoDB client; and
`ports_from_environment.cache_clear()` starts over with a new session."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
HANDLERS = sorted(path.parent.name for path in (ROOT / "functions").glob("*/app.py"))
LAMBDA_ENV = {
    "TABLE_NAME": "matches",
    "PUBLIC_TOPIC_ARN": "arn:aws:sns:us-east-1:123456789012:public",
    "PRIVATE_TOPIC_ARN": "arn:aws:sns:us-east-1:123456789012:private",
    "HOST_TOPIC_ARN": "arn:aws:sns:us-east-1:123456789012:host",
    "STATE_MACHINE_ARN_PREFIX": "arn:aws:states:us-east-1:123456789012:stateMachine:match-",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "cold",
    "AWS_SECRET_ACCESS_KEY": "start",
    "AWS_LAMBDA_FUNCTION_NAME": "cold-start",
    "POWERTOOLS_LOG_LEVEL": "WARNING",
}

COUNTING = textwrap.dedent(
    """
    import json, sys
    import botocore.session

    sessions, clients = [], []
    _init, _create = botocore.session.Session.__init__, botocore.session.Session.create_client

    def init(self, *args, **kwargs):
        sessions.append(id(self))
        _init(self, *args, **kwargs)

    def create_client(self, service_name, *args, **kwargs):
        clients.append([sessions.index(id(self)), service_name])
        return _create(self, service_name, *args, **kwargs)

    botocore.session.Session.__init__ = init
    botocore.session.Session.create_client = create_client

    def counts():
        return {"sessions": len(sessions), "clients": list(clients)}

    seen = {}
    import app
    seen["import"] = counts()
    from game_core.aws import wiring

    ports = wiring.ports_from_environment()
    seen["ports"] = counts()
    ports.store.client.meta  # the store's first call
    seen["store"] = counts()
    for _ in range(2):
        ports.notifier.client.meta, ports.workflow.client.meta, ports.store.client.meta
        wiring.ports_from_environment().notifier.client.meta
    seen["every port twice"] = counts()
    wiring.ports_from_environment.cache_clear()
    wiring.ports_from_environment().store.client.meta
    seen["after cache_clear"] = counts()
    print(json.dumps(seen))
    """
)


def _counted(handler: str) -> dict[str, Any]:
    folder = ROOT / "functions" / handler
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT / "layers" / "game_core")]),
        "AWS_CONFIG_FILE": os.devnull,
        "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
    } | LAMBDA_ENV
    run = subprocess.run(
        [sys.executable, "-c", COUNTING], env=env, cwd=folder, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    counted: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return counted


@pytest.mark.parametrize("handler", HANDLERS)
def test_a_handler_makes_each_client_once_from_one_session_on_first_use(handler: str) -> None:
    seen = _counted(handler)
    assert seen["import"] == {"sessions": 0, "clients": []}, "importing a handler makes no session or client"
    assert seen["ports"] == {"sessions": 0, "clients": []}, "building the ports makes none either"
    assert seen["store"] == {"sessions": 1, "clients": [[0, "dynamodb"]]}
    assert seen["every port twice"] == {
        "sessions": 1,
        "clients": [[0, "dynamodb"], [0, "sns"], [0, "stepfunctions"]],
    }, "each client once, all from the one session"
    after = seen["after cache_clear"]
    assert after["sessions"] == 2 and after["clients"][-1] == [1, "dynamodb"], "new ports, a new session"
