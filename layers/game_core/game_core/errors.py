"""Errors as types: each names what is wrong, and the edge maps each to one clear reply.

What a caller is told is bounded here, once, for every channel: a reply must fit in a stored
idempotent reply (DynamoDB's 400 KB item) and in Lambda's 6 MB response however large or wrong
the input was, and a message or reason may quote the caller's own input.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

MAX_REASONS = 20
"""Reasons listed at most; the last of them then says how many more there were."""
MAX_TEXT = 200
"""Characters of one reason at most; longer ones end in "..."."""
MAX_MESSAGE = 500
"""Characters of the message at most."""


@dataclass(frozen=True)
class Reason:
    """One thing wrong with an input: a stable `code` that programs and tests match on (snake
    case, never reworded), and the `text` a person reads."""

    code: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "text": self.text}


def _clip(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def cap_reasons(reasons: list[Reason]) -> list[Reason]:
    """At most `MAX_REASONS` reasons of at most `MAX_TEXT` characters each, the last of them
    "... and N more" when some were left out."""
    clipped = [Reason(reason.code, _clip(reason.text)) for reason in reasons]
    if len(clipped) <= MAX_REASONS:
        return clipped
    kept = clipped[: MAX_REASONS - 1]
    return [*kept, Reason("more", f"... and {len(reasons) - len(kept)} more")]


_DURATION = re.compile(r"(\d+)\s*(?:(s|secs?|seconds?)|(m|mins?|minutes?)|(h|hrs?|hours?)|(d|days?))", re.IGNORECASE)
_UNITS = (("second", 1), ("minute", 60), ("hour", 3600), ("day", 86400))
"""Each of `_DURATION`'s unit groups, in order: its name and its seconds."""


def not_seconds(given: object) -> str:
    """Why `given` is no number of seconds, and how to write it: "'12h' is not a number of
    seconds: write 43200 for 12 hours" (a duration in other units is worked out)."""
    written = _DURATION.fullmatch(str(given).strip())
    if written is None:
        return f"{given!r} is not a number of seconds: write a whole number (3600 for an hour)"
    count = int(written[1])
    name, size = next(unit for unit, group in zip(_UNITS, written.groups()[1:], strict=True) if group)
    return f"{given!r} is not a number of seconds: write {count * size} for {count} {name}{'' if count == 1 else 's'}"


PLACEHOLDER = re.compile(r"<[^<>]*>|\{[^{}]*\}|[A-Z][A-Z_]*")
"""How the README, the help and the route templates stand for a match id (MATCH_ID, <match_id>,
{match_id}): no id the service makes (m- and 12 hex digits)."""


def placeholder_hint(given: str) -> str:
    """Why `given` is no match id when it is a placeholder a copied command kept ("" otherwise)."""
    if not PLACEHOLDER.fullmatch(given):
        return ""
    return f"{given} stands for your match's id: put the id create's reply gives (m- and 12 hex digits) in its place"


SECONDS_FIELDS = ("reminders",)
"""Fields of seconds whose names do not end in "seconds" (a list of them, each seconds before a deadline)."""


def _in_seconds(loc: tuple[str | int, ...]) -> bool:
    named = next((part for part in reversed(loc) if isinstance(part, str)), "")
    return named.endswith("seconds") or named in SECONDS_FIELDS


def validation_reasons(
    error: ValidationError,
    whole: str,
    prefix: str = "",
    fields: Callable[[tuple[str | int, ...]], list[str]] | None = None,
) -> list[Reason]:
    """Pydantic's complaints as reasons, for every channel: the code is pydantic's error type
    (`missing`, `extra_forbidden`, `int_parsing`, ...), the text names the field (`prefix` + its
    path; `whole` when the input itself is wrong) and says what is wrong without pydantic's
    "Value error, " before a validator's own words. A field it does not know names the nearest
    one `fields` (the names allowed where it stands) offers; seconds written in other units say
    how to write them."""
    reasons = []
    for problem in error.errors():
        loc = tuple(problem["loc"])
        path = ".".join(str(part) for part in loc)
        said = problem["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
        if problem["type"] == "extra_forbidden" and fields is not None:
            near = difflib.get_close_matches(str(loc[-1]), fields(loc[:-1]), n=1)
            said = "no such field" + (f": did you mean {near[0]}?" if near else "")
        elif problem["type"] in ("int_parsing", "int_from_float") and _in_seconds(loc):
            said = not_seconds(problem["input"])
        reasons.append(Reason(problem["type"], f"{prefix + path if path else whole}: {said}"))
    return reasons


_FIELD_PATH = re.compile(r"^[A-Za-z_]\w*(\.(\d+|[A-Za-z_]\w*))+(?=: )")
"""A reason's leading field path, as `validation_reasons` writes it ("pushes.0.direction: ...")."""


def field_path(text: str) -> str | None:
    """The field a reason's text names first ("pushes.0.direction" of "pushes.0.direction: ..."),
    None when it names none (a whole-input reason, or a game's own words)."""
    found = _FIELD_PATH.match(text) or _TOP_FIELD.match(text)
    return found[0] if found is not None else None


_TOP_FIELD = re.compile(r"^[A-Za-z_]\w*(?=: )")
"""A top-level field's name before a reason's text ("ground: Input should be ...")."""


def in_words(text: str) -> str:
    """A reason's text as a person reads it: a leading field path in words ("pushes.0.direction:
    ..." -> "pushes, number 1, direction: ..."; the webhook's JSON replies keep the path, which a
    program's author reads against the schema)."""
    found = _FIELD_PATH.match(text)
    if found is None:
        return text
    parts = [f"number {int(part) + 1}" if part.isdigit() else part.replace("_", " ") for part in found[0].split(".")]
    return ", ".join(parts) + text[found.end() :]


class Unavailable(Exception):
    """A store or AWS service gave no answer after every retry: neither the caller's fault nor
    final, so it is no `GameCoreError` (no refusal is stored or mailed). A state machine's Task
    or Lambda's own retry tries again; the webhook tells the sender to (503, Retry-After)."""

    retry_after = 1


class MailRefused(Exception):
    """The mail service refused one message for good (`Mailer.send`): its address is malformed,
    or not one it may send to (SES's sandbox). Sending it again fails the same way, so it is no
    `Unavailable`: the caller skips that message and tells the host (`telling.tell`)."""

    def __init__(self, code: str, said: str) -> None:
        super().__init__(f"{code}: {said}")
        self.code = code
        """The service's error code ("MessageRejected")."""
        self.said = said
        """What the service said of it, for the host to read."""


class GameCoreError(Exception):
    """Base of every error the service reports to a caller. It says what went wrong; each edge
    (HTTP, e-mail, the host's console) decides how to say it."""

    code = "error"
    """The reason code of an error given without reasons."""
    retry_after: int | None = None
    """Seconds after which the same request may succeed; None: it will not, so the refusal is
    final and a redelivery gets it again."""

    def __init__(self, message: str, reasons: list[Reason] | None = None) -> None:
        message = _clip(message, MAX_MESSAGE)
        super().__init__(message)
        self.message = message
        self.reasons = cap_reasons(reasons or [Reason(self.code, message)])

    def to_json(self) -> dict[str, Any]:
        return {
            "error": type(self).__name__,
            "message": self.message,
            "reasons": [reason.to_json() for reason in self.reasons],
        }


class Malformed(GameCoreError):
    """The input cannot be read as what it claims to be (bad JSON, wrong fields, wrong types)."""

    code = "malformed"


class TooLarge(Malformed):
    """The input is larger than the service reads."""

    code = "too_large"


class Illegal(GameCoreError):
    """Well-formed, but not allowed in this position; every reason is listed."""

    code = "illegal"


class Late(GameCoreError):
    """The phase it was sent for is no longer open."""

    code = "late"


class NotOpen(GameCoreError):
    """Nothing can be submitted now (the match has not started, is over or cancelled)."""

    code = "not_open"


class Unauthorized(GameCoreError):
    """The sender is not who they claim (a wrong secret)."""

    code = "unauthorized"


class NotFound(GameCoreError):
    code = "not_found"


class UnknownGame(NotFound):
    code = "unknown_game"


class Conflict(GameCoreError):
    """A concurrent change won; the caller may retry."""

    code = "conflict"
    retry_after = 1


class TooMany(GameCoreError):
    """Too many of these too soon (a sender's messages an hour); `retry_after` says when the next may go."""

    code = "too_many"


class InProgress(Conflict):
    """The same delivery is being handled right now; retry it shortly to get its reply."""

    code = "in_progress"
    retry_after = 2
