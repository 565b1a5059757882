"""The season's refusals, as types: each an `Illegal` (well-formed, not allowed now) with its
reasons, so every edge says them as it says a match's."""

from __future__ import annotations

from game_core.errors import Illegal, Reason


class SeasonRefused(Illegal):
    """Base of the season's refusals."""

    code = "season_refused"

    def __init__(self, message: str, reasons: list[Reason] | None = None) -> None:
        super().__init__(message, reasons or [Reason(self.code, message)])


class SettingsRefused(SeasonRefused):
    """The season's settings cannot make a season: every reason listed, naming the episode."""

    code = "season_settings"


class NotNow(SeasonRefused):
    """The season is not waiting for that now (another stage, another EC's turn, over)."""

    code = "not_now"


class WrongMatch(SeasonRefused):
    """A match the season is not waiting on (another episode's, a stale retry's)."""

    code = "wrong_match"


class MatchUndecided(SeasonRefused):
    """The match's result still has a tie across a line for the host to decide (match-host
    decide); the season reads the result once it is decided."""

    code = "match_undecided"


class NotEligible(SeasonRefused):
    """The EC named someone they may not name; the reason lists who they may."""

    code = "not_eligible"


class AlreadyDone(SeasonRefused):
    """The act was already done otherwise (an EC named someone else; a loser already decided)."""

    code = "already_done"
