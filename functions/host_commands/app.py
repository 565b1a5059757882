"""Host commands from the AWS console (the sample events in events/) or the host CLI."""

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import TypeAdapter, ValidationError

from game_core.aws.wiring import ports_from_environment
from game_core.errors import GameCoreError
from game_core.service.commands import HostCommand, run_host_command

logger = Logger(service="host-commands")
parse_command = TypeAdapter(HostCommand).validate_python


@logger.inject_lambda_context(log_event=False)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    try:
        command = parse_command(event)
    except ValidationError as error:
        reasons = [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors()]
        return {"ok": False, "error": "Malformed", "message": "the command is malformed", "reasons": reasons}
    logger.info("host command", extra={"command": command.command})
    try:
        return {"ok": True} | run_host_command(ports_from_environment(), command)
    except GameCoreError as error:
        logger.info("host command refused", extra={"error": type(error).__name__})
        return {
            "ok": False,
            "error": type(error).__name__,
            "message": error.message,
            "reasons": error.reasons,
        }
