"""Messages between players (press, issue 22 item 5): a participant writes to some participants
or to everyone, by mail (`PRESS TO bo, cy`), by the webhook's action or on their page; each
recipient is told at once through their channels (mail, SNS, their webhook) with the sender's
name, and the message is kept in the match's log, which only the host's export carries.

A message to some is a private notice to each of them (none to the sender, whose answer is the
reply): no one else hears of it, not even that it was sent, since who talks to whom is itself
what these games are played on. A message to everyone is a public notice, table talk everyone
(and the `@public` subscription) hears, the sender too. The service adds nothing to the text
but the sender's name: nothing from anyone's view.

Recorded first, told after: the record (the sender's entry on the match header, not yet told,
and the log's entry) is stored conditional on the match as read, so two messages racing the rate
are counted one after the other and the one past it is refused (TooMany), before anyone hears it.
Then everyone is told (`telling.tell`, each notice and mail once) and, with a delivery key (a
mail's Message-ID, a webhook's Idempotency-Key, a form's), the entry is marked told in a second
write keeping the reply under the key (a webhook's redelivery gets it back for a week). A message
whose telling failed midway is finished by its retry (the same key, within the hour): it tells
only whom the failed one had not, and counts once; one told already is not sent again.

The host's messages (`from_host`) are recorded and told the same way, under `HOST`: the same
command sent again within the hour (same recipient, same text) finishes or repeats nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from game_core.errors import Malformed, NotOpen, validation_reasons
from game_core.match.clock import iso
from game_core.match.model import Match
from game_core.match.press import (
    HOST,
    MAX_PRESS_CHARS,
    Message,
    compose,
    host_press_id,
    message,
    press_id,
    recorded,
    seen_by,
    sent_before,
    told,
)
from game_core.match.press_rate import MAX_PER_HOUR, PressMode, PressSent
from game_core.service.matches.sheets import AlreadyDelivered
from game_core.service.ports import Event, Notice, Ports
from game_core.service.retries import until_stored
from game_core.service.telling.channels import tell
from game_core.service.telling.letters import PRIVATE_FROM_HOST, names
from game_core.service.telling.notices import Untold, act_at, notice_id, untold
from game_core.service.telling.stored import tell_stored

PRESS_MODE = "press_mode"
"""The log entry of the host's setting of press."""
PRESS_KIND = "press"
"""The webhook action's kind: `{"kind": "press", "action": {"to": ["bo"], "text": "..."}}`."""


class PressAction(BaseModel):
    """The webhook action's body for a message (`match-schemas` prints its schema)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    to: (
        Annotated[list[Annotated[str, Field(min_length=1, max_length=80)]], Field(min_length=1, max_length=64)]
        | Literal["all"]
    )
    """Participants by id or by name (any case), or "all" for everyone."""
    text: str = Field(min_length=1, max_length=MAX_PRESS_CHARS)
    """The message, as the sender wrote it (plain text, lines kept)."""


def press_action(action: Any) -> PressAction:
    """The message a webhook action carries, or Malformed naming what is wrong."""
    try:
        return PressAction.model_validate(action)
    except ValidationError as error:
        raise Malformed("the press action is malformed", validation_reasons(error, "action")) from None


def send(
    ports: Ports,
    match_id: str,
    sender: str,
    to: Sequence[str] | None,
    text: str,
    channel: str,
    delivery: str | None = None,
    seen: Match | None = None,
) -> dict[str, Any]:
    """Send `sender`'s message to the participants `to` names (None: everyone), or raise why not;
    the reply says whom it went to. With a `delivery` key, a message sent before under that key
    (and with that text) is not sent again, and one whose telling failed is told to the rest.
    `seen` is the match as the sender's channel read it already (one read fewer)."""
    match = seen if seen is not None else ports.store.get(match_id)
    match.member(sender)
    message_id = press_id(sender, text, delivery, match.version)

    def compose_new(current: Match, now: datetime) -> tuple[Message, Event]:
        composed = compose(current, sender, to, text, message_id, now)
        data = {"id": message_id, "from": sender, "to": _to(composed), "text": composed.text, "channel": channel}
        return composed, Event("press", now, data)

    written = Written(sender, message_id, compose_new, lambda current: message(current, sender, to, text, message_id))
    told_by = lambda stored, said, _entry: notices(stored, said)  # noqa: E731
    return _record_then_tell(ports, match, written, told_by, _reply, delivery, retried=delivery is not None)


def from_host(ports: Ports, match_id: str, text: str, to: str | None = None) -> dict[str, Any]:
    """A message from the host to every participant, or to one (by id or by name), through every
    channel, kept in the match's log (`host_press`: to whom and the text, for the host's export).
    The same command sent again within the hour tells only whom a failed one had not, else nothing."""
    match = ports.store.get(match_id)
    to = match.named(to) if to is not None else None
    said = Message(host_press_id(to, text), HOST, None if to is None else (to,), text)

    def logged(_current: Match, now: datetime) -> tuple[Message, Event]:
        return said, Event("host_press", now, {"id": said.id, "to": _to(said), "text": text})

    def host_notices(_stored: Match, _said: Message, entry: PressSent) -> list[Notice]:
        # Its record's moment in its id: the same text sent again after the hour is another message
        occasion = f"host-message-{said.id}-{int(entry.at.timestamp())}"
        body = {"match_id": match_id, "press": text}
        # A subject of its own says whether it is for one participant or for everyone
        subject = f"[{match_id}] " + ("A message from the host to everyone" if to is None else PRIVATE_FROM_HOST)
        return [Notice(to, subject, body, notice_id(match_id, occasion, to))]

    reply = {"match_id": match_id, "sent_to": to or "everyone"}
    written = Written(HOST, said.id, logged, lambda _current: said)
    return _record_then_tell(ports, match, written, host_notices, lambda *_: reply, None, retried=True)


@dataclass(frozen=True)
class Written:
    """A message as its sender wrote it, before it is recorded: `compose` makes it (or refuses it)
    on the match as it is, with its log entry; `again` builds it back once recorded."""

    sender: str
    id: str
    compose: Callable[[Match, datetime], tuple[Message, Event]]
    again: Callable[[Match], Message]


def _record_then_tell(
    ports: Ports,
    first: Match,
    written: Written,
    told_by: Callable[[Match, Message, PressSent], list[Notice]],
    replied: Callable[[Match, Message], dict[str, Any]],
    delivery: str | None,
    retried: bool,
) -> dict[str, Any]:
    """Record the message under the match's version unless it is recorded already, tell it unless
    it was told, then mark it told, with its reply kept under the `delivery` key. `retried`: the
    same message may come again to be finished (recorded untold until then); otherwise a new
    message is recorded told, and a record found is a concurrent duplicate's."""
    match_id, sender, message_id = first.match_id, written.sender, written.id
    now = ports.clock.now()

    def record(current: Match) -> tuple[Match, Message, bool]:
        if sent_before(current, sender, message_id, now) is not None:  # a retry, or a concurrent one's record
            return current, written.again(current), False
        composed, event = written.compose(current, now)  # the rate judged on the match as it is now
        stored = recorded(current, sender, message_id, now, told=not retried)
        ports.store.save(current, stored, event)
        return stored, composed, True

    read = lambda: ports.store.get(match_id)  # noqa: E731
    stored, said, fresh = until_stored(read, record, match_id=match_id, what="the message is not recorded", seen=first)
    entry = sent_before(stored, sender, message_id, now)
    assert entry is not None  # recorded, by this call or before it
    reply = replied(stored, said)
    if entry.told and not fresh:  # its first reply, said again; nothing is sent
        return reply | {"sent_before": True}
    kept = (sender, delivery, reply) if delivery is not None else None

    def mark(current: Match) -> None:
        kept_now = sent_before(current, sender, message_id, now)
        if kept_now is None or kept_now.told:  # a concurrent retry marked it
            return
        event = Event("press_told", ports.clock.now(), {"id": message_id, "from": sender})
        try:
            ports.store.save(current, told(current, sender, message_id), event, delivery=kept)
        except AlreadyDelivered:  # that retry stored its reply first: the message is marked
            return

    def all_told() -> None:
        until_stored(read, mark, match_id=match_id, what="the message is not marked told")

    tell(ports, stored, told_by(stored, said, entry), then=all_told if retried else None)
    return reply


def _reply(match: Match, message: Message) -> dict[str, Any]:
    to = _to(message)
    return {
        "accepted": True,
        "match_id": match.match_id,
        "message_id": message.id,
        "to": to,
        "answer": answer(match, to),
    }


def answer(match: Match, to: list[str] | str) -> str:
    """What the sender hears of their message to `to` (as its log entry has it: ids, or "all")."""
    shown = names(match)
    whom = "everyone" if to == "all" else ", ".join(shown.get(who, who) for who in to)
    return f"Your message went to {whom}."


def notices(match: Match, message: Message) -> list[Notice]:
    """A public notice for a message to everyone, else one private notice per recipient."""
    sender = names(match).get(message.sender, message.sender)
    said = {"id": message.id, "from": message.sender, "to": _to(message), "text": message.text}
    body = {"match_id": match.match_id, "message": said}
    occasion = f"message-{message.id}"
    if message.to is None:
        subject = f"[{match.match_id}] A message from {sender} to everyone"
        return [Notice(None, subject, body, notice_id(match.match_id, occasion, None))]
    subject = f"[{match.match_id}] A private message from {sender}"
    return [Notice(who, subject, body, notice_id(match.match_id, occasion, who)) for who in message.to]


def _to(message: Message) -> list[str] | str:
    return "all" if message.to is None else list(message.to)


def set_mode(ports: Ports, match_id: str, mode: PressMode, per_hour: int | None = None) -> dict[str, Any]:
    """The host's setting of the match's press (and, if given, each sender's messages an hour),
    logged and told to everyone. Sent again (the setting the match has), it changes nothing and
    tells nobody, but whom that setting's failed notice left untold (`telling.stored`)."""
    if per_hour is not None and not 1 <= per_hour <= MAX_PER_HOUR:
        raise Malformed(f"per_hour is {per_hour}; from 1 to {MAX_PER_HOUR}")

    def attempt(match: Match) -> tuple[Match, Untold | None]:
        if match.status != "running":
            raise NotOpen(f"the match is {match.status}")
        rate = per_hour or match.press_per_hour
        data = {"mode": mode, "per_hour": rate}
        if (mode, rate) == (match.press, match.press_per_hour):
            return match, untold(match, PRESS_MODE, data)
        after = match.model_copy(update={"press": mode, "press_per_hour": rate, "version": match.version + 1})
        ports.store.save(match, after, Event(PRESS_MODE, ports.clock.now(), data))
        return after, Untold(after.version, PRESS_MODE, data)

    what = "press was not set"
    after, act = until_stored(lambda: ports.store.get(match_id), attempt, match_id=match_id, what=what)
    changed = act is not None and not act.repeat
    reply = {"match_id": match_id, "press": mode, "press_per_hour": after.press_per_hour, "changed": changed}
    if act is None:
        return reply
    body = {"match_id": match_id, "press_mode": mode, "press_per_hour": after.press_per_hour}
    subject = f"[{match_id}] The host set messages between players: {mode}"
    notice = Notice(None, subject, body, notice_id(match_id, act_at(act.version), None))
    return reply | tell_stored(ports, after, [notice], act, "command")


def messages_for(ports: Ports, match_id: str, participant: str | None) -> list[dict[str, Any]]:
    """The messages `participant` may read (`readable`) in the match's log (one read of it)."""
    return readable(ports.store.events(match_id), participant)


def readable(events: Sequence[Event], participant: str | None) -> list[dict[str, Any]]:
    """The messages among `events` that `participant` may read (sent by them, to them, to
    everyone; None: the public's, those to everyone), oldest first, each with when it went: what
    a view shows of the log."""
    return [
        {key: event.data[key] for key in ("id", "from", "to", "text")} | {"at": iso(event.at)}
        for event in events
        if event.type == "press" and seen_by(event.data, participant)
    ]
