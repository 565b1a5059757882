"""Mail a person reads: every notice, answer and reminder as plain text, from the recipient's
view alone (names, not ids; the deadline in their time zone and UTC, and as time left; how to
answer).

`tell` is how the service speaks: it publishes the notices (SNS, for webhook subscribers and
integrations) and mails each participant with a registered address one message per event: the
public announcement and their own private part together.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from game_core.games import registry
from game_core.games.plain_text import result_text, wrapped
from game_core.games.protocol import ActsAtOnce, AnswersInText, AnyGame, Drawing, DrawsViews, Picture
from game_core.match import engine
from game_core.match.clock import PhaseClock, moment_text
from game_core.match.model import Match
from game_core.service.ports import Notice, OutgoingMail, Ports

if TYPE_CHECKING:
    from game_core.mail.inbound import Letter

RULE = "-" * 72


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
    return f"{phase.name} {'closes' if phase.deadline > now else 'closed'} {moment_text(phase.deadline, now, zone)}."


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
        lines += [f"To play, reply to this mail with your move for {phase.name}:"]
        for kind in owed:
            lines += ["", *game.text.text_help(kind)]
    if optional:
        lines += ["", "You may also send:" if owed else f"{phase.name} waits for nothing from you, but you may send:"]
        for kind in optional:
            lines += ["", *game.text.text_help(kind)]
    if actions:
        lines += ["", "Actions are taken at once, a line each, and answered to you alone:"]
        for kind in actions:
            lines += ["", *game.text.text_help(kind)]
    lines += ["", "Send STATUS for where you stand, HELP for this again, HELP RULES for the game's rules."]
    lines += ["Send ZONE and your time zone (e.g. ZONE Europe/Paris) for deadlines in your own time."]
    return lines[1:] if lines[:1] == [""] else lines


def _actions_by_text(game: AnyGame, match: Match) -> tuple[str, ...]:
    """The immediate actions the open phase allows its actors, when the game's grammar reads them."""
    if not isinstance(game, ActsAtOnce) or not isinstance(game.text, AnswersInText):
        return ()
    opening = game.open_phase(engine.game_state(game, match))
    return opening.actions if opening is not None else ()


def _text(
    match: Match, game: AnyGame, public: dict[str, Any], own: dict[str, Any], now: datetime, zone: str | None
) -> list[str]:
    """The text of one event for one participant: what happened (a reminder, who sent nothing),
    their view (the private one holds the public part too), and the open phase's deadline."""
    lines: list[str] = []
    press = own.get("press", public.get("press"))
    if press is not None:
        lines += ["A message from the host:", "", *str(press).splitlines()]
    if own.get("you_owe") and match.phase is not None:
        lines.append(f"A reminder: {match.phase.name} still waits for your {kinds_text(own['you_owe'])}.")
    missing = public.get("did_not_submit") or []
    if missing:
        shown = names(match)
        lines.append("No submission from: " + ", ".join(shown.get(player, player) for player in missing) + ".")
    view = own.get("view", public.get("view"))
    if view is not None:
        lines += ["", game.text.render_view(view, names(match)).strip("\n")]
    if public.get("result") is not None:  # the match is over: its result, for every game alike
        lines += ["", *result_text(public["result"], names(match))]
    if match.phase is not None and (own or public).get("open") is not None:
        lines += ["", deadline_line(match.phase, now, zone)]
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
        lines += _text(match, game, public.body if public else {}, own.body if own else {}, now, participant.zone)
        drawing = _drawing(game, match, public, own)
        if drawing is not None:
            files = ", ".join(picture.filename for picture in drawing.pictures)
            lines += ["", *wrapped(f"Attached: {drawing.caption} ({files}).")]
        answer = how_to_answer(game, match, participant.id)
        if answer:
            lines += ["", RULE, *answer]
        pictures = drawing.pictures if drawing is not None else ()
        mails.append(_mail(match, participant.email, headline.subject, lines, now, domain, attachments=pictures))
    return mails


def _drawing(game: AnyGame, match: Match, public: Notice | None, own: Notice | None) -> Drawing | None:
    """The pictures of the view one participant's mail carries (their own), when the game draws
    its views."""
    view = (own.body if own else {}).get("view", (public.body if public else {}).get("view"))
    if view is None or not isinstance(game.text, DrawsViews):
        return None
    return game.text.draw_view(view, names(match))


def _mail(
    match: Match,
    to: str,
    subject: str,
    lines: list[str],
    now: datetime,
    domain: str,
    answering: Letter | None = None,
    attachments: Sequence[Picture] = (),
) -> OutgoingMail:
    # Imported here: the stdlib's e-mail modules cost a cold start ~20 ms, and only mail needs them
    from game_core.mail.addresses import match_address, phase_message_id
    from game_core.mail.outbound import compose

    raw = compose(
        sender=match_address(match.match_id, domain),
        sender_name=f"{registry.load(match.game).title} {match.match_id}",
        to=[to],
        subject=subject,  # compose fits it under 100 characters
        body="\n".join(lines).strip("\n") + "\n",
        domain=domain,
        sent_at=now,
        answering=answering,
        # Says the phase it belongs to: a reply to it names the phase its sender was answering
        message_id=phase_message_id(match.match_id, match.phase.number if match.phase else None, domain),
        attachments=attachments,
    )
    return OutgoingMail(to=to, raw=raw)


def answer(
    match: Match, to: str, subject: str, lines: list[str], now: datetime, domain: str, letter: Letter
) -> OutgoingMail:
    """A reply to the participant's (or host's) message, threaded under it."""
    return _mail(match, to, subject, lines, now, domain, answering=letter)


def tell(ports: Ports, match: Match, notices: Sequence[Notice]) -> None:
    """Publish the notices, then mail them. A failure raises (the step is retried: a notice may
    go twice, never not at all)."""
    ports.notifier.publish(match, notices)
    for mail in letters(match, notices, ports.clock.now(), ports.mailer.domain):
        ports.mailer.send(mail)
