"""What every local stack would redo, done once (imported by `stack` for these effects):

- botocore reads its service models (JSON) once a process: each stack starts its handlers cold, on
  new sessions, which read them all again (half of what starting a stack and creating a match cost);
- moto's parser parses each state machine's definition once, ever: moto parses it at
  CreateStateMachine (to validate it) and anew at every StartExecution (40-130 ms each on a quiet
  machine; the five games' and the season's were a third of what starting a stack cost, at every
  bin/host-server start and in every test process). A definition parsed is kept in `PARSED`,
  pickled under the digest of its text, moto's version and Python's, so a definition changed (or
  a moto upgraded) is parsed anew; CreateStateMachine finds a kept one valid (it parsed once), and
  each execution runs its own copy (a deep copy: 4 ms), as moto runs its own parse;
- moto lists a response class's methods (inspect.getmembers) once, not at every request;
- the local stack's checks of moto's version read it once: each read scans site-packages (it was
  a tenth of what starting a stack cost, read five times a stack).
"""

from __future__ import annotations

import copy
import hashlib
import os
import pickle
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import botocore.session
import moto.core.responses
from moto.stepfunctions.parser.asl.parse.asl_parser import AmazonStateLanguageParser
from moto.stepfunctions.parser.backend.execution_worker import ExecutionWorker
from moto.stepfunctions.parser.models import StepFunctionsParserBackend

from local_stack.aws import clock, lambda_adapter, moto_dynamodb

PARSED = Path(__file__).parent / "__pycache__" / "asl"
"""Where parsed definitions are kept: beside this module's compiled code, as disposable as it, and
written by whoever may write the code that reads them (unpickling runs what a pickle names)."""


def parsed_name(definition: str) -> str:
    """The file a definition's parse is kept in: its text's, moto's and Python's digest."""
    digest = hashlib.sha256(f"moto {moto.__version__} python {sys.version}\n{definition}".encode())
    return f"{digest.hexdigest()[:32]}.pickle"


@cache
def program(definition: str) -> Any:
    """moto's parse of `definition` (its evaluation component), read back if kept, else parsed and
    kept; raises as moto's parser does on a definition that does not parse."""
    path = PARSED / parsed_name(definition)
    try:
        return pickle.loads(path.read_bytes())
    except (FileNotFoundError, pickle.UnpicklingError, EOFError):  # none, or not a pickle: parse anew
        pass
    parsed = AmazonStateLanguageParser.parse(definition)[0]
    _keep(path, pickle.dumps(parsed, pickle.HIGHEST_PROTOCOL))
    return parsed


def _keep(path: Path, data: bytes) -> None:
    """Write `data` at `path` whole or not at all (processes keep the same parse at once); a folder
    that cannot be written keeps nothing (the next start parses again)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = tempfile.NamedTemporaryFile(dir=path.parent, suffix=".part", delete=False)
    except OSError:
        return
    try:
        with part:
            part.write(data)
        os.replace(part.name, path)
    except OSError:
        Path(part.name).unlink(missing_ok=True)


moto_validates = StepFunctionsParserBackend._validate_definition


def _validate_definition(definition: str) -> None:
    """Valid if it parses, as moto's own check; one that does not is refused in moto's words."""
    try:
        program(definition)
    except Exception:
        moto_validates(definition)  # raises InvalidDefinition, worded as moto words it
        raise


botocore.session.create_loader = cache(botocore.session.create_loader)
StepFunctionsParserBackend._validate_definition = staticmethod(_validate_definition)
ExecutionWorker._get_evaluation_entrypoint = lambda self: copy.deepcopy(  # type: ignore[method-assign]
    program(self._evaluation_details.state_machine_details.definition)
)
moto.core.responses.method_names_from_class = cache(moto.core.responses.method_names_from_class)
for _module in (clock, lambda_adapter, moto_dynamodb):
    _module.version = cache(_module.version)  # type: ignore[attr-defined]
