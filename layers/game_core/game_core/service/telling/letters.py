"""Mail a person reads: every notice, answer and reminder as plain text, from the recipient's
view alone (names, not ids; the deadline in their time zone and UTC, and as time left; how to
answer). Each participant gets one message per event: the public announcement and their own
private part together (`letters`). Sending them is `telling`'s.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from game_core.games import registry
from game_core.games.capabilities import ActsAtOnce, AnswersInText, DrawsViews, Picture
from game_core.games.protocol import AnyGame
from game_core.games.text_layout import prose, result_text, wrapped
from game_core.match import engine, grace
from game_core.match.absence import away_lines
from game_core.match.clock import PhaseClock, moment_text
from game_core.match.email_address import sendable_address
from game_core.match.model import Match
from game_core.match.press import help_lines, press_lines
from game_core.match.seats import seat_lines
from game_core.service.matches import receipts
from game_core.service.ports import Notice, OutgoingMail
from game_core.service.telling.named import kind_help

if TYPE_CHECKING:
    from game_core.mail.inbound import Letter

logger = logging.getLogger(__name__)

RULE = "-" * 72
PRIVATE_FROM_HOST = "A private message from the host"
"""What the host's message to one participant is called, in its subject and its text."""
NO_BREAK = "\u00a0"
"""Binds words a fold must not part (textwrap breaks at ASCII whitespace only)."""
_UNBROKEN = r"\b[A-Z][a-z]+day \d{1,2} [A-Z][a-z]+\b|\bin (\d+ [a-z]+ ?)+|\d+ [a-z]+ ago|less than a minute( ago)?"
"""A date ("Tuesday 1 December"), how far a moment is ("in 1 day 3 hours", "2 hours ago")."""


def names(match: Match) -> dict[str, str]:
    """Each participant's display name by id (what every text shows)."""
    return {participant.id: participant.name for participant in match.players}


def kinds_text(kinds: Sequence[str]) -> str:
    """ "bid submission", "bid and place submissions": what a participant sends, in words."""
    if len(kinds) == 1:
        return f"{kinds[0]} submission"
    return f"{', '.join(kinds[:-1])} and {kinds[-1]} submissions"


def deadline_line(phase: PhaseClock, now: datetime, zone: str | None = None) -> str:
    """ "Round 3 closes Thursday 3 December, 13:00 (Europe/Paris) - 12:00 UTC, in 23 hours.", in
    the reader's time zone (`clock.moment_text`), or that it is paused."""
    if phase.paused:
        return f"{phase.name} is paused by the host; its clock stands still until they resume it."
    said = f"{phase.name} {'closes' if phase.deadline > now else 'closed'} {moment_text(phase.deadline, now, zone)}."
    # Folded at 78 columns (a mail's lines join with "\n"), never inside a date or "in 1 hour"
    kept = re.sub(_UNBROKEN, lambda words: words[0].replace(" ", NO_BREAK), said)
    return "\n".join(prose(kept)).replace(NO_BREAK, " ")


def how_to_answer(game: AnyGame, match: Match, player: str) -> list[str]:
    """What the player can send in the open phase, in the game's plain-text grammar, with an
    example per kind (and per immediate action it allows now): what the phase waits for from
    them first, then what they may send besides. Nothing when they may send nothing (the match is
    not running, they cannot act in the phase, or it takes nothing)."""
    phase = match.phase
    actions = _actions_by_text(game, match)
    if phase is None or match.status != "running" or player not in phase.actors or not (phase.accepts or actions):
        return []
    owed = phase.owes.get(player, ())
    optional = [kind for kind in phase.accepts if kind not in owed]
    lines = []
    if owed:
        lines += prose(f"To play, reply to this mail with your move for {phase.name}:")
        for kind in owed:
            lines += ["", *kind_help(game, kind, names(match), player, phase.name)]
    if optional:
        lines += ["", "You may also send:" if owed else f"{phase.name} waits for nothing from you, but you may send:"]
        for kind in optional:
            lines += ["", *kind_help(game, kind, names(match), player, phase.name)]
    if actions:
        lines += ["", "Actions are taken at once, a line each, and answered to you alone:"]
        for kind in actions:
            lines += ["", *kind_help(game, kind, names(match), player, phase.name)]
    lines += ["", *prose("Send STATUS for where you stand, HELP for this again, HELP RULES for the game's rules.")]
    lines += prose("Send ZONE and your time zone (e.g. ZONE Europe/Paris) for deadlines in your own time.")
    lines += help_lines(match.press)
    if match.absence_rules.days:
        lines += prose(
            "Away for a while? ABSENT 2026-12-24 2026-12-27 (your first and last days away) holds the "
            "deadlines falling then that wait for you; ABSENT CANCEL withdraws it."
        )
    if match.grace_seconds and owed:
        lines += grace.help_lines(match.grace_seconds)
    if owed and not (match.early_close or phase.closes_on_submit):
        lines += ["Send READY once your move is in to vote the phase closed early: it resolves"]
        lines += ["when everyone who owes a move is READY (NOT READY takes it back)."]
    return lines[1:] if lines[:1] == [""] else lines


def _actions_by_text(game: AnyGame, match: Match) -> tuple[str, ...]:
    """The immediate actions the open phase allows its actors, when the game's grammar reads them."""
    if not isinstance(game, ActsAtOnce) or not isinstance(game.text, AnswersInText):
        return ()
    opening = game.open_phase(engine.game_state(game, match))
    return opening.actions if opening is not None else ()


def event_text(
    match: Match,
    game: AnyGame,
    public: dict[str, Any],
    own: dict[str, Any],
    now: datetime,
    zone: str | None,
    reader: str | None = None,
) -> list[str]:
    """The text of one event for one participant (`reader`; None: the public channel): what
    happened (a reminder, who sent nothing), their view (the private one holds the public part
    too), and the open phase's deadline."""
    lines: list[str] = []
    if (press := own.get("press")) is not None:  # the host's message to this participant alone
        lines += [f"{PRIVATE_FROM_HOST}, to you alone:", "", *str(press).splitlines()]
    elif (press := public.get("press")) is not None:
        lines += ["A message from the host to everyone:", "", *str(press).splitlines()]
    lines += press_lines(public, own, names(match), reader)  # a player's message, the host's press setting
    if (news := own.get("news", public.get("news"))) is not None:  # a seat's new player (service.host.replace)
        lines += prose(str(news))
    lines += grace.notice_lines(public, own, names(match))
    if own.get("you_owe") and match.phase is not None:
        lines += prose(f"A reminder: {match.phase.name} still waits for your {kinds_text(own['you_owe'])}.")
    missing = public.get("did_not_submit") or []
    if missing:
        shown = names(match)
        lines += prose("No submission from: " + ", ".join(shown.get(player, player) for player in missing) + ".")
    view = own.get("view", public.get("view"))
    if view is not None:
        lines += ["", game.text.render_view(view, names(match)).strip("\n")]
    if opened := receipts.opened_lines(public, own, names(match)):  # what sealed the moves just counted
        lines += ["", *opened]
    if public.get("result") is not None:  # the match is over: its result, for every game alike
        lines += ["", *result_text(public["result"], names(match))]
        if replaced := seat_lines(match):  # who played a seat the host gave to someone else
            lines += ["", *replaced]
    if (head := own.get("log_head", public.get("log_head"))) is not None:  # the record's seal
        lines += ["", *prose(f"The match's event log ends in the hash {head} (match-verify --head checks a record).")]
    if match.phase is not None and (own or public).get("open") is not None:
        lines += ["", *away_lines(own or public, names(match), zone, reader), deadline_line(match.phase, now, zone)]
    return lines[1:] if lines[:1] == [""] else lines


def letters(match: Match, notices: Sequence[Notice], now: datetime, domain: str) -> list[OutgoingMail]:
    """One message per participant with an address: the public notice (if any) and their own
    private one together, rendered from those two bodies alone."""
    if not domain:
        return []
    game = registry.load(match.game)
    public = next((notice for notice in notices if notice.recipient is None), None)
    private = {notice.recipient: notice for notice in notices if notice.recipient is not None}
    mails = []
    for participant in match.players:
        own = private.get(participant.id)
        headline = own or public
        if not participant.email or headline is None:
            continue
        lines = [f"Hello {participant.name},", ""]
        shared, mine = (public.body if public else {}), (own.body if own else {})
        lines += event_text(match, game, shared, mine, now, participant.zone, participant.id)
        view = mine.get("view", shared.get("view"))
        attached, pictures = drawn(game, view, names(match))
        lines += attached + season_lines(match)
        answer = how_to_answer(game, match, participant.id)
        if answer:
            lines += ["", RULE, *answer]
        told_as = mail_id(headline, participant.id)
        mails.append(
            _mail(match, participant.email, headline.subject, lines, now, domain, attachments=pictures, told_as=told_as)
        )
    return mails


def season_lines(match: Match) -> list[str]:
    """Where a season's match points to the season's standing (read on its page, not here: a
    letter costs no read of the season)."""
    if match.season_id is None:
        return []
    return [
        "",
        *prose(
            f"This match is one of season {match.season_id}'s. Who is left, each player's ToL and garnets "
            f"won, and the episodes so far: the season's page, /play/{match.match_id}/season."
        ),
    ]


def mail_id(headline: Notice, participant: str) -> str:
    """The id of the mail telling `participant` the notice (theirs, or the public one): one mail
    per participant and occasion, the same on every retry."""
    return f"{headline.notice_id}/mail/{participant}"


def drawn(
    game: AnyGame, view: Mapping[str, Any] | None, shown: Mapping[str, str]
) -> tuple[list[str], tuple[Picture, ...]]:
    """The pictures of a view a mail carries (the reader's own), when the game draws its views,
    and the lines naming them in its text; nothing otherwise."""
    drawing = game.text.draw_view(view, shown) if view is not None and isinstance(game.text, DrawsViews) else None
    if drawing is None:
        return [], ()
    files = ", ".join(picture.filename for picture in drawing.pictures)
    return ["", *wrapped(f"Attached: {drawing.caption} ({files}).")], drawing.pictures


def _mail(
    match: Match,
    to: str,
    subject: str,
    lines: list[str],
    now: datetime,
    domain: str,
    answering: Letter | None = None,
    attachments: Sequence[Picture] = (),
    told_as: str | None = None,
) -> OutgoingMail:
    # Imported here: the stdlib's e-mail modules cost a cold start ~20 ms, and only mail needs them
    from game_core.mail.addresses import match_address, phase_message_id
    from game_core.mail.outbound import compose

    to = sendable_address(to)
    raw = compose(
        sender=match_address(match.match_id, domain),
        sender_name=f"{registry.load(match.game).title} {match.match_id}",
        to=[to],
        subject=subject,  # compose fits it under 100 characters
        body="\n".join(lines).strip("\n") + "\n",
        domain=domain,
        sent_at=now,
        answering=answering,
        # Says the phase it belongs to: a reply to it names the phase its sender was answering. A
        # notice's mail keeps its Message-ID on a retry (a receiver may drop the repeat).
        message_id=phase_message_id(match.match_id, match.phase.number if match.phase else None, domain, told_as),
        attachments=attachments,
    )
    return OutgoingMail(to=to, raw=raw, told_as=told_as)


def note(
    match: Match, to: str, subject: str, lines: list[str], now: datetime, domain: str, told_as: str
) -> OutgoingMail:
    """A mail to an address the match no longer has (a replaced player's farewell), under its own
    id: one mail per occasion, the same Message-ID on every retry."""
    return _mail(match, to, subject, lines, now, domain, told_as=told_as)


def answer(
    match: Match,
    to: str,
    subject: str,
    lines: list[str],
    now: datetime,
    domain: str,
    letter: Letter,
    attachments: Sequence[Picture] = (),
    answers: str | None = None,
) -> OutgoingMail:
    """A reply to the participant's (or host's) message, threaded under it; `answers` is what the
    message is known by (`mail_in.delivery_key`): its answer keeps one Message-ID when sent again."""
    told_as = None if answers is None else f"{match.match_id}/answer/{answers}"
    return _mail(match, to, subject, lines, now, domain, answering=letter, attachments=attachments, told_as=told_as)
