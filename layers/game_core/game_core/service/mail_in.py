"""Play by e-mail: one message SES received, read and answered.

A message is read only when SES's verdicts pass (`ses.refusals` of the deployment's required
checks) and it comes from an address the match registered: a participant's, or the host's. Any
other message (forged, failed, from a stranger or from a player of another match) changes nothing
and is answered by nothing; the refusal is logged with the match id, the sender's domain and a
hash of their address, and the reason codes, never what the message says.

What a registered sender wrote (`mail_lines`) is commands (`mail_commands`: STATUS, HELP, HELP RULES,
READY, NOT READY; the host's STATUS, EXTEND <hours>, PAUSE, RESUME, RESOLVE NOW, run as the console
runs them) and moves: a JSON body as the webhook takes it, else lines in the game's grammar. A greeting above
them and a sign-off below them are left unread and listed in the answer; a line not understood
among them submits nothing. Moves are submitted, each through the same `submit` as the webhook,
with SES's message id (and the move's index) as the delivery key; an immediate action's line (a
game that `ActsAtOnce`) is taken through the same `take_action` as the webhook's, keyed the same
way; then each command is run (a move and STATUS: the standing the move leaves). A reply to a
mail of an earlier phase (its Message-ID names the phase) whose moves name no phase is not taken
for the open phase, nor is its READY or NOT READY: its answer names both phases and how to send
them. Its other commands (ABSENT, ZONE, PRESS, STATUS, HELP) are for no phase, and are taken. One answer goes back
to the registered address, threaded under the message: each move as understood, in the grammar,
its cost and the deadline, each action with its answer (to the sender alone, as every answer),
or every reason it was refused and what still stands.

Mail no person wrote (`mail.automatic`: an out-of-office reply, a bounce, a list's copy) changes
nothing and is answered by nothing, not even a refusal (RFC 3834: an answer to an autoresponder
can loop); it is logged with its kind and the signal that told it, never what it says. A bounce of
the match's mail to a participant (the original it returns is one of the match's, or it reports a
participant's address failed) is recorded for the host (`match_status`), once per participant
and bounce.

A redelivered message (the inbound queue handing it over again, or the sender's client sending
the same message again: the same Message-ID, `delivery_key`) stores nothing twice: its moves
and actions are recognised by their stored replies. Its answer goes once: a message is marked answered after
its answer is sent, and a marked one is not read again; one whose answer was lost (SES failed,
the Lambda retried) is answered on its redelivery, from the replies stored with its moves. An
answer the mail service refuses for good (`errors.MailRefused`) is not tried again: the message
is marked answered all the same, and the refusal recorded for the host (`telling.send`).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import ValidationError

from game_core.errors import (
    Conflict,
    GameCoreError,
    Illegal,
    InProgress,
    Late,
    Malformed,
    NotFound,
    Reason,
    validation_reasons,
)
from game_core.games import registry
from game_core.games.plain_text import LineGrammar, prose
from game_core.games.protocol import AnswersInText, AnyGame, Picture, TextMove
from game_core.mail.addresses import match_for, phase_answered
from game_core.mail.automatic import Automatic, Failure, Kind, automatic
from game_core.mail.inbound import MAX_BYTES, Letter, parse_message
from game_core.mail.ses import Receipt, refusals
from game_core.match import grace
from game_core.match.absence import away_lines
from game_core.match.clock import day_text, known_zone
from game_core.match.engine import sent_last
from game_core.match.model import Match, Participant, address_key
from game_core.service import letters, ready, telling
from game_core.service.absence import absent_by_mail
from game_core.service.actions import ActionRequest, take_action
from game_core.service.mail_commands import (
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
    cost_line,
    garnets_line,
    host_status_lines,
    owed_line,
    sent_lines,
)
from game_core.service.mail_lines import MailLines, listed_reasons, read_mail, read_press, subject_hint, unread_lines
from game_core.service.named import written
from game_core.service.ports import Bounce, Event, Ports, Sheet, open_sheet
from game_core.service.press import send as send_press
from game_core.service.receipts import receipt_lines
from game_core.service.submit import SubmissionBody, SubmissionRequest, submit
from game_core.service.views import standing

logger = logging.getLogger(__name__)

CHANNEL = "email"


class Outcome(StrEnum):
    """What became of a received message (what the edge may log of it)."""

    ANSWERED = "answered"
    REDELIVERED = "redelivered"
    """Answered before (or being stored right now by another delivery, which answers it):
    nothing changed, nothing was sent."""
    NO_CONTENT = "no_content"
    """SES delivered no message (too large for SNS, or not an SNS action)."""
    GONE = "gone"
    """The message SES stored is no longer in its bucket (expired, or deleted): nothing to read."""
    TOO_LARGE = "too_large"
    """Over `MAX_BYTES`: nothing of it read, and its sender told why."""
    NO_MATCH = "no_match"
    """Not addressed to a match of this deployment (or it has no mail domain)."""
    REFUSED = "refused"
    """Failed SES's verdicts, or not from an address the match registered."""
    AUTOMATIC = "automatic"
    """Written by no person (an out-of-office reply, a bounce, a list's copy): never answered."""
    ANSWER_REFUSED = "answer_refused"
    """Read and acted on, but the mail service refused its answer for good (the sender's address
    malformed, or not one SES's sandbox may send to): what it did stands, and the host's status
    says so (`telling.send`)."""


@dataclass(frozen=True)
class Sender:
    """A registered address that sent a message: a participant's, the host's, or both."""

    address: str
    player: Participant | None
    is_host: bool
    zone: str | None = None
    """Where they read deadlines: a player's zone, else the host's (`Match.host_zone`)."""


INSIDE_THE_QUOTE = Reason(
    "inside_the_quote",
    "nothing is written above the quoted mail, and lines written inside it cannot be told from it"
    ' (unless your mail program marks them, as Outlook does with "Preface comments with");'
    " write your moves above the quoted mail",
)
"""Why a reply whose writing, if any, is inside an unquoted old message reads as nothing."""
NOT_UNDERSTOOD = "Nothing was submitted: your mail was not understood."
UNREAD = "Nothing was submitted: your mail could not be read."
"""The heading above `Letter.unreadable`'s reason (why, and how to send it again): no line of
such a mail was read, so none was misunderstood."""

Request = SubmissionRequest | ActionRequest
"""What one move of a mail asks: a submission to the phase, or an immediate action."""


@dataclass(frozen=True)
class Answer:
    """What the answer to a mail (or to one command of it) says, and the pictures it carries (the
    sender's own view's, where the game draws its views)."""

    lines: list[str]
    pictures: tuple[Picture, ...] = ()


@dataclass(frozen=True)
class Judged:
    """One move's fate: accepted (`reply`) or refused (`error`); `redelivered` when its delivery
    was stored before (or is being stored right now by another delivery of the message)."""

    request: Request
    reply: dict[str, Any] | None = None
    error: GameCoreError | None = None
    redelivered: bool = False


def receive(ports: Ports, receipt: Receipt) -> Outcome:
    """Read one received message and answer its sender, if it may be read at all."""
    if receipt.content is None:
        return _ignored(Outcome.NO_CONTENT if receipt.stored is None else Outcome.GONE, receipt)
    letter = parse_message(receipt.content)
    domain = ports.mailer.domain
    match_id = match_for(receipt.recipients, letter.subject, domain) if domain else None
    if match_id is None:
        return _ignored(Outcome.NO_MATCH, receipt)
    failed = refusals(receipt.verdicts, ports.mailer.required_checks)
    if failed:
        return _refused(match_id, letter, [reason.code for reason in failed])
    try:
        match = ports.store.get(match_id)
    except NotFound:
        return _ignored(Outcome.NO_MATCH, receipt)
    # Before the sender is looked up: a bounce comes from a mail server, not from a participant
    machine_made = automatic(receipt.content)
    if machine_made is not None:
        return _automatic(ports, match, machine_made, letter.message_id or receipt.ses_message_id)
    sender = registered_sender(match, letter.sender)
    if sender is None:
        return _refused(match_id, letter, ["unregistered_sender"])
    delivery = delivery_key(receipt, letter, sender)
    if ports.store.answered(match_id, delivery):
        return Outcome.REDELIVERED
    too_large = receipt.too_large
    said = Answer(_too_large(receipt.size)) if too_large else _read(ports, match, sender, letter, delivery)
    if said is None:
        return Outcome.REDELIVERED
    greeting = f"Hello {sender.player.name}," if sender.player is not None else "Hello,"
    subject = letter.subject if letter.subject.lower().startswith("re:") else f"Re: {letter.subject or match_id}"
    now = ports.clock.now()
    lines = [greeting, "", *said.lines]
    answer = letters.answer(match, sender.address, subject, lines, now, domain, letter, said.pictures)
    whose = sender.player.id if sender.player is not None else telling.HOST
    sent = telling.send(ports, match, answer, whose)
    ports.store.mark_answered(match_id, delivery, now)  # a refused answer too: a retry would be refused alike
    if not sent:
        return Outcome.ANSWER_REFUSED
    return Outcome.TOO_LARGE if too_large else Outcome.ANSWERED


def _automatic(ports: Ports, match: Match, mail: Automatic, message_id: str) -> Outcome:
    """Record a bounce of the match's mail for the host; log, and answer nothing."""
    bounced = _bounced(match, mail) if mail.kind is Kind.BOUNCE else []
    # Hashed, as `delivery_key`: a Message-ID is the sender's to choose, of any length
    message = hashlib.sha256(message_id.encode()).hexdigest()[:32]
    now = ports.clock.now()
    for player, failure in bounced:
        ports.store.record_bounce(match.match_id, Bounce(player, message, now, failure.status, failure.diagnostic))
    logger.info(
        "automatic mail: nothing done, nothing answered",
        extra={
            "match_id": match.match_id,
            "kind": mail.kind.value,
            "signal": mail.signal,
            "bounced": [player for player, _ in bounced],
        },
    )
    return Outcome.AUTOMATIC


def _bounced(match: Match, mail: Automatic) -> list[tuple[str, Failure]]:
    """Each participant whose mail from the match the bounce reports failed: named by its failed
    recipients; when it names none of them but returns one of the match's own mails (our
    Message-IDs begin with the match id: `phase_message_id`), by that mail's To."""
    participants = {address_key(p.email): p.id for p in match.players if p.email}
    found = {participants[key]: f for f in mail.failures if (key := address_key(f.recipient)) in participants}
    ours = any(original.lower().startswith(f"<{match.match_id}.") for original in mail.original_ids)
    if ours and not found:  # delivered on elsewhere (a forward) and failed there: what failed says why
        reported = mail.failures[0] if mail.failures else Failure("")
        found = {participants[key]: reported for to in mail.original_to if (key := address_key(to)) in participants}
    return sorted(found.items())


def delivery_key(receipt: Receipt, letter: Letter, sender: Sender) -> str:
    """What a message is known by for its answer and its moves: its Message-ID with the address
    that sent it, so a client's resend (the same message, a new SES delivery) is answered once
    and submits nothing twice; SES's id for a message without one. Hashed: a Message-ID is the
    sender's to choose, of any length."""
    if not letter.message_id:
        return receipt.ses_message_id
    return "mid-" + hashlib.sha256(f"{sender.address.lower()} {letter.message_id}".encode()).hexdigest()[:32]


def registered_sender(match: Match, address: str) -> Sender | None:
    """The sender as the match registered them (compared ignoring case, an IDN domain in either
    form: `address_key`), None for a stranger."""
    key = address_key(address)
    if not key:
        return None
    player = next((p for p in match.players if address_key(p.email or "") == key), None)
    is_host = address_key(match.host_email or "") == key
    if player is None and not is_host:
        return None
    return Sender(
        address=player.email if player is not None and player.email else (match.host_email or key),
        player=player,
        is_host=is_host,
        zone=(player.zone if player is not None else None) or (match.host_zone if is_host else None),
    )


def _read(ports: Ports, match: Match, sender: Sender, letter: Letter, message_id: str) -> Answer | None:
    """The answer; None while another delivery of the message is storing its moves."""
    game = registry.load(match.game)
    if sender.player is not None and (pressed := _press(ports, match, sender.player, letter, message_id)):
        return Answer(pressed)  # the whole mail is a message to other players
    if letter.unreadable is not None:  # encrypted, or Outlook's rich text alone (`inbound`)
        said = MailLines(reasons=(letter.unreadable,))
    elif letter.old_unmarked and not letter.text.strip():
        said = MailLines(reasons=(INSIDE_THE_QUOTE,))
    elif letter.json_body is not None:
        said = MailLines()
    else:
        accepts = match.phase.accepts if match.phase is not None else ()
        own = sender.player.id if sender.player is not None else None
        said = read_mail(game, letter.text, accepts, letters.names(match), own)
        if said.reasons and (hint := subject_hint(game, match, letter.subject, letters.names(match))):
            said = MailLines(reasons=(*said.reasons, hint))
    whole_mail = said.reasons in ((INSIDE_THE_QUOTE,), (letter.unreadable,))  # the host is told why too
    if sender.player is None and (said.moves or not said.commands) and not whole_mail:
        return Answer(["Your mail is not one of the host's commands.", "", *HOST_USAGE])
    if said.reasons:
        heading = UNREAD if letter.unreadable is not None else NOT_UNDERSTOOD
        if sender.player is None:
            return Answer([*_refusal_lines(heading, said.reasons), "", *HOST_USAGE])
        standing = _still_standing(ports, match, game, sender.player.id)
        return Answer([*_refusal_lines(heading, said.reasons), "", *standing])
    if sender.is_host and any(command.keyword in HOST_ONLY for command in said.commands):
        # Marked before it acts: a retried delivery must not extend twice (its answer, if
        # sending it fails, is lost rather than the act repeated)
        ports.store.mark_answered(match.match_id, message_id, ports.clock.now())
    lines: list[str] = []
    pictures: tuple[Picture, ...] = ()
    if said.moves or not said.commands:
        assert sender.player is not None  # the host's address alone sends commands only (above)
        moved = _moves(ports, match, game, sender.player, letter, said.moves, message_id)
        if moved is None:
            return None
        lines += moved
    # Moves naming their phase name it for the mail's vote too (a mail naming the open phase is for it)
    named = said.moves and all(move.phase is not None for move in said.moves)
    answered = None if named else phase_answered(match.match_id, letter.in_reply_to, letter.references)
    for command in said.commands:
        done = _command(ports, match, sender, command, answered)
        lines += ["", *done.lines]
        pictures = done.pictures or pictures  # one STATUS's boards are enough
    lines += ["", *unread_lines(said.unread)] if said.unread else []
    return Answer(lines[1:] if lines[:1] == [""] else lines, pictures)


def _too_large(size: int) -> list[str]:
    megabyte = 1024 * 1024
    return [
        f"Nothing was read: your mail is {size / megabyte:.1f} MB, and mail to a match is read",
        f"up to {MAX_BYTES // megabyte} MB. Send your moves again as plain text, without",
        "attachments or pictures (HELP shows how to write them).",
    ]


# -- commands ----------------------------------------------------------------------------------


def _command(ports: Ports, match: Match, sender: Sender, command: Command, answered: int | None) -> Answer:
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
        return _refusal_lines(f"{command.text} was not done:", [beyond])
    except GameCoreError as error:
        return _refusal_lines(f"{command.text} was not done:", error.reasons)
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
    """HELP, or a host's command a player sent (STATUS and ZONE are everyone's: `_command`)."""
    if command.keyword in HOST_ONLY:
        return _refusal_lines(
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
        earlier, now_open = _old_and_open(ports, match, answered)
        late = (
            f"your mail answers the mail for {earlier}, and {now_open} is open now; "
            f"to vote on it, reply to this mail with {command.text}"
        )
        return _refusal_lines(f"{command.text} was not done:", [Reason("old_notice", late)])
    try:
        reply = ready.vote(ports, match.match_id, player.id, command.keyword == READY, "email")
    except GameCoreError as error:
        return _refusal_lines(f"{command.text} was not done:", error.reasons)
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
        return _refusal_lines(f"{command.text} was not done:", error.reasons)
    done = f"Done: {command.text}." if reply["changed"] else f"{command.text}: nothing changed."
    if "from" not in reply:  # withdrawn
        return [done, *prose(reply["answer"])]
    # The days as read, in the sender's zone (a year left out, a day written 24/12 or Dec 24)
    begins, ends = (day_text(datetime.fromisoformat(reply[key]), player.zone) for key in ("from", "until"))
    return [done, *prose(f"You are away from {begins} until {ends}."), *prose(reply["answer"])]


def _press(ports: Ports, match: Match, player: Participant, letter: Letter, message_id: str) -> list[str]:
    """A mail whose first line is PRESS TO ...: the message below it sent (`service.press`, under
    the mail's delivery key) and echoed to its sender; nothing when the mail is none."""
    try:
        pressed = read_press(letter.text)
        if pressed is None:
            return []
        reply = send_press(ports, match.match_id, player.id, pressed.to, pressed.text, CHANNEL, message_id)
    except NotFound as nobody:  # a word naming no participant ("Bo and Cy"): how to name them
        return _refusal_lines("Your message was not sent:", [*nobody.reasons, Reason("press_line", PRESS_USAGE)])
    except GameCoreError as error:
        return _refusal_lines("Your message was not sent:", error.reasons)
    return [*prose(reply["answer"]), "", *("  " + line for line in pressed.text.strip("\n").split("\n"))]


def _zone(ports: Ports, match: Match, sender: Sender, written: str) -> list[str]:
    """ZONE <IANA name>: from now on the sender's mail gives deadlines in that time zone (a
    participant's, the host's, or both when the host plays)."""
    try:
        zone = known_zone(written)
    except ValueError as unknown:
        said = str(unknown) if written else "a time zone's name goes after ZONE, e.g. ZONE Europe/Paris"
        return _refusal_lines(f"{ZONE} {written}".strip() + " was not done:", [Reason("unknown_zone", said)])
    latest = ports.store.get(match.match_id)
    own = sender.player.id if sender.player is not None else None
    players = tuple(p.model_copy(update={"zone": zone}) if p.id == own else p for p in latest.players)
    now = ports.clock.now()
    changes = {"players": players, "version": latest.version + 1} | ({"host_zone": zone} if sender.is_host else {})
    zoned = latest.model_copy(update=changes)
    try:
        ports.store.save(latest, zoned, Event("zone_set", now, {"player": own, "host": sender.is_host, "zone": zone}))
    except Conflict:  # the match moved meanwhile (a move, a resolution): nothing was stored
        return _refusal_lines(
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


# -- moves -------------------------------------------------------------------------------------


def _moves(
    ports: Ports,
    match: Match,
    game: AnyGame,
    player: Participant,
    letter: Letter,
    moves: Sequence[TextMove],
    message_id: str,
) -> list[str] | None:
    try:
        requests = _requests(match, player.id, letter, moves)
    except Malformed as unread:
        return [*_refusal_lines(NOT_UNDERSTOOD, unread.reasons), "", *_still_standing(ports, match, game, player.id)]
    answered = phase_answered(match.match_id, letter.in_reply_to, letter.references)
    if match.phase is not None and answered not in (None, match.phase.number) and any(m.phase is None for m in moves):
        return _answers_an_old_notice(ports, match, game, player, answered)
    judged = [_judge(ports, request, f"{message_id}#{index}") for index, request in enumerate(requests)]
    if any(move.redelivered and move.reply is None for move in judged):
        return None  # another delivery is storing a move of this message right now: it answers
    lines: list[str] = []
    for move in judged:
        lines += [*_judged_lines(game, letters.names(match), move), ""]
    latest = ports.store.get(match.match_id)
    if any(move.error is not None for move in judged):
        lines += [*_still_standing(ports, latest, game, player.id), ""]
    if latest.phase is not None:
        lines.append(letters.deadline_line(latest.phase, ports.clock.now(), player.zone))
    return lines


def _requests(match: Match, player: str, letter: Letter, moves: Sequence[TextMove]) -> list[Request]:
    """The mail's JSON body as the webhook's, else its moves, as submissions and actions in the
    order written; raises Malformed with every reason the JSON body is not one."""
    if letter.json_body is not None:
        try:
            body = SubmissionBody.model_validate(letter.json_body)
        except ValidationError as error:
            raise Malformed("the JSON body is malformed", validation_reasons(error, "body")) from None
        return [SubmissionRequest(match.match_id, player, body.phase, body.kind, body.submission, CHANNEL, body.number)]
    # What the sender owes goes last: the move completing it may close the phase early
    ordered = sorted(moves, key=lambda move: not move.action and sent_last(match.phase, player, move.kind))
    return [_request(match, player, move) for move in ordered]


def _answers_an_old_notice(ports: Ports, match: Match, game: AnyGame, player: Participant, answered: int) -> list[str]:
    """Moves naming no phase, in a reply to a mail of an earlier phase: the sender may not know
    that phase closed (Abstrac's moves repeat phase after phase), so they are not taken for the
    open one."""
    assert match.phase is not None
    grammar = game.text
    named = isinstance(grammar, LineGrammar) and any(h.kind in match.phase.accepts for h in grammar.headers)
    earlier, now_open = _old_and_open(ports, match, answered)
    return [
        f"Nothing was submitted: your mail answers the mail for {earlier},",
        f"and {now_open} is open now.",
        f"To send your moves for {match.phase.name}, reply to this mail with them{',' if named else '.'}",
        *(["or name the phase above them (HELP shows how)."] if named else []),
        "",
        *_still_standing(ports, match, game, player.id),
        "",
        letters.deadline_line(match.phase, ports.clock.now(), player.zone),
    ]


def _old_and_open(ports: Ports, match: Match, answered: int) -> tuple[str, str]:
    """The phase whose mail a mail answers, and the phase open now: "phase 1 (Pregame)"."""
    assert match.phase is not None
    records = ports.store.phase_records(match.match_id, answered)
    earlier = f"phase {answered} ({records[0].name})" if records else f"phase {answered}"
    return earlier, f"phase {match.phase.number} ({match.phase.name})"


def _request(match: Match, player: str, move: TextMove) -> Request:
    if move.action:
        return ActionRequest(match.match_id, player, move.kind, move.submission, CHANNEL)
    open_name = match.phase.name if match.phase is not None else ""
    return SubmissionRequest(match.match_id, player, move.phase or open_name, move.kind, move.submission, CHANNEL)


def _judge(ports: Ports, request: Request, delivery: str) -> Judged:
    """Submit one move, or take one action, once: a delivery stored before is not judged again."""
    try:
        if isinstance(request, ActionRequest):
            return Judged(request, reply=take_action(ports, request, delivery))
        view = ports.store.submission_view(request.match_id, request.player, delivery)
        if view.delivered is not None:
            return Judged(request, reply=view.delivered, redelivered=True)
        return Judged(request, reply=submit(ports, request, view, delivery))
    except InProgress:  # another delivery of this message is storing it, and will answer
        return Judged(request, redelivered=True)
    except GameCoreError as error:
        return Judged(request, error=error)


def _judged_lines(game: AnyGame, names: dict[str, str], move: Judged) -> list[str]:
    request = move.request
    if isinstance(request, ActionRequest):
        return _action_lines(game, names, request, move)
    if move.reply is not None:
        phase = move.reply["phase"]
        echo = ["  " + line for line in written(game, move.reply["kind"], move.reply["submission"], names)]
        sealed = receipt_lines(move.reply["receipt"]) if "receipt" in move.reply else []
        return [f"Accepted for {phase}:", *echo, cost_line(move.reply["garnet_cost"], phase), *sealed]
    assert move.error is not None
    what = f"your {request.kind} for {request.phase}"
    if isinstance(move.error, Late):
        return prose(f"Too late: {what} was not accepted. {move.error.message}.")
    heading = "Not accepted" if isinstance(move.error, Illegal) else "Not submitted"
    return _refusal_lines(f"{heading}: {what}.", move.error.reasons)


def _action_lines(game: AnyGame, names: dict[str, str], request: ActionRequest, move: Judged) -> list[str]:
    """A taken action as written, with its answer (and what the sender holds when it moved their
    garnets); or why it was not taken."""
    if move.reply is not None:
        text = game.text
        assert isinstance(text, AnswersInText)  # a grammar that reads actions renders their answers
        said = ", ".join(written(game, request.kind, request.action, names))
        answer = ["  " + line if line else "" for line in text.render_answer(request.kind, move.reply["answer"], names)]
        held = move.reply.get("garnets")
        return [f"Done: {said}", *answer, *(["  " + garnets_line(held["balance"], held["available"])] if held else [])]
    assert move.error is not None
    if isinstance(move.error, Late):
        return prose(f"Too late: your {request.kind} was not taken. {move.error.message}.")
    return _refusal_lines(f"Not done: your {request.kind}.", move.error.reasons)


def _refusal_lines(heading: str, reasons: Sequence[Reason]) -> list[str]:
    """The heading and each reason, folded at 78 columns (a reason's folds under its text)."""
    listed = listed_reasons(reasons)
    return [*prose(heading), *(line for reason in listed for line in prose(reason.text, "  - ", "    "))]


def _still_standing(ports: Ports, match: Match, game: AnyGame, player: str) -> list[str]:
    """What the sender's submissions to the open phase of `match` (as read last) say now."""
    if match.phase is None:
        return [f"The match is {match.status}."]
    return _standing(game, match, ports.store.submission_view(match.match_id, player, None).sheet)


def _standing(game: AnyGame, match: Match, sheet: Sheet | None) -> list[str]:
    assert match.phase is not None
    current = open_sheet(sheet, match)
    return sent_lines(game, current.kinds if current is not None else {}, match.phase.name, letters.names(match))


# -- logging -----------------------------------------------------------------------------------


def _ignored(outcome: Outcome, receipt: Receipt) -> Outcome:
    logger.info("mail ignored", extra={"outcome": outcome.value, "ses_message_id": receipt.ses_message_id})
    return outcome


def _refused(match_id: str, letter: Letter, codes: list[str]) -> Outcome:
    """Log a refusal with nothing of the message but who claims to send it, hashed."""
    domain = letter.sender.rpartition("@")[2]
    fingerprint = hashlib.sha256(letter.sender.encode()).hexdigest()[:12]
    logger.info(
        "mail refused",
        extra={"match_id": match_id, "sender_domain": domain, "sender_hash": fingerprint, "reasons": codes},
    )
    return Outcome.REFUSED
