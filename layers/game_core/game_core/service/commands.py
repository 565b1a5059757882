"""Host commands and state machine steps as models, each dispatched to one use case.

The same models serve the Lambda console (the sample events in `events/`) and the host CLI.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, Field, TypeAdapter

from game_core.errors import NotFound
from game_core.games.protocol import PARTICIPANT_FORMAT, Model
from game_core.match.email_address import Email
from game_core.match.model import MAX_GRACES, MAX_PLAYERS, MAX_SECONDS, MatchRequest, Name
from game_core.match.press_rate import MAX_PER_HOUR, PressMode
from game_core.service.host import powers as host
from game_core.service.host import replace
from game_core.service.mail.dead_letters import redrive_mail
from game_core.service.matches import grace, handover, phases
from game_core.service.matches.absence import refuse_or_cut
from game_core.service.matches.actions import ActionRequest, take_action
from game_core.service.matches.lifecycle import create_match, export_record, match_status
from game_core.service.matches.press import from_host as host_press
from game_core.service.matches.press import set_mode as set_press_mode
from game_core.service.ports import Ports
from game_core.service.season import waits as season_waits
from game_core.service.season.commands import Season, run_season_command
from game_core.service.telling import links
from game_core.service.webhooks import sending as webhooks
from game_core.service.webhooks.urls import MAX_URL

MatchId = Annotated[str, Field(min_length=1, max_length=64)]
"""Far longer than any the service makes (m- and 12 hex digits), far shorter than a table key may be."""
Target = Annotated[str, Field(min_length=1, max_length=80)]
"""A participant as the host names them: by id or by name (spaces and all), in any case, as long
as a name may be; the use case reads it (`Match.named`) and refuses one that names nobody. Free
text: a webhook's target may also be "@public" or "@alerts"."""
Named = Annotated[Target, Field(json_schema_extra={"format": PARTICIPANT_FORMAT})]
"""A participant alone: its schema's format says so, and the host's page offers the match's
participants for it (by name, the id sent)."""


class Create(Model):
    command: Literal["create"]
    match: MatchRequest


class Status(Model):
    command: Literal["status"]
    match_id: MatchId


class Extend(Model):
    command: Literal["extend"]
    match_id: MatchId
    seconds: int = Field(gt=0, le=MAX_SECONDS)


class Pause(Model):
    command: Literal["pause"]
    match_id: MatchId


class Resume(Model):
    command: Literal["resume"]
    match_id: MatchId


class ResolveNow(Model):
    command: Literal["resolve_now"]
    match_id: MatchId


class Cancel(Model):
    command: Literal["cancel"]
    match_id: MatchId


class Export(Model):
    command: Literal["export"]
    match_id: MatchId


class Recover(Model):
    command: Literal["recover"]
    match_id: MatchId


class Act(Model):
    """The host's immediate action (Clubs: `tokens`, token values entered by hand)."""

    command: Literal["act"]
    match_id: MatchId
    kind: str
    action: dict[str, Any]


class Decide(Model):
    """The host ranks the players a finished match's result left tied across a ToL or EC line."""

    command: Literal["decide"]
    match_id: MatchId
    order: list[Named] = Field(min_length=2, max_length=64)


class Press(Model):
    """A message from the host to everyone, or to one participant (`to`)."""

    command: Literal["press"]
    match_id: MatchId
    text: str = Field(min_length=1, max_length=4000)
    to: Named | None = None


class SetPress(Model):
    """The host sets messages between players (`service.matches.press`): "on" (to anyone), "public" (to
    everyone only) or "off"; `per_hour`, if given, how many each participant may send in any hour."""

    command: Literal["press_mode"]
    match_id: MatchId
    mode: PressMode
    per_hour: int | None = Field(default=None, ge=1, le=MAX_PER_HOUR)


class ReissueSecret(Model):
    command: Literal["reissue_secret"]
    match_id: MatchId
    player: Named


class Replace(Model):
    """The host gives a seat to a new player (`service.host.replace`): the reply holds their new secret, once."""

    command: Literal["replace"]
    match_id: MatchId
    seat: Named
    """The seat's participant, by id or by its player's name."""
    name: Annotated[Name, Field(min_length=1)]
    email: Email | None = None
    """The new player's address (None: they play by webhook alone)."""
    webhook: str | None = Field(default=None, max_length=MAX_URL)
    """Where the seat's notices are POSTed from now on (the old player's URL is dropped either way)."""
    extend_seconds: int | None = Field(default=None, gt=0, le=MAX_SECONDS)
    """Added to the open phase's deadline, for the new player to read in."""


class AbsenceAct(Model):
    """The host refuses a participant's absence, or cuts it short to end at `to` (a date: that
    day included), in their time zone: the one under way, else the next; `from` (its first day)
    says which when they have several to come."""

    command: Literal["absence"]
    match_id: MatchId
    player: Named
    act: Literal["refuse", "cut"]
    to: str | None = Field(default=None, max_length=40)
    start: str | None = Field(default=None, alias="from", max_length=40)


class Graces(Model):
    """The host sets the graces left of every participant, or of one (`player`), and how long a
    grace holds a deadline (`seconds`; needed when the match has no graces yet)."""

    command: Literal["graces"]
    match_id: MatchId
    left: int = Field(ge=0, le=MAX_GRACES)
    seconds: int | None = Field(default=None, gt=0, le=MAX_SECONDS)
    player: Named | None = None


class MailLinks(Model):
    """The host mails each participant with an address their page's link, as create's reply gave
    it (`links`: by participant id or name); a link not carrying its participant's secret is refused."""

    command: Literal["mail_links"]
    match_id: MatchId
    links: dict[Target, Annotated[str, Field(max_length=MAX_URL)]] = Field(min_length=1, max_length=MAX_PLAYERS * 5)


class Webhook(Model):
    """The host sets (`url`) or removes (no `url`) a subscription: a participant's, "@public" (every
    public notice) or "@alerts" (the host's alerts). The reply holds a new one's secret, once."""

    command: Literal["webhook"]
    match_id: MatchId
    target: Target
    """A participant (by id or by name), "@public" or "@alerts"."""
    url: str | None = Field(default=None, max_length=MAX_URL)


class RedriveMail(Model):
    """The host queues the match's received mail that failed every try again (`service.mail.dead_letters`);
    a mail read before is not applied twice."""

    command: Literal["redrive_mail"]
    match_id: MatchId


HostCommand = Annotated[
    Create
    | Status
    | Extend
    | Pause
    | Resume
    | ResolveNow
    | Cancel
    | Export
    | Recover
    | Decide
    | Press
    | SetPress
    | ReissueSecret
    | Replace
    | Webhook
    | MailLinks
    | Graces
    | AbsenceAct
    | RedriveMail
    | Act
    | Season,
    Field(discriminator="command"),
]


@cache
def _host_commands() -> TypeAdapter[HostCommand]:
    return TypeAdapter(HostCommand)


def parse_host_command(data: Any) -> HostCommand:
    """The host's command, checked by its model (pydantic's ValidationError when it is none);
    the model is built on first use, not at import (a cold start that needs no command skips it)."""
    command: HostCommand = _host_commands().validate_python(data)
    return command


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The models an annotation holds (itself, a union's, a list's, an optional's)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for inner in get_args(annotation) for model in _models_in(inner)]


def command_fields(loc: tuple[str | int, ...]) -> list[str]:
    """The field names a host command allows at `loc` (pydantic's path to an object: its command
    tag first, then fields, list indexes), to name the nearest to an unknown one."""
    models = _models_in(HostCommand)
    for part in loc:
        if isinstance(part, int):
            continue
        holding = [model.model_fields[part] for model in models if part in model.model_fields]
        if holding:
            models = [model for field in holding for model in _models_in(field.annotation)]
        else:  # the command's tag
            models = [model for model in models if part in get_args(model.model_fields["command"].annotation)]
    return [field.alias or name for model in models for name, field in model.model_fields.items()]


SAMPLE_MATCH_ID = "m-0123456789ab"
"""The match id the sample events in events/ carry: a host who sends one unedited is told to put
their own match's id in it."""


def run_host_command(ports: Ports, command: HostCommand) -> dict[str, Any]:
    try:
        return _run(ports, command)
    except NotFound as error:
        if getattr(command, "match_id", None) != SAMPLE_MATCH_ID:
            raise
        hint = f"{error.message}: that is the sample events' id; put your match's id (create's reply gives it)"
        raise NotFound(hint) from None


def _run(ports: Ports, command: HostCommand) -> dict[str, Any]:
    match command:
        case Create(match=request):
            return create_match(ports, request)
        case Status(match_id=match_id):
            return match_status(ports, match_id)
        case Extend(match_id=match_id, seconds=seconds):
            return host.extend(ports, match_id, seconds)
        case Pause(match_id=match_id):
            return host.pause(ports, match_id)
        case Resume(match_id=match_id):
            return host.resume(ports, match_id)
        case ResolveNow(match_id=match_id):
            return host.resolve_now(ports, match_id)
        case Cancel(match_id=match_id):
            return host.cancel(ports, match_id)
        case Export(match_id=match_id):
            return export_record(ports, match_id).model_dump(mode="json")
        case Recover(match_id=match_id):
            return host.recover(ports, match_id)
        case Act(match_id=match_id, kind=kind, action=action):
            return take_action(ports, ActionRequest(match_id, None, kind, action, channel="host"))
        case Decide(match_id=match_id, order=order):
            decided = host.decide(ports, match_id, order)
            season_waits.match_decided(ports, match_id)  # a season's match: the season reads the decided result
            return decided
        case Press(match_id=match_id, text=text, to=to):
            return host_press(ports, match_id, text, to)
        case SetPress(match_id=match_id, mode=mode, per_hour=per_hour):
            return set_press_mode(ports, match_id, mode, per_hour)
        case ReissueSecret(match_id=match_id, player=player):
            return host.reissue_secret(ports, match_id, player)
        case Replace(match_id=match_id, seat=seat, name=name):
            return replace.replace(ports, match_id, seat, name, command.email, command.webhook, command.extend_seconds)
        case AbsenceAct(match_id=match_id, player=player, act=act):
            return refuse_or_cut(ports, match_id, player, act, command.to, command.start)
        case Graces(match_id=match_id, left=left, seconds=seconds, player=player):
            return grace.set_graces(ports, match_id, left, seconds, player)
        case MailLinks(match_id=match_id, links=sent):
            return links.mail_links(ports, match_id, sent)
        case RedriveMail(match_id=match_id):
            return redrive_mail(ports, match_id)
        case Season():
            return run_season_command(ports, command)
        case Webhook(match_id=match_id, target=target, url=None):
            return webhooks.unsubscribe(ports, match_id, target)
        case Webhook(match_id=match_id, target=target, url=str(url)):
            return webhooks.subscribe(ports, match_id, target, url)
    raise AssertionError(f"unhandled command {command!r}")


class PhaseStep(Model):
    """What the state machine sends to the phase-step function."""

    step: Literal["advance", "wait", "stalled", "hand_over"]
    match_id: MatchId
    phase_number: int = 0
    clock_version: int = 0
    token: str | None = None
    error: dict[str, Any] | None = None
    """What the state machine caught (`Error`, `Cause`), for the stalled step."""
    loops: int = Field(default=0, ge=0)
    """The loops this execution has made before this advance (`service.matches.handover`)."""
    handovers: int = Field(default=0, ge=0)
    """The hand-overs before this execution, for the hand-over step."""


def run_phase_step(ports: Ports, step: PhaseStep) -> dict[str, Any]:
    if step.step == "wait":
        assert step.token, "the wait step needs the task token"
        phases.wait(ports, step.match_id, step.phase_number, step.clock_version, step.token)
        return {}
    if step.step == "stalled":
        phases.stalled(ports, step.match_id, step.error or {})
        season_waits.match_stalled(ports, step.match_id, step.error or {})
        return {}
    if step.step == "hand_over":
        return handover.hand_over(ports, step.match_id, step.handovers)
    # One more loop: the machine hands the match on once it has made enough (`service.matches.handover`).
    where = phases.advance(ports, step.match_id) | {"loops": step.loops + 1}
    if where["phase"] in (phases.MATCH_OVER, phases.MATCH_CANCELLED):
        season_waits.match_ended(ports, step.match_id)  # a season's match: the season goes on
    return where
