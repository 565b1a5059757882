"""Plain text for every game (play by e-mail): the line reader each game's grammar is built on
(`text_layout` has the pieces its views are rendered with).

A game's grammar (`<game>/text.py`) is a `LineGrammar`: a keyword per line form (`PUSH`, `CARD`,
`LAY`), each belonging to one submission kind, plus optional header lines (`ROUND 3`) that name a
phase and let a kind be sent empty. A game that takes immediate actions may read them too: each
line of an action form (`PUZZLE 2`) is one action of its own. Keywords are case-insensitive; words
are separated by spaces or commas; a trailing full stop, colon and the like on the line, and a
colon after the keyword, are ignored; numbers are written as digits.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import ValidationError

from game_core.errors import Reason
from game_core.games.protocol import Model, TextMove, TextReading
from game_core.games.text_layout import table

T = TypeVar("T")

_SEPARATORS = re.compile(r"[\s,]+")
_TRAILING = ".;:!?"
_INTEGER = re.compile(r"^[+-]?[0-9]+$")
MAX_REPEAT = 99
"""The most a line may repeat itself (`PUSH ada RIGHT 3`): far beyond any garnet balance, and
small enough that no line can make a huge submission."""


def words_of(line: str) -> list[str]:
    """A line's words: split at spaces and commas, the line's trailing punctuation and a colon
    after the first word dropped, a typographic minus read as "-"."""
    words = [word for word in _SEPARATORS.split(line.replace("\u2212", "-").strip()) if word]
    if words:
        words[-1] = words[-1].rstrip(_TRAILING)
        words[0] = words[0].rstrip(":")
    return [word for word in words if word]


class Unreadable(Exception):
    """A line that does not say what its form expects: a reason code and what is wrong."""

    def __init__(self, code: str, problem: str) -> None:
        super().__init__(problem)
        self.code = code
        self.problem = problem


class Roster(dict[str, str]):
    """The words that name a participant of the match, upper-cased, each to their id: their id,
    and their name where no one else's id or name is the same (a name of several words is one
    key, "ADA LOVELACE"); `choices` lists them for a refusal. Empty when the players are unknown."""

    def __init__(self, players: Sequence[str] | Mapping[str, str] = ()) -> None:
        names = players if isinstance(players, Mapping) else {player: player for player in players}
        super().__init__({player.upper(): player for player in names})
        said = Counter(name.upper() for name in names.values())
        for player, name in names.items():
            if said[name.upper()] == 1:
                self.setdefault(name.upper(), player)
        self.choices = ", ".join(player if name == player else f"{name} ({player})" for player, name in names.items())
        self.longest = max((len(key.split()) for key in self), default=1)


class Words:
    """The words of one line after its keyword, taken in order by a form's reader; every `take`
    raises `Unreadable` naming what was expected."""

    def __init__(self, words: Sequence[str], players: Roster | None = None) -> None:
        self._words = list(words)
        self._players = players if players is not None else Roster()

    def more(self) -> bool:
        return bool(self._words)

    def count(self) -> int:
        return len(self._words)

    def peek(self) -> str:
        return self._words[0].upper() if self._words else ""

    def skip(self, *fillers: str) -> None:
        """Drops the next word when it is one of `fillers` (words a player may or may not write)."""
        if self.peek() in fillers:
            self._words.pop(0)

    def word(self, what: str) -> str:
        if not self._words:
            raise Unreadable(f"missing_{what}", f"the {what} is missing")
        return self._words.pop(0)

    def number(self, what: str) -> int:
        word = self.word(what)
        if not _INTEGER.match(word):
            raise Unreadable("not_a_number", f'"{word}" is not a number ({what}: write digits)')
        return int(word)

    def player(self, what: str) -> str:
        """A participant's id, named by their id or their name (several words read whole) in any
        case. When the match's players are known, any other word is refused naming the choices
        (so a short form reads a line only when it names a player); otherwise kept as written."""
        for size in range(min(self._players.longest, len(self._words)), 1, -1):
            if " ".join(self._words[:size]).upper() in self._players:
                named, self._words = " ".join(self._words[:size]), self._words[size:]
                return self._players[named.upper()]
        word = self.word(what)
        if self._players and word.upper() not in self._players:
            raise Unreadable("unknown_player", f'"{word}" is not a player of the match ({self._players.choices})')
        return self._players.get(word.upper(), word)

    def choice(self, what: str, options: Mapping[str, T]) -> T:
        word = self.word(what)
        if word.upper() not in options:
            listed = " or ".join(dict.fromkeys(str(value).upper() for value in options.values()))
            raise Unreadable(f"unknown_{what}", f'"{word}" is not a {what} ({listed})')
        return options[word.upper()]

    def shaped(self, what: str, pattern: re.Pattern[str], shape: str) -> str:
        """The next word, upper-cased, when it matches `pattern` (`shape` says what it looks like)."""
        word = self.word(what)
        if not pattern.match(word.upper()):
            raise Unreadable(f"bad_{what}", f'"{word}" is not {shape}')
        return word.upper()

    def times(self) -> int:
        """An optional repeat count at the end of a line (1 when left out)."""
        if not self.more():
            return 1
        times = self.number("count")
        if not 1 <= times <= MAX_REPEAT:
            raise Unreadable("bad_count", f"a line repeats 1 to {MAX_REPEAT} times, not {times}")
        return times

    def end(self) -> None:
        if self._words:
            raise Unreadable("extra_words", f'"{" ".join(self._words)}" is more than the line says')


Reader = Callable[[Words], dict[str, Any]]
"""Reads a line's words (after its keyword) as submission fields; raises `Unreadable`."""


@dataclass(frozen=True)
class LineForm:
    """One form of line: its keywords (the first is the one written), the kind it belongs to, how
    its words are read, and its usage for help and reasons.

    A `many` form may be written on any number of lines, each adding to list fields (its reader
    returns lists to extend: one PUSH line per push); any other form is said once a message.
    A `short` form may leave out its keyword when its kind is the only one with a short form
    that the open phase accepts (abstrac's "2B 3B" for a lay). An `action` form is an immediate
    action (`ActsAtOnce`): each of its lines is read as a `TextMove` of its own, marked `action`."""

    keywords: tuple[str, ...]
    kind: str
    read: Reader
    usage: str
    note: str = ""
    many: bool = False
    short: bool = False
    action: bool = False


@dataclass(frozen=True)
class Header:
    """A line that names its kind and, with a number, the phase (`ROUND 3`): lets a kind be sent
    with no other line (an empty submission: its model's defaults)."""

    keyword: str
    kind: str
    phase: Callable[[int, Sequence[str]], str]
    """The phase's name from the number written and what the open phase accepts."""
    usage: str
    note: str = ""


@dataclass
class _Draft:
    """A kind's fields as read so far, the line it was first said on, and where each once-only
    line was said."""

    first: int
    raw: dict[str, Any] = field(default_factory=dict)
    phase: str | None = None
    said: dict[str, int] = field(default_factory=dict)


def normalised(model: type[Model], raw: dict[str, Any]) -> dict[str, Any]:
    """The submission's JSON as its model dumps it when the model accepts it (what a JSON client
    would send); otherwise as read, for the match layer to refuse with pydantic's reasons."""
    try:
        return model.model_validate(raw).model_dump(mode="json")
    except ValidationError:
        return raw


def _quoted(line: str, limit: int = 40) -> str:
    """The line as a reason quotes it: short enough to leave room for what was expected."""
    line = line.strip()
    return f'"{line}"' if len(line) <= limit else f'"{line[: limit - 3]}..."'


def _either(options: Sequence[str]) -> str:
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]


def _read_form(form: LineForm, words: Words) -> dict[str, Any]:
    try:
        fields = form.read(words)
        words.end()
    except Unreadable as problem:
        raise Unreadable(problem.code, f"{problem.problem}; write {form.usage}") from None
    return fields


def _merge(form: LineForm, fields: dict[str, Any], number: int, drafts: dict[str, _Draft]) -> None:
    draft = drafts.setdefault(form.kind, _Draft(first=number))
    keyword = form.keywords[0]
    if form.many:
        for key, values in fields.items():
            draft.raw.setdefault(key, []).extend(values)
        return
    if keyword in draft.said:
        raise Unreadable("line_repeated", f"{keyword} was already said on line {draft.said[keyword]}; say it once")
    draft.said[keyword] = number
    draft.raw.update(fields)


class LineGrammar(ABC):
    """A game's `TextGrammar` built from its line forms and headers. A subclass gives `models`,
    `forms`, `headers` and an `examples` submission per kind (the kinds of its actions too, when
    it reads actions), and writes and renders its own."""

    models: Mapping[str, type[Model]]
    forms: tuple[LineForm, ...]
    headers: tuple[Header, ...] = ()
    examples: Mapping[str, Model]

    def read_text(
        self, lines: Sequence[str], accepts: Sequence[str], players: Sequence[str] | Mapping[str, str] = ()
    ) -> TextReading:
        """Each kind's submission and each action, in the order of the line first saying it."""
        ids = Roster(players)
        drafts: dict[str, _Draft] = {}
        actions: list[tuple[int, TextMove]] = []
        reasons = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                action = self._read_line(number, words_of(line), accepts, ids, drafts)
            except Unreadable as problem:
                reasons.append(Reason(problem.code, f"line {number} {_quoted(line)}: {problem.problem}"))
                continue
            if action is not None:
                actions.append((number, action))
        submissions = [
            (draft.first, TextMove(kind, normalised(self.models[kind], draft.raw), draft.phase))
            for kind, draft in drafts.items()
        ]
        moves = [move for _, move in sorted(submissions + actions, key=lambda said: said[0])]
        return TextReading(moves=moves, reasons=reasons)

    def _read_line(
        self, number: int, words: list[str], accepts: Sequence[str], ids: Roster, drafts: dict[str, _Draft]
    ) -> TextMove | None:
        """Reads one line into `drafts`; an action's line is a move of its own, returned."""
        keyword = words[0].upper() if words else ""
        header = next((h for h in self.headers if h.keyword == keyword), None)
        form = next((f for f in self.forms if keyword in f.keywords), None)
        short = [f for f in self.forms if f.short and f.kind in accepts]
        if header is not None:
            _head(header, self._header_phase(header, Words(words[1:], ids), accepts), number, drafts)
        elif form is not None and form.action:
            fields = _read_form(form, Words(words[1:], ids))
            return TextMove(form.kind, normalised(self.models[form.kind], fields), action=True)
        elif form is not None:
            _merge(form, _read_form(form, Words(words[1:], ids)), number, drafts)
        elif words and len(short) == 1:
            try:
                fields = _read_form(short[0], Words(words, ids))
            except Unreadable:
                raise self._not_understood(accepts, short[0]) from None
            _merge(short[0], fields, number, drafts)
        else:
            raise self._not_understood(accepts, None)
        return None

    @staticmethod
    def _header_phase(header: Header, words: Words, accepts: Sequence[str]) -> str | None:
        try:
            phase = header.phase(words.number("number"), accepts) if words.more() else None
            words.end()
        except Unreadable as problem:
            raise Unreadable(problem.code, f"{problem.problem}; write {header.usage}") from None
        return phase

    def _not_understood(self, accepts: Sequence[str], short: LineForm | None) -> Unreadable:
        """Names the keywords of what the open phase accepts (of every kind when it accepts none),
        and of every action."""
        kinds = [kind for kind in self.models if kind in accepts] or list(self.models)
        keywords = [h.keyword for h in self.headers if h.kind in kinds]
        keywords += [f.keywords[0] for f in self.forms if f.kind in kinds or f.action]
        expected = f"expected a line starting {_either(keywords)}"
        if short is not None:
            expected += f", or {short.usage.removeprefix(short.keywords[0]).strip()} alone"
        return Unreadable("unknown_line", f"not understood; {expected}")

    def text_help(self, kind: str) -> list[str]:
        rows = [[h.usage, h.note] for h in self.headers if h.kind == kind]
        rows += [[f.usage, f.note] for f in self.forms if f.kind == kind]
        short = [f"{form.keywords[0]} may be left out" for form in self.forms if form.kind == kind and form.short]
        rows += [[note, ""] for note in short]
        example = self.write_text(kind, self.examples[kind])
        return [*("  " + line for line in table([], rows)), "Example:", *("  " + line for line in example)]

    def example(self, kind: str, phase: str) -> Model:
        """The example of `kind` shown while `phase` is open: `examples[kind]`, unless the game fits
        its values to the phase (a tile of the auction open now, a token already earned)."""
        return self.examples[kind]

    @abstractmethod
    def write_text(self, kind: str, submission: Model) -> list[str]: ...

    @abstractmethod
    def render_view(self, view: Mapping[str, Any], names: Mapping[str, str]) -> str: ...


def _head(header: Header, phase: str | None, number: int, drafts: dict[str, _Draft]) -> None:
    draft = drafts.setdefault(header.kind, _Draft(first=number))
    if header.keyword in draft.said:
        said = draft.said[header.keyword]
        raise Unreadable("line_repeated", f"{header.keyword} was already said on line {said}; say it once")
    draft.said[header.keyword] = number
    draft.phase = phase
