"""The one small protocol every game implements.

A game is rules as data plus pure functions. It never sees AWS, the wall clock or the global
`random`: time arrives as numbers in a `Resolution`, chance as an injected `random.Random`.

Simultaneous secret moves are resolved together: the match layer collects every participant's
submissions for the open phase and hands them to `resolve` at once. A move-by-move game (Abstrac)
is the same thing with one actor per phase. Hidden information leaves a game only through
`view(state, player)`; every message to a participant is rendered from that participant's view.

Players may also play in plain text (by e-mail): each game's `text` grammar reads written lines as
the same JSON submissions the webhook carries, writes a submission back as lines, and renders a
view as text. The grammar judges wording only; what it reads is then parsed and checked by the
match layer exactly like a webhook submission.

What a game may do beyond this protocol (immediate actions, guests, drawings) is `capabilities`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationInfo, WithJsonSchema

from game_core.errors import Reason
from game_core.games.demo import Demo


class Model(BaseModel):
    """Base of every settings, state and submission model: strict about unknown fields. Each
    model's validator is built when it is first used, not at import: a cold start builds only
    those its first request needs (the layer defines far more than any one request uses)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)


PLAYERS = "players"
"""The validation context's key for the match's roster (`plain_text.Roster`: each word naming a
participant, upper-cased, to their id), where a submission comes from the webhook or by mail."""


def _named(value: Any, info: ValidationInfo) -> Any:
    roster = (info.context or {}).get(PLAYERS)
    return roster.get(value.upper(), value) if roster and isinstance(value, str) else value


PARTICIPANT_FORMAT = "participant"
"""The JSON Schema `format` of a string naming a participant (`PlayerRef`): the page offers the
match's participants for it, and a webhook's author learns the field takes an id (or a name)."""

PlayerRef = Annotated[str, BeforeValidator(_named), WithJsonSchema({"type": "string", "format": PARTICIPANT_FORMAT})]
"""A participant's id in a submission or action, which may name them by id or by name in any
case when validated with the match's roster (`PLAYERS`): what is stored is their id."""


class GameSettings(Model):
    """Every game's settings extend this: the rule set and the host's overrides."""

    rule_set: str = "default"


ModelT = TypeVar("ModelT", bound=Model)


@dataclass(frozen=True)
class PhaseKind:
    """A phase of the timeline as the state machine knows it: a name and what it accepts.

    `name` is the state name in the game's ASL and the name players see.
    """

    name: str
    accepts: tuple[str, ...]


@dataclass(frozen=True)
class OpenPhase:
    """The phase a state is waiting on now, and what it asks of whom.

    `actors` are the participants who may act in it: each may send any kind it `accepts`, and
    take the immediate `actions` (`ActsAtOnce`) it allows now.
    `owes` is what the rules wait for: participant -> the kinds they must send before the phase
    counts them done (early close waits for these; reminders name them; a participant who owed
    something and sent nothing is named when it resolves). A participant it does not list owes
    nothing (they may still send what they may). None: every actor owes every kind accepted.
    `seconds` is the phase's own time limit when the game sets one (a mover's clock); None means
    the match's phase duration setting.
    `closes_on_submit` resolves the phase as soon as everyone who owes a move has sent it,
    whatever the match's early-close setting (a move in a move-by-move game takes effect when it
    is made).
    """

    name: str
    accepts: tuple[str, ...]
    actors: tuple[str, ...]
    seconds: int | None = None
    closes_on_submit: bool = False
    owes: Mapping[str, tuple[str, ...]] | None = None
    actions: tuple[str, ...] = ()
    """The immediate actions (`ActsAtOnce`) the actors may take now, applied as they arrive."""

    @property
    def owed(self) -> dict[str, tuple[str, ...]]:
        """Each participant who owes something, with the kinds they owe (in `accepts` order)."""
        owes = {actor: self.accepts for actor in self.actors} if self.owes is None else self.owes
        return {who: tuple(k for k in self.accepts if k in kinds) for who, kinds in owes.items() if kinds}


@dataclass(frozen=True)
class Resolution:
    """What the match layer tells a game when it resolves the open phase.

    `submissions[player][kind]` holds each participant's last valid submission of each kind the
    phase accepts, parsed into the game's model for that kind and checked legal in this position;
    a missing key means that participant sent nothing of that kind.
    `elapsed_seconds` is how long the phase was open, pauses excluded, extensions included;
    `extension_seconds` is what was added to the deadline (the host's extensions, absences' and
    graces' holds: `match.grace`); `timed_out` is true when the deadline passed.
    """

    submissions: dict[str, dict[str, Model]]
    rng: random.Random
    elapsed_seconds: int = 0
    extension_seconds: int = 0
    timed_out: bool = True

    def sent(self, player: str, kind: str, model: type[ModelT]) -> ModelT | None:
        """`player`'s submission of `kind` as its model; None when they sent none."""
        submission = self.submissions.get(player, {}).get(kind)
        if submission is None:
            return None
        if not isinstance(submission, model):
            raise TypeError(f"{player}'s {kind} submission is a {type(submission).__name__}, not a {model.__name__}")
        return submission


@dataclass(frozen=True)
class Standing:
    player: str
    place: int
    score: str
    """Exact score as text (an integer, or a fraction like "11/7" where the rules divide)."""
    tied_with: tuple[str, ...] = ()


@dataclass(frozen=True)
class TiedLine:
    """Players a tie left standing across the ToL or the EC line: the host decides which of them
    take its `places` (each ToL place worth `award` tokens); the rest stay off the line."""

    line: Literal["tol", "ec"]
    players: tuple[str, ...]
    places: int = 1
    award: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "players": list(self.players), "places": self.places, "award": self.award}


@dataclass(frozen=True)
class Result:
    """The final result. Ties left standing after every tie-break are reported with all names."""

    standings: tuple[Standing, ...]
    tol: tuple[str, ...]
    ec: tuple[str, ...]
    garnets: dict[str, int]
    tied_lines: tuple[TiedLine, ...] = ()
    """Ties every tie-break left standing across a ToL or EC line: the host decides them."""
    details: dict[str, Any] = field(default_factory=dict)
    tol_awarded: dict[str, int] = field(default_factory=dict)
    """Tokens of Life per player, where a game gives more than one (empty: one to each in `tol`)."""

    @property
    def undecided(self) -> tuple[str, ...]:
        """Every player of a tie the host must decide."""
        return tuple(player for line in self.tied_lines for player in line.players)

    def to_json(self) -> dict[str, Any]:
        return {
            "standings": [
                {"place": s.place, "player": s.player, "score": s.score, "tied_with": list(s.tied_with)}
                for s in self.standings
            ],
            "tol": list(self.tol),
            "tol_awarded": self.tol_awarded or {player: 1 for player in self.tol},
            "ec": list(self.ec),
            "undecided": list(self.undecided),
            **({"tied_lines": [line.to_json() for line in self.tied_lines]} if self.tied_lines else {}),
            "garnets": dict(sorted(self.garnets.items())),
            "details": self.details,
        }


@dataclass(frozen=True)
class TextMove:
    """One submission read from plain text.

    `submission` is the JSON payload exactly as the webhook's "submission" would carry it (a
    submission its model accepts is given as the model's JSON dump, so it equals what a JSON
    client would send for it). `phase` is the phase the lines name (e.g. "Round 3"); None when they
    name none, which means the open one. `action` marks an immediate action (`ActsAtOnce`):
    `submission` is then the action's JSON, taken at once rather than submitted to the phase.
    """

    kind: str
    submission: dict[str, Any]
    phase: str | None = None
    action: bool = False


@dataclass(frozen=True)
class TextReading:
    """What plain-text lines say: the moves read, and a reason for every non-blank line that was
    not understood (each quoting the line and saying what was expected). Blank lines say nothing."""

    moves: list[TextMove] = field(default_factory=list)
    reasons: list[Reason] = field(default_factory=list)


class TextGrammar(Protocol):
    """A game's plain-text grammar (play by e-mail): short, case-insensitive lines for each
    submission kind, and the plain text of its views."""

    def read_text(
        self, lines: Sequence[str], accepts: Sequence[str], players: Sequence[str] | Mapping[str, str] = ()
    ) -> TextReading:
        """The moves `lines` say, and a reason for each line not understood; never raises.
        `accepts` is what the open phase accepts: a kind that has a short form (its values without
        the keyword, e.g. abstrac's "2B 3B") is read from it when it is the only such kind accepted.
        `players` are the match's participants' ids, or each id with their name: a participant
        named in the lines by id or by name, in any case, is read as their id (and any other word
        where a participant is expected is refused, naming them)."""

    def write_text(self, kind: str, submission: Model) -> list[str]:
        """The submission's normalised lines in the grammar: `read_text` of them gives back exactly
        `submission` (its JSON dump)."""

    def text_help(self, kind: str) -> list[str]:
        """The grammar of `kind` in a few lines with an example (for a phase's notice and HELP)."""

    def render_view(self, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        """A view this game's `view` returned, as plain text for a mail: players by display name
        (`names`: id -> name), tables in aligned monospace columns, nothing beyond the view."""


RULES_FILE = "rules.md"


class RulesText:
    """A game's `rules_text` (`rules_text = RulesText()` in its class): the `rules.md` of the
    package its class is defined in, read when asked (only HELP RULES needs it)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._package = owner.__module__.rpartition(".")[0]

    def __get__(self, game: object, owner: type | None = None) -> str:
        from importlib.resources import files

        return files(self._package).joinpath(RULES_FILE).read_text(encoding="utf-8")


SettingsT = TypeVar("SettingsT", bound=GameSettings)
StateT = TypeVar("StateT", bound=Model)


class Game(Protocol[SettingsT, StateT]):
    """What every game module exposes as `GAME`, typed `Game[ItsSettings, ItsState]` so that mypy
    checks the game against this protocol."""

    @property
    def id(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def Settings(self) -> type[SettingsT]: ...  # noqa: N802 - the model class, named as a class

    @property
    def State(self) -> type[StateT]: ...  # noqa: N802

    @property
    def submissions(self) -> Mapping[str, type[Model]]:
        """The pydantic model of each submission kind."""

    @property
    def text(self) -> TextGrammar:
        """The plain-text grammar of the submissions and the text of the views (play by e-mail)."""

    @property
    def demo(self) -> Demo:
        """How bots play it and the tests check it: a typical match's players, the fewest, the
        private seat (`bin/play`, the tests' matrices and the benchmarks read it)."""

    @property
    def rules_text(self) -> str:
        """The rules written for players: Markdown that reads well as plain text (HELP RULES mails
        it), kept in the game's package as `rules.md` (`RulesText`)."""

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    def timeline(self, settings: SettingsT) -> tuple[PhaseKind, ...]:
        """Every phase kind the game can open, in timeline order (the ASL's states)."""

    def setup(self, settings: SettingsT, players: tuple[str, ...], rng: random.Random) -> StateT:
        """The state before the first phase opens."""

    def open_phase(self, state: StateT) -> OpenPhase | None:
        """The phase the state waits on, or None when the match is over."""

    def check(self, state: StateT, player: str, kind: str, submission: Model) -> list[Reason]:
        """Every reason the submission is illegal in this position (empty when legal), each with a
        stable code. The match layer has already checked that `player` is an actor of the open
        phase, that it accepts `kind`, and will check the garnet balance against `garnet_cost`."""

    def garnet_cost(self, kind: str, submission: Model) -> int:
        """Garnets the submission spends when its phase resolves (never depends on a balance)."""

    def cost_text(self, kind: str, submission: Model) -> str:
        """What the submission spends, in words, for a refusal when the balance is short: the
        match layer adds ", but your balance is N". Only asked when `garnet_cost` is above 0."""

    def resolve(self, state: StateT, resolution: Resolution) -> StateT:
        """Resolve the open phase: the new state, with its reveals recorded in it."""

    def view(self, state: StateT, player: str | None) -> dict[str, Any]:
        """What `player` may know now (None: the public). Messages are rendered from this alone."""

    def result(self, state: StateT) -> Result:
        """The final result; only called once `open_phase` returns None."""


AnyGame = Game[Any, Any]
"""A game whose settings and state types the caller does not know (the match layer's view)."""
