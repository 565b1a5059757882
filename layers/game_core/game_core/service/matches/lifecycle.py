"""Use cases around a whole match: create, status, export."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from game_core.errors import Illegal, Reason
from game_core.games import registry
from game_core.match import chain, engine
from game_core.match.clock import iso
from game_core.match.email_address import address_key
from game_core.match.model import Match, MatchRecord, MatchRequest, Participant, secret_hash
from game_core.match.press_rate import DEFAULT_PER_HOUR
from game_core.service.ports import Bounce, Contact, Event, Notice, Ports
from game_core.service.telling import links
from game_core.service.telling.channels import tell
from game_core.service.telling.letters import names
from game_core.service.telling.notices import BEGINS, open_phase_summary, progress_notices
from game_core.service.webhooks import sending as webhooks

logger = logging.getLogger(__name__)


def create_match(ports: Ports, request: MatchRequest, held: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Create and start a match. The secrets, and each participant's page link (`links`: a path,
    the players' address put before it at the edge), are returned once; only hashes are stored."""
    match, reply = store_new_match(ports, request, held)
    # The match is stored: whatever fails from here on, the host must get the secrets and each
    # participant's page link (never shown again), and the reply says what to do about the rest.
    warnings: list[str] = []
    if not ports.mailer.domain:
        # Without mail of its own, the service has SNS mail each address its notices (as JSON);
        # before the first notice, so a subscriber hears the match begin. With mail, the readable
        # messages are the mail: an SNS subscription would send every notice twice.
        unsubscribed = _attempt(lambda: ports.notifier.subscribe(match), warnings, "the e-mail subscriptions")
        if unsubscribed:
            reply["unsubscribed"] = unsubscribed
    reply["execution"] = _attempt(lambda: ports.workflow.start(match), warnings, "the state machine (run `recover`)")
    _attempt(lambda: tell(ports, match, opening_notices(match)), warnings, "the opening notices")
    if warnings:
        reply["warnings"] = warnings
    return reply


def opening_notices(match: Match) -> list[Notice]:
    game = registry.load(match.game)
    return progress_notices(match, game, f"{game.title}: the match begins", BEGINS)


def store_new_match(
    ports: Ports,
    request: MatchRequest,
    held: Mapping[str, str] | None = None,
    held_hooks: Mapping[str, str] | None = None,
    season_id: str | None = None,
) -> tuple[Match, dict[str, Any]]:
    """The match the request makes, stored (Conflict when its id is taken), and what is told once:
    its participants' secrets and page links, webhook secrets; nothing started or told yet. A
    participant `held` (or `held_hooks`) names keeps the (signing) secret they hold already."""
    game = registry.load(request.game)
    ids = [p.id for p in request.players]
    settings = engine.seat(game, ids, request.settings, {p.id: [g.id for g in p.guests] for p in request.players})
    contacts = register_contacts(ports, request)
    # Guests get secrets like players, and sit right after their player (the game's team order).
    seated = [
        Participant(
            id=entry.id,
            name=entry.name or entry.id,
            email=entry.email,
            zone=entry.zone,
            secret_hash="",
            guest_of=guest_of,
        )
        for entry, guest_of in request.entries()
    ]
    secrets, hashes = _secrets(ports, seated, held or {})
    now = ports.clock.now()
    balances = ports.store.balances(tuple(ids))
    starting = {p.id: balances.get(p.id, p.garnets) for p in request.players}
    match = Match(
        match_id=ports.ids.match_id(),
        game=game.id,
        settings=settings.model_dump(mode="json"),
        seed=request.seed if request.seed is not None else ports.ids.seed(),
        players=tuple(p.model_copy(update={"secret_hash": hashes[p.id]}) for p in seated),
        host_email=request.host_email.lower() if request.host_email else None,  # `an_address` stripped it
        host_zone=request.host_zone,
        phase_seconds=request.phase_seconds,
        early_close=request.early_close,
        recheck_seconds=request.recheck_seconds,
        reminders=tuple(sorted(set(request.reminders), reverse=True)),
        press=request.press,
        press_per_hour=request.press_per_hour,
        absence_rules=request.absence_rules,
        grace_seconds=request.grace_seconds,
        graces_left={p.id: request.graces for p in seated} if request.graces else {},
        created_at=now,
        starting_garnets=starting,
        season_id=season_id,
    )
    started = engine.start(match, game, now)
    match, hook_secrets = webhooks.subscribe_at_create(ports, started, request.webhooks, held_hooks)
    ports.store.create(match, starting, Event("created", now, {"game": game.id, "players": ids}), contacts)
    reply: dict[str, Any] = {"match_id": match.match_id, "secrets": secrets, "open": open_phase_summary(match)}
    reply["links"] = links.paths(match.match_id, secrets)
    return match, reply | ({"webhook_secrets": hook_secrets} if hook_secrets else {})


def _secrets(ports: Ports, seated: list[Participant], held: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """A new secret for each participant, and every participant's hash; a participant `held`
    names (a season's player: service/season/machine.py) keeps the secret they hold already."""
    secrets = {p.id: ports.ids.secret() for p in seated if p.id not in held}
    return secrets, dict(held) | {participant: secret_hash(secret) for participant, secret in secrets.items()}


def _attempt(action: Callable[[], Any], warnings: list[str], what: str) -> Any:
    try:
        return action()
    except Exception as error:  # an AWS failure after the match was stored
        logger.warning("match created, a step failed", extra={"what": what, "error": type(error).__name__})
        warnings.append(f"the match is created, but this failed: {what} ({type(error).__name__})")
        return None


def contact(email: str | None) -> str:
    """A participant's contact as registered: the email, compared ignoring case and in either form
    of an internationalised domain (`address_key`; "" for none)."""
    return address_key(email) if email and email.strip() else ""


def register_contacts(ports: Ports, request: MatchRequest) -> dict[str, Contact]:
    """Participant ids are unique within a deployment (garnets and private notices key on them):
    the first match naming an id registers its contact; a later one naming it with another contact
    is refused unless the host confirms (`confirm_contact`), which registers the new one. The
    store writes them in the match's own transaction, conditional on what was read here."""
    entries = [entry for entry, _guest_of in request.entries()]
    registered = ports.store.contacts(tuple(p.id for p in entries))
    contacts, reasons = {}, []
    for player in entries:
        before, after = registered.get(player.id), contact(player.email)
        if before is not None and before != after and not player.confirm_contact:
            reasons.append(
                Reason(
                    "contact_changed",
                    f"player id {player.id!r} is already registered with another contact: choose another id, "
                    f'or, if this is the same person, set "confirm_contact": true for {player.id!r}',
                )
            )
        contacts[player.id] = Contact(before=before, after=after)
    if reasons:
        raise Illegal("the match cannot be created", reasons)
    return contacts


def match_status(ports: Ports, match_id: str, seen: Match | None = None) -> dict[str, Any]:
    """Phase, deadline, who has submitted and who still owes what (`engine.still_owed`): never
    what anyone sent. `seen` is the match as the caller read it already (the host's page: one
    read fewer)."""
    match = seen if seen is not None else ports.store.get(match_id)
    status: dict[str, Any] = {
        "match_id": match.match_id,
        "game": match.game,
        "status": match.status,
        "phases_resolved": match.phases_resolved,
        "open": open_phase_summary(match),
    }
    if match.phase is not None and match.status == "running":
        submitted = ports.store.submissions(match_id, match.phase.number)
        owed = engine.still_owed(match.phase, submitted)
        status["submitted"] = sorted(submitted)
        status["waiting_for"] = sorted(owed)
        status["still_owed"] = {participant: list(kinds) for participant, kinds in sorted(owed.items())}
    if match.grace_seconds:  # each participant's graces still to use (`match.grace`)
        status["graces_left"] = {who: match.graces_left.get(who, 0) for who in match.player_ids}
    if (match.press, match.press_per_hour) != ("on", DEFAULT_PER_HOUR):  # the host changed press (`match.press`)
        status["press"] = {"mode": match.press, "per_hour": match.press_per_hour}
    if match.result is not None:
        status["result"] = match.result
    bounced = ports.store.bounces(match_id)
    if bounced:  # what mail from the match failed to reach (`mail_in`): the host's to look into
        status["mail_bounced"] = [_bounce_line(match, bounce) for bounce in bounced]
    if match.stalled is not None:
        status["stalled"] = match.stalled | {"what_to_do": "run `recover` to continue the match"}
    status["checked_at"] = iso(ports.clock.now())
    return status


def _bounce_line(match: Match, bounce: Bounce) -> str:
    """The host's line of a bounce: "Cy's mail bounced at <time>: 5.1.1 550 5.1.1 User unknown",
    or of a refusal: "Bo's mail was refused by SES at <time>: MessageRejected: ..."."""
    name = names(match).get(bounce.player, bounce.player)  # the host's own: `telling.HOST`
    said = " ".join(part for part in (bounce.status, bounce.diagnostic) if part)
    what = "was refused by SES" if bounce.refused else "bounced"
    return f"{name}'s mail {what} at {iso(bounce.at)}" + (f": {said}" if said else "")


def export_record(ports: Ports, match_id: str) -> MatchRecord:
    match = ports.store.get(match_id)
    return MatchRecord(
        match_id=match.match_id,
        game=match.game,
        settings=match.settings,
        seed=match.seed,
        players=list(match.player_ids),
        starting_garnets=match.starting_garnets,
        phases=ports.store.phase_records(match_id),
        status=match.status,
        result=match.result,
        decision=(match.result or {}).get("decision"),
        events=chained_log(ports, match_id),
    )


def chained_log(ports: Ports, match_id: str) -> list[dict[str, Any]]:
    return chain.chained(match_id, (logged(event) for event in ports.store.events(match_id)))


def with_log_head(ports: Ports, match_id: str, notices: list[Notice]) -> list[Notice]:
    """The notices of a result (the final one, a decided tie's) carrying the log's head hash as it
    stands: a record exported now chains to it (match-verify --head)."""
    head = chain.head(match_id, chained_log(ports, match_id))
    return [replace(notice, body=notice.body | {"log_head": head}) for notice in notices]


def logged(event: Event) -> dict[str, Any]:
    """A log entry as the exported record carries it (and its chain hashes it)."""
    return {"type": event.type, "at": event.at.isoformat(), "data": event.data}
