"""Which lines of what a person wrote in a mail are read: commands, moves in the game's grammar,
and the greeting above them and the sign-off below them that are left unread.

A line is understood when it is a command (STATUS, HELP, the host's) or a line of the grammar.
What is read runs from the first understood line to the last; every line in between must be
understood, or nothing of the mail is taken (a typo inside a move is never dropped silently).
Left unread, and listed in the answer:
- below the last understood line, what the grammar cannot read at all: a sign-off ("Cheers,",
  a name, Outlook's "Alex O'Brien – Team Captain" and phone line);
- above the first, a greeting: a line starting with a greeting word ("Hi", "Hello all",
  "Bonjour") or ending in a comma, a colon or an exclamation mark ("Dear host,", "My move:").
A line that starts with one of the grammar's words but says it wrongly ("GROUND LAVA") is a move
said wrongly wherever it stands, and refuses the mail. A line of a short form (values without
their keyword, "2 1 1 0 -1 -1") belongs to the moves only up to the first line not understood
below them: a phone number under a name is no move. A mail in which nothing is understood is
refused with every line it could not read, and for a line naming a command among other words
("I'm ready"), how to write the command.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from game_core.errors import Malformed, Reason, in_words
from game_core.games.protocol import AnyGame, TextMove
from game_core.games.text_layout import MAIL_WIDTH
from game_core.match.model import Match
from game_core.service.mail.grammar import (
    ABSENT,
    HELP,
    PRESS,
    PRESS_USAGE,
    READY,
    STATUS,
    ZONE,
    Command,
    folded,
    read_command,
)

Players = Sequence[str] | Mapping[str, str]
"""The match's participants as the grammar reads them: ids, or each id with their name."""
NOT_UNDERSTOOD = "unknown_line"
"""The grammar's reason code for a line that starts with none of its words."""
_GREETING = (
    r"(?i)^\s*(hi|hello|hey|dear|greetings|good (morning|afternoon|evening)|hallo|moin|servus|guten (morgen|tag)"
    r"|bonjour|bonsoir|salut|coucou|hola|buen[oa]s|ciao|salve|buongiorno|olá|ola|oi|bom dia|boa tarde|hej|hoi"
    r"|goedemorgen|goedemiddag|dag)\b"
)
"""A greeting's first word (compiled on first use: re caches it)."""
_COMMAND_LINES = {
    READY: "to vote, write READY (or NOT READY, to take it back) on a line of its own",
    ABSENT: "to say when you are away, write ABSENT and your first and last days: ABSENT 2026-12-24 2026-12-27",
    ZONE: "for deadlines in your time, write ZONE and your time zone: ZONE Europe/Paris",
    PRESS: PRESS_USAGE,
    STATUS: "write STATUS on a line of its own for where you stand",
    HELP: "write HELP on a line of its own for how to write moves and commands",
}
"""How to write each player's command, for a line that names it among other words."""
LISTED_AT_MOST = 5
"""Lines of a mail an answer quotes back in one list at most: a greeting and a sign-off are a
few lines; a pasted log or thread of thousands must not come back whole."""
_SUBJECT_TAGS = r"(?i)^\s*((re|fwd?|aw|wg|sv|vs)\s*:\s*|\[[^\]]*\]\s*)*"
"""What clients and the service put before a subject's words: "Re:", "Fwd:", "AW:", "[m-...]"."""


@dataclass(frozen=True)
class MailLines:
    """What a mail's written text says: its commands and moves in the order written, a reason for
    each line read and not understood (any refuses the mail), and the lines left unread."""

    commands: tuple[Command, ...] = ()
    moves: tuple[TextMove, ...] = ()
    reasons: tuple[Reason, ...] = ()
    unread: tuple[str, ...] = ()


def read_mail(
    game: AnyGame, text: str, accepts: Sequence[str], players: Players, sender: str | None = None
) -> MailLines:
    """`players` as the grammar takes them (each id with their name: names are read too);
    `sender` is the participant who wrote: a line of nothing but their own name or id is their
    sign-off, never a short form naming them."""
    written = text.split("\n")
    lines = [folded(line) for line in written]
    own = (
        {sender.upper(), str(players.get(sender, sender)).upper()} if isinstance(players, Mapping) and sender else set()
    )
    said = {i: _said(game, line, accepts, players, own) for i, line in enumerate(lines) if line.strip()}
    understood = [i for i, how in said.items() if how is not _Said.UNREAD]
    if not understood:
        reading = game.text.read_text(lines, accepts, players)
        reasons = reading.reasons or [Reason("no_move", "the mail says no move; send HELP for how to write one")]
        return MailLines(reasons=(*reasons, *_commands_inside(lines)))
    first = understood[0]
    last = max([first, *(i for i, how in said.items() if how is _Said.IN_WORDS)])
    # A short form (a line of values alone) goes on the move just above it, never past a line
    # not understood: a phone number under a sign-off is no move
    for i in range(last + 1, len(lines)):
        if said.get(i) is _Said.UNREAD:
            break
        last = i if i in said else last
    greeting = [i for i in range(first) if i in said]
    if not all(is_greeting(lines[i]) for i in greeting):
        first = greeting[0]  # not a greeting: read, and refused with its reason
    commands = {i: read_command(lines[i]) for i in range(first, last + 1)}
    # The grammar reads the lines in between that are no command, numbered as the mail has them
    read = [line if first <= i <= last and commands.get(i) is None else "" for i, line in enumerate(lines)]
    reading = game.text.read_text(read, accepts, players)
    return MailLines(
        commands=tuple(command for command in commands.values() if command is not None),
        moves=tuple(reading.moves),
        reasons=tuple(reading.reasons),
        unread=tuple(written[i].strip() for i in said if not first <= i <= last),
    )


def is_greeting(line: str) -> bool:
    """A line above what is read, left unread: it starts with a greeting word or ends in a comma,
    a colon or an exclamation mark."""
    return bool(re.match(_GREETING, line)) or line.rstrip().endswith((",", ":", "!"))


@dataclass(frozen=True)
class PressLetter:
    """A mail that is a message to other players: whom it names (None: everyone) and its text."""

    to: tuple[str, ...] | None
    text: str


def read_press(text: str) -> PressLetter | None:
    """The message `text` is when its first non-blank line (below a greeting, left unread) is
    `PRESS TO <names>` (any case, names or ids apart by commas) or `PRESS TO ALL`: everything
    below that line is the message, as written (but for the PRESS line's own indent). None when
    it starts otherwise; Malformed for a PRESS line naming nobody."""
    lines = text.split("\n")
    said = (i for i, line in enumerate(lines) if line.strip())
    first = next((i for i in said if folded(lines[i]).split()[0].upper() == PRESS or not is_greeting(lines[i])), None)
    if first is None:
        return None
    words = folded(lines[first]).split(None, 2)
    if words[0].upper() != PRESS:
        return None
    # "PRESS TO Bo:" or "Press to Bo." as a sentence ends: the mark names nobody; a phone's curly
    # apostrophe ("O’Neil") is the one a name is registered with (a settings file's, typed on a computer)
    whom = words[2].rstrip(" .:!").replace("\u2019", "'") if len(words) == 3 else ""
    names = [name.strip() for name in whom.split(",") if name.strip()]
    if [word.upper() for word in words[1:2]] != ["TO"] or not names:
        raise Malformed("the PRESS line is malformed", [Reason("press_line", PRESS_USAGE)])
    everyone = [name.upper() for name in names] in (["ALL"], ["EVERYONE"], ["EVERYBODY"])
    # An answer indented as a whole (between quoted parts) is the message without that indent
    indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
    text = "\n".join(line.removeprefix(indent) for line in lines[first + 1 :])
    return PressLetter(None if everyone else tuple(names), text)


def _commands_inside(lines: Sequence[str]) -> list[Reason]:
    """How to write each command a line names among other words ("I'm ready"): a command is a
    line of its own."""
    hints = []
    for number, line in enumerate(lines, start=1):
        named = next((word for word in re.findall(r"[A-Z]+", line.upper()) if word in _COMMAND_LINES), None)
        if named is not None:
            hints.append(Reason("command_line", f"line {number}: {_COMMAND_LINES[named]}"))
    return hints


class _Said(Enum):
    IN_WORDS = "a command, or a line starting with one of the grammar's words (said rightly or not)"
    SHORT = "a short form: the grammar reads it only because the open phase accepts its kind"
    UNREAD = "none of the grammar's lines"


def _said(game: AnyGame, line: str, accepts: Sequence[str], players: Players, own: set[str]) -> _Said:
    if read_command(line) is not None or _in_words(game.text.read_text([line], (), players).reasons):
        return _Said.IN_WORDS
    if " ".join(line.upper().split()).rstrip(".,!") in own:
        return _Said.UNREAD
    return _Said.SHORT if not game.text.read_text([line], accepts, players).reasons else _Said.UNREAD


def _in_words(reasons: Sequence[Reason]) -> bool:
    """Whether a line read alone (no short form allowed) starts with one of the grammar's words:
    it is read, or refused for anything but that."""
    return not reasons or any(reason.code != NOT_UNDERSTOOD for reason in reasons)


def unread_lines(unread: Sequence[str]) -> list[str]:
    """The answer's list of the lines left unread: a few are a greeting and a sign-off, listed
    whole as such; more is something pasted in, named by its count and its first lines."""
    if not unread:
        return []
    quoted = ["  " + _cut(line) for line in unread[:LISTED_AT_MOST]]
    if len(unread) <= LISTED_AT_MOST:
        return ["Not read (taken for a greeting or a sign-off):", *quoted]
    more = len(unread) - LISTED_AT_MOST
    heading = f"Not read: {len(unread):,} lines above or below what was read; the first {LISTED_AT_MOST}:"
    return [heading, *quoted, f"  ... and {more:,} more"]


def listed_reasons(reasons: Sequence[Reason]) -> list[Reason]:
    """At most `LISTED_AT_MOST` reasons, the rest counted in one more (a pasted log refused whole
    has a reason for each of its lines)."""
    told = [Reason(reason.code, in_words(reason.text)) for reason in reasons[:LISTED_AT_MOST]]
    if len(reasons) <= LISTED_AT_MOST:
        return told
    more = len(reasons) - LISTED_AT_MOST
    return [*told, Reason("more_reasons", f"... and {more:,} more lines not understood")]


def subject_hint(game: AnyGame, match: Match, subject: str, players: Players) -> Reason | None:
    """Why a move (or command) written in the subject did nothing: only the body is read, so a
    subject that alone reads as moves is the sender's mistake, told in words. A subject naming a
    phase (the notices' own, "Re: [m-...] Round 1") is no move, whatever follows the name."""
    words = re.sub(_SUBJECT_TAGS, "", subject).strip()
    settings = game.Settings.model_validate(match.settings)
    phases = (kind.name for kind in game.timeline(settings))
    named = next((name for name in phases if words.casefold().startswith(name.casefold())), "")
    words = words[len(named) :].lstrip(" :-") if named else words
    accepts = match.phase.accepts if match.phase is not None else ()
    said = read_mail(game, words, accepts, players) if words else None
    if said is None or said.reasons or not (said.moves or said.commands):
        return None
    return Reason(
        "move_in_subject",
        f'your subject "{_cut(words)}" is read as nothing: only the body of a mail is read;'
        " write your moves and commands in the body",
    )


def _cut(line: str) -> str:
    """A quoted line within the mail's width (its list indent and a quote's two columns aside)."""
    room = MAIL_WIDTH - 6
    return line if len(line) <= room else line[: room - 3] + "..."
