"""The case books' machinery (issue 23 item 3): each game's cases are data, played through the
game's own protocol by test_casebooks.py and written as docs/casebook/<game>.md by
render_casebooks.py from the same table, so the book cannot say what the code does not do.

A case gives the players, each phase's submissions as the webhook carries them (the book shows
them as the mail lines the game's grammar writes), optionally a submission tried afterwards, and
what the rules make of it: each expected value worked by hand in the case's `why`, never copied
from the code's output. Cases are numbered by their place: `CRATES 2.3` is section 2's third."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from game_core.errors import GameCoreError
from game_core.games import registry
from game_core.games.capabilities import ActsAtOnce
from game_core.games.protocol import AnyGame, Model, Resolution, Result
from game_core.match import engine, immediate
from game_core.match.model import ActionRecord

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "docs" / "casebook"
REGENERATE = ".venv/bin/python tests/casebook/render_casebooks.py"
ARRIVAL = datetime(2026, 1, 1, tzinfo=UTC)
"""When a case's immediate actions arrive (no case depends on it)."""
BALANCE = 99
"""Every player's garnets in a case unless it says otherwise: enough for any legal move."""


@dataclass(frozen=True)
class Phase:
    """One phase's sealed submissions (participant -> kind -> the webhook's JSON) and immediate
    actions (actor, kind, JSON; in arrival order), and how long it was open."""

    moves: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    actions: tuple[tuple[str | None, str, Mapping[str, Any]], ...] = ()
    elapsed_seconds: int = 0
    timed_out: bool = True


@dataclass(frozen=True)
class Attempt:
    """A submission tried in the phase open after the case's phases, with `garnets` to spend."""

    player: str
    kind: str
    body: Any
    garnets: int = BALANCE


@dataclass(frozen=True)
class Outcome:
    state: Any
    refused: tuple[str, ...] | None = None
    """The attempt's reason codes (empty: accepted); None when the case tries nothing."""
    cost: int | None = None
    """The garnets the attempt would spend when its phase resolves (None: refused or none)."""
    moved: Mapping[str, int] = field(default_factory=dict)
    """Garnets the immediate actions moved, by participant (negative: paid)."""
    values: Mapping[str, Any] = field(default_factory=dict)
    """What a rule function returned, for a case that calls one rather than playing phases."""

    def result(self, game: AnyGame) -> Result:
        assert game.open_phase(self.state) is None, "the match is not over: no result yet"
        return game.result(self.state)


@dataclass(frozen=True)
class Play:
    """The case played through the game's protocol: `setup`, then each phase resolved with its
    submissions (every one must be legal), then the attempt checked as the match layer checks it."""

    players: tuple[str, ...]
    phases: tuple[Phase, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)
    attempt: Attempt | None = None
    seed: int = 0
    settings_said: str = ""
    """The settings in words, where their JSON would not read well (the host's 7 deals)."""

    def run(self, game: AnyGame) -> Outcome:
        state, _lines, moved = self._played(game)
        if self.attempt is None:
            return Outcome(state, moved=moved)
        return tried(game, state, self.attempt)

    def lines(self, game: AnyGame) -> list[str]:
        return self._played(game)[1]

    def _played(self, game: AnyGame) -> tuple[Any, list[str], dict[str, int]]:
        state = game.setup(game.Settings.model_validate(dict(self.settings)), self.players, engine.setup_rng(self.seed))
        lines = [f"Players: {', '.join(self.players)}."]
        moved: dict[str, int] = {}
        if self.settings_said or self.settings:
            lines.append(f"Settings: {self.settings_said or shown(self.settings)}.")
        for number, phase in enumerate(self.phases, start=1):
            opening = game.open_phase(state)
            assert opening is not None, f"phase {number} of the case: the match is already over"
            lines.append(f"{opening.name}:" + ("" if phase.moves or phase.actions else " nobody sends anything"))
            for actor, kind, body in phase.actions:
                lines.append(_action_line(game, actor, kind, body))
                acted = immediate.apply_action(
                    game, state, ActionRecord(actor=actor, kind=kind, action=dict(body), at=ARRIVAL)
                )
                state = acted.state
                for who, change in acted.garnets.items():
                    moved[who] = moved.get(who, 0) + change
            parsed: dict[str, dict[str, Model]] = {}
            for player, kinds in phase.moves.items():
                for kind, body in kinds.items():
                    assert player in opening.actors and kind in opening.accepts, f"{opening.name}: {player}, {kind}"
                    submission = engine.parse_submission(game, kind, body)
                    reasons = engine.refusals(game, state, player, kind, submission, BALANCE)
                    assert not reasons, f"{opening.name}: {player}'s {kind} is refused: {reasons}"
                    parsed.setdefault(player, {})[kind] = submission
                    lines.extend(_mail(game, player, kind, submission))
            if not phase.timed_out:
                lines.append(f"    (closed after {phase.elapsed_seconds} s, before its deadline)")
            elif phase.elapsed_seconds:
                lines.append(f"    (open {phase.elapsed_seconds} s)")
            resolution = Resolution(
                submissions=parsed,
                rng=engine.phase_rng(self.seed, number),
                elapsed_seconds=phase.elapsed_seconds,
                timed_out=phase.timed_out,
            )
            state = game.resolve(state, resolution)
        if self.attempt is not None:
            opening = game.open_phase(state)
            assert opening is not None, "the attempt comes after the match is over"
            tries = self.attempt
            balance = "" if tries.garnets == BALANCE else f" (holding {tries.garnets} garnets)"
            lines.append(f"Then, in {opening.name}, {tries.player} tries{balance}:")
            lines.extend(_attempt_lines(game, tries))
        return state, lines, moved


@dataclass(frozen=True)
class Call:
    """A case decided by one rule function on a position too small to be worth playing to (a
    string's score, a hand's rank): `describe` says the position in words."""

    function: Callable[..., Mapping[str, Any]]
    arguments: Mapping[str, Any]
    describe: tuple[str, ...]

    def run(self, game: AnyGame) -> Outcome:
        return Outcome(None, values=self.function(**self.arguments))

    def lines(self, game: AnyGame) -> list[str]:
        return list(self.describe)


def created(
    game_id: str, players: tuple[str, ...], settings: Mapping[str, Any], guests: Mapping[str, list[str]]
) -> Mapping[str, Any]:
    """A match's creation judged as the match layer judges it: {"refused": the reason codes}."""
    game = registry.load(game_id)
    participants = tuple(who for player in players for who in (player, *guests.get(player, [])))
    try:
        game.setup(engine.seat(game, list(players), dict(settings), dict(guests)), participants, engine.setup_rng(0))
    except GameCoreError as error:
        return {"refused": [reason.code for reason in error.reasons]}
    return {"refused": []}


def creation(game_id: str, players: str, guests: Mapping[str, list[str]] | None = None, **settings: Any) -> Call:
    """A case that creates a match of `players` (space-separated; each with their `guests`) with
    `settings`."""
    shown_settings = ", ".join(f"{key} {_nested(value)}" for key, value in settings.items())
    describe = (
        f"The host creates a match of {players.replace(' ', ', ')}" + (f" with {shown_settings}." if settings else "."),
    )
    arguments = {"game_id": game_id, "players": tuple(players.split()), "settings": settings, "guests": guests or {}}
    return Call(created, arguments, describe)


def tried(game: AnyGame, state: Any, attempt: Attempt) -> Outcome:
    """The attempt judged as the match layer judges it: a sender who is not an actor of the open
    phase, a kind it does not accept, a malformed body, or the game's reasons and the balance's,
    each by its code."""
    opening = game.open_phase(state)
    if opening is None or attempt.player not in opening.actors:
        return Outcome(state, refused=("not_an_actor",))
    if attempt.kind in opening.actions:
        return _acted(game, state, attempt)
    if attempt.kind not in opening.accepts:
        return Outcome(state, refused=("kind_not_accepted",))
    try:
        submission = engine.parse_submission(game, attempt.kind, attempt.body)
    except GameCoreError as error:
        return Outcome(state, refused=tuple(reason.code for reason in error.reasons))
    reasons = engine.refusals(game, state, attempt.player, attempt.kind, submission, attempt.garnets)
    cost = None if reasons else game.garnet_cost(attempt.kind, submission)
    return Outcome(state, refused=tuple(reason.code for reason in reasons), cost=cost)


def _acted(game: AnyGame, state: Any, attempt: Attempt) -> Outcome:
    """An immediate action tried: the game's refusal, or the sender short of what it takes."""
    record = ActionRecord(actor=attempt.player, kind=attempt.kind, action=dict(attempt.body), at=ARRIVAL)
    try:
        acted = immediate.apply_action(game, state, record)
    except GameCoreError as error:
        return Outcome(state, refused=tuple(reason.code for reason in error.reasons))
    paid = -acted.garnets.get(attempt.player, 0)
    if paid > attempt.garnets:
        return Outcome(state, refused=("garnets_short",))
    return Outcome(acted.state, refused=(), moved=dict(acted.garnets))


def _action_line(game: AnyGame, actor: str | None, kind: str, body: Mapping[str, Any]) -> str:
    """An immediate action as its mail line; the host's (no mail grammar) as what it gives."""
    if actor is None:
        return f"    the host enters {kind}: " + ", ".join(f"{key} {shown(value)}" for key, value in body.items())
    action = immediate.acting(game).actions[kind].model_validate(dict(body))
    return f"    {actor} at once: {game.text.write_text(kind, action)[0]}"


def _mail(game: AnyGame, player: str, kind: str, submission: Model) -> list[str]:
    lines = game.text.write_text(kind, submission)
    return [f"    {player}: {lines[0] if lines else '(nothing)'}"] + [
        f"    {' ' * len(player)}  {line}" for line in lines[1:]
    ]


def _attempt_lines(game: AnyGame, attempt: Attempt) -> list[str]:
    if isinstance(game, ActsAtOnce) and attempt.kind in game.actions:
        return [_action_line(game, attempt.player, attempt.kind, attempt.body)]
    try:
        return _mail(game, attempt.player, attempt.kind, engine.parse_submission(game, attempt.kind, attempt.body))
    except GameCoreError:
        return [f"    {attempt.player}: {attempt.kind} {attempt.body} (as JSON: no mail line says it)"]


Given = Play | Call


@dataclass(frozen=True)
class Case:
    title: str
    situation: str
    given: Given
    expect: Mapping[str, Any]
    """Observation name (the book's `observe`, or a key a `Call` returns) -> the value the rules give."""
    rule: str
    """The seed line (quoted) or the RULINGS entry that decides the case."""
    why: str
    """The working, by hand, from the rule to each expected value."""


@dataclass(frozen=True)
class Section:
    title: str
    cases: tuple[Case, ...]


Observer = Callable[[AnyGame, Outcome], Any]


def standings_of(game: AnyGame, outcome: Outcome) -> list[str]:
    """The final standings as "place player score" lines, best first."""
    return [f"{s.place} {s.player} {s.score}" for s in outcome.result(game).standings]


def garnets_of(game: AnyGame, outcome: Outcome) -> dict[str, int]:
    return outcome.result(game).garnets


@dataclass(frozen=True)
class Book:
    game_id: str
    prefix: str
    seed_file: str
    sections: tuple[Section, ...]
    observe: Mapping[str, tuple[str, Observer]]
    """Observation name -> (its label in the book, how it is read from a played case)."""

    @property
    def game(self) -> AnyGame:
        return registry.load(self.game_id)

    def numbered(self) -> list[tuple[str, Case]]:
        return [
            (f"{self.prefix} {s}.{c}", case)
            for s, section in enumerate(self.sections, start=1)
            for c, case in enumerate(section.cases, start=1)
        ]

    def observed(self, case: Case) -> dict[str, Any]:
        outcome = case.given.run(self.game)
        seen = {}
        for key in case.expect:
            if key in outcome.values:
                seen[key] = outcome.values[key]
            elif key == "refused":
                seen[key] = list(outcome.refused or ())
            elif key == "cost":
                seen[key] = outcome.cost
            else:
                seen[key] = self.observe[key][1](self.game, outcome)
        return seen

    def result_line(self, key: str, value: Any) -> str:
        if key == "refused":
            return f"- refused with {', '.join(f'`{code}`' for code in value)}" if value else "- accepted"
        if key == "cost":
            return f"- garnets it spends: {value}"
        label = self.observe[key][0] if key in self.observe else key.replace("_", " ")
        return f"- {label}: {shown(value)}"


def shown(value: Any) -> str:
    """A value as the book prints it: a mapping as `key value` pairs, a list comma-separated, an
    empty string as a dash."""
    if isinstance(value, Mapping):
        return ", ".join(f"{key} {_nested(item)}" for key, item in value.items()) or "none"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(shown(item) for item in value) + "]"
    if value is None:
        return "none"
    return str(value) or "-"


def _nested(value: Any) -> str:
    return f"({shown(value)})" if isinstance(value, Mapping) else shown(value)


def render(book: Book) -> str:
    game = book.game
    out = [
        f"# {game.title}: the case book",
        "",
        f"Every case below is a row of `tests/casebook/casebook_{book.game_id}.py`: "
        "`tests/casebook/test_casebooks.py` plays each one through the game's rules and checks the "
        "result shown, and fails when this file is not what the table renders "
        f"(`{REGENERATE}` writes it again). Rules: `../shared/seeds/{book.seed_file}`; "
        "binding rulings: `../shared/RULINGS.md`. Submissions are shown as mail lines; "
        "a case cites the seed text (quoted) or the ruling that decides it.",
    ]
    out += [
        "",
        "Sections: " + "; ".join(f"{s}. {section.title}" for s, section in enumerate(book.sections, start=1)) + ".",
    ]
    numbered = iter(book.numbered())
    for s, section in enumerate(book.sections, start=1):
        out += ["", f"## {s}. {section.title}"]
        for _ in section.cases:
            number, case = next(numbered)
            out += ["", f"### {number}: {case.title}", "", case.situation, "", "```"]
            out += case.given.lines(game)
            out += ["```", "", "Result:", ""]
            out += [book.result_line(key, value) for key, value in case.expect.items()]
            out += ["", f"Decided by: {case.rule}", "", f"Why: {case.why}"]
    return "\n".join(out) + "\n"


INDEX = "README.md"


def render_index(books: tuple[Book, ...]) -> str:
    """The folder's index: each game's book, its case count and sections."""
    out = [
        "# Case books",
        "",
        "One book a game, each case numbered by section (`CRATES 7.5`: section 7, case 5), written from "
        f"the tables in `tests/casebook/` and checked by `tests/casebook/test_casebooks.py` (`{REGENERATE}` "
        "writes them again).",
        "",
        "| game | book | cases | sections |",
        "| --- | --- | --- | --- |",
    ]
    for book in books:
        sections = "; ".join(section.title for section in book.sections)
        out.append(
            f"| {book.game.title} | [{book.game_id}.md]({book.game_id}.md) | {len(book.numbered())} | {sections} |"
        )
    return "\n".join(out) + "\n"
