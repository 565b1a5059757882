"""Play by e-mail: one message SES received, read and answered (its commands run by
`commands`, its moves submitted by `moves`).

A message is read only when SES's verdicts pass (`ses.refusals` of the deployment's required
checks) and it comes from an address the match registered: a participant's, or the host's. Any
other message (forged, failed, from a stranger or from a player of another match) changes nothing
and is answered by nothing; the refusal is logged with the match id, the sender's domain and a
hash of their address, and the reason codes, never what the message says.

A mail to a season's match whose first line (past a greeting) is an Elimination Candidate's act,
NAME <player>, SPEND TOL or KEEP TOL, is the season's (`service.season.mail`), not the match's.
Otherwise, what a registered sender wrote (`lines`) is commands (`grammar`: STATUS, HELP, HELP RULES,
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
the Lambda retried) is answered on its redelivery, from the replies stored with its moves; one
sent whose mark was lost (a crash between the two) is sent again, under the same Message-ID. An
answer the mail service refuses for good (`errors.MailRefused`) is not tried again: the message
is marked answered all the same, and the refusal recorded for the host (`telling.send`).
"""

from __future__ import annotations

import hashlib
import logging
from enum import StrEnum

from game_core.errors import (
    NotFound,
    Reason,
)
from game_core.games import registry
from game_core.games.capabilities import Picture
from game_core.mail.addresses import match_for, phase_answered
from game_core.mail.automatic import Automatic, Failure, Kind, automatic
from game_core.mail.inbound import MAX_BYTES, Letter, parse_message
from game_core.mail.ses import Receipt, refusals
from game_core.match.email_address import address_key
from game_core.match.model import Match
from game_core.service.mail.commands import Answer, Sender, press_by_mail, run_command
from game_core.service.mail.grammar import (
    HOST_ONLY,
    HOST_USAGE,
)
from game_core.service.mail.lines import MailLines, read_mail, subject_hint, unread_lines
from game_core.service.mail.moves import NOT_UNDERSTOOD, refusal_lines, still_standing, take_moves
from game_core.service.ports import Bounce, Ports
from game_core.service.season.mail import season_by_mail
from game_core.service.telling import channels as telling
from game_core.service.telling import letters

logger = logging.getLogger(__name__)


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


INSIDE_THE_QUOTE = Reason(
    "inside_the_quote",
    "nothing is written above the quoted mail, and lines written inside it cannot be told from it"
    ' (unless your mail program marks them, as Outlook does with "Preface comments with");'
    " write your moves above the quoted mail",
)
"""Why a reply whose writing, if any, is inside an unquoted old message reads as nothing."""
UNREAD = "Nothing was submitted: your mail could not be read."
"""The heading above `Letter.unreadable`'s reason (why, and how to send it again): no line of
such a mail was read, so none was misunderstood."""


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
    answer = letters.answer(match, sender.address, subject, lines, now, domain, letter, said.pictures, delivery)
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
    if sender.player is not None and (pressed := press_by_mail(ports, match, sender.player, letter, message_id)):
        return Answer(pressed)  # the whole mail is a message to other players
    if sender.player is not None and (acted := season_by_mail(ports, match, sender.player, letter.text)) is not None:
        return Answer(acted)  # an EC's NAME, SPEND TOL, KEEP TOL: the season's, not the match's
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
            return Answer([*refusal_lines(heading, said.reasons), "", *HOST_USAGE])
        standing = still_standing(ports, match, game, sender.player.id)
        return Answer([*refusal_lines(heading, said.reasons), "", *standing])
    if sender.is_host and any(command.keyword in HOST_ONLY for command in said.commands):
        # Marked before it acts: a retried delivery must not extend twice (its answer, if
        # sending it fails, is lost rather than the act repeated)
        ports.store.mark_answered(match.match_id, message_id, ports.clock.now())
    lines: list[str] = []
    pictures: tuple[Picture, ...] = ()
    if said.moves or not said.commands:
        assert sender.player is not None  # the host's address alone sends commands only (above)
        moved = take_moves(ports, match, game, sender.player, letter, said.moves, message_id)
        if moved is None:
            return None
        lines += moved
    # Moves naming their phase name it for the mail's vote too (a mail naming the open phase is for it)
    named = said.moves and all(move.phase is not None for move in said.moves)
    answered = None if named else phase_answered(match.match_id, letter.in_reply_to, letter.references)
    for command in said.commands:
        done = run_command(ports, match, sender, command, answered)
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
