"""Host commands from the AWS console (the sample events in events/) or the host CLI.

A refusal is {"ok": false, "error": <type>, "message": ..., "reasons": [{"code", "text"}, ...]},
never a crash:
values are bounded by the command models, and a clock that would still run past what a date
can hold is refused as illegal. AWS throttling or failing a call past its retries is a refusal
too ("error": "Unavailable", with `retry_after`), saying what to do (game_core/aws/busy.py).
"""

import os
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext
from botocore.exceptions import ClientError
from pydantic import ValidationError

from game_core.aws.busy import AwsBusy, aws_busy
from game_core.aws.wiring import ports_from_environment
from game_core.errors import GameCoreError, Illegal, Malformed, Unavailable, validation_reasons
from game_core.service.commands import command_fields, parse_host_command, run_host_command
from game_core.service.ports import Ports
from game_core.service.telling.links import PLAYERS_URL, addressed

logger = Logger(service="host-commands")


def _run(ports: Ports, event: dict[str, Any]) -> dict[str, Any]:
    try:
        command = parse_host_command(event)
    except ValidationError as error:
        reasons = validation_reasons(error, "command", fields=command_fields)
        raise Malformed("the command is malformed", reasons) from None
    logger.info("host command", extra={"command": command.command})
    try:
        # create's links, with the address players reach the service at (read now: bin/host-server
        # sets it once its players' port is bound)
        return addressed(run_host_command(ports, command), os.environ.get(PLAYERS_URL, ""))
    except OverflowError:  # e.g. extension upon extension, each within bounds
        raise Illegal("a time in this command is beyond the dates the service can keep") from None
    except ClientError as error:
        busy = aws_busy(error)
        if busy is None:
            raise
        raise busy from error


def handler_for(ports: Callable[[], Ports]) -> Callable[[dict[str, Any], LambdaContext], dict[str, Any]]:
    """The handler, serving with the ports `ports` gives (the local stack passes its own)."""

    @logger.inject_lambda_context(log_event=False)
    def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        try:
            return {"ok": True} | _run(ports(), event)
        except GameCoreError as error:
            logger.info("host command refused", extra={"error": type(error).__name__})
            return {"ok": False} | error.to_json()
        except Unavailable as error:
            busy = AwsBusy.of(error)
            logger.warning("host command unavailable", extra={"operation": busy.operation, "code": busy.code})
            return {"ok": False} | busy.to_json()

    return handler


handler = handler_for(ports_from_environment)
