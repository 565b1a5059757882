"""The small ports the use cases are written against; `game_core.aws` has the adapters."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from game_core.match.engine import Accepted
from game_core.match.model import ActionRecord, Match, PhaseRecord
from game_core.service.event import Event
from game_core.service.matches.sheets import Sheet, SubmissionView
from game_core.service.season.ports import SeasonLinks, SeasonStore
from game_core.service.webhooks.queue import Hooks
from game_core.service.workflow_port import Workflow


@dataclass(frozen=True)
class Notice:
    """A message to everyone (recipient None) or to one participant."""

    recipient: str | None
    subject: str
    body: dict[str, Any]
    notice_id: str
    """The same on every retry of the step that tells it, and no other notice's
    (`notices.notice_id`): every channel carries it, so a receiver can drop a repeat."""


@dataclass(frozen=True)
class Contact:
    """A participant id's registered contact (email, "" for none) as the store last read it
    (`before`, None for an id never seen) and as the new match registers it (`after`)."""

    before: str | None
    after: str


@dataclass(frozen=True)
class Bounce:
    """A participant's mail that bounced, as the bounce reported it (`mail.automatic`): when it
    came, the status code ("5.1.1"; "" when not given) and the diagnostic. `message` is the
    bounce's own id: a participant's bounce is recorded once per message."""

    player: str
    message: str
    at: datetime
    status: str
    diagnostic: str
    refused: bool = False
    """True: no bounce, the mail service refused to send it (`telling.tell`), as `diagnostic` says."""


@dataclass(frozen=True)
class Completion:
    """What a submission that leaves its sender done with the phase, for the first time, writes
    on the match header, conditional on the header as read: the sender joins `done`; and when
    that makes every actor done, `closing` (the match with the phase's resolution requested) and
    `closing_event` are stored in the same transaction, so the phase closes exactly when its last
    submission lands, and a machine between two waits sees it (a wait keeps its token only for
    the clock it computed; `task_token` is the one the closing submission wakes)."""

    done_before: frozenset[str]
    task_token: str | None
    closing: Match | None = None
    closing_event: Event | None = None


class MatchStore(Protocol):
    def create(self, match: Match, balances: dict[str, int], event: Event, contacts: dict[str, Contact]) -> None:
        """Store a new match; players the store has never seen get their starting balances. Each
        participant's contact is registered, conditional on it still being `before` (Conflict)."""

    def balances(self, players: tuple[str, ...]) -> dict[str, int]:
        """Each player's garnet balance (absent players: 0)."""

    def get(self, match_id: str) -> Match: ...

    def submission_view(self, match_id: str, player: str, delivery: str | None) -> SubmissionView:
        """What a submission needs, in one read (NotFound for an unknown match)."""

    def delivered(self, match_id: str, player: str, delivery: str) -> dict[str, Any] | None:
        """The stored reply to the player's delivery with that key, if any."""

    def answered(self, match_id: str, message: str) -> bool:
        """Whether the received mail with that id has been answered (`mark_answered`)."""

    def mark_answered(self, match_id: str, message: str, at: datetime) -> None:
        """Remember, for a week, that the received mail with that id has been answered."""

    def put_submission(
        self,
        match: Match,
        player: str,
        accepted: Accepted,
        event: Event,
        seen: Sheet | None,
        delivery: tuple[str, dict[str, Any]] | None = None,
        completion: Completion | None = None,
    ) -> None:
        """Store the player's submission of that kind with their others to the open phase, only
        while the phase still takes it (Late) and their submissions are still `seen` (Conflict);
        hold the garnets it spends in place of those the one it replaces held (Illegal when the
        balance has not that many free). With a delivery (key, reply), store the reply once
        (AlreadyDelivered when that key was stored first). With a `completion`, write it too,
        conditional on the header as read (HeaderMoved, in place of Late)."""

    def put_action(
        self,
        before: Match,
        after: Match,
        record: ActionRecord,
        garnets: dict[str, int],
        event: Event,
        delivery: tuple[str, dict[str, Any]] | None = None,
    ) -> None:
        """Store an immediate action: the match as it left it and the action's record under the
        open phase, conditional on `before` being current and its phase still taking actions
        (Conflict: read again and judge it afresh), and move its garnets: each participant's
        holding (a player's balance, a guest's purse in the match) changes by its amount, a
        decrease only from what is free (Illegal `garnets_short`). A player's change is a ledger
        line. With a delivery (key, reply), store the reply once under the actor's deliveries
        (AlreadyDelivered when that key was stored first)."""

    def actions(self, match_id: str, phase_number: int) -> list[ActionRecord]:
        """The immediate actions taken in the phase, in arrival order."""

    def purses(self, match_id: str) -> dict[str, int]:
        """What each guest of the match holds (their balance in the match)."""

    def sheets(self, match_id: str, phase_number: int) -> dict[str, Sheet]:
        """Every participant's submissions to the phase."""

    def submissions(self, match_id: str, phase_number: int) -> dict[str, dict[str, Any]]: ...

    def stop_accepting(self, match: Match) -> bool:
        """Refuse further submissions and actions to the open phase (it is being resolved), only
        while the match is still `match` (its version): False, closing nothing, once it has moved
        on. Any later save opens the phase again unless the match it stores is closed (`accepting`
        follows the stored match), so a resolution that backs off never leaves it shut;
        idempotent."""

    def save(
        self,
        before: Match,
        after: Match,
        event: Event,
        releases: dict[str, Sheet] | None = None,
        returned: dict[str, int] | None = None,
        delivery: tuple[str, str, dict[str, Any]] | None = None,
    ) -> None:
        """Store a host act, a stall or a participant's act on the match itself (a ready vote),
        conditional on `before` being current; `releases` (the open phase's sheets, as read) gives
        back the garnets they hold, conditional on no participant's submissions to that phase
        having changed since (Conflict; a cancelled phase); `returned` empties each guest's purse
        (what it held, as read) into their player's garnets, a ledger line "returned" (a cancelled
        match). With a delivery (sender, key, reply), store the reply once under the sender's
        deliveries (AlreadyDelivered when that key was stored first)."""

    def commit_resolution(
        self,
        before: Match,
        after: Match,
        record: PhaseRecord,
        spending: dict[str, int],
        awards: dict[str, int],
        events: list[Event],
    ) -> None:
        """Store a resolution exactly once: conditional on `before` being current. Each player's
        balance is written once: less what they spent (held until now), plus what they won. A
        guest's purse is written the same way (an award below zero empties it back to the player
        when the match ends); only players get ledger lines."""

    def set_task_token(self, match_id: str, phase_number: int, clock_version: int, token: str) -> bool:
        """Store the state machine's wait token if the clock is still the one it waited for."""

    def task_token(self, match_id: str) -> str | None: ...

    def mark_announced(self, match_id: str, number: int) -> None:
        """Remember that the resolution of phase `number` has been announced."""

    def hand_over(self, match_id: str, attempt: int, handovers: int) -> None:
        """Remember that execution attempt `attempt` of the match has handed it on `handovers`
        times (`service.matches.handover`): `handovers` reads it back."""

    def handovers(self, match_id: str, attempt: int) -> int:
        """How many times attempt `attempt`'s executions have handed the match on (0: never, or
        the count is another attempt's)."""

    def remember_told(self, match_id: str, keys: frozenset[str]) -> None:
        """Add these notices' and mails' told keys to the match's `told` (idempotent; nothing for
        an unknown match). They are kept until the open phase changes: a step retried after
        telling some of an occasion's notices skips those."""

    def record_bounce(self, match_id: str, bounce: Bounce) -> None:
        """Remember that a participant's mail bounced (kept with the match); the same player and
        message recorded again changes nothing (the first record stands)."""

    def bounces(self, match_id: str) -> list[Bounce]:
        """The match's recorded bounces, earliest first."""

    def phase_records(self, match_id: str, number: int | None = None) -> list[PhaseRecord]:
        """The match's phase records in order, or only the one of that phase number."""

    def events(self, match_id: str) -> list[Event]: ...

    def header_and_events(self, match_id: str) -> tuple[Match, list[Event]]:
        """The match without its game state and result (`state` empty, `result` None: what a page
        of messages needs, no game view) and its log as `events` gives it, in one read (NotFound
        for an unknown match)."""

    def contacts(self, players: tuple[str, ...]) -> dict[str, str]:
        """Each registered participant id's contact (ids never seen are absent)."""


class Notifier(Protocol):
    def publish(
        self, match: Match, notices: Sequence[Notice], published: Callable[[Sequence[Notice]], None] | None = None
    ) -> None:
        """Send the notices (each to everyone or to its one recipient), batched; `published` is
        told each batch once it is accepted (what a failure later on has not lost)."""

    def subscribe(self, match: Match) -> list[str]:
        """Subscribe each participant's email to the match's notices: the public ones, and their
        own private ones (filtered on match and recipient). Returns who could not be subscribed."""

    def unsubscribe(self, match: Match, player: str, email: str) -> bool:
        """Stop `email` hearing the match as `player` (whom the host replaced): the (player, match)
        pair leaves its private subscription, the match its public one. False when a subscription
        awaits confirmation (SNS changes none): it would still hear the match once confirmed."""

    def alert_host(self, match: Match, subject: str, body: dict[str, Any]) -> None:
        """Tell the host (not the players) that the match needs them."""


class InboundQueue(Protocol):
    """Received mail waiting for the mail function (`aws.inbound_queue`), and its dead letters."""

    def redrive(self, wanted: Callable[[str], bool]) -> int:
        """Queue again for the mail function every dead letter whose body (SES's notification,
        JSON) is `wanted`; how many."""


@dataclass(frozen=True)
class OutgoingMail:
    """One message to one address: the whole MIME message (`game_core.mail.outbound.compose`)."""

    to: str
    raw: bytes
    told_as: str | None = None
    """The mail's own id, its Message-ID made from it: a notice's (`letters.mail_id`), or an
    answer's, made from the message it answers; None for a mail sent once whatever happens."""


class Mailer(Protocol):
    """Mail out (SES on AWS, an outbox folder locally), from the match domain's addresses."""

    @property
    def domain(self) -> str:
        """The match domain (mail goes from and comes to `<match_id>@<domain>`); "" when this
        deployment has no mail: nothing is sent, and no mail comes in."""

    @property
    def required_checks(self) -> frozenset[str]:
        """The SES verdicts (of spf, dkim, dmarc) an incoming message must PASS to be read."""

    def send(self, mail: OutgoingMail) -> None:
        """Send it; raises `errors.MailRefused` when the service refuses this message for good
        (its address), anything else when sending may yet succeed."""


class Clock(Protocol):
    def now(self) -> datetime: ...


class Ids(Protocol):
    def match_id(self) -> str: ...

    def secret(self) -> str: ...

    def seed(self) -> int: ...

    def salt(self) -> str:
        """A fresh salt for a sealed receipt: `receipts.SALT_BYTES` random bytes, in hex."""


@dataclass(frozen=True)
class Ports:
    store: MatchStore
    notifier: Notifier
    workflow: Workflow
    clock: Clock
    ids: Ids
    mailer: Mailer
    hooks: Hooks | None = None
    """Webhook subscriptions and their delivery queue (`service.webhooks.sending`); None where no
    webhooks are delivered."""
    inbound: InboundQueue | None = None
    """The received mail's queue; None where mail is handed to the mail function directly."""
    seasons: SeasonStore | None = None
    """Seasons (service/season/lifecycle.py); None where no season runs."""
    season_links: SeasonLinks | None = None
    """The season machine's task tokens (`service.season.waits`); None where no season runs."""
