"""Notices sent to URLs (issue 20): subscriptions, what each delivery carries, how it is signed,
and what a receiver's answer means for the next attempt.

A match keeps, per target, one subscription: a participant's URL gets what that participant's
mail would tell them (their own view); `@public` gets every public notice; `@alerts` the host's
alerts. Its URL and `whsec_` secret are kept beside the match (`Hooks`), the targets that have one
on the match itself (`Match.webhooks`), so telling a notice costs no read to find them. `tell`
puts one `Delivery` per notice and subscription on a queue (`Hooks.enqueue`) and goes on: a slow
receiver never delays a resolution. The delivery function reads the subscription (so a URL
replaced or removed meanwhile is honoured), signs per Standard Webhooks (or shapes a Discord or
Slack body), POSTs, and asks for another attempt with exponential backoff until `WINDOW_SECONDS`
after the notice was queued. A delivery's `webhook-id` is the notice's stable id, the same on
every attempt and on a retried step's second enqueue, so a receiver drops repeats.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal

from game_core.errors import Malformed, NotFound, Reason
from game_core.games import registry
from game_core.match.model import Match
from game_core.service.matches.submit import authenticate_webhook
from game_core.service.ports import Event, Notice, Ports
from game_core.service.retries import until_stored
from game_core.service.telling import letters
from game_core.service.telling.notices import addressed, told_key
from game_core.service.webhooks.bodies import JSON, Post, channel, chat_posts
from game_core.service.webhooks.queue import HOP_SECONDS, Delivery, Hook, Hooks
from game_core.service.webhooks.retries import WINDOW_SECONDS, next_wait, verdict
from game_core.service.webhooks.urls import Destination, destination

PUBLIC = "@public"
"""The host's subscription to every public notice (a participant id never holds "@")."""
ALERTS = "@alerts"
"""The host's subscription to the host's alerts."""
SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32


# -- what a delivery sends ----------------------------------------------------------------


def new_secret() -> str:
    """A subscription's signing secret as the standard writes it: `whsec_` and base64 of 32 bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def signature(secret: str, webhook_id: str, timestamp: int, body: bytes) -> str:
    """`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the secret's bytes (the
    standard's `webhook-signature`)."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    signed = f"{webhook_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def posts(hook: Hook, delivery: Delivery, timestamp: int) -> list[Post]:
    """What to POST to the subscription's URL: the signed JSON payload, or the chat service's own
    body (`bodies`)."""
    if (kind := channel(hook.url)) != "standard":
        return chat_posts(kind, delivery.match_id, str(delivery.payload.get("text", "")))
    body = json.dumps(delivery.payload, separators=(",", ":")).encode()
    headers = JSON | {
        "webhook-id": delivery.webhook_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature(hook.secret, delivery.webhook_id, timestamp, body),
    }
    return [Post(body, headers)]


def _payload(match: Match, kind: str, headline: Notice, body: dict[str, Any], text: list[str]) -> dict[str, Any]:
    return body | {
        "type": kind,
        "match_id": match.match_id,
        "phase": match.phase.name if match.phase is not None and match.status == "running" else None,
        "recipient": headline.recipient,
        "subject": headline.subject,
        "text": "\n".join(text),
    }


def deliveries(match: Match, notices: Sequence[Notice], now: datetime) -> list[Delivery]:
    """One delivery per subscription the notices concern: the public notice to `@public`; to
    each subscribed participant what their mail would say (their own notice with the public one,
    their own view only), under the id of the notice it tells (theirs, or the public one)."""
    hooked = set(match.webhooks)
    if not hooked:
        return []
    game = registry.load(match.game)
    public = next((notice for notice in notices if notice.recipient is None), None)
    private = {notice.recipient: notice for notice in notices if notice.recipient is not None}
    sent = []
    if public is not None and PUBLIC in hooked:
        payload = _payload(
            match, "match.notice", public, public.body, letters.event_text(match, game, public.body, {}, now, None)
        )
        sent.append(Delivery(match.match_id, PUBLIC, public.notice_id, payload, now.timestamp()))
    for participant in match.players:
        own = private.get(participant.id)
        headline = own or public
        if participant.id not in hooked or headline is None:
            continue
        shared, mine = (public.body if public else {}), (own.body if own else {})
        text = letters.event_text(match, game, shared, mine, now, participant.zone, participant.id)
        payload = _payload(match, "match.notice", headline, shared | mine, text)
        told_id = headline.notice_id if own else addressed(headline.notice_id, participant.id)
        sent.append(Delivery(match.match_id, participant.id, told_id, payload, now.timestamp()))
    return sent


def enqueue(ports: Ports, made: Sequence[Delivery], told: frozenset[str], sent: list[str]) -> None:
    """`tell`'s part: queue the deliveries made of its notices that a failed attempt of the step
    had not queued, and add what it queued to `sent` (what `tell` remembers if something later
    fails)."""
    if ports.hooks is None:
        return
    untold = [one for one in made if told_key(one.told_as) not in told]
    if untold:
        ports.hooks.enqueue(untold)
        sent.extend(told_key(one.told_as) for one in untold)


def alert(match_id: str, alert_id: str, subject: str, body: dict[str, Any], now: datetime) -> Delivery:
    """A host alert for the `@alerts` subscription."""
    text = [subject, "", *(f"{key}: {value}" for key, value in body.items())]
    payload = body | {"type": "host.alert", "match_id": match_id, "subject": subject, "text": "\n".join(text)}
    return Delivery(match_id, ALERTS, alert_id, payload, now.timestamp())


# -- subscribing ----------------------------------------------------------------------------


def _hooks(ports: Ports) -> Hooks:
    if ports.hooks is None:
        raise NotFound("this deployment delivers no webhooks")
    return ports.hooks


def _target_of(match: Match, target: str) -> str:
    """The subscription `target` names: "@public", "@alerts", or a participant's id (named by id
    or by name, in any case); raises NotFound naming every choice."""
    if target in (PUBLIC, ALERTS):
        return target
    try:
        return match.named(target)
    except NotFound:
        choices = match.roster().choices
        raise NotFound(
            f"{target[:80]!r} is neither a participant of match {match.match_id} ({choices}) nor {PUBLIC} or {ALERTS}"
        ) from None


def subscribe(ports: Ports, match_id: str, target: str, url: str) -> dict[str, Any]:
    """Point the target's subscription at `url` with a new secret (replacing any earlier one).
    The secret is in the reply, once. The URL is checked first; nothing is stored if refused."""
    hooks = _hooks(ports)
    target = _target_of(ports.store.get(match_id), target)
    destination(url, hooks.resolve, hooks.allow_loopback)
    hook = Hook(url, new_secret())
    hooks.put_hook(match_id, target, hook)  # before the match names it: a delivery always finds it
    _name(ports, match_id, target, subscribed=True)
    signed = channel(url) == "standard"
    return {"match_id": match_id, "target": target, "url": url, "secret": hook.secret, "signed": signed}


def unsubscribe(ports: Ports, match_id: str, target: str) -> dict[str, Any]:
    """Remove the target's subscription: nothing more is queued for it, and what is queued is
    dropped when its turn comes (the delivery finds no subscription)."""
    hooks = _hooks(ports)
    target = _target_of(ports.store.get(match_id), target)
    _name(ports, match_id, target, subscribed=False)  # before the item goes: nothing queued finds it missing early
    hooks.drop_hook(match_id, target)
    return {"match_id": match_id, "target": target, "removed": True}


def _name(ports: Ports, match_id: str, target: str, subscribed: bool) -> None:
    """Store the match naming the target among its subscriptions, or not (conditional on the
    match as read; read again on a conflict)."""

    def store(match: Match) -> None:
        if (target in match.webhooks) == subscribed:
            return
        kept = tuple(one for one in match.webhooks if one != target) + ((target,) if subscribed else ())
        after = match.model_copy(update={"webhooks": kept, "version": match.version + 1})
        event = Event("webhook_set" if subscribed else "webhook_removed", ports.clock.now(), {"target": target})
        ports.store.save(match, after, event)

    what = f"the webhook was not {'set' if subscribed else 'removed'}"
    until_stored(lambda: ports.store.get(match_id), store, match_id=match_id, what=what)


def participant_subscribes(
    ports: Ports, match_id: str, player: str, secret: str, url: Callable[[], str] | None
) -> dict[str, Any]:
    """The participant's own subscription (`PUT`; `DELETE` with `url` None), for the holder of
    their webhook secret: the secret is checked before the URL is read (`url()`) or anything stored."""
    authenticate_webhook(ports.store.get(match_id), player, secret)
    return unsubscribe(ports, match_id, player) if url is None else subscribe(ports, match_id, player, url())


def subscribe_at_create(
    ports: Ports, match: Match, urls: dict[str, str], held: Mapping[str, str] | None = None
) -> tuple[Match, dict[str, str]]:
    """The subscriptions a settings file asks for, before the match is stored: each URL checked
    (Malformed names the first refused), each kept with a new secret, or with the one `held`
    names for its target (a season's cast member: service/season/hooks.py); the match to store
    names them, and the new secrets go in the create reply."""
    if not urls:
        return match, {}
    hooks = _hooks(ports)
    named: dict[str, str] = {}
    for written, url in urls.items():
        target = _target_of(match, written)
        if target in named:
            reason = Reason("webhook_target", f"{written[:80]!r} and {named[target][:80]!r} name the same subscription")
            raise Malformed("the webhooks are malformed", [reason])
        named[target] = written
        destination(url, hooks.resolve, hooks.allow_loopback)
    urls = {target: urls[written] for target, written in named.items()}
    kept = held or {}
    made = {target: Hook(url, kept.get(target) or new_secret()) for target, url in urls.items()}
    for target, hook in made.items():
        hooks.put_hook(match.match_id, target, hook)
    told = {target: hook.secret for target, hook in made.items() if target not in kept}
    return match.model_copy(update={"webhooks": tuple(made)}), told


# -- delivering ---------------------------------------------------------------------------

Poster = Callable[[Destination, Post], tuple[int | None, str | None]]
"""POSTs to the checked address: the status (None: no answer in time, or no connection) and the
Retry-After header, if any."""


@dataclass(frozen=True)
class Attempt:
    """What one turn of a queued delivery came to: `delivered`; `refused` for good (a 4xx);
    `unsubscribed` (the subscription is gone: nothing to do); `later`: queue `next` again (a
    failed attempt's retry, or a copy not yet due); `dead` (the window is spent: the dead-letter
    queue, and the host is told)."""

    outcome: Literal["delivered", "refused", "unsubscribed", "later", "dead"]
    next: Delivery | None = None
    status: int | None = None

    def delay(self, now: float) -> int:
        """How long the queue holds `next` back: until it is due, at most `HOP_SECONDS` (a longer
        wait takes several hops, each a turn that finds it not yet due)."""
        assert self.next is not None
        return max(0, min(math.ceil(self.next.due - now), HOP_SECONDS))


def attempt(ports: Ports, delivery: Delivery, post: Poster, timestamp: int) -> Attempt:
    """One turn of a queued delivery: nothing before it is due (queued again); otherwise one
    attempt. `timestamp` is the wall clock's second the signature carries (the receiver checks it
    against its own clock); everything else reads `ports.clock`. The URL is checked again (its
    name may resolve elsewhere now: then it is tried again later, like no answer), and the POST
    goes to the very address checked."""
    now = ports.clock.now().timestamp()
    if now < delivery.due:
        return Attempt("later", delivery)
    hooks = _hooks(ports)
    hook = hooks.hook(delivery.match_id, delivery.target)
    if hook is None:
        return Attempt("unsubscribed")
    status: int | None = None
    retry_after: str | None = None
    try:
        where = destination(hook.url, hooks.resolve, hooks.allow_loopback)
    except Malformed:
        pass
    else:
        for one in posts(hook, delivery, timestamp)[delivery.parts_sent :]:
            status, retry_after = post(where, one)
            if verdict(status).outcome != "delivered":
                break
            delivery = replace(delivery, parts_sent=delivery.parts_sent + 1)
    judged = verdict(status, retry_after, ports.clock.now())
    if judged.outcome != "retry":
        return Attempt(judged.outcome, status=status)
    failed = delivery.attempts + 1
    wait = next_wait(failed, delivery.queued_at, now, judged.retry_after)
    if wait is None:
        gave_up(ports, delivery, status)
        return Attempt("dead", status=status)
    return Attempt("later", replace(delivery, attempts=failed, due=now + wait), status)


def gave_up(ports: Ports, delivery: Delivery, status: int | None) -> None:
    """Tell the host a delivery went to the dead-letter queue (`alert_host`)."""
    match = ports.store.get(delivery.match_id)
    subject = f"[{match.match_id}] A webhook delivery gave up after {WINDOW_SECONDS // 3600} hours"
    body = {
        "match_id": match.match_id,
        "target": delivery.target,
        "webhook_id": delivery.webhook_id,
        "attempts": delivery.attempts + 1,
        "last_status": status,
        "what_to_do": "the notice is in the webhook dead-letter queue; the participant can read it with GET "
        f"/matches/{match.match_id}/players/<id>, and the subscription's URL can be replaced",
    }
    alert_host(ports, match, subject, body, f"{delivery.told_as}/gave-up", hooked=delivery.target != ALERTS)


def alert_host(
    ports: Ports, match: Match, subject: str, body: dict[str, Any], alert_id: str, hooked: bool = True
) -> None:
    """Tell the host: by their alerts topic, and by their `@alerts` subscription if they have one
    (`hooked` False: not there, the failing delivery being that subscription's own). `alert_id`
    is the `webhook-id`: the same when a retried step alerts again."""
    ports.notifier.alert_host(match, subject, body)
    if hooked and ALERTS in match.webhooks and ports.hooks is not None:
        ports.hooks.enqueue([alert(match.match_id, alert_id, subject, body, ports.clock.now())])
