"""Errors as types: each names what is wrong, and the edge maps each to one clear reply."""

from __future__ import annotations


class GameCoreError(Exception):
    """Base of every error the service reports to a caller."""

    status = 400

    def __init__(self, message: str, reasons: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reasons = reasons or [message]


class Malformed(GameCoreError):
    """The input cannot be read as what it claims to be (bad JSON, wrong fields, wrong types)."""


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
