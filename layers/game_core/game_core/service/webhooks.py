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
import ipaddress
import json
import math
import secrets
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any, Literal, Protocol
from urllib.parse import urlsplit

from game_core.errors import Malformed, NotFound, Reason
from game_core.games import registry
from game_core.match.model import Match
from game_core.service import letters
from game_core.service.notices import told_key
from game_core.service.ports import Event, Notice, Ports
from game_core.service.retries import until_stored
from game_core.service.submit import authenticate_webhook
from game_core.service.webhook_bodies import JSON, Post, channel, chat_posts

PUBLIC = "@public"
"""The host's subscription to every public notice (a participant id never holds "@")."""
ALERTS = "@alerts"
"""The host's subscription to the host's alerts."""
SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32
MAX_URL = 2048
FIRST_RETRY_SECONDS = 30
LONGEST_WAIT_SECONDS = 12 * 3600
"""The longest wait between two attempts."""
WINDOW_SECONDS = 24 * 3600
"""How long after it was queued a delivery is tried; then it goes to the dead-letter queue."""
HOP_SECONDS = 900
"""SQS's longest delay of a message."""
TIMEOUT_SECONDS = 10
"""A receiver that has not answered by then is retried like a 5xx."""


@dataclass(frozen=True)
class Hook:
    """One subscription: where to POST, and the secret the standard's signature is made with."""

    url: str
    secret: str


@dataclass(frozen=True)
class Delivery:
    """One notice on its way to one subscription: what the queue carries (never a secret). A
    delivery to try again is queued again as a copy that says how many attempts failed and when
    the next is due (`later`)."""

    match_id: str
    target: str
    webhook_id: str
    payload: dict[str, Any]
    queued_at: float
    """When the notice was first queued (epoch seconds): the retry window starts then."""
    attempts: int = 0
    """Attempts that failed so far."""
    due: float = 0
    """Not to be attempted before (epoch seconds)."""
    parts_sent: int = 0
    """Of a long Discord message, the parts already accepted: a retry sends the rest, in order."""

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Delivery:
        return cls(**json.loads(text))

    @property
    def told_as(self) -> str:
        """What `tell` remembers when a failed step had queued it (one per notice and target)."""
        return f"{self.webhook_id}/hook/{self.target}"


class Hooks(Protocol):
    """Where subscriptions are kept (beside the match in its table) and deliveries queued (SQS)."""

    allow_loopback: bool
    """The laptop's host server behind its explicit flag: `http://127.0.0.1` URLs are taken too."""

    def put_hook(self, match_id: str, target: str, hook: Hook) -> None: ...

    def hook(self, match_id: str, target: str) -> Hook | None: ...

    def drop_hook(self, match_id: str, target: str) -> None: ...

    def enqueue(self, deliveries: Sequence[Delivery], delay: int = 0) -> None:
        """Queue the deliveries (at least once each), each held back `delay` seconds (at most
        `HOP_SECONDS`)."""

    def resolve(self, host: str) -> list[str]:
        """The addresses a host name resolves to now (what a delivery would connect to)."""


# -- where a URL may point ----------------------------------------------------------------


@dataclass(frozen=True)
class Destination:
    """A URL checked against its addresses: `address` is the one to connect to (the very one
    checked, so a name that resolves elsewhere a moment later changes nothing)."""

    url: str
    host: str
    port: int
    address: str
    tls: bool


def _refused(url: str, why: str) -> Malformed:
    return Malformed("the webhook URL is refused", [Reason("webhook_url", f"{url[:100]}: {why}")])


def _public(address: str) -> bool:
    """Whether an address is on the public internet: not private, loopback, link-local (the cloud
    metadata service, 169.254.169.254), ULA (fd00:ec2::254 too), CGNAT, multicast or reserved,
    also when it hides inside an IPv6 one (IPv4-mapped, 6to4, Teredo)."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if inner is not None and not _public(str(inner)):
            return False
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_unspecified)


_LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
_LOOPBACK_HINT = (
    "; for a receiver on the laptop, start bin/host-server with --allow-loopback-webhooks and "
    "give http://127.0.0.1:<port>/... (the address itself, not a name)"
)
"""What a refused URL to the laptop itself is told: the way to what was meant."""


def _loopback(address: str) -> bool:
    return ipaddress.ip_address(address) == ipaddress.ip_address("127.0.0.1")


def destination(url: str, resolve: Callable[[str], list[str]], allow_loopback: bool = False) -> Destination:
    """The URL, if a delivery may go there: `https://` to a name (or address) all of whose
    addresses are public; with `allow_loopback` (the laptop's flag), `http://127.0.0.1` too.
    Malformed naming what is wrong otherwise; checked at subscription and at every delivery."""
    if len(url) > MAX_URL:
        raise _refused(url, f"{len(url)} characters; at most {MAX_URL}")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise _refused(url, f"not a URL ({error})") from None
    host = parts.hostname or ""
    if parts.username is not None or parts.password is not None:
        raise _refused(url, "a URL with a user name or password is not taken")
    if not host:
        raise _refused(url, "no host")
    loopback = allow_loopback and parts.scheme == "http" and host == "127.0.0.1"
    if parts.scheme != "https" and not loopback:
        raise _refused(url, "only https:// URLs are taken" + _LOOPBACK_HINT * (host in _LOOPBACK_NAMES))
    try:
        addresses = resolve(host)
    except OSError:
        raise _refused(url, f"{host} does not resolve") from None
    if not addresses:
        raise _refused(url, f"{host} does not resolve")
    for address in addresses:
        if not (_public(address) or (loopback and _loopback(address))):
            raise _refused(url, f"{host} resolves to {address}, which is not a public address")
    return Destination(url, host, port or (443 if parts.scheme == "https" else 80), addresses[0], not loopback)


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
    body (`webhook_bodies`)."""
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
        sent.append(Delivery(match.match_id, participant.id, headline.notice_id, payload, now.timestamp()))
    return sent


def enqueue(ports: Ports, match: Match, notices: Sequence[Notice], told: frozenset[str], sent: list[str]) -> None:
    """`tell`'s part: queue the notices' deliveries a failed attempt of the step had not queued,
    and add what it queued to `sent` (what `tell` remembers if something later fails)."""
    if ports.hooks is None:
        return
    untold = [one for one in deliveries(match, notices, ports.clock.now()) if told_key(one.told_as) not in told]
    if untold:
        ports.hooks.enqueue(untold)
        sent.extend(told_key(one.told_as) for one in untold)


def alert(match_id: str, alert_id: str, subject: str, body: dict[str, Any], now: datetime) -> Delivery:
    """A host alert for the `@alerts` subscription."""
    text = [subject, "", *(f"{key}: {value}" for key, value in body.items())]
    payload = body | {"type": "host.alert", "match_id": match_id, "subject": subject, "text": "\n".join(text)}
    return Delivery(match_id, ALERTS, alert_id, payload, now.timestamp())


# -- what a receiver's answer means -------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """A receiver's answer to one attempt: delivered, refused for good, or to try again
    (`retry_after`: the seconds it asked for with a 429, else None)."""

    outcome: Literal["delivered", "refused", "retry"]
    retry_after: int | None = None


def verdict(status: int | None, retry_after: str | None = None, now: datetime | None = None) -> Verdict:
    """2xx is delivered. No answer (a timeout, a refused connection: `status` None), 408, 429 and
    5xx are tried again (429 after its Retry-After, seconds or an HTTP date). Any other status
    (4xx, and 3xx: a redirect is not followed, it could point anywhere) is refused for good."""
    if status is not None and 200 <= status < 300:
        return Verdict("delivered")
    if status is None or status == 408 or status >= 500:
        return Verdict("retry")
    if status == 429:
        return Verdict("retry", _retry_after(retry_after, now))
    return Verdict("refused")


def _retry_after(header: str | None, now: datetime | None) -> int | None:
    if not header:
        return None
    if header.strip().isdigit():
        return int(header.strip())
    from email.utils import parsedate_to_datetime  # here: the stdlib's e-mail modules cost a cold start

    try:
        moment = parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    return max(0, int((moment - now).total_seconds())) if now is not None and moment.tzinfo is not None else None


def next_wait(attempts: int, queued_at: float, now: float, retry_after: int | None = None) -> int | None:
    """Seconds until the next attempt after `attempts` failed ones: 30 s, doubling each time, at
    most 12 hours, or what a 429's Retry-After asked (at least 1 s); the last one lands on the
    window's end (`WINDOW_SECONDS` after `queued_at`). None once the window is spent: the
    delivery goes to the dead-letter queue."""
    left = queued_at + WINDOW_SECONDS - now
    if left <= 0:
        return None
    wanted = retry_after if retry_after is not None else FIRST_RETRY_SECONDS * 2 ** (attempts - 1)
    return int(min(max(wanted, 1), LONGEST_WAIT_SECONDS, max(left, 1)))


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


def subscribe_at_create(ports: Ports, match: Match, urls: dict[str, str]) -> tuple[Match, dict[str, str]]:
    """The subscriptions a settings file asks for, before the match is stored: each URL checked
    (Malformed names the first refused), each kept with a new secret; the match to store names
    them, and the secrets go in the create reply."""
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
    made = {target: Hook(url, new_secret()) for target, url in urls.items()}
    for target, hook in made.items():
        hooks.put_hook(match.match_id, target, hook)
    return match.model_copy(update={"webhooks": tuple(made)}), {target: hook.secret for target, hook in made.items()}


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
