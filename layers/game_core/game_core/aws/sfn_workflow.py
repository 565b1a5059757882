"""The match's Step Functions execution: one state machine per game."""

from __future__ import annotations

import json
from typing import Any

from botocore.exceptions import ClientError

from game_core.match.model import Match
from game_core.service.matches.handover import execution_name


def season_execution(season_id: str, attempt: int) -> str:
    """`<season id>[-r<attempt>]`: a recovered season's execution is named by its attempt."""
    return season_id if attempt == 0 else f"{season_id}-r{attempt}"


_STALE_TOKEN_ERRORS = {"TaskTimedOut", "TaskDoesNotExist", "InvalidToken"}


class StepFunctionsWorkflow:
    def __init__(self, client: Any, arn_prefix: str) -> None:
        self.client = client
        self.arn_prefix = arn_prefix
        """A game's state machine is `<prefix><game id>` (the template names them so)."""

    def _state_machine(self, match: Match) -> str:
        return self.arn_prefix + match.game

    def start(self, match: Match, handovers: int = 0) -> str:
        """The execution's input is what its first step reads: the match, no loops made yet, and
        how many hand-overs came before it (the ASL's "Hand over" passes it on)."""
        try:
            execution = self.client.start_execution(
                stateMachineArn=self._state_machine(match),
                name=execution_name(match, handovers),
                input=json.dumps({"match_id": match.match_id, "loops": 0, "handovers": handovers}),
            )
        except ClientError as error:
            # Started already (a retried create, recover or hand-over whose reply was lost): the same execution.
            if error.response["Error"]["Code"] != "ExecutionAlreadyExists":
                raise
            return self._execution_arn(match, handovers)
        return str(execution["executionArn"])

    def start_season(self, season_id: str, attempt: int = 0) -> str:
        """The season's execution (`season_execution`): its input is all its first step reads."""
        name = season_execution(season_id, attempt)
        try:
            execution = self.client.start_execution(
                stateMachineArn=self.arn_prefix + "season", name=name, input=json.dumps({"season_id": season_id})
            )
        except ClientError as error:
            if error.response["Error"]["Code"] != "ExecutionAlreadyExists":
                raise
            return self._season_arn(name)
        return str(execution["executionArn"])

    def season_running(self, season_id: str, attempt: int = 0) -> bool:
        try:
            described = self.client.describe_execution(
                executionArn=self._season_arn(season_execution(season_id, attempt))
            )
        except ClientError as error:
            if error.response["Error"]["Code"] == "ExecutionDoesNotExist":
                return False
            raise
        return bool(described["status"] == "RUNNING")

    def _season_arn(self, name: str) -> str:
        return f"{(self.arn_prefix + 'season').replace(':stateMachine:', ':execution:')}:{name}"

    def _execution_arn(self, match: Match, handovers: int) -> str:
        machine = self._state_machine(match).replace(":stateMachine:", ":execution:")
        return f"{machine}:{execution_name(match, handovers)}"

    def is_running(self, match: Match, handovers: int = 0) -> bool:
        try:
            described = self.client.describe_execution(executionArn=self._execution_arn(match, handovers))
        except ClientError as error:
            if error.response["Error"]["Code"] == "ExecutionDoesNotExist":
                return False  # never started (the create failed after storing the match)
            raise
        return bool(described["status"] == "RUNNING")

    def wake(self, token: str) -> None:
        try:
            self.client.send_task_success(taskToken=token, output=json.dumps({"woken": True}))
        except ClientError as error:
            # The wait already ended (timed out or woken): its next clock check sees the change.
            if error.response["Error"]["Code"] not in _STALE_TOKEN_ERRORS:
                raise

    def fail(self, token: str, error: str, cause: str) -> None:
        try:
            self.client.send_task_failure(taskToken=token, error=error, cause=cause[:32768])
        except ClientError as failure:
            # The wait already ended: whoever ended it acted on the season as stored.
            if failure.response["Error"]["Code"] not in _STALE_TOKEN_ERRORS:
                raise
