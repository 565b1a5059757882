"""What every local stack would redo, done once a process (imported by `stack` for these effects):

- botocore reads its service models (JSON) once: each stack starts its handlers cold, on new
  sessions, which read them all again (half of what starting a stack and creating a match cost);
- moto's parser takes a definition it took once unparsed at CreateStateMachine (every stack
  creates the same state machines), and each execution runs its own copy of its definition parsed
  once, where moto parses it anew at every StartExecution (40-130 ms; a copy takes 4);
- moto lists a response class's methods (inspect.getmembers) once, not at every request;
- the local stack's checks of moto's version read it once: each read scans site-packages (it was
  a tenth of what starting a stack cost, read five times a stack).
"""

from __future__ import annotations

import copy
from functools import cache

import botocore.session
import moto.core.responses
from moto.stepfunctions.parser.asl.parse.asl_parser import AmazonStateLanguageParser
from moto.stepfunctions.parser.backend.execution_worker import ExecutionWorker
from moto.stepfunctions.parser.models import StepFunctionsParserBackend

from local_stack.aws import clock, lambda_adapter, moto_dynamodb

botocore.session.create_loader = cache(botocore.session.create_loader)
StepFunctionsParserBackend._validate_definition = staticmethod(cache(StepFunctionsParserBackend._validate_definition))
_program = cache(lambda definition: AmazonStateLanguageParser.parse(definition)[0])
ExecutionWorker._get_evaluation_entrypoint = lambda self: copy.deepcopy(  # type: ignore[method-assign]
    _program(self._evaluation_details.state_machine_details.definition)
)
moto.core.responses.method_names_from_class = cache(moto.core.responses.method_names_from_class)
for _module in (clock, lambda_adapter, moto_dynamodb):
    _module.version = cache(_module.version)  # type: ignore[attr-defined]
