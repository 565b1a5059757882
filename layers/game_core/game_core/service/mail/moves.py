"""A mail's moves, each submitted (or, an immediate action, taken) as the webhook's are, keyed by
SES's message id and the move's index, and the answer's lines for each: as understood, its cost,
or every reason it was refused and what still stands (`receive` reads the mail).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from game_core.errors import (
    GameCoreError,
    Illegal,
    InProgress,
    Late,
    Malformed,
    Reason,
    validation_reasons,
)
from game_core.games.capabilities import AnswersInText
from game_core.games.plain_text import LineGrammar
from game_core.games.protocol import AnyGame, TextMove
from game_core.games.text_layout import prose
from game_core.mail.addresses import phase_answered
from game_core.mail.inbound import Letter
from game_core.match.engine import sent_last
from game_core.match.model import Match, Participant
from game_core.service.mail.grammar import (
    cost_line,
    garnets_line,
    sent_lines,
)
from game_core.service.mail.lines import listed_reasons
from game_core.service.matches.actions import ActionRequest, take_action
from game_core.service.matches.receipts import receipt_lines
from game_core.service.matches.sheets import Sheet, open_sheet
from game_core.service.matches.submit import SubmissionBody, SubmissionRequest, submit
from game_core.service.ports import Ports
from game_core.service.telling import letters
from game_core.service.telling.named import written

CHANNEL = "email"
NOT_UNDERSTOOD = "Nothing was submitted: your mail was not understood."
Request = SubmissionRequest | ActionRequest
"""What one move of a mail asks: a submission to the phase, or an immediate action."""


@dataclass(frozen=True)
class Judged:
    """One move's fate: accepted (`reply`) or refused (`error`); `redelivered` when its delivery
    was stored before (or is being stored right now by another delivery of the message)."""

    request: Request
    reply: dict[str, Any] | None = None
    error: GameCoreError | None = None
    redelivered: bool = False


def take_moves(
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
        return [*refusal_lines(NOT_UNDERSTOOD, unread.reasons), "", *still_standing(ports, match, game, player.id)]
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
        lines += [*still_standing(ports, latest, game, player.id), ""]
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
    earlier, now_open = old_and_open(ports, match, answered)
    return [
        f"Nothing was submitted: your mail answers the mail for {earlier},",
        f"and {now_open} is open now.",
        f"To send your moves for {match.phase.name}, reply to this mail with them{',' if named else '.'}",
        *(["or name the phase above them (HELP shows how)."] if named else []),
        "",
        *still_standing(ports, match, game, player.id),
        "",
        letters.deadline_line(match.phase, ports.clock.now(), player.zone),
    ]


def old_and_open(ports: Ports, match: Match, answered: int) -> tuple[str, str]:
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
    return refusal_lines(f"{heading}: {what}.", move.error.reasons)


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
    return refusal_lines(f"Not done: your {request.kind}.", move.error.reasons)


def refusal_lines(heading: str, reasons: Sequence[Reason]) -> list[str]:
    """The heading and each reason, folded at 78 columns (a reason's folds under its text)."""
    listed = listed_reasons(reasons)
    return [*prose(heading), *(line for reason in listed for line in prose(reason.text, "  - ", "    "))]


def still_standing(ports: Ports, match: Match, game: AnyGame, player: str) -> list[str]:
    """What the sender's submissions to the open phase of `match` (as read last) say now."""
    if match.phase is None:
        return [f"The match is {match.status}."]
    return _standing(game, match, ports.store.submission_view(match.match_id, player, None).sheet)


def _standing(game: AnyGame, match: Match, sheet: Sheet | None) -> list[str]:
    assert match.phase is not None
    current = open_sheet(sheet, match)
    return sent_lines(game, current.kinds if current is not None else {}, match.phase.name, letters.names(match))
