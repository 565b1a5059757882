"""Mail to the matches: SES receives it for the match domain, its receipt rule's S3 action stores
each message (up to SES's 40 MB) in the inbound bucket and tells a topic, and the topic this
function.

Each message in the event (`game_core.mail.ses.receipts`) is read from the bucket
(`game_core.aws.mail_bucket`; a notification that carries the message, as an SNS action's does,
is read as it is) and answered by `mail_in.receive`: moves, STATUS and HELP from the players, the
host's commands from the host's address, a message over 10 MB refused with why; anything else
is dropped unanswered. What is logged is each message's outcome, never an address or what a
message says. An event that is not SES's notifications is dropped (there is nothing in it to
read, and nothing a retry would change); a failure of AWS raises, and Lambda delivers the event
again: a move stored already is not stored or answered twice.
"""

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from game_core.aws.mail_bucket import mail_bucket
from game_core.aws.wiring import ports_from_environment
from game_core.mail.ses import receipts
from game_core.service.mail_in import receive
from game_core.service.ports import Ports

logger = Logger(service="email-in")


def handler_for(ports: Callable[[], Ports]) -> Callable[[dict[str, Any], LambdaContext], dict[str, Any]]:
    """The handler, serving with the ports `ports` gives (the local stack passes its own)."""

    @logger.inject_lambda_context(log_event=False)
    def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        try:
            received = receipts(event)
        except ValueError as error:  # pydantic's and JSON's errors: the event is not what SES sends
            logger.error("not an SES receipt notification", extra={"error": type(error).__name__})
            return {"outcomes": []}
        serving = ports()
        outcomes = [receive(serving, mail_bucket().read(receipt)).value for receipt in received]
        logger.info("mail received", extra={"outcomes": outcomes})
        return {"outcomes": outcomes}

    return handler


handler = handler_for(ports_from_environment)
