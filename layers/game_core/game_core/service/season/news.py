"""Telling the whole cast what happens in their season (issue 31 item 3): each occasion of the
season's log (game_core/season/news.py: a result read into the season, a ToL spent, a naming, a Death
Match's result and elimination, the Finals, the champion, the host's acts) is told to every cast
member, eliminated ones too, by every channel a match's notice uses (`telling.tell`: SNS, a letter
to each address, each webhook subscription), with the season's standing.

The season's Advance tells it (`announce`): every act that changes the season wakes the machine,
so Advance runs after each. Told on the season's first Main Match, which seats every cast member
(episode 1's players are the whole cast) with their names, addresses and subscriptions: its
address takes a reply (an EC's `NAME bo`), and its told keys remember what a failed telling sent.
The season's item keeps how far its log is told (`announced`), written once the occasion is told
(`tell`'s `then`, conditional: it only rises): a telling that fails is told again by the step's
retry, each notice once; a retried step that finds the mark at the log's end tells nothing.
Until that first match exists nothing is told (nothing but its start has happened)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from game_core.errors import NotFound
from game_core.games.text_layout import prose
from game_core.match.clock import iso, moment_text
from game_core.match.model import Match
from game_core.season.news import Occasion, occasions, standing_lines
from game_core.season.standing import standing
from game_core.season.state import SeasonEvent
from game_core.season.waiting import pending
from game_core.service.ports import Notice, OutgoingMail, Ports
from game_core.service.season.ports import StoredSeason
from game_core.service.telling import letters
from game_core.service.telling.channels import Voice, tell
from game_core.service.telling.notices import notice_id
from game_core.service.webhooks.queue import Delivery
from game_core.service.webhooks.sending import PUBLIC


def occasion(number: int) -> str:
    """The notices' occasion of the season log's entry `number` (`notices.notice_id`)."""
    return f"season-{number}"


def announce(ports: Ports, record: StoredSeason) -> bool:
    """Tell the cast every occasion of the log after the season's `announced` mark, up to the log's
    end as `record` was read, then raise the mark there; True when anything was told. Costs
    nothing when the log is told already, else a read of the first Main Match and one Query."""
    state, seasons = record.state, ports.seasons
    if record.logged <= record.announced or not state.episodes or seasons is None:
        return False
    try:
        carrier = ports.store.get(state.episodes[0].main_match_id)
    except NotFound:
        return False  # made by the Main Match's wait, after this Advance: told on the next
    logged = seasons.season_log(state.season_id, record.announced, record.logged)
    told = occasions(record.settings, [(number, SeasonEvent(event.type, event.data)) for number, event in logged])
    notices = season_notices(record, carrier, told)

    def mark() -> None:
        seasons.mark_announced(state.season_id, record.logged)

    if not notices:
        mark()
        return False
    tell(ports, carrier, notices, then=mark, voice=SEASON)
    return True


def season_notices(record: StoredSeason, carrier: Match, told: Sequence[Occasion]) -> list[Notice]:
    """One notice per occasion for the public channel (recipient None: the public SNS topic, the
    first Main Match's `@public` subscription) and one per cast member (all of them are the first
    Main Match's players), each from the season's public facts: what happened and the standing."""
    settings, state = record.settings, record.state
    cast = {member.id for member in settings.cast}
    label = settings.name or state.season_id
    shown = standing(settings, state)
    body = {
        "type": "season.notice",
        "match_id": carrier.match_id,
        "season_id": state.season_id,
        "standing": shown,
        "standing_text": standing_lines(settings, state),
    }
    readers = [None, *(player.id for player in carrier.players if player.id in cast)]
    return [
        Notice(
            reader,
            f"[{label}] {happened.lines[0]}",
            body | {"news": list(happened.lines)} | _own(record, reader, happened is told[-1]),
            notice_id(carrier.match_id, occasion(happened.number), reader),
        )
        for happened in told
        for reader in readers
    ]


def _own(record: StoredSeason, reader: str | None, last: bool) -> dict[str, Any]:
    """What a cast member's notice adds to the public one (`reader` None: the host's public
    channel, which gets the season's facts alone): whom it tells, and their turn."""
    return {} if reader is None else {"you": reader} | _turn(record, reader, last)


def _turn(record: StoredSeason, player: str, last: bool) -> dict[str, Any]:
    """`your_turn`, on the last occasion told: the act the season waits on from `player` now (an
    EC's spending or naming), whom they may name, and when their time ends (`naming_hours` after
    the wait opened, as the season machine's `deadlines`)."""
    state = record.state
    waits = [w for w in pending(state) if w.kind in ("spend", "naming") and player in w.who]
    if not last or not waits or state.opened_at is None:
        return {}
    ends = state.opened_at + timedelta(hours=record.settings.naming_hours)
    return {"your_turn": {"act": waits[0].kind, "among": list(waits[0].among), "by": iso(ends)}}


def season_text(match: Match, body: dict[str, Any], now: datetime, zone: str | None) -> list[str]:
    """A season notice in words: what happened, the reader's turn (if it is), the standing, where
    the season's page is (for a cast member: the public notice names no reader)."""
    lines = [line for sentence in body["news"] for line in prose(sentence)]
    if turn := body.get("your_turn"):
        by = moment_text(datetime.fromisoformat(turn["by"]), now, zone)
        if turn["act"] == "spend":
            said = f"You may spend a Token of Life to be safe this episode, by {by}: reply SPEND TOL or KEEP TOL"
            lines += ["", *prose(said + " (saying nothing keeps it).")]
        else:
            names = {p["id"]: p["name"] for p in body["standing"]["players"]}
            among = ", ".join(f"{names.get(p, p)} (NAME {p})" for p in turn["among"])
            said = f"Your turn: name your Death Match opponent by {by} (then the host may name for you)."
            lines += ["", *prose(f"{said} Reply with one line, NAME and one of: {among}.")]
    lines += ["", *body["standing_text"]]
    if "you" not in body:
        return lines
    lines += [""]
    lines += prose(
        f"The season's page (signed in with your season secret): /play/{match.match_id}/season "
        "at the service's address. Reply to this mail to act in the season (NAME, SPEND TOL, KEEP TOL)."
    )
    return lines


def season_letters(match: Match, notices: Sequence[Notice], now: datetime, domain: str) -> list[OutgoingMail]:
    """One letter per notice to its recipient, if they have an address."""
    if not domain:
        return []
    people = {participant.id: participant for participant in match.players}
    mails = []
    for notice in notices:
        person = people.get(notice.recipient or "")
        if person is None or not person.email:
            continue
        lines = [f"Hello {person.name},", "", *season_text(match, notice.body, now, person.zone)]
        told_as = letters.mail_id(notice, person.id)
        mails.append(letters.note(match, person.email, notice.subject, lines, now, domain, told_as))
    return mails


def season_deliveries(match: Match, notices: Sequence[Notice], now: datetime) -> list[Delivery]:
    """One delivery per notice to its recipient's subscription, if they have one on the match: the
    public notice to the host's `@public`, in UTC."""
    hooked, zones = set(match.webhooks), {participant.id: participant.zone for participant in match.players}
    made = []
    for notice in notices:
        target = notice.recipient or PUBLIC
        if target not in hooked:
            continue
        text = "\n".join(season_text(match, notice.body, now, zones.get(target)))
        payload = notice.body | {"recipient": notice.recipient, "subject": notice.subject, "text": text}
        made.append(Delivery(match.match_id, target, notice.notice_id, payload, now.timestamp()))
    return made


SEASON = Voice(season_letters, season_deliveries)
