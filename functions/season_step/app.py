"""The season machine's steps: advance (apply what is due, say the stage), the waits on a match
or on people (keep the task token), stalled (record why and tell the host)."""

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.parser import event_parser
from aws_lambda_powertools.utilities.typing import LambdaContext

from game_core.aws.wiring import ports_from_environment
from game_core.service.ports import Ports
from game_core.service.season.machine import SeasonStep, run_season_step

logger = Logger(service="season-step")


def handler_for(ports: Callable[[], Ports]) -> Callable[[dict[str, Any], LambdaContext], dict[str, Any]]:
    """The handler, serving with the ports `ports` gives (the local stack passes its own)."""

    @logger.inject_lambda_context(log_event=False)
    @event_parser(model=SeasonStep)
    def handler(event: SeasonStep, context: LambdaContext) -> dict[str, Any]:
        logger.info("season step", extra={"step": event.step, "season_id": event.season_id, "match_id": event.match_id})
        return run_season_step(ports(), event)

    return handler


handler = handler_for(ports_from_environment)
