"""A mail's commands run for its registered sender, and the answer's lines for each (the sender's
own view only): a player's STATUS, HELP, HELP RULES, READY and NOT READY, ABSENT, ZONE and PRESS,
the host's as the console runs them (`grammar` reads them; `receive` reads the mail).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from game_core.errors import (
    Conflict,
    GameCoreError,
    NotFound,
    Reason,
)
from game_core.games import registry
from game_core.games.capabilities import Picture
from game_core.games.text_layout import prose
from game_core.mail.inbound import Letter
from game_core.match import grace
from game_core.match.absence import away_lines
from game_core.match.clock import day_text, known_zone
from game_core.match.model import Match, Participant
from game_core.service.mail.grammar import (
    ABSENT,
    HELP_RULES,
    HOST_KEYWORDS,
    HOST_ONLY,
    HOST_USAGE,
    NOT_READY,
    PRESS_USAGE,
    READY,
    STATUS,
    ZONE,
    Command,
    console_command,
    garnets_line,
    host_status_lines,
    owed_line,
    sent_lines,
)
from game_core.service.mail.lines import read_press
from game_core.service.mail.moves import CHANNEL, old_and_open, refusal_lines
from game_core.service.matches import ready
from game_core.service.matches.absence import absent_by_mail
from game_core.service.matches.press import send as send_press
from game_core.service.matches.receipts import receipt_lines
from game_core.service.matches.views import standing
from game_core.service.ports import Event, Ports
from game_core.service.telling import letters


@dataclass(frozen=True)
class Sender:
    """A registered address that sent a message: a participant's, the host's, or both."""

    address: str
    player: Participant | None
    is_host: bool
    zone: str | None = None
    """Where they read deadlines: a player's zone, else the host's (`Match.host_zone`)."""


@dataclass(frozen=True)
class Answer:
    """What the answer to a mail (or to one command of it) says, and the pictures it carries (the
    sender's own view's, where the game draws its views)."""

    lines: list[str]
    pictures: tuple[Picture, ...] = ()


def run_command(ports: Ports, match: Match, sender: Sender, command: Command, answered: int | None) -> Answer:
    """One command of the mail: the host's, when the host's address sends one of its words.
    `answered`: the phase whose mail the mail answers, if any (a vote is for that phase alone)."""
    if command.keyword == HELP_RULES:
        return Answer(_rules(match))
    if sender.is_host and command.keyword in HOST_KEYWORDS:
        lines = _host_command(ports, match, command, sender.zone)
        if command.keyword == STATUS and sender.player is not None:
            return _with_own_boards(ports, match, sender.player, lines)
        return Answer(lines)
    if command.keyword == ZONE:
        return Answer(_zone(ports, match, sender, command.argument))
    if sender.player is None:
        return Answer([f"{command.text} is not one of the host's commands.", "", *HOST_USAGE])
    if command.keyword == STATUS:
        return _status(ports, match, sender.player)
    if command.keyword in (READY, NOT_READY):
        return Answer(_ready(ports, match, sender.player, command, answered))
    if command.keyword == ABSENT:
        return Answer(_absent(ports, match, sender.player, command))
    return Answer(_player_command(ports, match, sender.player, command))


def _host_command(ports: Ports, match: Match, command: Command, zone: str | None) -> list[str]:
    from game_core.service.commands import run_host_command  # only a host's mail needs the console

    try:
        reply = run_host_command(ports, console_command(command, match.match_id))
    except OverflowError:  # extension upon extension, each within bounds (as the console says)
        beyond = Reason("illegal", "the deadline would be beyond the dates the service can keep")
        return refusal_lines(f"{command.text} was not done:", [beyond])
    except GameCoreError as error:
        return refusal_lines(f"{command.text} was not done:", error.reasons)
    now = ports.clock.now()
    if command.keyword == STATUS:
        lines = host_status_lines(reply, letters.names(match)) + away_lines(reply, letters.names(match), zone)
    else:
        lines = [f"Done: {command.text}."]
        if reply.get("warning"):
            lines.append(f"Note: {reply['warning']}.")
    match = ports.store.get(match.match_id)  # as the act left it, or an act earlier in the mail
    if match.phase is not None:
        lines.append(letters.deadline_line(match.phase, now, zone))
    return lines


def _with_own_boards(ports: Ports, match: Match, player: Participant, lines: list[str]) -> Answer:
    """A host who plays: the host's STATUS, with the pictures of their own view as their STATUS
    as a player attaches them (the host's text names who sent, never what)."""
    game = registry.load(match.game)
    seen = standing(ports.store.submission_view(match.match_id, player.id, None), player.id)
    attached, pictures = letters.drawn(game, seen["view"], letters.names(match))
    return Answer([*lines, *attached], pictures)


def _player_command(ports: Ports, match: Match, player: Participant, command: Command) -> list[str]:
    """HELP, or a host's command a player sent (STATUS and ZONE are everyone's: `run_command`)."""
    if command.keyword in HOST_ONLY:
        return refusal_lines(
            f"{command.text} was not done:", [Reason("host_only", f"only the host may send {command.keyword}")]
        )
    game = registry.load(match.game)
    help_lines = letters.how_to_answer(game, match, player.id)
    return help_lines or _nothing_to_send(match)


def _ready(ports: Ports, match: Match, player: Participant, command: Command, answered: int | None) -> list[str]:
    """READY or NOT READY: the sender's vote to resolve the open phase early, or taking it back.
    In a reply to an earlier phase's mail it is not cast, as moves are not (`_answers_an_old_notice`):
    a vote that came late for the phase it meant must not close the next one early."""
    if match.phase is not None and answered not in (None, match.phase.number):
        earlier, now_open = old_and_open(ports, match, answered)
        late = (
            f"your mail answers the mail for {earlier}, and {now_open} is open now; "
            f"to vote on it, reply to this mail with {command.text}"
        )
        return refusal_lines(f"{command.text} was not done:", [Reason("old_notice", late)])
    try:
        reply = ready.vote(ports, match.match_id, player.id, command.keyword == READY, "email")
    except GameCoreError as error:
        return refusal_lines(f"{command.text} was not done:", error.reasons)
    names = letters.names(match)
    lines = [f"Done: {command.text}." if reply["changed"] else f"{command.text}: nothing changed."]
    lines += prose(reply["answer"])
    if reply["changed"] and not reply["closing"]:
        voters = ", ".join(names.get(who, who) for who in reply["ready_now"]) or "nobody"
        lines += prose(f"Ready now: {voters}.", "", "  ")
    return lines


def _absent(ports: Ports, match: Match, player: Participant, command: Command) -> list[str]:
    """ABSENT <first day> <last day> (or date-times) declares the sender away; ABSENT CANCEL withdraws it."""
    try:
        reply = absent_by_mail(ports, match.match_id, player.id, command.argument)
    except GameCoreError as error:
        return refusal_lines(f"{command.text} was not done:", error.reasons)
    done = f"Done: {command.text}." if reply["changed"] else f"{command.text}: nothing changed."
    if "from" not in reply:  # withdrawn
        return [done, *prose(reply["answer"])]
    # The days as read, in the sender's zone (a year left out, a day written 24/12 or Dec 24)
    begins, ends = (day_text(datetime.fromisoformat(reply[key]), player.zone) for key in ("from", "until"))
    return [done, *prose(f"You are away from {begins} until {ends}."), *prose(reply["answer"])]


def press_by_mail(ports: Ports, match: Match, player: Participant, letter: Letter, message_id: str) -> list[str]:
    """A mail whose first line is PRESS TO ...: the message below it sent (`service.matches.press`, under
    the mail's delivery key) and echoed to its sender; nothing when the mail is none."""
    try:
        pressed = read_press(letter.text)
        if pressed is None:
            return []
        reply = send_press(ports, match.match_id, player.id, pressed.to, pressed.text, CHANNEL, message_id)
    except NotFound as nobody:  # a word naming no participant ("Bo and Cy"): how to name them
        return refusal_lines("Your message was not sent:", [*nobody.reasons, Reason("press_line", PRESS_USAGE)])
    except GameCoreError as error:
        return refusal_lines("Your message was not sent:", error.reasons)
    return [*prose(reply["answer"]), "", *("  " + line for line in pressed.text.strip("\n").split("\n"))]


def _zone(ports: Ports, match: Match, sender: Sender, written: str) -> list[str]:
    """ZONE <IANA name>: from now on the sender's mail gives deadlines in that time zone (a
    participant's, the host's, or both when the host plays)."""
    try:
        zone = known_zone(written)
    except ValueError as unknown:
        said = str(unknown) if written else "a time zone's name goes after ZONE, e.g. ZONE Europe/Paris"
        return refusal_lines(f"{ZONE} {written}".strip() + " was not done:", [Reason("unknown_zone", said)])
    latest = ports.store.get(match.match_id)
    own = sender.player.id if sender.player is not None else None
    players = tuple(p.model_copy(update={"zone": zone}) if p.id == own else p for p in latest.players)
    now = ports.clock.now()
    changes = {"players": players, "version": latest.version + 1} | ({"host_zone": zone} if sender.is_host else {})
    zoned = latest.model_copy(update=changes)
    try:
        ports.store.save(latest, zoned, Event("zone_set", now, {"player": own, "host": sender.is_host, "zone": zone}))
    except Conflict:  # the match moved meanwhile (a move, a resolution): nothing was stored
        return refusal_lines(
            f"ZONE {written} was not done:", [Reason("conflict", "the match changed meanwhile; send it again")]
        )
    lines = prose(f"Done: your mail gives deadlines in {zone} time from now on.")
    return lines + ([letters.deadline_line(latest.phase, now, zone)] if latest.phase is not None else [])


def _rules(match: Match) -> list[str]:
    """HELP RULES: the game's rules as written for players, and which rule set this match plays."""
    game = registry.load(match.game)
    rule_set = game.Settings.model_validate(match.settings).rule_set
    playing = [f"This match plays the {rule_set} rule set.", ""] if rule_set != "default" else []
    return [*playing, *game.rules_text.rstrip("\n").split("\n")]


def _status(ports: Ports, match: Match, player: Participant) -> Answer:
    """STATUS: the same standing the webhook's GET route answers, as text, with the pictures of
    the sender's own view where the game draws its views."""
    game = registry.load(match.game)
    seen = standing(ports.store.submission_view(match.match_id, player.id, None), player.id)
    view_text = game.text.render_view(seen["view"], letters.names(match))
    attached, pictures = letters.drawn(game, seen["view"], letters.names(match))
    lines = [view_text.rstrip("\n"), *attached, ""]
    if match.phase is not None:
        sent = sent_lines(game, seen["submitted"], match.phase.name, letters.names(match))
        lines += [
            *away_lines(seen, letters.names(match), player.zone, player.id),
            letters.deadline_line(match.phase, ports.clock.now(), player.zone),
            *sent,
            *receipt_lines(*seen["receipts"].values()),
            owed_line(seen, match.phase.name),
            "",
        ]
    if "graces_left" in seen:  # the match has graces (`match.grace`): the sender's own count
        lines += [grace.graces_text(seen["graces_left"]), ""]
    return Answer([*lines, garnets_line(seen["garnets"]["balance"], seen["garnets"]["available"])], pictures)


def _nothing_to_send(match: Match) -> list[str]:
    if match.phase is None:
        return [f"The match is {match.status}: there is nothing to send."]
    return [
        f"{match.phase.name} waits for nothing from you.",
        "Send STATUS for where you stand, HELP RULES for the game's rules.",
    ]
