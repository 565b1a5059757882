"""Players' submissions by webhook (API Gateway HTTP API).

POST /matches/{match_id}/players/{player_id}/submissions
Authorization: Bearer <the player's webhook secret>
Idempotency-Key: <an id unique per delivery of this player; a redelivery returns the first reply>
{"phase": "Round 1", "kind": "round", "submission": {...}}
"""

import json
import os
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response, content_types
from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent,
)
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ConfigDict, ValidationError

from game_core.aws.wiring import ports_from_environment
from game_core.errors import GameCoreError, Malformed, Unauthorized
from game_core.service.submit import SubmissionRequest, submit_by_webhook

logger = Logger(service="submit-webhook")
app = APIGatewayHttpResolver()
persistence = DynamoDBPersistenceLayer(table_name=os.environ["TABLE_NAME"], key_attr="pk", sort_key_attr="sk")
# A delivery is the key *and* who sent it where: two players (or a caller without the secret)
# reusing a delivery id must never get another player's stored reply, which echoes their move.
# No key, no idempotency (the `&&` yields null).
idempotency = IdempotencyConfig(
    event_key_jmespath='headers."idempotency-key" && [rawPath, headers.authorization, headers."idempotency-key"]',
    expires_after_seconds=7 * 86400,
)


class SubmissionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phase: str
    number: int | None = None
    """The phase's number from the notice that opened it; pins a move to that opening."""
    kind: str
    submission: Any


def _reply(status: int, body: dict[str, Any]) -> Response:
    return Response(status_code=status, content_type=content_types.APPLICATION_JSON, body=json.dumps(body))


@app.exception_handler(GameCoreError)
def refused(error: GameCoreError) -> Response:
    logger.info("submission refused", extra={"error": type(error).__name__})
    return _reply(
        error.status,
        {
            "accepted": False,
            "error": type(error).__name__,
            "message": error.message,
            "reasons": error.reasons,
        },
    )


@app.post("/matches/<match_id>/players/<player_id>/submissions")
def post_submission(match_id: str, player_id: str) -> Response:
    scheme, _, secret = (app.current_event.headers.get("authorization") or "").partition(" ")
    if scheme.lower() != "bearer" or not secret:
        raise Unauthorized("send the player's webhook secret as 'Authorization: Bearer <secret>'")
    try:
        body = SubmissionBody.model_validate_json(app.current_event.body or "")
    except ValidationError as error:
        raise Malformed(
            "the request body is malformed",
            [f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in error.errors()],
        ) from None
    request = SubmissionRequest(
        match_id, player_id, body.phase, body.kind, body.submission, channel="webhook", phase_number=body.number
    )
    logger.info("submission", extra={"match_id": match_id, "player": player_id, "kind": body.kind})
    return _reply(200, submit_by_webhook(ports_from_environment(), request, secret))


@logger.inject_lambda_context(log_event=False)
@idempotent(persistence_store=persistence, config=idempotency)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
