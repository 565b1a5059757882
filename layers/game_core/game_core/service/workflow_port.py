"""The Workflow port: the state machines (aws/sfn_workflow.py), kept apart from service/ports.py."""

from __future__ import annotations

from typing import Protocol

from game_core.match.model import Match


class Workflow(Protocol):
    def start(self, match: Match, handovers: int = 0) -> str:
        """Start the match's state machine, named `match.execution_name` (and `-h<handovers>` when
        an execution hands the match on: `service.matches.handover`); returns the execution's id. Started
        already (a retry): the same execution."""

    def is_running(self, match: Match, handovers: int = 0) -> bool:
        """Whether that execution of the match (as `start` names it) is still running."""

    def wake(self, token: str) -> None:
        """Complete a waiting task so the state machine re-reads the clock (stale tokens are ignored)."""

    def start_season(self, season_id: str, attempt: int = 0) -> str:
        """Start the season's state machine (its `attempt`th execution: 0, then one per recover);
        started already (a retry): the same execution."""

    def season_running(self, season_id: str, attempt: int = 0) -> bool:
        """Whether that execution of the season is still running."""

    def fail(self, token: str, error: str, cause: str) -> None:
        """Fail a waiting task with `error` (a season's wait on a match that stalled); stale tokens are ignored."""
