"""Messages between players ("press", as play-by-mail judges call them): who may write to whom,
how long and how often, as the match's host set it. Pure: `service.matches.press` tells and stores.

A message goes to some participants (each by id or by name, in any case) or to everyone. The
host sets per match whether press is "on" (the default: these are games of deals struck between
phases), "public" (only messages to everyone, for a table played with no private talk) or "off".
Each sender may send `press_per_hour` messages in any hour: the match keeps, per sender, when
each of their last hour's messages went, its id and whether all its recipients were told
(`PressSent`), so the rate is counted on the match and a redelivered message is known by its id.
The host's messages are kept the same way under `HOST` (no rate: a sent-again command is known).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from game_core.errors import Illegal, Malformed, NotOpen, Reason, TooMany
from game_core.games.text_layout import prose
from game_core.match.clock import moment_text
from game_core.match.model import Match
from game_core.match.press_rate import PressSent

WINDOW = timedelta(hours=1)
MAX_PRESS_CHARS = 2000
"""A message's text at most: a long letter, and one Discord message."""
EVERYONE = "ALL"
"""The word (any case) that sends a message to every participant."""
MODE_TEXT: dict[str, str] = {
    "on": "players may send messages to anyone (PRESS TO <name>, or PRESS TO ALL)",
    "public": "players may send messages to everyone only (PRESS TO ALL)",
    "off": "no messages between players",
}


HOST = "@host"
"""The sender of the host's messages, on the match header and in their ids (no participant id
holds "@")."""


@dataclass(frozen=True)
class Message:
    """A message as it is told and logged: the text is the sender's, nothing added."""

    id: str
    sender: str
    to: tuple[str, ...] | None
    """Its recipients' ids; None: everyone."""
    text: str


def press_id(sender: str, text: str, delivery: str | None, version: int) -> str:
    """A message's id: from the sender's delivery key (a mail's Message-ID, a webhook's
    Idempotency-Key) and its text, so a redelivery is the same message; without a key, from the
    match version it was first read at (one call's retries keep it)."""
    made_from = f"{sender}\0{delivery if delivery is not None else f'v{version}'}\0{text}"
    return hashlib.sha256(made_from.encode()).hexdigest()[:16]


def host_press_id(to: str | None, text: str) -> str:
    """The host's message's id: from whom it goes to and its text, so the same command sent
    again (within the hour its record is kept) is the same message."""
    return hashlib.sha256(f"{HOST}\0{to or EVERYONE}\0{text}".encode()).hexdigest()[:16]


def sent_before(match: Match, sender: str, message_id: str, now: datetime) -> PressSent | None:
    """The record of the sender's message with that id, if it is among their last hour's."""
    return next((sent for sent in recent_press(match, sender, now) if sent.id == message_id), None)


def compose(match: Match, sender: str, to: Sequence[str] | None, text: str, message_id: str, now: datetime) -> Message:
    """The message `sender` may send now to `to` (words naming participants; None: everyone), or
    every reason it may not: the host's setting, the text, the rate, a word naming nobody."""
    if match.status != "running":
        raise NotOpen(f"the match is {match.status}: messages go only while it runs")
    if match.press == "off":
        raise Illegal("press is off", [Reason("press_off", "the host has turned messages between players off")])
    if to is not None and match.press == "public":
        only = "the host allows messages to everyone only in this match (PRESS TO ALL)"
        raise Illegal("press is public only", [Reason("press_public_only", only)])
    said = message(match, sender, to, text, message_id)
    if not said.text.strip():
        raise Malformed("the message is empty", [Reason("press_empty", "the message has no text")])
    if len(said.text) > MAX_PRESS_CHARS:
        too_long = f"the message is {len(said.text)} characters; at most {MAX_PRESS_CHARS}"
        raise Malformed("the message is too long", [Reason("press_too_long", too_long)])
    _within_rate(match, sender, now)
    return said


def message(match: Match, sender: str, to: Sequence[str] | None, text: str, message_id: str) -> Message:
    """The message as it is kept: its recipients named (`recipients`), its text without blank
    lines around it; unchecked (`compose` checks a new one; a recorded one was checked)."""
    return Message(message_id, sender, None if to is None else recipients(match, sender, to), text.strip("\n"))


def recipients(match: Match, sender: str, to: Sequence[str]) -> tuple[str, ...]:
    """Each word's participant (by id or by name; `Match.named` refuses one naming nobody), the
    sender left out, in seat order."""
    named = {match.named(word) for word in to} - {sender}
    if not named:
        raise Malformed("the message has no recipient", [Reason("press_to_nobody", "name someone besides yourself")])
    return tuple(player for player in match.player_ids if player in named)


def _within_rate(match: Match, sender: str, now: datetime) -> None:
    recent = recent_press(match, sender, now)
    if len(recent) < match.press_per_hour:
        return
    sender_zone = next((p.zone for p in match.players if p.id == sender), None)
    next_at = recent[-match.press_per_hour].at + WINDOW
    said = (
        f"you have sent {len(recent)} messages in the last hour, the most this match allows; "
        f"the next may go {moment_text(next_at, now, sender_zone)}"
    )
    error = TooMany("too many messages", [Reason("press_rate", said)])
    error.retry_after = max(1, int((next_at - now).total_seconds()))
    raise error


def recent_press(match: Match, sender: str, now: datetime) -> tuple[PressSent, ...]:
    """The sender's messages of the last hour, oldest first."""
    return tuple(sent for sent in match.press_sent.get(sender, ()) if sent.at > now - WINDOW)


def recorded(match: Match, sender: str, message_id: str, now: datetime, told: bool) -> Match:
    """The match with the message counted against its sender (older entries dropped)."""
    kept = (*recent_press(match, sender, now), PressSent(at=now, id=message_id, told=told))
    return _with_sent(match, sender, kept)


def told(match: Match, sender: str, message_id: str) -> Match:
    """The match with the sender's message marked told to all its recipients."""
    kept = tuple(
        sent.model_copy(update={"told": True}) if sent.id == message_id else sent
        for sent in match.press_sent.get(sender, ())
    )
    return _with_sent(match, sender, kept)


def _with_sent(match: Match, sender: str, kept: tuple[PressSent, ...]) -> Match:
    press_sent = {other: sent for other, sent in match.press_sent.items() if other != sender}
    return match.model_copy(update={"press_sent": press_sent | {sender: kept}, "version": match.version + 1})


def press_lines(
    public: Mapping[str, Any], own: Mapping[str, Any], shown: Mapping[str, str], reader: str | None = None
) -> list[str]:
    """What a notice of press says to its reader (a participant's id; None: the public channel):
    the message with its sender's name and whom it went to ("you" for the reader), or the host's
    new setting."""
    message = own.get("message", public.get("message"))
    if message is not None:
        to, sender = message["to"], shown.get(message["from"], message["from"])
        whom = "everyone" if to == "all" else ", ".join("you" if who == reader else shown.get(who, who) for who in to)
        lines = [*prose(f"A message from {sender} to {whom}:"), "", *message["text"].split("\n")]
        if to == "all":
            return lines
        # A reply to this mail is read as moves: say how to answer (by id where a name has a comma)
        named = message["from"] if "," in sender else sender
        return [*lines, "", *prose(f"To answer, send PRESS TO {named} as a mail's first line, your message below it.")]
    mode = public.get("press_mode")
    if mode is None:
        return []
    rate = f"at most {public['press_per_hour']} an hour each"
    return prose(f"The host has set messages between players: {MODE_TEXT[mode]}, {rate}.")


def help_lines(mode: str) -> list[str]:
    """HELP's lines on messages, as the match allows them."""
    if mode == "off":
        return []
    to = "PRESS TO ALL" if mode == "public" else "PRESS TO <name> (names apart by commas, or ALL)"
    return prose(f"Send {to} and your message on the lines below it: it goes to them at once, from you.")


def seen_by(data: Mapping[str, Any], viewer: str | None) -> bool:
    """Whether a logged message (a "press" event's data) may be shown to `viewer` (None: the
    public): one to everyone to anyone, one to some to its sender and recipients alone. The host's
    export shows every one."""
    to = data["to"]
    return to == "all" or (viewer is not None and (viewer == data["from"] or viewer in to))
