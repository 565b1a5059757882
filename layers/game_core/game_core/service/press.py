"""Messages between players (press, issue 22 item 5): a participant writes to some participants
or to everyone, by mail (`PRESS TO bo, cy`), by the webhook's action or on their page; each
recipient is told at once through their channels (mail, SNS, their webhook) with the sender's
name, and the message is kept in the match's log, which only the host's export carries.

A message to some is a private notice to each of them (none to the sender, whose answer is the
reply): no one else hears of it, not even that it was sent, since who talks to whom is itself
what these games are played on. A message to everyone is a public notice, table talk everyone
(and the `@public` subscription) hears, the sender too. The service adds nothing to the text
but the sender's name: nothing from anyone's view.

Told first, recorded after (`letters.tell` with the record as its mark): a message whose telling
failed midway is recorded by nobody, and its retry (the same delivery key: a mail's Message-ID,
a webhook's Idempotency-Key) tells only whom the failed one had not; one recorded already
(`match.press.sent_before`, within the hour) is not sent again, and its reply is kept under the
key with the record, so a webhook's redelivery gets it back for a week. Two messages racing the
rate may both go.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from game_core.errors import Malformed, NotFound, NotOpen, validation_reasons
from game_core.match.clock import iso
from game_core.match.model import Match
from game_core.match.press import (
    MAX_PER_HOUR,
    MAX_PRESS_CHARS,
    Message,
    PressMode,
    compose,
    press_id,
    recipients,
    recorded,
    seen_by,
    sent_before,
)
from game_core.service.host import tell_stored
from game_core.service.letters import names, tell
from game_core.service.notices import notice_id, stored_act
from game_core.service.ports import AlreadyDelivered, Event, Notice, Ports
from game_core.service.retries import until_stored

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
    (and with that text) is not sent again. `seen` is the match as the sender's channel read it
    already (one read fewer)."""
    match = seen if seen is not None else ports.store.get(match_id)
    if match.participant(sender) is None:
        raise NotFound(f"{sender} is not a participant of match {match_id}")
    message_id = press_id(sender, text, delivery, match.version)
    if sent_before(match, sender, message_id):  # its first reply, said again; nothing is sent
        again = Message(message_id, sender, None if to is None else recipients(match, sender, to), text)
        return _reply(match, again) | {"sent_before": True}
    now = ports.clock.now()
    message = compose(match, sender, to, text, message_id, now)
    data = {"id": message_id, "from": sender, "to": _to(message), "text": message.text, "channel": channel}
    reply = _reply(match, message)
    kept = (sender, delivery, reply) if delivery is not None else None

    def record(seen: Match) -> None:
        if sent_before(seen, sender, message_id):  # a concurrent redelivery recorded it
            return
        try:
            ports.store.save(seen, recorded(seen, message, now), Event("press", now, data), delivery=kept)
        except AlreadyDelivered:  # that redelivery stored its reply first: the message is recorded
            return

    def store() -> None:
        until_stored(lambda: ports.store.get(match_id), record, match_id=match_id, what="the message is not recorded")

    tell(ports, match, notices(match, message), then=store)
    return reply


def _reply(match: Match, message: Message) -> dict[str, Any]:
    answer = f"Your message went to {_whom(match, message)}."
    return {
        "accepted": True,
        "match_id": match.match_id,
        "message_id": message.id,
        "to": _to(message),
        "answer": answer,
    }


def notices(match: Match, message: Message) -> list[Notice]:
    """A public notice for a message to everyone, else one private notice per recipient."""
    sender = names(match).get(message.sender, message.sender)
    said = {"id": message.id, "from": message.sender, "to": _to(message), "text": message.text}
    body = {"match_id": match.match_id, "message": said}
    occasion = f"message-{message.id}"
    if message.to is None:
        subject = f"[{match.match_id}] A message from {sender} to everyone"
        return [Notice(None, subject, body, notice_id(match.match_id, occasion, None))]
    subject = f"[{match.match_id}] A message from {sender}"
    return [Notice(who, subject, body, notice_id(match.match_id, occasion, who)) for who in message.to]


def _to(message: Message) -> list[str] | str:
    return "all" if message.to is None else list(message.to)


def _whom(match: Match, message: Message) -> str:
    if message.to is None:
        return "everyone"
    shown = names(match)
    return ", ".join(shown.get(who, who) for who in message.to)


def set_mode(ports: Ports, match_id: str, mode: PressMode, per_hour: int | None = None) -> dict[str, Any]:
    """The host's setting of the match's press (and, if given, each sender's messages an hour),
    logged and told to everyone. Sent again (the setting the match has), it changes nothing and
    tells nobody."""
    if per_hour is not None and not 1 <= per_hour <= MAX_PER_HOUR:
        raise Malformed(f"per_hour is {per_hour}; from 1 to {MAX_PER_HOUR}")

    def attempt(match: Match) -> tuple[Match, bool]:
        if match.status != "running":
            raise NotOpen(f"the match is {match.status}")
        rate = per_hour or match.press_per_hour
        if (mode, rate) == (match.press, match.press_per_hour):
            return match, False
        after = match.model_copy(update={"press": mode, "press_per_hour": rate, "version": match.version + 1})
        ports.store.save(match, after, Event("press_mode", ports.clock.now(), {"mode": mode, "per_hour": rate}))
        return after, True

    what = "press was not set"
    after, changed = until_stored(lambda: ports.store.get(match_id), attempt, match_id=match_id, what=what)
    reply = {"match_id": match_id, "press": mode, "press_per_hour": after.press_per_hour, "changed": changed}
    if not changed:
        return reply
    body = {"match_id": match_id, "press_mode": mode, "press_per_hour": after.press_per_hour}
    subject = f"[{match_id}] The host set messages between players: {mode}"
    return reply | tell_stored(
        ports, after, [Notice(None, subject, body, notice_id(match_id, stored_act(after), None))]
    )


def messages_for(ports: Ports, match_id: str, participant: str | None) -> list[dict[str, Any]]:
    """The messages `participant` may read (sent by them, to them, to everyone; None: the public's,
    those to everyone), oldest first, each with when it went: what a view shows of the log (one
    read of it)."""
    return [
        {key: event.data[key] for key in ("id", "from", "to", "text")} | {"at": iso(event.at)}
        for event in ports.store.events(match_id)
        if event.type == "press" and seen_by(event.data, participant)
    ]
