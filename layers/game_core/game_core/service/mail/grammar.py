"""The commands a mail may carry (each a line of its own, `lines`), and what a submission
looks like in the game's plain-text grammar.

Players send STATUS, HELP, HELP RULES (the game's rules: the host may send it too), READY or
NOT READY (a vote to resolve the phase early, and taking it back), or a mail that is a message
to other players (PRESS TO <names> or PRESS TO ALL, the message below it); the host,
from the match's host address, STATUS, EXTEND <hours>, PAUSE, RESUME or RESOLVE NOW; either
ZONE <IANA name>. A command is its whole line, in any case and spacing ("resolve  now"); EXTEND
and ZONE take the rest of their line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from game_core.errors import Malformed, Reason
from game_core.games.protocol import AnyGame
from game_core.games.text_layout import prose
from game_core.match.model import MAX_SECONDS
from game_core.service.telling.letters import kinds_text
from game_core.service.telling.named import written

if TYPE_CHECKING:
    from game_core.service.commands import HostCommand

STATUS, HELP, EXTEND, PAUSE, RESUME, RESOLVE_NOW = "STATUS", "HELP", "EXTEND", "PAUSE", "RESUME", "RESOLVE NOW"
HELP_RULES = "HELP RULES"
"""Anyone the match registered may send it: the game's rules as written for players (`rules_text`)."""
READY, NOT_READY = "READY", "NOT READY"
"""A participant's ready vote, and taking it back (`service.matches.ready`): where early close is off, the
phase resolves once everyone who owes it a move has sent it and is READY."""
ABSENT = "ABSENT"
"""A participant's: `ABSENT 2026-12-24 2026-12-27` declares them away (`service.matches.absence`); ABSENT
CANCEL withdraws it."""
PRESS = "PRESS"
"""A participant's message to others: `PRESS TO bo, cy` (or `PRESS TO ALL`) as the mail's first
line, the message on the lines below it (`lines.read_press`; `service.matches.press`)."""
PRESS_USAGE = "write PRESS TO and whom it goes to (names apart by commas, or ALL), the message below that line"
ZONE = "ZONE"
"""A participant's or the host's: `ZONE Europe/Paris` gives the deadlines in their mail in that time zone."""
HOST_KEYWORDS = (STATUS, EXTEND, PAUSE, RESUME, RESOLVE_NOW)
"""What the host's address may send: the host's command wins over a player's with the same word."""
HOST_ONLY = (EXTEND, PAUSE, RESUME, RESOLVE_NOW)
HOST_USAGE = [
    "The host's commands (a line each, in a mail from the host's address):",
    "  STATUS           the open phase, its deadline, who has sent and who not",
    "  EXTEND <hours>   move the deadline later, e.g. EXTEND 2",
    "  PAUSE            stop the clock; RESUME starts it again",
    "  RESOLVE NOW      resolve the open phase at once",
    "  ZONE <name>      deadlines in your time zone, e.g. ZONE Europe/Paris",
]
_EXTENSION = re.compile(r"(\d{1,5})\s*(?:H|HOURS?)?")
_CONSOLE_NAMES = {STATUS: "status", EXTEND: "extend", PAUSE: "pause", RESUME: "resume", RESOLVE_NOW: "resolve_now"}


@dataclass(frozen=True)
class Command:
    keyword: str
    """One of the keywords above, upper case with single spaces."""
    argument: str = ""
    """What follows EXTEND or ZONE on its line."""

    @property
    def text(self) -> str:
        """The command as it was written (upper case)."""
        return f"{self.keyword} {self.argument}".strip()


def folded(line: str) -> str:
    """A line as the grammar reads it: in Unicode's compatibility form (NFKC), so that what a
    Japanese or Chinese input method types full-width ("ＢＩＤ　５", "ＲＥＡＤＹ") reads as the
    same letters, digits and spaces typed on any keyboard (a non-breaking space as a space), and
    the minus sign (ISO-2022-JP's, read from Japanese mail) as a hyphen-minus."""
    return unicodedata.normalize("NFKC", line).replace("\u2212", "-")


def read_command(text: str) -> Command | None:
    """The command the first non-blank line of `text` is; None when it is none (moves, say). What
    ends a line that is no letter or digit is no part of it: the "." or "!" a phone ends a sentence
    with ("Ready!"), a "?" ("Status?"), a smiley or an emoji ("Ready 👍")."""
    first = next((line for line in text.split("\n") if line.strip()), "")
    line = re.sub(r"[\W_]+$", "", " ".join(first.upper().split()))
    if line in (STATUS, HELP, HELP_RULES, PAUSE, RESUME, RESOLVE_NOW, READY, NOT_READY):
        return Command(line)
    keyword, _, argument = line.partition(" ")
    keyword = keyword.removesuffix(":")  # "Zone: Europe/Paris"
    return Command(keyword, argument) if keyword in (EXTEND, ZONE, ABSENT) else None


def console_command(command: Command, match_id: str) -> HostCommand:
    """The host console's command for a host's mail command, checked by the console's own model;
    raises Malformed for an EXTEND without whole hours the console allows."""
    fields: dict[str, Any] = {"command": _CONSOLE_NAMES[command.keyword], "match_id": match_id}
    if command.keyword == EXTEND:
        hours = _EXTENSION.fullmatch(command.argument)
        fields["seconds"] = int(hours.group(1)) * 3600 if hours else 0
    from game_core.service.commands import parse_host_command  # only a host's command needs the models

    try:
        parsed = parse_host_command(fields)
    except ValidationError:
        usage = f"EXTEND takes whole hours, 1 to {MAX_SECONDS // 3600}: e.g. EXTEND 2"
        raise Malformed("the EXTEND command is malformed", [Reason("extend_hours", usage)]) from None
    return parsed


def sent_lines(game: AnyGame, kinds: Mapping[str, Any], phase_name: str, names: Mapping[str, str]) -> list[str]:
    """What a participant's submissions to the open phase say, each kind in the grammar (naming
    participants by name: `names`)."""
    if not kinds:
        return [f"You have sent nothing for {phase_name} yet."]
    lines = [f"What stands from you for {phase_name}:"]
    for kind, submission in kinds.items():
        lines += ["  " + line for line in written(game, kind, submission, names)]
    return lines


def owed_line(standing: Mapping[str, Any], phase_name: str) -> str:
    """What a participant's standing says they still owe the open phase (`views.standing`)."""
    owed = standing["you_owe"]
    if owed:
        return f"{phase_name} still waits for your {kinds_text(owed)}."
    owed_at_all = standing["you"] in (standing["open"] or {}).get("owes", {})
    return f"{phase_name} waits for nothing {'more ' if owed_at_all else ''}from you."


def garnets_line(balance: int, available: int) -> str:
    held = balance - available
    line = f"Your garnets: {balance}"
    return line + (f" ({held} of them held by what you have sent)." if held else ".")


def cost_line(cost: int, phase_name: str) -> str:
    if not cost:
        return "It costs no garnets."
    return f"It costs {cost} garnet{'' if cost == 1 else 's'}, spent when {phase_name} resolves."


def host_status_lines(status: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """The console's status (`match_status`) as lines; the deadline line is the caller's."""
    resolved = status["phases_resolved"]
    lines = prose(
        f"Match {status['match_id']} ({status['game']}) is {status['status']}; "
        f"{resolved} phase{'' if resolved == 1 else 's'} resolved."
    )
    for heading, key in (("Sent", "submitted"), ("Waiting for", "waiting_for")):
        if key in status:  # a long list folded at 78 columns, under its names
            who = ", ".join(names.get(p, p) for p in status[key]) or "nobody"
            lines += prose(f"{heading}: {who}", "", " " * (len(heading) + 2))
    if "graces_left" in status:  # the match has graces (`match.grace`)
        left = ", ".join(f"{names.get(who, who)} {count}" for who, count in status["graces_left"].items())
        lines += prose(f"Graces left: {left}", "", " " * len("Graces left: "))
    for bounced in status.get("mail_bounced", ()):
        lines += prose(bounced, "", "  ")
    if "stalled" in status:
        lines.append("The match's state machine has stopped: run `recover` from the console to continue.")
    return lines
