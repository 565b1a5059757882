"""The state machine's steps: advance (announce what is untold, resolve when due, say how long to
wait), wait (keep the task token), stalled (record why and tell the host)."""

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.parser import event_parser
from aws_lambda_powertools.utilities.typing import LambdaContext

from game_core.aws.wiring import ports_from_environment
from game_core.service.commands import PhaseStep, run_phase_step

logger = Logger(service="phase-step")


@logger.inject_lambda_context(log_event=False)
@event_parser(model=PhaseStep)
def handler(event: PhaseStep, context: LambdaContext) -> dict:
    logger.info("phase step", extra={"step": event.step, "match_id": event.match_id, "number": event.phase_number})
    return run_phase_step(ports_from_environment(), event)
