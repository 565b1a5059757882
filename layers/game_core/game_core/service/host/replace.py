"""The host hands a seat to a new player (issue 22 item 3): the seat (its id), its state, the
garnets its submissions hold and its history stay; its player's name, contact and secret change.

The old secret stops at once (webhook, the laptop's SMTP login, anything checked against the
seat's `secret_hash`), the old address's mail is a stranger's from then on, the seat's webhook
subscription is dropped (the newcomer's URL, if the host gives one, takes its place) and the time
zone is reset. The open phase may be extended in the same write, so the newcomer can read in.
The match keeps who played the seat before (`Participant.formerly`); the log says who replaced
whom in which phase (`replaced`, no contact, no secret).

Then the old player is told (a private notice while their address still hears the seat on SNS,
and mail at the address they had), their address leaves the match's SNS subscriptions where those
mail it (no mail domain), everyone else gets a public line, and the newcomer a welcome with the
seat's standing (its own view only). A replacement sent again finds the seat already theirs and
changes nothing: it only finishes telling what the first did not (the told keys, `Match.told`),
and gives no secret (it was in the first reply). A farewell the mail service refuses for good
(`errors.MailRefused`) counts as told; the host's reply says so, once.
"""

from __future__ import annotations

import logging
from typing import Any

from game_core.errors import Illegal, Late, MailRefused, NotFound, NotOpen, Reason
from game_core.games import registry
from game_core.games.text_layout import prose
from game_core.match.absence import withdrawn
from game_core.match.model import Former, Match, Participant, secret_hash
from game_core.service.host.powers import wake_machine
from game_core.service.matches.lifecycle import contact
from game_core.service.matches.views import standing
from game_core.service.ports import Event, Notice, Ports
from game_core.service.retries import until_stored
from game_core.service.telling import channels as telling
from game_core.service.telling import letters
from game_core.service.telling.notices import notice_id, open_phase_summary, told_key
from game_core.service.webhooks import sending as webhooks
from game_core.service.webhooks import urls as webhook_urls

logger = logging.getLogger(__name__)


def replace(
    ports: Ports,
    match_id: str,
    seat: str,
    name: str,
    email: str | None,
    webhook: str | None = None,
    extend_seconds: int | None = None,
) -> dict[str, Any]:
    """Give `seat` (named by id or name) to `name` at `email`; the reply holds their new secret,
    once (and their webhook's signing secret, with `webhook`)."""
    first = ports.store.get(match_id)
    seat = first.named(seat)
    name, email = " ".join(name.split()), (email or "").strip() or None
    if not _seated(first, seat, name, email):  # sent again, the seat's address is the newcomer's own
        _refuse_a_clash(first, seat, name, email)
    if webhook is not None:  # checked before anything is stored
        if ports.hooks is None:
            raise NotFound("this deployment delivers no webhooks")
        webhook_urls.destination(webhook, ports.hooks.resolve, ports.hooks.allow_loopback)
    meant = first.phase.number if first.phase is not None else None
    secret: str | None = None

    def attempt(match: Match) -> Match:
        nonlocal secret
        if _seated(match, seat, name, email):  # sent again: the first one stored it
            return match
        if match.status != "running" or match.phase is None:
            raise NotOpen(f"the match is {match.status}: only a running match's seats are given to someone else")
        if extend_seconds and match.phase.number != meant:
            raise Late(f"phase {meant} has already resolved; the replacement was not applied")
        secret = ports.ids.secret()
        saved, event = _handed_over(match, seat, name, email, secret_hash(secret), extend_seconds)
        now = ports.clock.now()
        # The old player's absences leave with them (one under way ends now): none holds the newcomer's deadlines
        if (absences := withdrawn(saved.absences, seat, now)) is not None:
            saved = saved.model_copy(update={"absences": absences})
        ports.store.save(match, saved, Event("replaced", now, event))
        return saved

    what = f"seat {seat} was not given to {name}"
    saved = until_stored(lambda: ports.store.get(match_id), attempt, match_id=match_id, what=what, seen=first)
    player = saved.participant(seat)
    assert player is not None and player.formerly  # _seated or _handed_over made it so
    reply: dict[str, Any] = {"match_id": match_id, "seat": seat, "name": name, "open": open_phase_summary(saved)}
    if secret is None:
        reply |= {"changed": False, "message": f"{name} already plays seat {seat}; the secret was in the first reply"}
    else:
        reply |= {"changed": True, "secret": secret}
        if not webhook and ports.hooks is not None:
            ports.hooks.drop_hook(match_id, seat)  # the old player's URL: the match names it no more
    if webhook is not None:
        reply |= _subscribed(ports, saved, seat, webhook)
        saved = ports.store.get(match_id)  # naming the subscription, so the welcome goes to it too
    if extend_seconds and secret is not None and not wake_machine(ports, match_id):
        reply["wake_pending"] = True
    return reply | _told(ports, saved, player)


def _refuse_a_clash(match: Match, seat: str, name: str, email: str | None) -> None:
    """Names and addresses tell participants apart (mail names a participant by id or by name,
    and knows its sender by address): the newcomer's may be no one else's."""
    reasons = []
    if not name:
        reasons.append(Reason("name_missing", "the new player's name is empty"))
    for other in match.players:
        if other.id == seat:
            if email is not None and contact(email) == contact(other.email):  # mail from it would still play the seat
                text = f"{email} is {other.name}'s, whom {name!r} replaces: give the new player's own address (or none)"
                reasons.append(Reason("email_taken", text))
            continue
        if name.upper() in (other.id.upper(), other.name.upper()):
            reasons.append(Reason("name_taken", f"{name!r} already names {other.name} ({other.id}): choose another"))
        if email is not None and contact(email) == contact(other.email):
            reasons.append(Reason("email_taken", f"{email} is already {other.name}'s ({other.id}) address"))
    if reasons:
        raise Illegal(f"seat {seat} cannot be given to {name!r}", reasons)


def _seated(match: Match, seat: str, name: str, email: str | None) -> bool:
    """Whether the seat is already this newcomer's by a replacement (a replacement sent again)."""
    player = match.participant(seat)
    assert player is not None
    return bool(player.formerly) and player.name == name and contact(player.email) == contact(email)


def _handed_over(
    match: Match, seat: str, name: str, email: str | None, hashed: str, extend_seconds: int | None
) -> tuple[Match, dict[str, Any]]:
    """The match with the seat's new player, and what the log keeps of it (names, never contacts).
    The old player's ready vote on the open phase goes with them: the newcomer has not read in."""
    phase = match.phase
    assert phase is not None
    was = match.participant(seat)
    assert was is not None
    former = Former(name=was.name, email=was.email, phase=phase.name)
    # Whatever else the seat carries stays with it (a guest's player, say); the time zone was theirs
    newcomer = was.model_copy(
        update={"name": name, "email": email, "secret_hash": hashed, "zone": None, "formerly": (*was.formerly, former)}
    )
    clock = phase.model_copy(update={"ready": tuple(voter for voter in phase.ready if voter != seat)})
    changes: dict[str, Any] = {
        "phase": clock,
        "players": tuple(newcomer if p.id == seat else p for p in match.players),
        "webhooks": tuple(target for target in match.webhooks if target != seat),
        "version": match.version + 1,
    }
    data: dict[str, Any] = {"seat": seat, "replaced": was.name, "by": name, "phase": phase.name}
    if extend_seconds:
        changes["phase"] = clock.extend(extend_seconds)
        data["extended_seconds"] = extend_seconds
    return match.model_copy(update=changes), data


def _subscribed(ports: Ports, match: Match, seat: str, url: str) -> dict[str, Any]:
    """The newcomer's webhook subscription: made once (a replacement sent again finds it)."""
    assert ports.hooks is not None  # replace() refused a webhook without them
    kept = ports.hooks.hook(match.match_id, seat)
    if seat in match.webhooks and kept is not None and kept.url == url:
        return {"webhook": {"url": url, "message": "subscribed by the first replacement; its secret was in that reply"}}
    made = webhooks.subscribe(ports, match.match_id, seat, url)
    return {"webhook": {"url": url, "secret": made["secret"], "signed": made["signed"]}}


def _told(ports: Ports, match: Match, player: Participant) -> dict[str, Any]:
    """Tell the old player (before their notices stop), everyone else, and the newcomer, each
    once: what a failed attempt sent is remembered with the match (`told`), and once all is told
    one key more says so, so a replacement sent again tells nothing twice."""
    occasion = f"replaced-{player.id}-{len(player.formerly)}"
    whole = told_key(notice_id(match.match_id, occasion, "@told"))
    if whole in match.told:
        return {}
    former = player.formerly[-1]
    sent: list[str] = []
    warnings: list[str] = []
    try:
        if refusal := _farewell(ports, match, player, former, sent):
            warnings.append(f"{former.name}'s farewell mail was refused by SES: {refusal}")
        if not ports.mailer.domain:  # SNS mails each address (as at create): the seat's notices to the new one
            warnings += _resubscribed(ports, match, player, former)
        notices = _notices(ports, match, player, former, occasion)
        remember = frozenset(sent) | {whole}
        telling.tell(ports, match, notices, then=lambda: ports.store.remember_told(match.match_id, remember))
    except Exception as error:  # the replacement stands; sending it again tells the rest
        logger.warning("replacement not told", extra={"match_id": match.match_id, "error": type(error).__name__})
        if sent:
            ports.store.remember_told(match.match_id, frozenset(sent))
        told: dict[str, Any] = {
            "notice_sent": False,
            "warning": "stored, but not everyone was told: send the same replacement again",
        }
    else:
        told = {}
    return told | ({"warnings": warnings} if warnings else {})  # a refusal is said once: a retry skips its mail


def _farewell(ports: Ports, match: Match, player: Participant, former: Former, sent: list[str]) -> MailRefused | None:
    """The old player's notice (on SNS, where their address still hears the seat) and, where the
    service sends mail, their mail at the address they had; each skipped if told already, and
    added to `sent` once out. A mail the mail service refuses for good counts as out (sending it
    again fails alike): the refusal is returned for the host's reply, the one place that can
    name the old player (the match's status names the seat's player, now the newcomer)."""
    title = registry.load(match.game).title
    text = (
        f"The host has given your seat in this {title} match to another player, from "
        f"{former.phase} on. Your secret no longer works, and mail from you is no longer read for this match. "
        "Thank you for playing."
    )
    subject = f"[{match.match_id}] You no longer play in this match"
    occasion = f"farewell-{player.id}-{len(player.formerly)}"
    notice = Notice(
        player.id,
        subject,
        {"match_id": match.match_id, "farewell": text},
        notice_id(match.match_id, occasion, player.id),
    )
    if told_key(notice.notice_id) not in match.told:
        ports.notifier.publish(match, [notice])
        sent.append(told_key(notice.notice_id))
    if not former.email or not ports.mailer.domain:
        return None
    mail = letters.note(
        match,
        former.email,
        subject,
        [f"Hello {former.name},", "", *prose(text)],
        ports.clock.now(),
        ports.mailer.domain,
        letters.mail_id(notice, "@former"),
    )
    if told_key(mail.told_as or "") in match.told:
        return None
    refusal = telling.refused(ports, match.match_id, mail, player.id)
    sent.append(told_key(mail.told_as or ""))
    return refusal


def _resubscribed(ports: Ports, match: Match, player: Participant, former: Former) -> list[str]:
    """The old address no longer hears the match; the new one is subscribed as at create. What
    could not be done is returned, as the host's warnings."""
    warnings = []
    if former.email and not ports.notifier.unsubscribe(match, player.id, former.email):
        warnings.append(f"{former.email}'s subscription awaits confirmation: SNS cannot narrow it; remove it by hand")
    if player.email and player.id in ports.notifier.subscribe(match):
        warnings.append(f"{player.email}'s subscription could not be made (an earlier one awaits confirmation)")
    return warnings


def _notices(ports: Ports, match: Match, player: Participant, former: Former, occasion: str) -> list[Notice]:
    """A public line for everyone, and the newcomer's welcome with the seat's standing (its view,
    what it has sent to the open phase, its garnets): nothing of anyone else's."""
    mid = match.match_id
    common = {"match_id": mid, "status": match.status, "open": open_phase_summary(match)}
    line = f"{former.name}'s seat ({player.id}) is now played by {player.name}."
    welcome = (
        f"Welcome, {player.name}: the host has given you {former.name}'s seat ({player.id}) from {former.phase} on. "
        "It keeps everything it has done and holds; what it sees now is below. Send STATUS for what it has sent "
        f"to {former.phase} and its garnets."
    )
    seen = standing(ports.store.submission_view(mid, player.id, None), player.id)
    return [
        Notice(
            None,
            f"[{mid}] {player.name} now plays {former.name}'s seat",
            common | {"news": line},
            notice_id(mid, occasion, None),
        ),
        Notice(
            player.id,
            f"[{mid}] Welcome: you now play {former.name}'s seat",
            seen | {"news": welcome},
            notice_id(mid, occasion, player.id),
        ),
    ]
