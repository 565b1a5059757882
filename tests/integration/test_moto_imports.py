"""What starting the local stack costs, by counts, not times (issue 32's restart: bin/host-server,
every test process and subprocess start one): moto's EC2 and Batch are never imported unless a
Batch call asks for them (local_stack/aws/moto_imports.py), and each state machine's definition is
parsed once, ever: a second process finds every parse kept (local_stack/aws/moto_caches.py).
Each count is taken in a fresh interpreter, as a start is."""

from __future__ import annotations

import importlib.util
import json
import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from conftest import ROOT, crates_request
from moto import mock_aws

from local_stack.aws import moto_caches, moto_imports
from local_stack.aws.stack import ROLE

pytestmark = pytest.mark.statemachine

PASS = '{"StartAt": "Done", "States": {"Done": {"Type": "Pass", "End": true}}}'

STARTING = """
import json, sys
from pathlib import Path

from local_stack.aws import moto_caches
from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack

moto_caches.PARSED = Path(sys.argv[1])
from moto.stepfunctions.parser.asl.parse.asl_parser import AmazonStateLanguageParser

parses = []
parse = AmazonStateLanguageParser.parse
AmazonStateLanguageParser.parse = staticmethod(lambda definition: parses.append(1) or parse(definition))
seen = {}
with LocalStack(clock=VirtualClock()) as stack:
    created = stack.host({"command": "create", "match": json.loads(sys.argv[2])})
    stack.settle()
    seen["execution"] = stack.execution(created["match_id"], "crates")["status"]
    seen["state machines"], seen["parses"] = len(stack.state_machines), len(parses)
    seen["moto.ec2"], seen["moto.batch"] = "moto.ec2" in sys.modules, "moto.batch" in sys.modules
    import boto3  # then a Batch call: moto's Batch answers it, as moto has it
    seen["job queues"] = boto3.client("batch", region_name="us-east-1").describe_job_queues()["jobQueues"]
    seen["moto.ec2 after"] = "moto.ec2" in sys.modules
print(json.dumps(seen))
"""


def _start(parsed: Path) -> dict[str, Any]:
    """A fresh interpreter's stack started with `parsed` as the kept parses' folder, a 2-player
    Pushing Crates match created on it: what it counted."""
    request = json.dumps(crates_request(2, phase_seconds=3600, seed=7))
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "layers" / "game_core")])}
    run = subprocess.run(
        [sys.executable, "-c", STARTING, str(parsed), request],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    seen: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return seen


def test_a_start_imports_no_ec2_and_a_second_start_parses_no_definition(tmp_path) -> None:
    first, second = _start(tmp_path), _start(tmp_path)

    # The five games' state machines and the season's, each parsed once by the first start (at
    # CreateStateMachine; the match's execution runs a copy of that parse), none by the second
    assert first["state machines"] == second["state machines"] == 6
    assert (first["parses"], second["parses"]) == (6, 0)
    assert len(list(tmp_path.glob("*.pickle"))) == 6
    # and the match runs either way: its Pregame waits for its deadline
    assert first["execution"] == second["execution"] == "RUNNING"
    # Neither start imported moto's EC2 or Batch; a Batch call still finds moto's Batch (which brings EC2)
    for start in (first, second):
        assert (start["moto.ec2"], start["moto.batch"]) == (False, False)
        assert (start["job queues"], start["moto.ec2 after"]) == ([], True)


def test_moto_batch_init_is_the_one_skipped() -> None:
    # Only its models (Batch's and EC2's) are skipped; the day moto's __init__ holds more, the
    # package is imported whole again and the test above fails on EC2
    spec = importlib.util.find_spec("moto.batch")
    assert spec is not None and spec.origin is not None
    assert Path(spec.origin).read_text(encoding="utf-8") == moto_imports.BATCH_INIT


@pytest.fixture
def parsed_in(tmp_path, monkeypatch) -> Iterator[Path]:
    """Parses kept in `tmp_path`, none in this process's memory."""
    monkeypatch.setattr(moto_caches, "PARSED", tmp_path)
    moto_caches.program.cache_clear()
    yield tmp_path
    moto_caches.program.cache_clear()


def test_a_definition_that_does_not_parse_is_refused_in_motos_words_and_nothing_is_kept(parsed_in) -> None:
    from moto.stepfunctions.parser.api import InvalidDefinition  # here: local_stack.aws is imported first

    broken = '{"StartAt": "Nowhere"}'
    with pytest.raises(InvalidDefinition) as moto_alone:
        moto_caches.moto_validates(broken)  # moto's own check, as moto_caches found it
    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}):  # moto's parser, as the stack has it
        sfn = boto3.client("stepfunctions", region_name="us-east-1")
        with pytest.raises(ClientError) as refused:
            sfn.create_state_machine(name="broken", definition=broken, roleArn=ROLE)
    assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert refused.value.response["Error"]["Message"] == moto_alone.value.message
    assert list(parsed_in.iterdir()) == []


def test_a_kept_parse_that_is_not_a_pickle_is_parsed_anew_and_kept_again(parsed_in) -> None:
    kept = parsed_in / moto_caches.parsed_name(PASS)
    kept.write_bytes(b"not a pickle")

    program = moto_caches.program(PASS)

    assert type(program).__name__ == "Program"
    assert type(pickle.loads(kept.read_bytes())).__name__ == "Program"
