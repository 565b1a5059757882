"""The state machine's steps: advance (announce what is untold, resolve when due, say how long to
wait), wait (keep the task token), stalled (record why and tell the host)."""

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.parser import event_parser
from aws_lambda_powertools.utilities.typing import LambdaContext

from game_core.aws.wiring import ports_from_environment
from game_core.service.commands import PhaseStep, run_phase_step
from game_core.service.ports import Ports

logger = Logger(service="phase-step")


def handler_for(ports: Callable[[], Ports]) -> Callable[[dict[str, Any], LambdaContext], dict[str, Any]]:
    """The handler, serving with the ports `ports` gives (the local stack passes its own)."""

    @logger.inject_lambda_context(log_event=False)
    @event_parser(model=PhaseStep)
    def handler(event: PhaseStep, context: LambdaContext) -> dict[str, Any]:
        logger.info("phase step", extra={"step": event.step, "match_id": event.match_id, "number": event.phase_number})
        return run_phase_step(ports(), event)

    return handler


handler = handler_for(ports_from_environment)
