"""The match's Step Functions execution: one state machine per game."""

from __future__ import annotations

import json
from typing import Any

from botocore.exceptions import ClientError

from game_core.match.model import Match

_STALE_TOKEN_ERRORS = {"TaskTimedOut", "TaskDoesNotExist", "InvalidToken"}


class StepFunctionsWorkflow:
    def __init__(self, client: Any, arn_prefix: str) -> None:
        self.client = client
        self.arn_prefix = arn_prefix
        """A game's state machine is `<prefix><game id>` (the template names them so)."""

    def start(self, match: Match) -> str:
        execution = self.client.start_execution(
            stateMachineArn=self.arn_prefix + match.game,
            name=match.match_id,
            input=json.dumps({"match_id": match.match_id}),
        )
        return str(execution["executionArn"])

    def wake(self, token: str) -> None:
        try:
            self.client.send_task_success(taskToken=token, output=json.dumps({"woken": True}))
        except ClientError as error:
            # The wait already ended (timed out or woken): its next clock check sees the change.
            if error.response["Error"]["Code"] not in _STALE_TOKEN_ERRORS:
                raise
