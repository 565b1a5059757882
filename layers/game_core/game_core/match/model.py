"""What a match is, independent of where it is stored."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from game_core.errors import NotFound
from game_core.games.plain_text import Roster
from game_core.games.protocol import Model
from game_core.match.absence import Absence, AbsenceRules
from game_core.match.clock import PhaseClock, RecheckSeconds, known_zone
from game_core.match.email_address import Email
from game_core.match.press_rate import DEFAULT_PER_HOUR, MAX_PER_HOUR, PressMode, PressSent

DEFAULT_REMINDERS = (43_200, 3_600)
"""12 hours and 1 hour before each deadline."""
MAX_SECONDS = 366 * 86_400
"""The longest phase, recheck or extension the host may ask for (a leap year): far longer than any
real phase, and far from where a deadline stops being a date."""


MAX_GARNETS = 10**9
"""The largest starting balance: far more than a league hands out, and far inside DynamoDB's
number range (38 significant digits) however many awards are added."""
MAX_SETTINGS_CHARS = 16_000
"""A game's settings as JSON at most: every game's largest fixed deal fits many times over, and the
match header that holds them stays far below DynamoDB's item size."""
MAX_PLAYERS = 64
"""More seats than any game has (each game checks its own count once the request is read)."""
MAX_GRACES = 100
"""Far more graces a participant than a host hands out (each holds a deadline once)."""
ParticipantId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{1,40}$")]
Name = Annotated[str, Field(max_length=80)]


Zone = Annotated[
    str,
    AfterValidator(known_zone),
    Field(
        max_length=64,
        description='An IANA time zone, e.g. "Europe/Paris": deadlines in mail are given there, UTC beside',
    ),
]
"""An IANA time zone ("Europe/Paris"): the participant's mail gives deadlines there, UTC beside."""


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class GuestEntry(Model):
    """A guest a player brings, in a game that hosts guests (`capabilities.HostsGuests`): a participant
    with their own contact and webhook secret, but not in the garnet ledger."""

    id: ParticipantId
    name: Name = ""
    email: Email | None = None
    zone: Zone | None = None
    """As a player's: where the guest reads their mail's deadlines."""
    confirm_contact: bool = False
    """As a player's: the host confirms this known id is the same person under a new email."""


class PlayerEntry(Model):
    """A seat as the host lists it in the settings file."""

    id: ParticipantId
    name: Name = ""
    email: Email | None = None
    zone: Zone | None = None
    """The IANA time zone ("Europe/Paris") their mail gives deadlines in, UTC beside; UTC alone
    when none. The participant may change it by mail (ZONE Europe/Paris)."""
    garnets: int = Field(default=0, ge=0, le=MAX_GARNETS)
    """Starting balance for a player the service has never seen; ignored for a known player."""
    confirm_contact: bool = False
    """The host confirms that this known id is the same person under a new email: the id's
    registered contact changes to this one. Without it a known id with another email is refused."""
    guests: list[GuestEntry] = Field(default_factory=list, max_length=4)
    """The guests this player brings (as many as the game hosts per player; none in most games)."""


class MatchRequest(Model):
    """The host's settings file for a new match."""

    game: str = Field(max_length=40)
    settings: dict[str, Any] = Field(default_factory=dict)
    players: list[PlayerEntry] = Field(max_length=MAX_PLAYERS)
    host_email: Email | None = None
    """The host's address: mail from it may run the host's commands (STATUS, EXTEND, PAUSE, ...)."""
    host_zone: Zone | None = None
    """As a player's `zone`, for the host's mail: deadlines there, UTC beside (ZONE by mail too)."""
    phase_seconds: int = Field(default=86_400, ge=1, le=MAX_SECONDS)
    early_close: bool = False
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    """As the service draws one (63 random bits) when none is given."""
    recheck_seconds: RecheckSeconds = Field(default=86_400, le=MAX_SECONDS)
    """The longest a waiting state machine sleeps before re-reading the clock. Host acts and early
    close wake it at once; this bounds a paused wait, and any wake-up that never arrived."""
    reminders: tuple[Annotated[int, Field(ge=60, le=MAX_SECONDS)], ...] = Field(
        default=DEFAULT_REMINDERS, max_length=10
    )
    """Seconds before each deadline at which everyone who can act and has not yet sent what the
    phase waits for is reminded privately (none: `[]`)."""
    webhooks: dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=2048)]] = Field(
        default_factory=dict, max_length=MAX_PLAYERS + 2
    )
    """URLs notices are POSTed to, by who gets them: a participant id (their own notices),
    "@public" (every public notice), "@alerts" (the host's alerts); each gets a secret in the reply."""
    press: PressMode = "on"
    """Messages between players (`match.press`): "on" to anyone, "public" to everyone only, "off"."""
    press_per_hour: int = Field(default=DEFAULT_PER_HOUR, ge=1, le=MAX_PER_HOUR)
    """How many messages each participant may send in any hour."""
    absence_rules: AbsenceRules = Field(default_factory=AbsenceRules)
    """Announced absences (`match.absence`): days each participant may be away in all, the
    longest one, and the hours after one before a deadline it holds falls."""
    grace_seconds: int = Field(default=0, ge=0, le=MAX_SECONDS)
    """How long a phase is held past its deadline for a participant who owes it a move and has
    sent nothing, while they have a grace left (`match.grace`); 0: no graces."""
    graces: int = Field(default=0, ge=0, le=MAX_GRACES)
    """How many graces each participant has for the whole match (each holds one deadline)."""

    @field_validator("settings")
    @classmethod
    def _settings_fit_the_header(cls, settings: dict[str, Any]) -> dict[str, Any]:
        size = len(json.dumps(settings, separators=(",", ":")))
        if size > MAX_SETTINGS_CHARS:
            raise ValueError(f"the settings take {size} characters as JSON; at most {MAX_SETTINGS_CHARS}")
        return settings

    @model_validator(mode="after")
    def _graces_have_a_length(self) -> MatchRequest:
        if bool(self.graces) != bool(self.grace_seconds):
            raise ValueError(
                f"graces ({self.graces}) and grace_seconds ({self.grace_seconds}) go together: give both "
                "(how many graces each participant has, and how long each holds the phase), or neither"
            )
        return self

    @model_validator(mode="after")
    def _names_tell_participants_apart(self) -> MatchRequest:
        """A mail may name a participant by id or by name, in any case: no word may name two."""
        named: dict[str, str] = {}
        for entry, _guest_of in self.entries():
            for word in dict.fromkeys((entry.id.lower(), (entry.name or entry.id).lower())):
                if word in named and named[word] != entry.id:
                    raise ValueError(
                        f"{word!r} would name both {named[word]!r} and {entry.id!r} (names and ids are compared "
                        "ignoring case): give each participant a name of their own"
                    )
                named[word] = entry.id
        return self

    def entries(self) -> list[tuple[PlayerEntry | GuestEntry, str | None]]:
        """Every participant's entry in team order (each player, then their guests), with the
        player a guest came with (None for a player)."""
        seated: list[tuple[PlayerEntry | GuestEntry, str | None]] = []
        for player in self.players:
            seated += [(player, None), *((guest, player.id) for guest in player.guests)]
        return seated


class Former(Model):
    """Someone who played a seat until the host replaced them: kept on the match (never in its
    log or record, which name them only) so a retried replacement can still tell them."""

    name: str
    email: str | None = None
    phase: str
    """The phase open when they were replaced ("Round 3")."""


class Participant(Model):
    id: str
    name: str
    email: str | None = None
    secret_hash: str
    zone: str | None = None
    """Where the participant reads their mail's deadlines (an IANA name); None: UTC alone."""
    guest_of: str | None = None
    """The player who brought this guest; None for a player. A guest's garnets are held in the
    match only, and return to that player when the match ends."""
    formerly: tuple[Former, ...] = ()
    """Who played this seat before the host replaced them (`service.host.replace`), earliest first."""


MatchStatus = Literal["running", "finished", "cancelled"]


class Match(Model):
    match_id: str
    game: str
    settings: dict[str, Any]
    seed: int
    players: tuple[Participant, ...]
    host_email: str | None = None
    """The host's registered address (lower case), None when the host plays no part by mail."""
    host_zone: str | None = None
    """Where the host reads their mail's deadlines (an IANA name); None: UTC alone."""
    phase_seconds: int
    early_close: bool
    recheck_seconds: int
    reminders: tuple[int, ...] = DEFAULT_REMINDERS
    absence_rules: AbsenceRules = Field(default_factory=AbsenceRules)
    absences: tuple[Absence, ...] = ()
    """Every absence announced and not refused, as it stands (public: who is away when)."""
    grace_seconds: int = 0
    """How long a deadline is held for a late participant's grace (`match.grace`); 0: no graces."""
    graces_left: dict[str, int] = Field(default_factory=dict)
    """Each participant's graces still to use (none listed: none left)."""
    created_at: datetime
    starting_garnets: dict[str, int]
    status: MatchStatus = "running"
    state: dict[str, Any] = Field(default_factory=dict)
    phase: PhaseClock | None = None
    phases_resolved: int = 0
    result: dict[str, Any] | None = None
    version: int = 0
    attempt: int = 0
    """How many times the host has recovered the match: its execution's name counts them."""
    stalled: dict[str, str] | None = None
    """Why the state machine stopped, until the host recovers the match."""
    season_id: str | None = None
    """The season the match belongs to (its season's machine started it), None for any other:
    the page links the season's page, and the letters say where the season's standing is."""
    webhooks: tuple[str, ...] = ()
    """Who has a webhook subscription (participant ids, "@public", "@alerts"): each URL and secret
    is kept beside the match (`service.webhooks.sending`), only who has one here, so telling reads nothing more."""
    press: PressMode = "on"
    """Messages between players: "on", "public" (to everyone only) or "off" (`match.press`)."""
    press_per_hour: int = DEFAULT_PER_HOUR
    press_sent: dict[str, tuple[PressSent, ...]] = Field(default_factory=dict)
    """Each sender's messages of the last hour (`match.press.recent_press`): the rate counts them."""
    announced: int = Field(default=0, exclude=True)
    """The last phase number whose resolution was announced (stored beside the match, not in it)."""
    done: frozenset[str] = Field(default=frozenset(), exclude=True)
    """Who owed the open phase something and has sent it all (`engine.has_done`; stored beside the
    match by their submissions)."""
    told: frozenset[str] = Field(default=frozenset(), exclude=True)
    """The notices and mails a failed step had sent before it failed, by their told keys, until
    the open phase changes (stored beside the match; `telling.tell` skips them on the retry)."""

    @property
    def reminders_due(self) -> tuple[int, ...]:
        """The reminders the open phase still needs: none once nobody owes it anything more."""
        if self.phase is not None and set(self.phase.owes) <= self.done:
            return ()
        return self.reminders

    @property
    def execution_name(self) -> str:
        return self.match_id if self.attempt == 0 else f"{self.match_id}-r{self.attempt}"

    @property
    def player_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.players)

    def participant(self, player_id: str) -> Participant | None:
        return next((p for p in self.players if p.id == player_id), None)

    def member(self, player_id: str) -> Participant:
        """The participant with this id (exactly, as a channel's sender is known); raises NotFound
        saying the match has none such (`named` reads a host's word instead)."""
        found = self.participant(player_id)
        if found is None:
            raise NotFound(f"{player_id} is not a participant of match {self.match_id}")
        return found

    def roster(self) -> Roster:
        """The words naming each participant (their id, their name) to their id: for the mail
        grammar, the webhook's models (`protocol.PlayerRef`) and the host alike."""
        return Roster({participant.id: participant.name for participant in self.players})

    def named(self, word: str) -> str:
        """The id of the participant `word` names by id or by name, in any case (names and ids
        name one participant each: `MatchRequest`); raises NotFound naming every participant."""
        roster = self.roster()
        found = roster.get(" ".join(word.split()).upper())
        if found is None:
            raise NotFound(f"{word!r} is not a participant of match {self.match_id} ({roster.choices})")
        return found

    @property
    def guests(self) -> dict[str, str]:
        """Each guest's player (empty in a game without guests)."""
        return {p.id: p.guest_of for p in self.players if p.guest_of is not None}


class ActionRecord(Model):
    """An immediate action as it was applied: who (None: the host), what, and when it arrived."""

    actor: str | None
    kind: str
    action: dict[str, Any]
    at: datetime


class PhaseRecord(Model):
    """Everything a phase's resolution depended on: enough to replay it exactly."""

    number: int
    name: str
    actions: list[ActionRecord] = Field(default_factory=list)
    """The immediate actions taken while the phase was open, in arrival order (applied before
    its resolution)."""
    submissions: dict[str, dict[str, Any]]
    elapsed_seconds: int
    extension_seconds: int
    timed_out: bool
    missing: tuple[str, ...] = ()
    """Who owed the phase something and sent it nothing (`engine.sent_nothing`; announced publicly;
    not a replay input)."""
    salts: dict[str, dict[str, str]] = Field(default_factory=dict)
    """Each counted submission's salt (player -> kind -> hex), which opens its sealed receipt
    (`match.receipts`); not a replay input."""
    graced: tuple[str, ...] = ()
    """Who used a grace on the phase's deadline (its hold is in `extension_seconds`; not a replay input)."""


class MatchRecord(Model):
    """The exported match: replaying it gives the live result, byte for byte."""

    match_id: str
    game: str
    settings: dict[str, Any]
    seed: int
    players: list[str]
    """Every participant, in team order where the game hosts guests."""
    starting_garnets: dict[str, int]
    phases: list[PhaseRecord]
    status: MatchStatus
    result: dict[str, Any] | None = None
    decision: list[str] | None = None
    """The host's ranking of a tie the rules left standing (replay applies it to the result)."""
    events: list[dict[str, Any]] | None = None
    """The match's event log in order, each event with `prev`, the hash of the one before
    (`match.chain`); None in a record exported before the log was chained."""
