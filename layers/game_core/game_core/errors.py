"""Errors as types: each names what is wrong, and the edge maps each to one clear reply.

What a caller is told is bounded here, once, for every channel: a reply must fit in a stored
idempotent reply (DynamoDB's 400 KB item) and in Lambda's 6 MB response however large or wrong
the input was, and a message or reason may quote the caller's own input.
"""

from __future__ import annotations

MAX_REASONS = 20
"""Reasons listed at most; the last of them then says how many more there were."""
MAX_TEXT = 200
"""Characters of one reason at most; longer ones end in "..."."""
MAX_MESSAGE = 500
"""Characters of the message at most."""


def _clip(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def cap_reasons(reasons: list[str]) -> list[str]:
    """At most `MAX_REASONS` reasons of at most `MAX_TEXT` characters each, the last of them
    "... and N more" when some were left out."""
    if len(reasons) <= MAX_REASONS:
        return [_clip(reason) for reason in reasons]
    kept = [_clip(reason) for reason in reasons[: MAX_REASONS - 1]]
    return [*kept, f"... and {len(reasons) - len(kept)} more"]


class GameCoreError(Exception):
    """Base of every error the service reports to a caller."""

    status = 400
    retry_after: int | None = None
    """Seconds after which the same request may succeed (a `Retry-After` header); None: it will
    not, so the refusal is final and a redelivery gets it again."""

    def __init__(self, message: str, reasons: list[str] | None = None) -> None:
        message = _clip(message, MAX_MESSAGE)
        super().__init__(message)
        self.message = message
        self.reasons = cap_reasons(reasons or [message])


class Malformed(GameCoreError):
    """The input cannot be read as what it claims to be (bad JSON, wrong fields, wrong types)."""


class TooLarge(GameCoreError):
    """The request body is larger than the service reads."""

    status = 413


class Illegal(GameCoreError):
    """Well-formed, but not allowed in this position; every reason is listed."""

    status = 422


class Late(GameCoreError):
    """The phase it was sent for is no longer open."""

    status = 409


class NotOpen(GameCoreError):
    """Nothing can be submitted now (the match has not started, is over or cancelled)."""

    status = 409


class Unauthorized(GameCoreError):
    status = 401


class NotFound(GameCoreError):
    status = 404


class UnknownGame(NotFound):
    pass


class Conflict(GameCoreError):
    """A concurrent change won; the caller may retry."""

    status = 409
    retry_after = 1


class InProgress(Conflict):
    """The same delivery is being handled right now; retry it shortly to get its reply."""

    retry_after = 2
